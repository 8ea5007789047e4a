/**
 * The service at the size of a large site, as a user meets it: a database made by
 * `labeldesk import` (bench/site-database.ts), the real `labeldesk serve`, and requests over
 * loopback HTTP, each beside a bare Node server answering the very same bytes (the ratio is what
 * the service adds to HTTP itself). The matrix: the UI's paths (the report browser's queries,
 * made by its own code, also with a write before each request), every allow-listed filter key
 * with a typical operator, every order key both ways,
 * output=normal, deep pages and retrieve of a 10 000-datapoint report; p50 and p95 of up to 60
 * sequential requests per row, with the target beside each figure. Then the same at the next
 * size, and how each figure grew. Import rate, the import's and the server's memory too.
 *
 *   npm run bench service                              # 100 000 and 1 000 000 reports
 *   npm run bench service -- --sizes 100000            # one size; BENCH_SIZES works too
 *   BENCH_SAMPLES=60 BENCH_CASE_SECONDS=6 BENCH_MIN_SAMPLES=7   # requests per row, the time a row may
 *                                                      # take, and the fewest requests however slow
 *   BENCH_ONLY=calculatedSenseData,batch               # only the rows whose name holds one of these
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { loadavg } from 'node:os';
import autocannon from 'autocannon';
import { FIELDS, type FieldDef } from '../query/fields';
import { DEFAULT_SORT, defaultQuery, SORT_KEYS, toApiParams, toggleSort, type ListFilters, type ListQuery, type SortColumn } from '../renderer/lib/list-query';
import { formatNumber, report } from './baseline';
import { BIG_REPORT_ID, fmt, rssMiB, SITE, siteCreated, siteDatabase, siteReport, siteReportId, type SiteDatabase } from './site-database';
import { SiteClient } from './site-client';
import { median, percentile } from './stats';
import { TARGET_PER_SECOND as IMPORT_TARGET_PER_SECOND } from './import';

type Group = 'UI path' | 'after a write' | 'filter' | 'order' | 'output' | 'page' | 'retrieve';

interface Case {
  group: Group;
  name: string;
  path: string;
  /** Before each timed request a PATCH (untimed) changes a report's flag: no count may be reused. */
  writeBetween?: boolean;
}

interface Row extends Case {
  p50: number;
  p95: number;
  bareP50: number;
  samples: number;
  bytes: number;
  matches: number | null;
  target: number;
}

const DEFAULT_SIZES = [100_000, 1_000_000];
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 60);
const CASE_SECONDS = Number(process.env.BENCH_CASE_SECONDS ?? 6);
/** The fewest requests a row is measured with, however slow: p95 is then the slowest of them. */
const MIN_SAMPLES = Number(process.env.BENCH_MIN_SAMPLES ?? 7);

/**
 * Targets (ms, p50 over HTTP), the same at 100 000 and at 1 000 000 reports: the browser's paths
 * 10, a text search 20, a browser path with a write before it 20 (its counts cannot be reused),
 * any allow-listed filter, order, output or page 50, retrieve of 10 000 datapoints 5.
 */
function targetOf(c: Case): number {
  if (c.group === 'after a write') return 20;
  if (c.group === 'retrieve') return 5;
  if (c.group === 'UI path') return c.name.startsWith('search ') ? 20 : 10;
  return 50;
}

function sizesWanted(): number[] {
  const argv = process.argv;
  const at = argv.findIndex((a) => a === '--sizes' || a.startsWith('--sizes='));
  const text = at < 0 ? process.env.BENCH_SIZES : argv[at].includes('=') ? argv[at].split('=')[1] : argv[at + 1];
  if (!text) return DEFAULT_SIZES;
  const sizes = text.split(',').map((s) => Number(s.replace(/[_ ]/g, '')));
  if (sizes.some((n) => !Number.isInteger(n) || n < 10_000)) throw new Error(`--sizes takes whole numbers of reports, at least 10 000: ${text}`);
  return sizes;
}

const log = (line: string) => console.log(`service: ${line}`);

export async function run(): Promise<void> {
  const sizes = sizesWanted();
  const results = new Map<number, { db: SiteDatabase; rows: Row[]; rss: number }>();
  for (const size of sizes) {
    log(`— ${fmt(size)} reports —`);
    const db = await siteDatabase(size, log);
    log(`import: ${fmt(size)} reports (${db.bundleMiB.toFixed(0)} MiB bundle) in ${db.importSeconds.toFixed(0)} s = ${fmt(Math.round(db.importPerSecond))} reports/s (target ≥ ${fmt(IMPORT_TARGET_PER_SECOND)}/s), peak RSS of the import ${db.importPeakRssMiB.toFixed(0)} MiB`);
    if (db.upgradedFromSchema !== undefined) {
      log(`  (imported under schema ${db.upgradedFromSchema}, then upgraded by the migrations in ${db.upgradeSeconds?.toFixed(0)} s)`);
    }
    results.set(size, await measureSize(db));
  }
  if (sizes.length > 1) printGrowth(sizes, results);
}

