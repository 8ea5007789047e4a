/**
 * The service's figures at the size of a large site: 100 000 reports averaging 500 datapoints.
 * List pages and retrieve are timed in process through the service layer and over loopback
 * HTTP; retrieve throughput runs the real `labeldesk serve` beside a bare HTTP server.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createReadStream, createWriteStream, existsSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import autocannon from 'autocannon';
import { parseListQuery } from '../query/list-query';
import type { BundleReport } from '../schema/bundle';
import { MODES, REPORT_TYPES } from '../schema/report';
import { openService } from '../service/open-service';
import { reportJson } from '../service/report-json';
import { median, percentile, timeMany } from './stats';

const REPORTS = Number(process.env.BENCH_REPORTS ?? 100_000);
const BIG_REPORT_POINTS = 10_000;
const DB_FILE = join(tmpdir(), `labeldesk-bench-${REPORTS}-v3.sqlite`);
const KEY = 'ldk_bench_key_for_the_benchmark_only_0000';

function mulberry32(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function benchReport(i: number, rand: () => number, points: number): BundleReport {
  const start = 1_760_000_000 + i * 300;
  const interval = 300;
  const datapoints = new Array(points);
  let t = 5;
  for (let k = 0; k < points; k++) {
    t += (rand() - 0.5) * 0.4;
    if (rand() < 0.002) t += 6; // an occasional excursion
    t = Math.min(Math.max(t, -1), 14);
    datapoints[k] = { timestamp: start + k * interval, temperature: Math.round(t * 100) / 100 };
  }
  return {
    id: `bench-${String(i).padStart(6, '0')}`,
    created: new Date((start - 600) * 1000).toISOString(),
    companyId: i % 5 === 4 ? 'beta' : 'alpha',
    label: {
      uid: `04:${(i * 7919).toString(16).padStart(12, '0')}`,
      sequenceCode: `LBL-${String(i).padStart(7, '0')}`,
      type: 'TempSense T1',
      name: `Label ${i}`,
      firmwareVersionInfo: { firmwareVersion: '2.4.1', firmwareApiVersion: '3' },
    },
    mode: MODES[i % MODES.length],
    type: REPORT_TYPES[i % 2],
    status: rand() < 0.3 ? 'active' : 'completed',
    labelReference: `SHP-2026-${String(Math.floor(rand() * 1e6)).padStart(6, '0')}`,
    senseConfig: {
      limits: { minTemperature: 2, maxTemperature: 8 },
      interval,
      configTime: start - 600,
      startDelay: 600,
      runningTime: points * interval,
    },
    numberOfTaps: 1 + (i % 3),
    reportedSenseData: { datapoints },
    access: i % 5 === 4 ? [{ companyId: 'alpha', role: 'viewer' }] : [],
  };
}

/** Built the way a site builds it: a bundle file, then the import, streamed. */
async function buildDatabase(): Promise<void> {
  if (existsSync(DB_FILE)) return;
  const building = DB_FILE + '.building';
  const bundleFile = DB_FILE + '.bundle.json';
  rmSync(building, { force: true });
  const t0 = performance.now();
  const rand = mulberry32(42);
  const out = createWriteStream(bundleFile);
  const put = async (text: string) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  await put(JSON.stringify({
    version: 1,
    companies: [
      { id: 'alpha', name: 'Alpha Logistics', shortCode: 'ALP' },
      { id: 'beta', name: 'Beta Foods', shortCode: 'BET' },
    ],
    apiKeys: [{ key: KEY, companyId: 'alpha', permissions: ['labelReports:read', 'labelReports:update'], name: 'bench' }],
  }).slice(0, -1) + ',"labelReports":[\n');
  for (let i = 0; i < REPORTS; i++) {
    // Averages 500: lengths spread evenly over 100..900, and one report of 10 000.
    const points = i === 0 ? BIG_REPORT_POINTS : 100 + Math.floor(rand() * 801);
    await put((i === 0 ? '' : ',\n') + JSON.stringify(benchReport(i, rand, points)));
  }
  out.end(']}\n');
  await finished(out);
  const service = openService(building);
  const result = await service.importBundle(createReadStream(bundleFile, { highWaterMark: 1 << 20 }), { parallel: true });
  service.close();
  rmSync(bundleFile, { force: true });
  if (!result.ok) throw new Error(`the bench bundle was refused: ${JSON.stringify(result.problems.slice(0, 3))}`);
  renameSync(building, DB_FILE);
  rmSync(building + '-wal', { force: true });
  rmSync(building + '-shm', { force: true });
  console.log(`service: built ${REPORTS} reports through the import in ${((performance.now() - t0) / 1000).toFixed(1)} s → ${DB_FILE}`);
}

