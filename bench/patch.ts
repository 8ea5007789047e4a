/**
 * PATCH /v2/labelReports/{id} at the size of a large site: the real `labeldesk serve` on a copy
 * of a database made by `labeldesk import` (bench/site-database.ts), sequential requests on one
 * kept-alive loopback connection, p50 and p95 (and the server's CPU time a request, which a busy
 * machine does not inflate as much as the wall clock) for five kinds of change, each on reports of
 * its own spread over the whole site:
 *
 *   labelReference            a text column
 *   status                    a column the list filters on
 *   limits.maxTemperature     recalculates the figures from the report's datapoints
 *   hasFlag                   the company's own state of the report
 *   custom field batch        a custom field value
 *
 * Then the same changes in process (`service.reports.update` on another copy, no HTTP), and the
 * SQLite statements one PATCH runs (authenticate, authorize, update and the answer's read), counted
 * by better-sqlite3's `verbose` callback on a connection of its own.
 *
 *   npm run bench patch
 *   BENCH_PATCH_REPORTS=100000 BENCH_PATCH_SAMPLES=300 BENCH_PATCH_WARMUP=100   # site size, timed requests a row, untimed of each kind first
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { LabelReportPatch } from '../schema/report';
import type { Caller } from '../service/api-keys';
import { openService, type Service } from '../host/open-service';
import { report } from './baseline';
import { fmt, rssMiB, SITE, siteDatabase, siteReport, siteReportId } from './site-database';
import { SiteClient } from './site-client';
import { median, percentile } from './stats';

const REPORTS = Number(process.env.BENCH_PATCH_REPORTS ?? 100_000);
const SAMPLES = Number(process.env.BENCH_PATCH_SAMPLES ?? 300);
const WARMUP = Number(process.env.BENCH_PATCH_WARMUP ?? 100);

const CALLER: Caller = { keyId: 'bench-patch', companyId: SITE.company, permissions: new Set(['labelReports:read', 'labelReports:update']) };

interface Kind {
  name: string;
  /** The change for report i of the site: always a real change of what the report holds. */
  patch(i: number): LabelReportPatch;
}

const KINDS: Kind[] = [
  { name: 'labelReference', patch: (i) => ({ labelReference: `PO-PATCHED-${i}` }) },
  { name: 'status', patch: (i) => ({ status: siteReport(i, REPORTS).status === 'active' ? 'completed' : 'active' }) },
  { name: 'limits.maxTemperature (recalculates)', patch: (i) => ({ limits: { maxTemperature: siteReport(i, REPORTS).senseConfig.limits.maxTemperature + 1 } }) },
  {
    name: 'hasFlag toggled',
    patch: (i) => ({ hasFlag: !(siteReport(i, REPORTS).companyState?.find((s) => s.companyId === SITE.company)?.hasFlag ?? false) }),
  },
  { name: 'custom field batch', patch: (i) => ({ customFields: [{ customFieldId: 'batch', value: `B-PATCHED-${i}` }] }) },
];

const log = (line: string) => console.log(`patch: ${line}`);

