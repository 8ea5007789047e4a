/**
 * Bundle import benchmark: reports per second and peak memory.
 *
 * Generates a bundle of 20 000 reports × 200 datapoints (streamed to disk), imports it with
 * importBundle and prints reports/s (target ≥ 5 000/s) and the peak RSS sampled during the
 * import; then imports a bundle twice as large to show that the peak does not double (memory is
 * bounded by the largest report, not by the bundle). Each import runs in its own child process,
 * so one measurement's heap does not flatter or spoil the next.
 *
 *   npx tsx -e "import('./bench/import.ts').then(m => m.run())"
 */
import { spawn } from 'node:child_process';
import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { fileURLToPath, pathToFileURL } from 'node:url';

const REPORTS = 20_000;
const DATAPOINTS = 200;
const TARGET_PER_SECOND = 5_000;
const CHILD_FLAG = '--labeldesk-import-bench-child';

interface Measurement {
  ok: boolean;
  reports: number;
  seconds: number;
  perSecond: number;
  baselineRss: number;
  peakRss: number;
  parallel: boolean;
  problems: string[];
}

export async function run(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'labeldesk-bench-import-'));
  try {
    const single = join(dir, 'bundle-20k.json');
    const double = join(dir, 'bundle-40k.json');
    let started = performance.now();
    await writeBundle(single, REPORTS);
    const generated = (performance.now() - started) / 1000;
    started = performance.now();
    await writeBundle(double, 2 * REPORTS);
    const generatedDouble = (performance.now() - started) / 1000;
    console.log(`bundle import: ${fmt(REPORTS)} reports × ${DATAPOINTS} datapoints`);
    console.log(`  generated ${mb(statSync(single).size)} in ${generated.toFixed(1)} s, and 2× (${mb(statSync(double).size)}) in ${generatedDouble.toFixed(1)} s`);

    const parallel = await measure(single, dir, true);
    const alone = await measure(single, dir, false);
    const twice = await measure(double, dir, true);
    for (const m of [parallel, alone, twice]) {
      if (!m.ok) throw new Error(`the benchmark bundle did not import: ${m.problems.join('; ')}`);
    }
    line('worker + writer', parallel);
    line('single thread', alone);
    line(`2× bundle (${fmt(2 * REPORTS)})`, twice);
    const growth = (twice.peakRss - twice.baselineRss) / Math.max(1, parallel.peakRss - parallel.baselineRss);
    console.log(
      `  memory: peak ${mb(parallel.peakRss)} for ${fmt(REPORTS)} reports, ${mb(twice.peakRss)} for ${fmt(2 * REPORTS)} ` +
        `(growth over baseline ×${growth.toFixed(2)} for ×2 data: ${twice.peakRss < 1.5 * parallel.peakRss ? 'bounded' : 'NOT bounded'})`,
    );
    const best = Math.max(parallel.perSecond, alone.perSecond);
    console.log(`  target ≥ ${fmt(TARGET_PER_SECOND)} reports/s: ${best >= TARGET_PER_SECOND ? 'met' : 'NOT met'} (${fmt(Math.round(best))}/s)`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function line(label: string, m: Measurement): void {
  console.log(
    `  ${label.padEnd(22)} ${fmt(m.reports)} reports in ${m.seconds.toFixed(2)} s = ${fmt(Math.round(m.perSecond))} reports/s, ` +
      `peak RSS ${mb(m.peakRss)} (baseline ${mb(m.baselineRss)})${m.parallel ? '' : ', no worker'}`,
  );
}

function fmt(n: number): string {
  return n.toLocaleString('en-US').replace(/,/g, ' ');
}

function mb(bytes: number): string {
  return `${Math.round(bytes / 1048576)} MB`;
}

// ---------------------------------------------------------------------------------------------
// The bundle, written report by report.

/** A tiny deterministic PRNG (mulberry32), so every run imports the same bytes. */
function prng(seed: number): () => number {
  let a = seed | 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export async function writeBundle(file: string, reports: number): Promise<void> {
  const out = createWriteStream(file, { highWaterMark: 1 << 20 });
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  const random = prng(reports);
  await write(
    '{"version":1,"companies":[{"id":"acme","name":"Acme Cold Chain","shortCode":"ACME"},' +
      '{"id":"nordic","name":"Nordic Pharma Logistics","shortCode":"NPL"}],' +
      '"apiKeys":[{"key":"ldk_bench_key_0000000000000000","companyId":"acme","permissions":["labelReports:read"]}],\n"labelReports":[\n',
  );
  const base = 1_780_000_000;
  for (let i = 0; i < reports; i++) {
    const configTime = base + i * 600;
    const interval = 300;
    const excursionAt = random() < 0.4 ? Math.floor(random() * DATAPOINTS) : -1;
    const datapoints = new Array(DATAPOINTS);
    for (let k = 0; k < DATAPOINTS; k++) {
      const warm = excursionAt >= 0 && k >= excursionAt && k < excursionAt + 6 ? 5 : 0;
      datapoints[k] = { timestamp: configTime + k * interval, temperature: Math.round((5 + 1.5 * Math.sin(k / 12) + warm + random() * 0.2) * 100) / 100 };
    }
    const report = {
      id: `bench-${String(i).padStart(6, '0')}`,
      created: new Date(configTime * 1000).toISOString(),
      companyId: i % 5 === 0 ? 'nordic' : 'acme',
      label: { uid: `E004${i.toString(16).padStart(8, '0')}`, sequenceCode: `TS-${i}`, type: 'TempSense 60d', name: 'Vaccines', firmwareVersionInfo: { firmwareVersion: '3.4.2', firmwareApiVersion: '2.2' } },
      mode: 'roadTransport',
      type: 'tempSense',
      status: i % 3 === 0 ? 'completed' : 'active',
      labelReference: `SHP-2026-${String(i).padStart(6, '0')}`,
      senseConfig: { limits: { minTemperature: 2, maxTemperature: 8 }, interval, configTime, startDelay: 0, runningTime: 30 * 86_400 },
      numberOfTaps: 1 + (i % 4),
      reportedSenseData: { datapoints },
      ...(i % 2 === 0 && { access: [{ companyId: i % 5 === 0 ? 'acme' : 'nordic', role: 'editor' }] }),
      ...(i % 4 === 0 && { customFields: [{ customFieldId: 'po', value: `PO-${10_000 + (i % 90_000)}` }] }),
    };
    await write((i === 0 ? '' : ',\n') + JSON.stringify(report));
  }
  await write('\n]}\n');
  out.end();
  await once(out, 'close');
}

// ---------------------------------------------------------------------------------------------
// One import, in a child process.

async function measure(bundle: string, dir: string, parallel: boolean): Promise<Measurement> {
  const dbFile = join(dir, `import-${parallel ? 'p' : 's'}-${Date.now()}.db`);
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  const child = spawn(process.execPath, ['--import', tsx, fileURLToPath(import.meta.url), CHILD_FLAG, bundle, dbFile, parallel ? '1' : '0'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  const [code] = (await once(child, 'close')) as [number];
  for (const suffix of ['', '-wal', '-shm']) rmSync(dbFile + suffix, { force: true });
  if (code !== 0) throw new Error(`the import benchmark child failed (exit ${code}): ${out}`);
  return JSON.parse(out.trim().split('\n').pop()!) as Measurement;
}

async function child(bundle: string, dbFile: string, parallel: boolean): Promise<void> {
  const { openService } = await import('../service/open-service');
  const service = openService(dbFile);
  const baselineRss = process.memoryUsage.rss();
  let peakRss = baselineRss;
  const sample = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage.rss());
  }, 10);
  const started = performance.now();
  const result = await service.importBundle(createReadStream(bundle, { highWaterMark: 1 << 20 }), { parallel });
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sample);
  peakRss = Math.max(peakRss, process.memoryUsage.rss());
  service.close();
  const measurement: Measurement = {
    ok: result.ok,
    reports: result.counts.labelReports,
    seconds,
    perSecond: result.counts.labelReports / seconds,
    baselineRss,
    peakRss,
    parallel: result.parallel,
    problems: result.problems.slice(0, 5).map((p) => `${p.path}: ${p.message}`),
  };
  process.stdout.write(JSON.stringify(measurement) + '\n');
}

const childAt = process.argv.indexOf(CHILD_FLAG);
if (childAt !== -1) {
  const [bundle, dbFile, parallel] = process.argv.slice(childAt + 1);
  child(bundle, dbFile, parallel === '1').catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