async function measureSize(db: SiteDatabase): Promise<{ db: SiteDatabase; rows: Row[]; rss: number }> {
  const served = await startChild(['bin/labeldesk.js', 'serve', '--db', db.file, '--port', '0']);
  const bare = await startChild(['-e', BARE_SERVER]);
  const client = new SiteClient();
  try {
    const cases = matrix(db.reports);
    log(`${cases.length} rows, up to ${SAMPLES} sequential requests each (at most ${CASE_SECONDS} s a row, at least ${MIN_SAMPLES} requests); times in ms, p50 / p95 over loopback HTTP`);
    log(`load average before the matrix: ${loadAverage()}`);
    const rows: Row[] = [];
    for (const c of cases) {
      const row = await measureCase(client, served.url, bare.url, c, db.reports);
      rows.push(row);
      reportRow(row, db.reports);
    }
    const rss = rssMiB(served.child.pid!);
    const groups = [...new Set(rows.map((r) => r.group))];
    const within = groups.map((g) => {
      const of = rows.filter((r) => r.group === g);
      return `${g} ${of.filter((r) => r.p50 <= r.target).length}/${of.length}`;
    });
    log(`${fmt(db.reports)} reports, rows within target: ${within.join(', ')}; slowest p50 ${Math.max(...rows.map((r) => r.p50)).toFixed(0)} ms`);
    log(`load average after the matrix: ${loadAverage()} (the machine's other work shares its cores)`);
    await throughput(client, served.url, bare.url, db.reports);
    report({ name: `service: ${fmt(db.reports)} reports, serving process RSS after the matrix`, value: rss, unit: 'MiB', better: 'lower', target: 300 });
    return { db, rows, rss };
  } finally {
    client.close();
    for (const child of [served.child, bare.child]) child.kill('SIGTERM');
  }
}

