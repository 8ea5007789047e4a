/**
 * Sync at the size of a large site: the first mirror of a remote's reports on loopback and
 * through a link whose round trip costs 40 ms (bench/latency-proxy.ts), then one incremental
 * cycle that brings 100 reports changed among them (target ≤ 1 s), and the first mirror from
 * the vendor-shaped remote of the tests (in this process, in front of the same remote), which
 * answers lists without the whole reports of LabelDesk's extension, through the same link. Targets: a first mirror
 * ≥ 3 000 reports/s on loopback, ≥ 500 reports/s over the slow link; the local service answering
 * a desk's list requests ≤ 20 ms at the median while a first mirror runs, and the remote its
 * own; the mirroring process ≤ 300 MB.
 *
 * The remote is the real `labeldesk serve` in a process of its own, on a database built the way
 * a site builds one: a generated bundle (50 datapoints a report; three quarters owned by the
 * key's company, one quarter owned by another company and shared with it as viewer) put in
 * with `labeldesk import`, cached in the temp folder. The local side is this process, as
 * `labeldesk serve --remote` runs it: the service listening on a fresh file and its sync worker.
 * While the first mirror runs, a desk asks the service for a list page every 50 ms. RSS is
 * sampled during the mirror and printed at each quarter of it: flat means bounded by a page,
 * not by the mirror.
 *
 *   npm run bench -- sync                       # 10 000 reports
 *   npm run bench -- sync --full                # 100 000 reports
 *   BENCH_SYNC_REPORTS=2000 npm run bench -- sync
 *   BENCH_SYNC_PROFILE=1 npm run bench -- sync  # and where each process spends its time
 *   BENCH_SYNC_PARTS=loopback,slow npm run bench -- sync   # only these parts (loopback, incremental, slow, vendor)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { copyFileSync, createWriteStream, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { Session, type Profiler } from 'node:inspector/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { mulberry32 } from '../demo/random';
import { parseListQuery } from '../query/list-query';
import type { Caller } from '../service/api-keys';
import { startService, type RunningService } from '../host/start-service';
import { createSyncWorker, type SyncWorker } from '../sync';
import { report } from './baseline';
import { printSummary, summarize, summarizeFile } from './cpu-profile';
import { LatencyProxy } from './latency-proxy';
import { VendorRemote } from '../test/support/vendor-remote';
import { percentile } from './stats';

const REPORTS = Number(process.env.BENCH_SYNC_REPORTS ?? (process.argv.includes('--full') ? 100_000 : 10_000));
const CHANGED = Math.min(100, REPORTS);
const DATAPOINTS = 50;
const TARGET_RATE = 3_000;
const TARGET_SLOW_RATE = 500;
const TARGET_INCREMENTAL_S = 1;
const TARGET_LIST_P50_MS = 20;
const TARGET_RSS_MB = 300;
/** Each way: a round trip through the latency proxy costs twice this. */
const ONE_WAY_MS = 20;
/** How often the desk asks for a list page while a first mirror runs. */
const DESK_EVERY_MS = 50;
const KEY = 'ldk_bench_sync_key_for_the_benchmark_only_0';
const REPO = fileURLToPath(new URL('../', import.meta.url));
/** Reads the local mirror as the company does, in process. */
const READER: Caller = { keyId: 'sync-bench', companyId: 'acme', permissions: new Set(['labelReports:read']) };
const PROFILE = process.env.BENCH_SYNC_PROFILE === '1';
/** The parts run (BENCH_SYNC_PARTS=loopback,slow): every one by default; `incremental` follows a loopback mirror. */
const PARTS = new Set((process.env.BENCH_SYNC_PARTS ?? 'loopback,incremental,slow,vendor').split(',').map((p) => p.trim()));
const CACHED_REMOTE = join(tmpdir(), `labeldesk-bench-sync-${REPORTS}-v1.sqlite`);

