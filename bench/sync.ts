/**
 * Sync at the size of a large site: the first mirror of 100 000 reports from a remote on
 * loopback (target ≥ 2 000 reports/s, memory bounded), then one incremental cycle that brings
 * 100 reports changed among the 100 000 (target ≤ 1 s).
 *
 * The remote is the real `labeldesk serve` in a process of its own, on a database built the way
 * a site builds one: a generated bundle (50 datapoints a report; three quarters owned by the
 * key's company, one quarter owned by another company and shared with it as viewer) put in
 * with `labeldesk import`, cached in the temp folder. The local side is this process: a service
 * on a fresh file and its sync worker. RSS is sampled during the mirror and printed at each
 * quarter of it: flat means bounded by a page, not by the mirror.
 *
 *   BENCH_SYNC_REPORTS=10000 npm run bench sync    # smaller
 *   BENCH_SYNC_PROFILE=1 npm run bench sync        # and where each process spends its time
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { copyFileSync, createWriteStream, existsSync, mkdtempSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { Session, type Profiler } from 'node:inspector/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { mulberry32 } from '../demo/random';
import { parseListQuery } from '../query/list-query';
import type { Caller } from '../service/api-keys';
import { openService } from '../host/open-service';
import { createSyncWorker, type SyncWorker } from '../sync';
import { printSummary, summarize, summarizeFile } from './cpu-profile';

const REPORTS = Number(process.env.BENCH_SYNC_REPORTS ?? 100_000);
const CHANGED = Math.min(100, REPORTS);
const DATAPOINTS = 50;
const TARGET_RATE = 2_000;
const TARGET_INCREMENTAL_S = 1;
const KEY = 'ldk_bench_sync_key_for_the_benchmark_only_0';
const REPO = fileURLToPath(new URL('../', import.meta.url));
/** Reads the local mirror as the company does, in process. */
const READER: Caller = { keyId: 'sync-bench', companyId: 'acme', permissions: new Set(['labelReports:read']) };
const PROFILE = process.env.BENCH_SYNC_PROFILE === '1';
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
  const local = openService(join(dir, 'local.sqlite'));
  let worker: SyncWorker | undefined;
  try {
    worker = createSyncWorker(local, { remoteUrl: remote.url, remoteKey: KEY, companyId: 'acme', reconcileEverySeconds: 86_400 });
    global.gc?.();
    const baseline = process.memoryUsage.rss();
    let peak = baseline;
    const quarters: string[] = [];
    const sample = setInterval(() => {
      const rss = process.memoryUsage.rss();
      peak = Math.max(peak, rss);
      const progress = worker!.status().progress;
      if (progress && progress.total > 0 && progress.done >= ((quarters.length + 1) / 4) * progress.total && quarters.length < 4) {
        quarters.push(`${fmt(progress.done)}: ${mb(rss)}`);
      }
    }, 20);
    let started = performance.now();
    let cpu = process.cpuUsage();
    const first = await profiled('sync: the mirroring process during the first mirror', () => worker!.runCycle());
    const seconds = (performance.now() - started) / 1000;
    const firstCpu = cpuSeconds(cpu);
    clearInterval(sample);
    if (!first.ok) throw new Error(`the first mirror did not complete: ${first.message}`);
    const mirrored = local.reports.list(READER, parseListQuery({ output: 'minimal', pageSize: '1' })).totalDocuments;
    const rate = mirrored / seconds;
    console.log(`sync: first mirror of ${fmt(mirrored)} reports (${DATAPOINTS} datapoints each) from labeldesk serve on loopback: ${seconds.toFixed(1)} s = ${fmt(Math.round(rate))} reports/s (target ≥ ${fmt(TARGET_RATE)}: ${rate >= TARGET_RATE ? 'met' : 'NOT met'})`);
    // On a shared machine the wall clock counts other work too; the CPU time is this process's own.
    console.log(`sync:   CPU of the mirroring process: ${firstCpu.toFixed(1)} s (${fmt(Math.round(mirrored / firstCpu))} reports per CPU second); load average now ${loadavg()[0].toFixed(1)}`);
    console.log(`sync:   RSS of the mirroring process: baseline ${mb(baseline)}, peak ${mb(peak)}; at each quarter of the pull: ${quarters.join(', ') || 'not sampled'}`);

    // 100 reports change on the remote, spread over the whole set, as another desk would change them.
    const headers = { 'x-api-key': KEY, 'content-type': 'application/json' };
    for (let k = 0; k < CHANGED; k++) {
      const i = Math.floor((k * REPORTS) / CHANGED);
      const id = `sync-${String(i).padStart(7, '0')}`;
      const body = i % 4 === 3 ? { hasFlag: true } : { labelReference: `CHANGED-${k}`, limits: { maxTemperature: 9 } };
      const res = await fetch(`${remote.url}/v2/labelReports/${id}`, { method: 'PATCH', headers, body: JSON.stringify(body) });
      if (res.status !== 200) throw new Error(`PATCH ${id} answered ${res.status}: ${await res.text()}`);
    }
    started = performance.now();
    cpu = process.cpuUsage();
    const incremental = await profiled('sync: the mirroring process during the incremental cycle', () => worker!.runCycle());
    const cycleSeconds = (performance.now() - started) / 1000;
    const cycleCpu = cpuSeconds(cpu);
    if (!incremental.ok) throw new Error(`the incremental cycle did not complete: ${incremental.message}`);
    const arrived = local.reports.retrieve(READER, 'sync-0000000').labelReference;
    console.log(
      `sync: incremental cycle bringing ${CHANGED} changed reports among ${fmt(REPORTS)}: ${(cycleSeconds * 1000).toFixed(0)} ms (target ≤ ${TARGET_INCREMENTAL_S * 1000} ms: ${cycleSeconds <= TARGET_INCREMENTAL_S ? 'met' : 'NOT met'})` +
        ` (CPU of the mirroring process ${(cycleCpu * 1000).toFixed(0)} ms; load average ${loadavg()[0].toFixed(1)})` +
        (arrived === 'CHANGED-0' ? '' : ` — but the first change did not arrive (${arrived})`),
    );
  } finally {
    await worker?.stop();
    local.close();
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
