/**
 * A database the size of a large site, made the way a site makes it: a bundle file written
 * report by report (memory stays flat at any size), then the real `labeldesk import` command.
 *
 * Shape: 50 datapoints per report, one in 5 000 with 10 000; three quarters owned by the key's
 * company (alpha), one quarter owned by beta and shared with alpha as viewer; purchase-order
 * references (PO-12345), a `batch` text and a `pallets` number custom field, per-company flags.
 *
 * Built once per size, schema version and generator version, and kept in the temp folder with
 * the import's figures beside it, so a 1 000 000-report run pays for the import only once.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { copyFileSync, createWriteStream, existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import { PHASES_ENV } from '../cli/import';
import { SCHEMA_VERSION } from '../db/database';
import type { BundleReport } from '../schema/bundle';
import type { Datapoint } from '../schema/sense';
import { mulberry32 } from '../demo/random';
import { openService } from '../host/open-service';

/** Bump when the generated data changes, so cached databases are rebuilt. */
const GENERATOR_VERSION = 1;

export const SITE = {
  key: 'ldk_site_bench_key_for_the_benchmark_only',
  company: 'alpha',
  otherCompany: 'beta',
  datapoints: 50,
  bigDatapoints: 10_000,
  bigEvery: 5_000,
  /** 2024-06-24: the first report; the others follow over two years. */
  firstCreated: 1_719_200_000,
  spanSeconds: 2 * 365 * 86_400,
  batches: 1_000,
} as const;

export interface SiteDatabase {
  file: string;
  reports: number;
  /** Of the import that built the file: seconds, reports per second, the importing process's peak RSS. */
  importSeconds: number;
  importPerSecond: number;
  importPeakRssMiB: number;
  bundleMiB: number;
  /** Set when the import built an earlier schema and the migrations brought it up to date, as at a site. */
  upgradedFromSchema?: number;
  upgradeSeconds?: number;
}

/**
 * From this size on, a database imported under an earlier schema is upgraded by the migrations
 * rather than imported again: a million reports take most of an hour to import on a busy machine.
 */
const UPGRADE_FROM = 500_000;

/** The id of report i: UUID-shaped, as ids are in practice. */
export function siteReportId(i: number): string {
  const h = hash32(i);
  const hex = (n: number, width: number) => n.toString(16).padStart(width, '0').slice(-width);
  return `${hex(h, 8)}-${hex(h >>> 7, 4)}-4${hex(h >>> 3, 3)}-8${hex(i >>> 24, 3)}-${hex(i, 12)}`;
}

/** The report with 10 000 datapoints that retrieve is timed on. */
export const BIG_REPORT_ID = siteReportId(0);

/** When report i was created, in epoch seconds: evenly over two years, in the order imported. */
export function siteCreated(i: number, size: number): number {
  return SITE.firstCreated + Math.floor((i * SITE.spanSeconds) / size);
}

export function siteDatabaseFile(size: number, schema = SCHEMA_VERSION): string {
  return join(tmpdir(), `labeldesk-site-${size}-schema${schema}-gen${GENERATOR_VERSION}.sqlite`);
}

export async function siteDatabase(size: number, log: (line: string) => void): Promise<SiteDatabase> {
  const file = siteDatabaseFile(size);
  const figuresFile = file + '.import.json';
  if (existsSync(file) && existsSync(figuresFile)) {
    log(`using ${file} (built earlier; delete it to rebuild)`);
    return JSON.parse(readFileSync(figuresFile, 'utf8')) as SiteDatabase;
  }
  // Per process: two benches building the same site at once must not write one file; the
  // rename that finishes a build is atomic, so the later one simply replaces an equal file.
  const building = `${file}.building-${process.pid}`;
  if (size >= UPGRADE_FROM) {
    const upgraded = upgradeEarlierBuild(size, building, log);
    if (upgraded) {
      renameSync(building, file);
      writeFileSync(figuresFile, JSON.stringify({ ...upgraded, file }, null, 2));
      return { ...upgraded, file };
    }
  }
  const bundle = `${building}.bundle.json`;
  for (const f of [building, building + '-wal', building + '-shm', bundle]) rmSync(f, { force: true });
  try {
    const t0 = performance.now();
    const bytes = await writeSiteBundle(bundle, size, log);
    log(`bundle of ${fmt(size)} reports written: ${(bytes / 2 ** 20).toFixed(0)} MiB in ${((performance.now() - t0) / 1000).toFixed(0)} s; importing with labeldesk import`);
    const imported = await runImport(bundle, building, log);
    renameSync(building, file);
    for (const f of [building + '-wal', building + '-shm']) rmSync(f, { force: true });
    const figures: SiteDatabase = {
      file,
      reports: size,
      importSeconds: imported.seconds,
      importPerSecond: size / imported.seconds,
      importPeakRssMiB: imported.peakRssMiB,
      bundleMiB: bytes / 2 ** 20,
    };
    writeFileSync(figuresFile, JSON.stringify(figures, null, 2));
    return figures;
  } finally {
    rmSync(bundle, { force: true });
  }
}