/** The rows, made from the allow-list and the report browser's own query code. */
function matrix(size: number): Case[] {
  const cases: Case[] = [];
  const list = (group: Group, name: string, params: Record<string, string>) =>
    cases.push({ group, name, path: `/v2/labelReports?${new URLSearchParams({ pageSize: '100', output: 'minimal', ...params })}` });
  const ui = (name: string, change: (q: ListQuery) => void, extra: Record<string, string> = {}) => {
    const q = defaultQuery();
    change(q);
    list('UI path', name, { ...(toApiParams(q) as unknown as Record<string, string>), ...extra });
  };
  const filters = (patch: Partial<ListFilters>) => (q: ListQuery) => Object.assign(q.filters, patch);
  const newest = siteCreated(size - 1, size);
  const day = (epoch: number) => new Date(epoch * 1000).toISOString().slice(0, 10);

  ui('first page: default filters and sort', () => {});
  ui('a page of 1 row', () => {}, { pageSize: '1' });
  ui('status active', filters({ status: 'active' }));
  ui('alert moderate or worse', filters({ alert: 'moderateOrWorse' }));
  ui('status active + alert moderate or worse', filters({ status: 'active', alert: 'moderateOrWorse' }));
  ui('critical alerts', filters({ alert: 'critical' }));
  ui('mode air freight', filters({ mode: 'airFreight' }));
  ui('type humiditySense', filters({ type: 'humiditySense' }));
  ui('flagged', filters({ flagged: 'yes' }));
  ui('archived only', filters({ archived: 'yes' }));
  ui('search reference "po-12"', filters({ search: 'po-12' }));
  ui('search label "00123"', filters({ searchField: 'label', search: '00123' }));
  ui('custom field batch = B-42', filters({ customFields: [{ fieldId: 'batch', op: 'eq', value: 'B-42' }] }));
  ui('created in one week', filters({ createdFrom: day(newest - 40 * 86_400), createdTo: day(newest - 34 * 86_400) }));
  ui('shared with me (owner: the other company)', filters({ owner: SITE.otherCompany }));
  ui('page 500', () => {}, { pageNumber: '500' });
  // The browser's paths as a desk whose sync writes meets them: a change before every request.
  const afterWrite = (name: string, change: (q: ListQuery) => void) => {
    const q = defaultQuery();
    change(q);
    cases.push({
      group: 'after a write',
      name,
      path: `/v2/labelReports?${new URLSearchParams({ pageSize: '100', output: 'minimal', ...(toApiParams(q) as unknown as Record<string, string>) })}`,
      writeBetween: true,
    });
  };
  afterWrite('first page: default filters and sort', () => {});
  afterWrite('status active + alert moderate or worse', filters({ status: 'active', alert: 'moderateOrWorse' }));
  afterWrite('mode air freight', filters({ mode: 'airFreight' }));
  afterWrite('flagged', filters({ flagged: 'yes' }));
  afterWrite('archived only', filters({ archived: 'yes' }));
  afterWrite('shared with me (owner: the other company)', filters({ owner: SITE.otherCompany }));
  // Each column as its header's first click sorts it, then as the second click flips it.
  for (const column of Object.keys(SORT_KEYS) as SortColumn[]) {
    const first = toggleSort(DEFAULT_SORT, column);
    for (const sort of column === 'created' ? [toggleSort(DEFAULT_SORT, column)] : [first, toggleSort(first, column)]) {
      ui(`sort by ${column} ${sort.direction}`, (q) => (q.sort = sort));
    }
  }

  for (const [key, def] of FIELDS) list('filter', `${key}${typicalCondition(key, def, size)}`, { filter: `${key}${typicalCondition(key, def, size)}`, order: 'created[desc]' });
  list('filter', 'customFields pallets[gte]30', { customFields: 'pallets[gte]30', order: 'created[desc]' });
  // Ranges and combinations of the kept keys, as local tools ask them, in the interface's default order.
  list('filter', 'alert.level[gte]1', { filter: 'alert.level[gte]1' });
  list('filter', 'mode[eq]airFreight,alert.level[gte]1', { filter: 'mode[eq]airFreight,alert.level[gte]1' });
  list('filter', 'status[eq]active,alert.level[gte]1', { filter: 'status[eq]active,alert.level[gte]1' });
  // A text value of many reports (half of them) and one of few, as the browser asks.
  list('filter', 'customFields batch[gte]B-50', { customFields: 'batch[gte]B-50', order: 'created[desc]' });
  list('filter', 'customFields batch[eq]B-42', { customFields: 'batch[eq]B-42', order: 'created[desc]' });
  // A range no report holds (SQLite walked every row for it) and a pattern outside the browser's search.
  for (const filter of ['calculatedSenseData.analysedValues.temperature.degreeHour[gt]10', 'labelReference[ilike]%po-12%']) {
    list('filter', filter, { filter, order: 'created[desc]' });
  }
  for (const direction of ['asc', 'desc']) {
    for (const [key, def] of FIELDS) {
      if (def.array) continue;
      list('order', `${key}[${direction}]`, { order: `${key}[${direction}]` });
    }
  }
  list('output', 'output=normal, default filters and sort', { ...(toApiParams(defaultQuery()) as unknown as Record<string, string>), output: 'normal' });
  list('page', 'page 900', { order: 'created[desc]', pageNumber: '900' });
  list('page', 'page 500, no filter, created[asc]', { pageNumber: '500' });
  cases.push({ group: 'retrieve', name: `retrieve, ${fmt(SITE.bigDatapoints)} datapoints`, path: `/v2/labelReports/${BIG_REPORT_ID}` });
  // BENCH_ONLY: the rows whose name holds one of its comma-separated parts, to time a change's rows.
  const only = process.env.BENCH_ONLY?.split(',').filter(Boolean);
  return only ? cases.filter((c) => only.some((part) => c.name.includes(part))) : cases;
}