function benchReport(i: number, rand: () => number) {
  const start = 1_770_000_000 + i * 60;
  const interval = 600;
  const datapoints = new Array(DATAPOINTS);
  let t = 5;
  for (let k = 0; k < DATAPOINTS; k++) {
    t = Math.min(Math.max(t + (rand() - 0.5) * 0.6 + (rand() < 0.01 ? 5 : 0), -1), 14);
    datapoints[k] = { timestamp: start + k * interval, temperature: Math.round(t * 100) / 100 };
  }
  const shared = i % 4 === 3;
  return {
    id: `sync-${String(i).padStart(7, '0')}`,
    created: new Date((start - 600) * 1000).toISOString(),
    companyId: shared ? 'nordic' : 'acme',
    label: {
      uid: `E004${i.toString(16).padStart(10, '0')}`,
      sequenceCode: `TS-${String(i).padStart(7, '0')}`,
      type: 'TempSense T1',
      name: `Pallet ${i}`,
      firmwareVersionInfo: { firmwareVersion: '2.4.1', firmwareApiVersion: '3' },
    },
    mode: 'roadTransport',
    type: 'tempSense',
    status: rand() < 0.3 ? 'active' : 'completed',
    labelReference: `SHP-2026-${String(i).padStart(7, '0')}`,
    senseConfig: { limits: { minTemperature: 2, maxTemperature: 8 }, interval, configTime: start - 600, startDelay: 600, runningTime: DATAPOINTS * interval },
    numberOfTaps: 1 + (i % 3),
    reportedSenseData: { datapoints },
    ...(shared && { access: [{ companyId: 'acme', role: 'viewer' }] }),
    ...(i % 5 === 0 && { customFields: [{ customFieldId: 'po', value: `PO-${10_000 + i}` }] }),
  };
}

/** The remote's database: a bundle written report by report, then `labeldesk import`; kept for the next run. */
async function buildRemote(): Promise<void> {
  if (existsSync(CACHED_REMOTE)) return;
  const started = performance.now();
  const building = CACHED_REMOTE + '.building';
  const bundle = CACHED_REMOTE + '.bundle.json';
  rmSync(building, { force: true });
  const out = createWriteStream(bundle, { highWaterMark: 1 << 20 });
  const put = async (text: string) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  await put(
    JSON.stringify({
      version: 1,
      companies: [
        { id: 'acme', name: 'Acme Cold Chain', shortCode: 'ACME' },
        { id: 'nordic', name: 'Nordic Pharma Logistics', shortCode: 'NPL' },
      ],
      apiKeys: [{ key: KEY, companyId: 'acme', permissions: ['labelReports:read', 'labelReports:update'], name: 'sync bench' }],
    }).slice(0, -1) + ',"labelReports":[\n',
  );
  const rand = mulberry32(7);
  for (let i = 0; i < REPORTS; i++) await put((i === 0 ? '' : ',\n') + JSON.stringify(benchReport(i, rand)));
  out.end(']}\n');
  await finished(out);
  const imported = await command(['import', '--db', building, bundle]);
  rmSync(bundle, { force: true });
  if (imported.code !== 0) throw new Error(`labeldesk import refused the bench bundle: ${imported.output}`);
  renameSync(building, CACHED_REMOTE);
  for (const suffix of ['-wal', '-shm']) rmSync(building + suffix, { force: true });
  console.log(`sync: built the remote (${fmt(REPORTS)} reports) with labeldesk import in ${((performance.now() - started) / 1000).toFixed(1)} s → ${CACHED_REMOTE}`);
}

function command(args: string[]): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [join(REPO, 'bin/labeldesk.js'), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, output })));
}