/** The newest earlier-schema build of this size, copied and migrated; null when there is none. */
function upgradeEarlierBuild(size: number, building: string, log: (line: string) => void): SiteDatabase | null {
  for (let schema = SCHEMA_VERSION - 1; schema > 0; schema--) {
    const earlier = siteDatabaseFile(size, schema);
    if (!existsSync(earlier) || !existsSync(earlier + '.import.json')) continue;
    const figures = JSON.parse(readFileSync(earlier + '.import.json', 'utf8')) as SiteDatabase;
    log(`upgrading ${earlier} (imported under schema ${schema}) to schema ${SCHEMA_VERSION} through the migrations`);
    for (const f of [building, building + '-wal', building + '-shm']) rmSync(f, { force: true });
    copyFileSync(earlier, building);
    const t0 = performance.now();
    openService(building).close();
    const upgradeSeconds = (performance.now() - t0) / 1000;
    for (const f of [building + '-wal', building + '-shm']) rmSync(f, { force: true });
    log(`  migrated in ${upgradeSeconds.toFixed(0)} s`);
    return { ...figures, upgradedFromSchema: figures.upgradedFromSchema ?? schema, upgradeSeconds };
  }
  return null;
}

/** Writes the bundle of a site of `size` reports, report by report; returns its size in bytes. */
export async function writeSiteBundle(file: string, size: number, log: (line: string) => void): Promise<number> {
  const out = createWriteStream(file, { highWaterMark: 1 << 20 });
  let bytes = 0;
  const put = async (text: string) => {
    bytes += Buffer.byteLength(text);
    if (!out.write(text)) await once(out, 'drain');
  };
  const header = {
    version: 1,
    companies: [
      { id: SITE.company, name: 'Alpha Cold Chain', shortCode: 'ACC' },
      { id: SITE.otherCompany, name: 'Beta Foods', shortCode: 'BFD' },
    ],
    apiKeys: [{ key: SITE.key, companyId: SITE.company, permissions: ['labelReports:read', 'labelReports:update'], name: 'bench' }],
  };
  await put(JSON.stringify(header).slice(0, -1) + ',"labelReports":[\n');
  const step = progressStep(size);
  for (let i = 0; i < size; i++) {
    await put((i === 0 ? '' : ',\n') + JSON.stringify(siteReport(i, size)));
    if ((i + 1) % step === 0) log(`  written ${fmt(i + 1)} of ${fmt(size)} reports`);
  }
  await put(']}\n');
  out.end();
  await finished(out);
  return bytes;
}

export interface ImportRun {
  seconds: number;
  peakRssMiB: number;
  /** CPU seconds (user + system) of the importing process, its parse workers included. */
  cpuSeconds: number;
  /** Each step of the import as the command prints it: `phase copying: 1.20 s wall, 0.90 s cpu`. */
  phases: string[];
}

/** `labeldesk import` in a child process, its resident memory sampled while it runs. */
export async function runImport(bundle: string, dbFile: string, log: (line: string) => void): Promise<ImportRun> {
  const t0 = performance.now();
  const child = spawn(process.execPath, ['bin/labeldesk.js', 'import', '--db', dbFile, bundle], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, [PHASES_ENV]: '1' },
  });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  let peak = 0;
  let lastLog = performance.now();
  const sampler = setInterval(() => {
    const rss = rssMiB(child.pid!);
    peak = Math.max(peak, rss);
    if (performance.now() - lastLog > 15_000) {
      lastLog = performance.now();
      log(`  importing: ${((performance.now() - t0) / 1000).toFixed(0)} s, RSS ${rss.toFixed(0)} MiB`);
    }
  }, 100);
  const [code] = (await once(child, 'exit')) as [number | null];
  clearInterval(sampler);
  if (code !== 0) throw new Error(`labeldesk import failed (exit ${code}): ${output.slice(0, 2000)}`);
  const lines = output.trim().split('\n');
  const phases = lines.filter((line) => line.startsWith('phase ') && !line.startsWith('phase total'));
  const cpuSeconds = Number(/phase total: cpu ([\d.]+) s/.exec(output)?.[1] ?? Number.NaN);
  log(`  ${lines.filter((line) => !line.startsWith('phase ')).join('\n  ')}`);
  return { seconds: (performance.now() - t0) / 1000, peakRssMiB: peak, cpuSeconds, phases };
}