/** A condition as someone would write it for this key, on values the generated site holds. */
function typicalCondition(key: string, def: FieldDef, size: number): string {
  const sample = siteReport(12_345 % size, size);
  const middle = siteCreated(Math.floor(size / 2), size);
  const specific: Record<string, string> = {
    id: `[eq]${siteReportId(12_345 % size)}`,
    created: `[gte]${new Date((siteCreated(size - 1, size) - 30 * 86_400) * 1000).toISOString()}`,
    updated: `[gte]${new Date((siteCreated(size - 1, size) - 30 * 86_400) * 1000).toISOString()}`,
    labelReference: '[eq]PO-12345',
    'company.id': `[eq]${SITE.company}`,
    'company.name': '[eq]Beta Foods',
    'company.shortCode': '[eq]BFD',
    'subCompany.id': '[eq]site-3',
    'label.uid': `[eq]${sample.label.uid}`,
    'label.sequenceCode': `[eq]${sample.label.sequenceCode}`,
    'label.type': '[eq]TempSense T2',
    'label.name': '[eq]Pallet 7',
    'label.firmwareVersionInfo.firmwareVersion': '[eq]3.0.2',
    'label.firmwareVersionInfo.firmwareApiVersion': '[eq]4',
    'senseConfig.interval': '[eq]300',
    'senseConfig.configTime': `[gte]${middle}`,
    'senseConfig.startDelay': '[eq]600',
    'senseConfig.runningTime': '[gte]30000',
    'senseConfig.limits.minTemperature': '[eq]-25',
    'senseConfig.limits.maxTemperature': '[eq]25',
    'senseConfig.limits.minHumidity': '[eq]20',
    'senseConfig.limits.maxHumidity': '[eq]80',
    numberOfTaps: '[gte]4',
    'alert.level': '[eq]2',
    'alert.timestamp': `[gte]${middle}`,
    'calculatedSenseData.startTime': `[gte]${middle}`,
    'calculatedSenseData.currentTime': `[gte]${middle}`,
    'calculatedSenseData.elapsedTime': '[gte]20000',
    'calculatedSenseData.numberOfDatapointsRead': '[gte]1000',
    'calculatedSenseData.numberOfDatapointsAvailable': '[gte]1000',
    'calculatedSenseData.numberOfMeasurementsOccurred': '[gte]1000',
    'calculatedSenseData.durationOfViolations.temperature': '[gte]3600',
    'calculatedSenseData.durationOfViolations.humidity': '[gte]600',
    'calculatedSenseData.durationOfViolations.all': '[gte]3600',
    'calculatedSenseData.attainedValues.minTemperature': '[lt]-20',
    'calculatedSenseData.attainedValues.maxTemperature': '[gt]12',
    'calculatedSenseData.analysedValues.temperature.average': '[gte]20',
    'calculatedSenseData.analysedValues.temperature.degreeHour': '[gt]0',
    'calculatedSenseData.analysedValues.temperature.meanKineticTemperature': '[gte]20',
    'access.companyId': `[includes]${SITE.otherCompany}`,
    'access.role': '[includes]viewer',
  };
  if (specific[key]) return specific[key];
  if (def.type === 'boolean') return '[eq]true';
  if (def.values) return `[eq]${def.values[0]}`;
  if (def.type === 'number') return '[gte]1';
  return '[eq]x';
}

async function measureCase(client: SiteClient, service: string, bare: string, c: Case, size: number): Promise<Row> {
  const first = await client.get(service + c.path);
  if (first.status !== 200) throw new Error(`${c.name}: ${first.status} ${first.body.toString().slice(0, 300)}`);
  await client.request(bare + '/__answer', 'PUT', first.body);
  const matches = c.group === 'retrieve' ? null : (JSON.parse(first.body.toString()) as { totalDocuments: number }).totalDocuments;
  const samples = await timeRequests(client, service + c.path, SAMPLES, c.writeBetween ? flagWriter(client, service) : undefined);
  const bareSamples = await timeRequests(client, bare + '/answer', samples.length);
  return {
    ...c,
    p50: median(samples),
    p95: percentile(samples, 95),
    bareP50: median(bareSamples),
    samples: samples.length,
    bytes: first.body.length,
    matches,
    target: targetOf(c),
  };
}

/**
 * Flips a report's flag at each call, so that every second call puts it back: an even number of
 * calls leaves the cached site's flags as they were.
 */
function flagWriter(client: SiteClient, service: string): { write: () => Promise<void>; restore: () => Promise<void> } {
  const url = `${service}/v2/labelReports/${siteReportId(3)}`;
  let flipped = false;
  const set = async (hasFlag: boolean) => {
    const res = await client.request(url, 'PATCH', JSON.stringify({ hasFlag }));
    if (res.status !== 200) throw new Error(`PATCH ${url}: ${res.status} ${res.body.toString().slice(0, 300)}`);
  };
  let original: boolean | undefined;
  return {
    write: async () => {
      original ??= (JSON.parse((await client.get(url)).body.toString()) as { hasFlag: boolean }).hasFlag;
      flipped = !flipped;
      await set(flipped ? !original : original);
    },
    restore: async () => {
      if (flipped && original !== undefined) await set(original);
    },
  };
}

/** Sequential requests on one kept-alive connection, after one untimed; with `writer`, a write before each. */
async function timeRequests(
  client: SiteClient,
  url: string,
  count = SAMPLES,
  writer?: { write: () => Promise<void>; restore: () => Promise<void> },
): Promise<number[]> {
  await client.get(url);
  const samples: number[] = [];
  const until = performance.now() + CASE_SECONDS * 1000;
  while (samples.length < count && (samples.length < MIN_SAMPLES || performance.now() < until)) {
    await writer?.write();
    const t0 = performance.now();
    const res = await client.get(url);
    samples.push(performance.now() - t0);
    if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
  }
  await writer?.restore();
  return samples;
}

