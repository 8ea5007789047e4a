/**
 * A bench's figures as rows, each printed beside the load average and the previous run's figure
 * of the same row, and remembered in bench/baseline.json for the next run:
 *
 *   sense: computeSense 100000 datapoints, median  1.92 ms  load 1.3  previous 1.85 ms (×1.04)  target ≤ 5 ms: met
 *
 * The ratio is now/previous. A row more than 20 % worse than before is marked right after the
 * previous figure, `SLOWER ×1.31` (`WORSE ×1.31` for a figure that is neither a time nor a rate):
 * by now/previous where lower is better, by previous/now where higher is. A run updates the
 * entries of the rows it measured and keeps every other; the previous figures are the file's as
 * the run found it.
 *
 *   BENCH_BASELINE=off          neither read nor written
 *   BENCH_BASELINE=FILE         another file
 */
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, totalmem } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export type Better = 'lower' | 'higher';

export interface Row {
  /** Stable across runs: the key of the row's entry in the baseline file. */
  name: string;
  value: number;
  unit: string;
  better: Better;
  /** Met when the value is at most this (lower is better) or at least this (higher is better). */
  target?: number;
  /** Context printed after the row and not remembered: counts, sizes, what the figure is beside. */
  detail?: string;
}

export interface Machine {
  cores: number;
  memoryGiB: number;
  node: string;
}

export interface Entry {
  value: number;
  unit: string;
  better: Better;
  target?: number;
  /** The 1-minute load average when the row was measured. */
  load: number;
  date: string;
  machine: Machine;
}

export interface BaselineFile {
  rows: Record<string, Entry>;
}

/** How much worse than the previous figure a row may get before it is marked. */
export const WORSE_BEYOND = 1.2;

export const DEFAULT_FILE = fileURLToPath(new URL('./baseline.json', import.meta.url));

/** The file a run reads and writes, or null when BENCH_BASELINE=off. */
export function baselinePath(env: NodeJS.ProcessEnv = process.env): string | null {
  const setting = env.BENCH_BASELINE?.trim();
  if (setting === 'off') return null;
  return setting ? resolve(setting) : DEFAULT_FILE;
}

export function machine(): Machine {
  return { cores: availableParallelism(), memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10, node: process.version };
}

/**
 * now/previous, or null when the two are not comparable: another unit, no figure, or a previous
 * figure of zero or less (a difference of clocks that may come out either side of zero).
 */
export function ratio(row: Pick<Row, 'value' | 'unit'>, previous: Pick<Entry, 'value' | 'unit'> | undefined): number | null {
  if (previous === undefined || previous.unit !== row.unit) return null;
  if (!Number.isFinite(row.value) || !Number.isFinite(previous.value) || previous.value <= 0 || row.value < 0) return null;
  return row.value / previous.value;
}

/**
 * By how much the row got worse than the previous figure (a factor above 1), or null when it did
 * not, or not comparably. Lower is better: now/previous; higher is better: previous/now.
 */
export function worseBy(row: Pick<Row, 'value' | 'unit' | 'better'>, previous: Pick<Entry, 'value' | 'unit'> | undefined): number | null {
  const r = ratio(row, previous);
  if (r === null) return null;
  const factor = row.better === 'lower' ? r : r === 0 ? Infinity : 1 / r;
  return factor > 1 ? factor : null;
}

export function targetMet(row: Pick<Row, 'value' | 'better' | 'target'>): boolean | null {
  if (row.target === undefined) return null;
  return row.better === 'lower' ? row.value <= row.target : row.value >= row.target;
}

/** A figure as the benches print them: 2 decimals under 10, 1 under 100, whole above; thousands spaced. */
export function formatNumber(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  const abs = Math.abs(n);
  if (abs >= 1000) return Math.round(n).toLocaleString('en-US').replace(/,/g, ' ');
  if (abs >= 100) return n.toFixed(0);
  if (abs >= 10) return n.toFixed(1);
  return n.toFixed(2);
}

const withUnit = (n: number, unit: string) => (unit === '×' ? `×${formatNumber(n)}` : `${formatNumber(n)} ${unit}`);
/** A target as written: 5 ms, not 5.00 ms. */
const targetWithUnit = (n: number, unit: string) => (Number.isInteger(n) && Math.abs(n) < 1000 ? (unit === '×' ? `×${n}` : `${n} ${unit}`) : withUnit(n, unit));