/** Resident memory of a process in MiB; 0 once it has gone. */
export function rssMiB(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

const MODES_BY_WEIGHT = ['roadTransport', 'roadTransport', 'roadTransport', 'airFreight', 'seaFreight', 'railFreight', 'stationary', 'unknown'] as const;
const LABEL_TYPES = ['TempSense T1', 'TempSense T2', 'HumiSense H1'] as const;
const FIRMWARE = ['2.4.1', '2.5.0', '3.0.2'] as const;

/** Report i of a site of `size` reports; the same for the same i and size. */
export function siteReport(i: number, size: number): BundleReport {
  const rand = mulberry32(hash32(i ^ 0x5eed));
  const owned = i % 4 !== 3;
  const created = siteCreated(i, size);
  const humidity = rand() < 0.15;
  const interval = rand() < 0.7 ? 600 : 300;
  const points = i % SITE.bigEvery === 0 ? SITE.bigDatapoints : SITE.datapoints;
  const limits = humidity
    ? { minTemperature: 15, maxTemperature: 25, minHumidity: 20, maxHumidity: 80 }
    : rand() < 0.8
      ? { minTemperature: 2, maxTemperature: 8 }
      : { minTemperature: -25, maxTemperature: -15 };
  const start = created + 600;
  const report: BundleReport = {
    id: siteReportId(i),
    created: new Date(created * 1000).toISOString(),
    updated: new Date((start + points * interval) * 1000).toISOString(),
    companyId: owned ? SITE.company : SITE.otherCompany,
    label: {
      uid: `E004015${(0x10000000 + i).toString(16).toUpperCase()}`,
      sequenceCode: `TS1-${String(i).padStart(7, '0')}`,
      type: humidity ? LABEL_TYPES[2] : LABEL_TYPES[i % 2],
      name: `Pallet ${1 + (i % 48)}`,
      firmwareVersionInfo: { firmwareVersion: FIRMWARE[i % 3], firmwareApiVersion: i % 3 === 2 ? '4' : '3' },
    },
    mode: MODES_BY_WEIGHT[Math.floor(rand() * MODES_BY_WEIGHT.length)],
    type: humidity ? 'humiditySense' : 'tempSense',
    status: rand() < 0.2 ? 'active' : 'completed',
    labelReference: `PO-${10_000 + Math.floor(rand() * 90_000)}`,
    senseConfig: { limits, interval, configTime: created, startDelay: 600, runningTime: points * interval },
    numberOfTaps: 1 + Math.floor(rand() * 5),
    reportedSenseData: { datapoints: walk(rand, points, start, interval, limits.minTemperature, limits.maxTemperature, humidity) },
  };
  if (rand() < 0.02) report.dataIsIncomplete = true;
  if (owned && rand() < 0.5) report.subCompany = { id: `site-${1 + (i % 8)}` };
  if (rand() < 0.8) {
    report.customFields = [
      { customFieldId: 'batch', value: `B-${1 + Math.floor(rand() * SITE.batches)}` },
      { customFieldId: 'pallets', value: 1 + Math.floor(rand() * 40) },
    ];
  }
  if (!owned) report.access = [{ companyId: SITE.company, role: 'viewer' }];
  else if (rand() < 0.1) report.access = [{ companyId: SITE.otherCompany, role: 'viewer' }];
  const flag = rand() < 0.05;
  const archived = rand() < 0.1;
  if (flag || archived) report.companyState = [{ companyId: SITE.company, hasFlag: flag, isArchived: archived }];
  return report;
}

/** A temperature drifting inside its limits, with an excursion in about one report of five. */
function walk(rand: () => number, points: number, start: number, interval: number, min: number, max: number, humidity: boolean): Datapoint[] {
  const middle = (min + max) / 2;
  let t = middle;
  const excursionAt = rand() < 0.2 ? Math.floor(rand() * points) : -1;
  const excursionLength = 1 + Math.floor(rand() * 12);
  const out: Datapoint[] = new Array(points);
  for (let k = 0; k < points; k++) {
    t += (rand() - 0.5) * 0.6 + (middle - t) * 0.05;
    const excursion = excursionAt >= 0 && k >= excursionAt && k < excursionAt + excursionLength ? (max - min) * 0.8 : 0;
    const d: Datapoint = { timestamp: start + k * interval, temperature: Math.round((t + excursion) * 100) / 100 };
    if (humidity) d.humidity = Math.round((45 + rand() * 20) * 10) / 10;
    out[k] = d;
  }
  return out;
}

function hash32(n: number): number {
  let h = Math.imul(n ^ 0x9e3779b9, 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

function progressStep(size: number): number {
  return size >= 500_000 ? 100_000 : size >= 50_000 ? 25_000 : Math.max(1, size);
}

export function fmt(n: number): string {
  return n.toLocaleString('en-US').replace(/,/g, ' ');
}