function report(label: string, samples: number[], target?: string): void {
  console.log(
    `service: ${label}: median ${median(samples).toFixed(2)} ms, p95 ${percentile(samples, 95).toFixed(2)} ms` +
      (target ? ` (target ${target})` : ''),
  );
}

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

function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
}

async function cannon(url: string, headers: Record<string, string> = {}): Promise<number> {
  const result = await autocannon({ url, connections: 16, duration: 5, headers });
  return result.requests.average;
}

export async function run(): Promise<void> {
  await buildDatabase();
  const service = openService(DB_FILE);
  const caller = service.apiKeys.authenticate(KEY);
  // Parsing included, as a request pays for it.
  const list = (query: Record<string, string>) => service.reports.list(caller, parseListQuery(query));

  const statusAlert = { filter: 'status[eq]active,alert.level[eq]1', order: 'created[desc]', output: 'minimal', pageSize: '100' };
  const search = { filter: 'labelReference[ilike]%2026-0012%', output: 'minimal', pageSize: '100' };
  console.log(`service: ${REPORTS} reports; status+alert filter matches ${list(statusAlert).totalDocuments}, search matches ${list(search).totalDocuments}`);
  report('list page of 100 (minimal), status+alert filter, created[desc], with totalDocuments', timeMany(() => list(statusAlert), 50), '< 15 ms');
  report('list page of 100 (minimal), labelReference[ilike] search, with totalDocuments', timeMany(() => list(search), 50), '< 15 ms');
  report('list page 500 of 100 (minimal), no filter', timeMany(() => list({ output: 'minimal', pageNumber: '500' }), 30));
  const bigId = 'bench-000000';
  report(`retrieve one report of ${BIG_REPORT_POINTS} datapoints (object)`, timeMany(() => service.reports.retrieve(caller, bigId), 50), '< 10 ms');
  report(
    `retrieve one report of ${BIG_REPORT_POINTS} datapoints as the HTTP answer's JSON text`,
    timeMany(() => reportJson(service.reports.retrieveDocument(caller, bigId)), 50),
    '< 10 ms',
  );
  service.close();

  // Over loopback, against the real command, next to bare servers answering fixed JSON: one with
  // a tiny body, one with the very body retrieve answers, so the ratio shows our own work.
  const served = await startChild(['bin/labeldesk.js', 'serve', '--db', DB_FILE, '--port', '0']);
  const headers = { 'x-api-key': KEY };
  const smallId = 'bench-000001';
  const sameBody = await (await fetch(`${served.url}/v2/labelReports/${smallId}`, { headers })).text();
  const bareServer = (body: string) =>
    startChild([
      '-e',
      `const body = ${JSON.stringify(body)};
       const s = require('node:http').createServer((q, r) => { r.writeHead(200, { 'content-type': 'application/json' }); r.end(body); });
       s.listen(0, '127.0.0.1', () => console.log('http://127.0.0.1:' + s.address().port));`,
    ]);
  const bareTiny = await bareServer(JSON.stringify({ id: 'x', status: 'active', alert: { level: 1, timestamp: 0 } }));
  const bareSame = await bareServer(sameBody);
  try {
    const httpSamples: number[] = [];
    for (let i = 0; i < 40; i++) {
      const t0 = performance.now();
      await (await fetch(`${served.url}/v2/labelReports?filter=status[eq]active,alert.level[eq]1&order=created[desc]&output=minimal`, { headers })).text();
      httpSamples.push(performance.now() - t0);
    }
    report('HTTP list page of 100 (minimal), status+alert filter', httpSamples.slice(5));
    const serviceRps = await cannon(`${served.url}/v2/labelReports/${smallId}`, headers);
    const sameRps = await cannon(bareSame.url);
    const tinyRps = await cannon(bareTiny.url);
    const kib = (Buffer.byteLength(sameBody) / 1024).toFixed(0);
    console.log(`service: retrieve throughput (${kib} KiB report) ${serviceRps.toFixed(0)} req/s`);
    console.log(`service:   bare HTTP, same ${kib} KiB body: ${sameRps.toFixed(0)} req/s → ratio ${(serviceRps / sameRps).toFixed(2)}`);
    console.log(`service:   bare HTTP, tiny body: ${tinyRps.toFixed(0)} req/s → ratio ${(serviceRps / tinyRps).toFixed(3)}`);
    const bigRps = await cannon(`${served.url}/v2/labelReports/${bigId}`, headers);
    console.log(`service: retrieve throughput, ${BIG_REPORT_POINTS}-datapoint report: ${bigRps.toFixed(0)} req/s`);
    console.log(`service: serving process RSS after load: ${rssMiB(served.child.pid!).toFixed(0)} MiB (target < 300 MiB)`);
  } finally {
    for (const child of [served.child, bareTiny.child, bareSame.child]) child.kill('SIGTERM');
  }
}