/** A request's p50 (against its target) and p95; beside them the bare server's p50 for the same bytes, the ratio, matches and n. */
function reportRow(r: Row, size: number): void {
  const name = `service: ${fmt(size)} reports, ${r.group}: ${r.name}`;
  const matches = r.matches === null ? '' : `${fmt(r.matches)} matches, `;
  const detail = `${matches}bare p50 ${formatNumber(r.bareP50)} ms, ratio ${(r.p50 / r.bareP50).toFixed(1)}, n ${r.samples}`;
  report({ name: `${name}, p50`, value: r.p50, unit: 'ms', better: 'lower', target: r.target, detail });
  report({ name: `${name}, p95`, value: r.p95, unit: 'ms', better: 'lower' }, '  ');
}

function printGrowth(sizes: number[], results: Map<number, { rows: Row[]; rss: number; db: SiteDatabase }>): void {
  const [small, ...larger] = sizes;
  console.log('');
  log(`how each p50 grows from ${fmt(small)} reports (ms)`);
  console.log('');
  console.log(`| request | ${sizes.map((s) => fmt(s)).join(' | ')} | ${larger.map((s) => `× at ${fmt(s)}`).join(' | ')} |`);
  console.log(`|---|${sizes.map(() => '---:').join('|')}|${larger.map(() => '---:').join('|')}|`);
  const base = results.get(small)!.rows;
  for (const [i, row] of base.entries()) {
    const figures = sizes.map((s) => results.get(s)!.rows[i]);
    const cells = figures.map((f) => `${f.p50.toFixed(f.p50 >= 100 ? 0 : 1)}${f.p50 > f.target ? ' ✗' : ''}`);
    const growth = figures.slice(1).map((f) => `${(f.p50 / row.p50).toFixed(1)}`);
    console.log(`| ${row.group}: \`${row.name}\` | ${cells.join(' | ')} | ${growth.join(' | ')} |`);
  }
  for (const s of sizes) {
    const r = results.get(s)!;
    log(`${fmt(s)}: import ${fmt(Math.round(r.db.importPerSecond))} reports/s (peak RSS ${r.db.importPeakRssMiB.toFixed(0)} MiB), serve RSS ${r.rss.toFixed(0)} MiB`);
  }
}

/** Retrieve of a small report from 16 connections, beside the bare server sending its bytes. */
async function throughput(client: SiteClient, service: string, bare: string, size: number): Promise<void> {
  const url = `${service}/v2/labelReports/${siteReportId(1)}`;
  const body = (await client.get(url)).body;
  await client.request(bare + '/__answer', 'PUT', body);
  const rps = async (target: string, headers: Record<string, string> = {}) =>
    (await autocannon({ url: target, connections: 16, duration: 5, headers })).requests.average;
  const served = await rps(url, { 'x-api-key': SITE.key });
  const same = await rps(bare + '/answer');
  report({
    name: `service: ${fmt(size)} reports, retrieve throughput, 16 connections`,
    value: served,
    unit: 'req/s',
    better: 'higher',
    detail: `${(body.length / 1024).toFixed(1)} KiB report; bare server, same bytes: ${fmt(Math.round(same))} req/s (ratio ${(served / same).toFixed(2)})`,
  });
}

/** The 1, 5 and 15 minute load averages, as uptime prints them. */
function loadAverage(): string {
  return loadavg()
    .map((n) => n.toFixed(1))
    .join(', ');
}

/** A bare Node server answering whatever body it was last given, as the service would. */
const BARE_SERVER = `
let body = Buffer.from('{}');
const s = require('node:http').createServer((q, r) => {
  if (q.method === 'PUT') {
    const parts = [];
    q.on('data', (d) => parts.push(d));
    q.on('end', () => { body = Buffer.concat(parts); r.end(); });
    return;
  }
  r.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
  r.end(body);
});
s.keepAliveTimeout = 60000;
s.listen(0, '127.0.0.1', () => console.log('http://127.0.0.1:' + s.address().port));
`;

function startChild(args: string[]): Promise<{ child: ChildProcess; url: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /http:\/\/[\d.]+:\d+/.exec(out);
      if (m) resolve({ child, url: m[0] });
    });
    child.on('exit', (code) => reject(new Error(`child exited with ${code} before listening: ${out}`)));
  });
}