function serve(dbFile: string, profileDir: string | null): Promise<{ child: ChildProcess; url: string }> {
  const nodeArgs = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  const child = spawn(process.execPath, [...nodeArgs, join(REPO, 'bin/labeldesk.js'), 'serve', '--db', dbFile, '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk;
      const url = /http:\/\/[\d.]+:\d+/.exec(out)?.[0];
      if (url) resolve({ child, url });
    });
    child.on('exit', (code) => reject(new Error(`labeldesk serve exited with ${code} before listening: ${out}`)));
  });
}

export async function run(): Promise<void> {
  await buildRemote();
  // Rates over loopback depend on what else the machine runs: say so beside them.
  console.log(`sync: load average ${loadavg()[0].toFixed(1)} on ${availableParallelism()} cores at the start`);
  const dir = mkdtempSync(join(tmpdir(), 'labeldesk-bench-sync-'));
  const remoteFile = join(dir, 'remote.sqlite');
  copyFileSync(CACHED_REMOTE, remoteFile);
  const remoteProfiles = PROFILE ? join(dir, 'remote-profile') : null;
  const remote = await serve(remoteFile, remoteProfiles);
  const profiler = PROFILE ? new Session() : null;
  profiler?.connect();
  await profiler?.post('Profiler.enable');
  const profiled = async <T>(title: string, run: () => Promise<T>): Promise<T> => {
    if (!profiler) return run();
    await profiler.post('Profiler.start');
    try {
      return await run();
    } finally {
      const { profile } = (await profiler.post('Profiler.stop')) as { profile: Profiler.Profile };
      printSummary(title, summarize(profile));
      const file = join(tmpdir(), `labeldesk-bench-sync-${title.includes('first') ? 'first' : 'incremental'}.cpuprofile`);
      writeFileSync(file, JSON.stringify(profile));
      console.log(`  (the whole profile: ${file})`);
    }
  };
  let local: Local | undefined;
  let slow: Local | undefined;
  let latency: LatencyProxy | undefined;
  let vendor: VendorRemote | undefined;
  try {
    global.gc?.();
    const baseline = process.memoryUsage.rss();
    if (PARTS.has('loopback')) {
      local = await startLocal(join(dir, 'local.sqlite'), remote.url);
      const remoteCpu = processCpuSeconds(remote.child.pid);
      const loopback = await firstMirror(local, () => profiled('sync: the mirroring process during the first mirror', () => local!.worker.runCycle()), remote.url);
      const remoteCpuUsed = processCpuSeconds(remote.child.pid) - remoteCpu;
      const { seconds, cpu: firstCpu, mirrored, peak, quarters, desk, remoteDesk } = loopback;
      const rate = mirrored / seconds;
      const first = `sync: first mirror of ${fmt(REPORTS)} reports (${DATAPOINTS} datapoints each) from labeldesk serve on loopback`;
      report({ name: `${first}: rate`, value: rate, unit: 'reports/s', better: 'higher', target: TARGET_RATE, detail: `${fmt(mirrored)} mirrored in ${seconds.toFixed(1)} s` });
      // On a shared machine the wall clock counts other work too; the CPU time is this process's own.
      report({ name: `${first}: CPU of the mirroring process`, value: firstCpu, unit: 's', better: 'lower', detail: `${fmt(Math.round(mirrored / firstCpu))} reports per CPU second` }, '  ');
      if (!Number.isNaN(remoteCpuUsed)) report({ name: `${first}: CPU of the remote`, value: remoteCpuUsed, unit: 's', better: 'lower' }, '  ');
      report(
        { name: `${first}: peak RSS of the mirroring process`, value: peak / 1048576, unit: 'MB', better: 'lower', target: TARGET_RSS_MB, detail: `baseline ${mb(baseline)}; at each quarter of the pull: ${quarters.join(', ') || 'not sampled'}` },
        '  ',
      );
      const list = `sync: the service's list page (GET /v2/labelReports, 20 a page) every ${DESK_EVERY_MS} ms while it mirrors ${fmt(REPORTS)} reports`;
      report({ name: `${list}, p50`, value: percentile(desk, 50), unit: 'ms', better: 'lower', target: TARGET_LIST_P50_MS, detail: `${desk.length} requests` }, '  ');
      report({ name: `${list}, p95`, value: percentile(desk, 95), unit: 'ms', better: 'lower' }, '  ');
      report({ name: `${list}, max`, value: Math.max(...desk), unit: 'ms', better: 'lower' }, '  ');
      const remoteList = `sync: the remote's list page (20 a page) every ${DESK_EVERY_MS} ms while it serves the mirror of ${fmt(REPORTS)} reports`;
      report({ name: `${remoteList}, p50`, value: percentile(remoteDesk, 50), unit: 'ms', better: 'lower', target: TARGET_LIST_P50_MS, detail: `${remoteDesk.length} requests` }, '  ');
      const quiet = await deskWhile(local, async () => new Promise((resolve) => setTimeout(resolve, 2000)));
      report(
        { name: `sync: the same list page with the mirror of ${fmt(REPORTS)} reports complete and sync idle, p50`, value: percentile(quiet, 50), unit: 'ms', better: 'lower', detail: `${quiet.length} requests` },
        '  ',
      );

      if (PARTS.has('incremental')) {
        // 100 reports change on the remote, spread over the whole set, as another desk would change them.
        const headers = { 'x-api-key': KEY, 'content-type': 'application/json' };
        for (let k = 0; k < CHANGED; k++) {
          const i = Math.floor((k * REPORTS) / CHANGED);
          const id = `sync-${String(i).padStart(7, '0')}`;
          const body = i % 4 === 3 ? { hasFlag: true } : { labelReference: `CHANGED-${k}`, limits: { maxTemperature: 9 } };
          const res = await fetch(`${remote.url}/v2/labelReports/${id}`, { method: 'PATCH', headers, body: JSON.stringify(body) });
          if (res.status !== 200) throw new Error(`PATCH ${id} answered ${res.status}: ${await res.text()}`);
        }
        const started = performance.now();
        const cpu = process.cpuUsage();
        const incremental = await profiled('sync: the mirroring process during the incremental cycle', () => local!.worker.runCycle());
        const cycleSeconds = (performance.now() - started) / 1000;
        const cycleCpu = cpuSeconds(cpu);
        if (!incremental.ok) throw new Error(`the incremental cycle did not complete: ${incremental.message}`);
        const arrived = local.running.service.reports.retrieve(READER, 'sync-0000000').labelReference;
        const cycle = `sync: incremental cycle bringing ${CHANGED} changed reports among ${fmt(REPORTS)}`;
        report({
          name: cycle,
          value: cycleSeconds * 1000,
          unit: 'ms',
          better: 'lower',
          target: TARGET_INCREMENTAL_S * 1000,
          ...(arrived !== 'CHANGED-0' && { detail: `but the first change did not arrive (${arrived})` }),
        });
        report({ name: `${cycle}: CPU of the mirroring process`, value: cycleCpu * 1000, unit: 'ms', better: 'lower' }, '  ');
      }
      await local.close();
      local = undefined;

    }

    if (PARTS.has('slow')) {
      // The same first mirror over a slow link: what bounds it is how many retrieves are on their way at once.
      latency = await LatencyProxy.start(remote.url, ONE_WAY_MS);
      slow = await startLocal(join(dir, 'slow.sqlite'), latency.url);
      const far = await firstMirror(slow, () => slow!.worker.runCycle());
      const slowRate = far.mirrored / far.seconds;
      const slowLink = `sync: first mirror of ${fmt(REPORTS)} reports through a ${2 * ONE_WAY_MS} ms round trip (bench/latency-proxy.ts)`;
      report({ name: `${slowLink}: rate`, value: slowRate, unit: 'reports/s', better: 'higher', target: TARGET_SLOW_RATE, detail: `${fmt(far.mirrored)} mirrored in ${far.seconds.toFixed(1)} s` });
      report({ name: `${slowLink}: CPU of the mirroring process`, value: far.cpu, unit: 's', better: 'lower' }, '  ');
      report({ name: `${slowLink}: peak RSS of the mirroring process`, value: far.peak / 1048576, unit: 'MB', better: 'lower', target: TARGET_RSS_MB }, '  ');
      report({ name: `${slowLink}: list page p50`, value: percentile(far.desk, 50), unit: 'ms', better: 'lower', target: TARGET_LIST_P50_MS }, '  ');
      await slow.close();
      slow = undefined;
      await latency.close();
      latency = undefined;
    }

    if (PARTS.has('vendor')) {
      // The vendor-shaped remote of the tests in front of the same remote: it answers the list without
      // the whole reports, so every report is retrieved, each through the slow link.
      vendor = await VendorRemote.start(remote.url);
      latency = await LatencyProxy.start(vendor.url, ONE_WAY_MS);
      slow = await startLocal(join(dir, 'vendor.sqlite'), latency.url);
      const far = await firstMirror(slow, () => slow!.worker.runCycle());
      const vendorLink = `sync: first mirror of ${fmt(REPORTS)} reports from the vendor-shaped remote (test/support/vendor-remote.ts) through a ${2 * ONE_WAY_MS} ms round trip`;
      report({ name: `${vendorLink}: rate`, value: far.mirrored / far.seconds, unit: 'reports/s', better: 'higher', target: TARGET_SLOW_RATE, detail: `${fmt(far.mirrored)} mirrored in ${far.seconds.toFixed(1)} s` });
      report({ name: `${vendorLink}: CPU of the mirroring process`, value: far.cpu, unit: 's', better: 'lower' }, '  ');
      report({ name: `${vendorLink}: list page p50`, value: percentile(far.desk, 50), unit: 'ms', better: 'lower', target: TARGET_LIST_P50_MS }, '  ');
    }
  } finally {
    await local?.close();
    await slow?.close();
    await latency?.close();
    await vendor?.close();
    profiler?.disconnect();
    remote.child.kill('SIGTERM');
    await once(remote.child, 'exit');
    if (remoteProfiles) {
      // The server's own process writes the larger profile; the module loader's thread, a small one.
      const files = readdirSync(remoteProfiles).map((f) => join(remoteProfiles, f));
      const main = files.map((f) => ({ f, s: summarizeFile(f) })).sort((a, b) => b.s.totalMs - a.s.totalMs)[0];
      if (main) {
        printSummary('sync: the remote (labeldesk serve) over the whole run', main.s);
        copyFileSync(main.f, join(tmpdir(), 'labeldesk-bench-sync-remote.cpuprofile'));
      }
    }
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The local side as `labeldesk serve --remote` runs it: the service listening, its sync worker in the same process, a desk's key. */
interface Local {
  running: RunningService;
  worker: SyncWorker;
  deskKey: string;
  agent: http.Agent;
  close(): Promise<void>;
}

async function startLocal(dbFile: string, remoteUrl: string): Promise<Local> {
  const running = await startService({ dbFile, staticDir: join(dbFile, '..', 'no-ui') });
  // The company is there before the first report, as an administrator makes it, so the desk's key can be.
  running.service.companies.upsert({ id: 'acme', name: 'Acme Cold Chain', shortCode: 'ACME' });
  const deskKey = running.service.apiKeys.create('acme', ['labelReports:read'], 'sync bench desk').key;
  const worker = createSyncWorker(running.service, { remoteUrl, remoteKey: KEY, companyId: 'acme', reconcileEverySeconds: 86_400 }, { log: () => {} });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  return {
    running,
    worker,
    deskKey,
    agent,
    close: async () => {
      await worker.stop();
      agent.destroy();
      await running.close();
    },
  };
}

interface MirrorFigures {
  seconds: number;
  cpu: number;
  mirrored: number;
  peak: number;
  quarters: string[];
  /** The desk's list requests during the mirror, in milliseconds each. */
  desk: number[];
  /** The same list requests to the remote, when asked for. */
  remoteDesk: number[];
}

/** The first mirror of `local`, a desk asking its list meanwhile, and another asking the remote's at `remoteUrl` when given. */
async function firstMirror(local: Local, cycle: () => Promise<{ ok: boolean; message?: string }>, remoteUrl?: string): Promise<MirrorFigures> {
  let peak = process.memoryUsage.rss();
  const quarters: string[] = [];
  const sample = setInterval(() => {
    const rss = process.memoryUsage.rss();
    peak = Math.max(peak, rss);
    const progress = local.worker.status().progress;
    if (progress && progress.total > 0 && progress.done >= ((quarters.length + 1) / 4) * progress.total && quarters.length < 4) {
      quarters.push(`${fmt(progress.done)}: ${mb(rss)}`);
    }
  }, 20);
  const started = performance.now();
  const cpu = process.cpuUsage();
  let outcome: { ok: boolean; message?: string } | undefined;
  const remoteAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const services = [{ url: local.running.url, key: local.deskKey, agent: local.agent }, ...(remoteUrl ? [{ url: remoteUrl, key: KEY, agent: remoteAgent }] : [])];
  const [desk, remoteDesk = []] = await listsWhile(services, async () => {
    outcome = await cycle();
  }).finally(() => remoteAgent.destroy());
  const seconds = (performance.now() - started) / 1000;
  const used = cpuSeconds(cpu);
  clearInterval(sample);
  if (!outcome?.ok) throw new Error(`the first mirror did not complete: ${outcome?.message}`);
  const mirrored = local.running.service.reports.list(READER, parseListQuery({ output: 'minimal', pageSize: '1' })).totalDocuments;
  return { seconds, cpu: used, mirrored, peak, quarters, desk, remoteDesk };
}

/** Runs `work`, asking the service for the first list page every DESK_EVERY_MS meanwhile; the time of each answer. */
async function deskWhile(local: Local, work: () => Promise<void>): Promise<number[]> {
  const [times] = await listsWhile([{ url: local.running.url, key: local.deskKey, agent: local.agent }], work);
  return times;
}

/** Runs `work`, asking each service for its first list page every DESK_EVERY_MS meanwhile; the time of each answer, by service. */
async function listsWhile(services: readonly { url: string; key: string; agent: http.Agent }[], work: () => Promise<void>): Promise<number[][]> {
  let done = false;
  const asking = services.map(async ({ url, key, agent }) => {
    const times: number[] = [];
    while (!done) {
      const t0 = performance.now();
      const status = await get(agent, `${url}/v2/labelReports?pageSize=20`, key);
      if (status !== 200) throw new Error(`the desk's list request answered ${status}`);
      times.push(performance.now() - t0);
      await new Promise((resolve) => setTimeout(resolve, DESK_EVERY_MS));
    }
    return times;
  });
  try {
    await work();
  } finally {
    done = true;
    await Promise.allSettled(asking);
  }
  return Promise.all(asking);
}

function get(agent: http.Agent, url: string, key: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent, headers: { 'x-api-key': key } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

/** User and system CPU seconds a child process has used so far, from /proc (NaN where there is none). */
function processCpuSeconds(pid: number | undefined): number {
  try {
    // The fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return NaN;
  }
}

/** What /proc counts CPU time in: USER_HZ, 100 on Linux. */
const CLOCK_TICKS = 100;

function fmt(n: number): string {
  return n.toLocaleString('en-US').replace(/,/g, ' ');
}

/** CPU seconds (user and system) this process used since `since`. */
function cpuSeconds(since: NodeJS.CpuUsage): number {
  const { user, system } = process.cpuUsage(since);
  return (user + system) / 1e6;
}

function mb(bytes: number): string {
  return `${Math.round(bytes / 1048576)} MB`;
}