export async function run(): Promise<void> {
  const db = await siteDatabase(REPORTS, log);
  const reports = chooseReports(REPORTS, KINDS.length, WARMUP + SAMPLES);
  const dir = mkdtempSync(join(tmpdir(), 'labeldesk-bench-patch-'));
  try {
    // The cached site stays as imported: every figure here is taken on a copy of it.
    const served = join(dir, 'served.sqlite');
    copyFileSync(db.file, served);
    await overHttp(served, reports);
    const inProcess = join(dir, 'in-process.sqlite');
    copyFileSync(db.file, inProcess);
    await inProcessUpdates(inProcess, reports);
    const counted = join(dir, 'counted.sqlite');
    copyFileSync(db.file, counted);
    countStatements(counted, reports);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * For each kind, `count` reports of the owning company spread evenly over the site, none of them
 * shared with another kind, and none of the 10 000-datapoint ones (they are timed by retrieve in
 * the service bench; here they would make one row's p95 a different request).
 */
function chooseReports(size: number, kinds: number, count: number): number[][] {
  const total = kinds * count;
  if (total * 4 > size) throw new Error(`${fmt(size)} reports are too few for ${kinds} kinds × ${count} requests; raise BENCH_PATCH_REPORTS or lower BENCH_PATCH_SAMPLES`);
  const rows: number[][] = Array.from({ length: kinds }, () => []);
  for (let j = 0; j < total; j++) {
    let i = Math.floor(((j + 0.5) * size) / total);
    // The site's reports i % 4 === 3 belong to the other company, shared with this one as viewer.
    while (i % 4 === 3 || i % SITE.bigEvery === 0) i++;
    rows[j % kinds].push(i);
  }
  return rows;
}

/**
 * The first WARMUP reports of every kind, untimed, taken in turn before any row is timed: a row
 * timed while the process still compiles its code and SQLite fills its page cache would be
 * slower for being first, and the rows would not compare.
 */
async function warmUp(change: (kind: Kind, i: number) => unknown, reports: number[][]): Promise<void> {
  for (let n = 0; n < WARMUP; n++) for (const [k, kind] of KINDS.entries()) await change(kind, reports[k][n]);
}

async function overHttp(file: string, reports: number[][]): Promise<void> {
  const server = await serve(file);
  const client = new SiteClient();
  try {
    log(`${fmt(REPORTS)} reports; PATCH over loopback HTTP to labeldesk serve, one kept-alive connection, sequential; ${WARMUP} of each kind untimed first, then ${SAMPLES} timed a row, each on a report of its own; times in ms`);
    log(`load average before: ${loadAverage()}`);
    const send = async (kind: Kind, i: number, body: string) => {
      const res = await client.request(`${server.url}/v2/labelReports/${siteReportId(i)}`, 'PATCH', body);
      if (res.status !== 200) throw new Error(`PATCH ${kind.name} of report ${i}: ${res.status} ${res.body.toString().slice(0, 300)}`);
      return res.body.length;
    };
    await warmUp((kind, i) => send(kind, i, JSON.stringify(kind.patch(i))), reports);
    for (const [k, kind] of KINDS.entries()) {
      const samples: number[] = [];
      let bytes = 0;
      const cpuFrom = cpuMsOf(server.child.pid!);
      for (const i of reports[k].slice(WARMUP)) {
        const body = JSON.stringify(kind.patch(i));
        const t0 = performance.now();
        bytes += await send(kind, i, body);
        samples.push(performance.now() - t0);
      }
      const cpu = (cpuMsOf(server.child.pid!) - cpuFrom) / samples.length;
      const row = `patch: ${fmt(REPORTS)} reports, PATCH ${kind.name} over HTTP`;
      const detail = `answer ${(bytes / samples.length / 1024).toFixed(1)} KiB (mean), n ${samples.length}`;
      report({ name: `${row}, p50`, value: median(samples), unit: 'ms', better: 'lower', detail });
      report({ name: `${row}, p95`, value: percentile(samples, 95), unit: 'ms', better: 'lower' }, '  ');
      report({ name: `${row}, max`, value: Math.max(...samples), unit: 'ms', better: 'lower' }, '  ');
      report({ name: `${row}, server CPU a request (mean)`, value: cpu, unit: 'ms', better: 'lower' }, '  ');
    }
    log(`load average after: ${loadAverage()} (the machine's other work shares its cores)`);
    report({ name: `patch: ${fmt(REPORTS)} reports, serving process RSS after the PATCHes`, value: rssMiB(server.child.pid!), unit: 'MiB', better: 'lower' });
  } finally {
    client.close();
    server.child.kill('SIGTERM');
    await once(server.child, 'exit');
  }
}

/** The same changes through `service.reports.update`, in this process: what HTTP adds is the difference. */
async function inProcessUpdates(file: string, reports: number[][]): Promise<void> {
  const service = openService(file);
  try {
    log(`in process (service.reports.update on a copy, no HTTP), same reports and changes; load average before: ${loadAverage()}`);
    await warmUp((kind, i) => void service.reports.update(CALLER, siteReportId(i), kind.patch(i)), reports);
    for (const [k, kind] of KINDS.entries()) {
      const samples: number[] = [];
      let cpu = 0;
      for (const i of reports[k].slice(WARMUP)) {
        const patch = kind.patch(i);
        const cpu0 = process.cpuUsage();
        const t0 = performance.now();
        service.reports.update(CALLER, siteReportId(i), patch);
        samples.push(performance.now() - t0);
        const used = process.cpuUsage(cpu0);
        cpu += (used.user + used.system) / 1000;
      }
      const row = `patch: ${fmt(REPORTS)} reports, ${kind.name} in process`;
      report({ name: `${row}, median`, value: median(samples), unit: 'ms', better: 'lower' }, '  ');
      report({ name: `${row}, p95`, value: percentile(samples, 95), unit: 'ms', better: 'lower' }, '  ');
      report({ name: `${row}, mean CPU`, value: cpu / samples.length, unit: 'ms', better: 'lower' }, '  ');
    }
    log(`  load average after: ${loadAverage()}`);
  } finally {
    service.close();
  }
}

/**
 * The statements of one PATCH as the route runs it: authenticate the key, authorize, update
 * (which reads the answer back). The service's connection is private to db/ and takes no
 * `verbose` option, so a connection of its own is opened with the callback put in at the one place
 * every connection is made, better-sqlite3's native constructor, and only while it opens.
 */
function countStatements(file: string, reports: number[][]): void {
  const statements: string[] = [];
  const service = withVerbose((sql) => statements.push(sql), () => openService(file));
  try {
    log('SQLite statements one PATCH runs (better-sqlite3 verbose; BENCH_PATCH_SQL=1 lists them):');
    for (const [k, kind] of KINDS.entries()) {
      // One change of the kind first, uncounted: what a first use reads once and keeps is not a PATCH's.
      const [first, i] = reports[k];
      patchAsTheRouteDoes(service, siteReportId(first), kind.patch(first));
      statements.length = 0;
      patchAsTheRouteDoes(service, siteReportId(i), kind.patch(i));
      if (statements.length === 0) throw new Error('the verbose callback heard no statement: better-sqlite3 no longer makes its connections as withVerbose expects');
      const verbs = new Map<string, number>();
      for (const sql of statements) {
        const verb = /^\s*(\w+)/.exec(sql)?.[1]?.toUpperCase() ?? '?';
        verbs.set(verb, (verbs.get(verb) ?? 0) + 1);
      }
      report(
        { name: `patch: SQLite statements one PATCH ${kind.name} runs`, value: statements.length, unit: 'statements', better: 'lower', detail: [...verbs].map(([v, n]) => `${v} ${n}`).join(', ') },
        '  ',
      );
      if (process.env.BENCH_PATCH_SQL === '1') for (const sql of statements) console.log(`    ${sql.replace(/\s+/g, ' ').slice(0, 200)}`);
    }
  } finally {
    service.close();
  }
}

function patchAsTheRouteDoes(service: Service, id: string, patch: LabelReportPatch): void {
  const caller = service.apiKeys.authenticate(SITE.key);
  service.reports.authorize(caller, 'update', id);
  service.reports.updateDocument(caller, id, patch);
}

type NativeDatabase = new (...args: unknown[]) => object;

/**
 * Runs `open` with every SQLite connection it makes given `verbose`. better-sqlite3 hands its
 * native constructor the callback as its seventh argument; the addon is the module its own
 * loader required, so this one is the same object.
 */
function withVerbose<T>(verbose: (sql: string) => void, open: () => T): T {
  const root = dirname(createRequire(import.meta.url).resolve('better-sqlite3/package.json'));
  const addon = createRequire(join(root, 'lib', 'database.js'))('bindings')({ bindings: 'better_sqlite3.node', module_root: root }) as { Database: NativeDatabase };
  const Native = addon.Database;
  addon.Database = function (...args: unknown[]) {
    args[6] = verbose;
    return new Native(...args);
  } as unknown as NativeDatabase;
  try {
    return open();
  } finally {
    addon.Database = Native;
  }
}

export function serve(dbFile: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['bin/labeldesk.js', 'serve', '--db', dbFile, '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const url = /http:\/\/[\d.]+:\d+/.exec(out)?.[0];
      if (url) resolve({ child, url });
    });
    child.on('exit', (code) => reject(new Error(`labeldesk serve exited with ${code} before listening: ${out}`)));
  });
}

/**
 * CPU time (user and system) a process has used, in ms, from /proc: on a shared machine the wall
 * clock counts the other work too; this is the server's own. Ticks are 10 ms, so only a row's
 * sum of hundreds of requests is read this way.
 */
function cpuMsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The fields after the command name, which is in parentheses and may hold spaces.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** The 1, 5 and 15 minute load averages, as uptime prints them. */
export function loadAverage(): string {
  return loadavg()
    .map((n) => n.toFixed(1))
    .join(', ');
}