/** Times and rates get slower; memory, counts and the like get worse. */
function worseWord(unit: string): string {
  return /^(ms|s|min)$|\/s$|\/ s$/.test(unit) ? 'SLOWER' : 'WORSE';
}

/** One printed row: the figure, the load, the previous figure and the ratio, the target, the mark. */
export function formatRow(row: Row, load: number, previous: Entry | undefined): string {
  const parts = [`${row.name}  ${withUnit(row.value, row.unit)}`, `load ${load.toFixed(1)}`];
  const r = ratio(row, previous);
  if (previous === undefined) parts.push('previous —');
  else if (r === null) parts.push(`previous ${withUnit(previous.value, previous.unit)} (not comparable)`);
  else parts.push(`previous ${withUnit(previous.value, previous.unit)} (×${r.toFixed(2)})`);
  const worse = worseBy(row, previous);
  if (worse !== null && worse > WORSE_BEYOND) parts.push(`${worseWord(row.unit)} ×${worse.toFixed(2)}`);
  const met = targetMet(row);
  if (met !== null) parts.push(`target ${row.better === 'lower' ? '≤' : '≥'} ${targetWithUnit(row.target!, row.unit)}: ${met ? 'met' : 'NOT met'}`);
  const line = parts.join('  ');
  return row.detail ? `${line}  (${row.detail})` : line;
}

export function entryOf(row: Row, load: number, at: Date, on: Machine): Entry {
  return {
    // Six significant digits: more is noise.
    value: Number(row.value.toPrecision(6)),
    unit: row.unit,
    better: row.better,
    ...(row.target !== undefined && { target: row.target }),
    load: Math.round(load * 100) / 100,
    date: at.toISOString(),
    machine: on,
  };
}

/** The file with the measured rows' entries replaced or added, every other entry kept; names sorted. */
export function updated(file: BaselineFile, measured: Readonly<Record<string, Entry>>): BaselineFile {
  const rows = { ...file.rows, ...measured };
  return { rows: Object.fromEntries(Object.keys(rows).sort().map((name) => [name, rows[name]])) };
}

/** The baseline in `path`; an empty one when there is no file yet. */
export function readBaseline(path: string): BaselineFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { rows: {} };
    throw err;
  }
  const parsed = JSON.parse(text) as Partial<BaselineFile>;
  if (typeof parsed !== 'object' || parsed === null || typeof parsed.rows !== 'object' || parsed.rows === null) {
    throw new Error(`${path} is not a bench baseline (no "rows" object)`);
  }
  return { rows: parsed.rows };
}

/** Writes a temp file beside `path`, then renames it over: a reader sees the old file or the new, never half. */
export function writeBaseline(path: string, file: BaselineFile): void {
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${Date.now()}.tmp`);
  try {
    writeFileSync(temp, JSON.stringify(file, null, 2) + '\n');
    renameSync(temp, path);
  } catch (err) {
    rmSync(temp, { force: true });
    throw err;
  }
}

/**
 * The rows of one run: `report` prints each and keeps its entry; `save` merges them into the file
 * as it is then (another bench may have written it meanwhile). The previous figures are the file's
 * as the run found it.
 */
export class Baseline {
  private previous: BaselineFile | null = null;
  private measured: Record<string, Entry> = {};

  constructor(
    readonly path: string | null,
    private readonly print: (line: string) => void = (line) => console.log(line),
    private readonly load: () => number = () => loadavg()[0],
    private readonly now: () => Date = () => new Date(),
  ) {}

  private before(): BaselineFile {
    this.previous ??= this.path === null ? { rows: {} } : readBaseline(this.path);
    return this.previous;
  }

  /** Prints the row, `indent` before it, and keeps it for `save`. */
  report(row: Row, indent = ''): void {
    const load = this.load();
    this.print(indent + formatRow(row, load, this.before().rows[row.name]));
    this.measured[row.name] = entryOf(row, load, this.now(), machine());
  }

  /** Writes the rows reported since the last save; nothing when BENCH_BASELINE=off or none were. */
  save(): number {
    const names = Object.keys(this.measured);
    if (this.path === null || names.length === 0) return 0;
    writeBaseline(this.path, updated(readBaseline(this.path), this.measured));
    this.measured = {};
    return names.length;
  }
}

/** The run's baseline, shared by every bench it runs. */
export const baseline = new Baseline(baselinePath());

/** Reports a row to the run's baseline. */
export function report(row: Row, indent = ''): void {
  baseline.report(row, indent);
}
