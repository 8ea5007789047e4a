import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import {
  Baseline,
  baselinePath,
  DEFAULT_FILE,
  formatNumber,
  formatRow,
  ratio,
  readBaseline,
  targetMet,
  updated,
  worseBy,
  writeBaseline,
  type BaselineFile,
  type Entry,
  type Row,
} from '../../bench/baseline';

const MACHINE = { cores: 2, memoryGiB: 8, node: 'v20.19.0' };

function entry(value: number, unit = 'ms', better: Entry['better'] = 'lower'): Entry {
  return { value, unit, better, load: 1.1, date: '2026-12-01T10:00:00.000Z', machine: MACHINE };
}

const p50: Row = { name: 'service: page 500, p50', value: 12.4, unit: 'ms', better: 'lower' };
const rate: Row = { name: 'import: 20 000 reports, rate', value: 16_000, unit: 'reports/s', better: 'higher', target: 20_000 };

describe('formatting a row', () => {
  test('without a previous figure: the figure, the load and no ratio', () => {
    expect(formatRow(p50, 1.34, undefined)).toBe('service: page 500, p50  12.4 ms  load 1.3  previous —');
  });

  test('with a previous figure: the previous figure and now/previous', () => {
    expect(formatRow(p50, 1.3, entry(11.8))).toBe('service: page 500, p50  12.4 ms  load 1.3  previous 11.8 ms (×1.05)');
  });

  test('with a target: met or NOT met, by which way is better', () => {
    expect(formatRow({ ...p50, target: 10 }, 1, undefined)).toContain('target ≤ 10 ms: NOT met');
    expect(formatRow({ ...p50, target: 20 }, 1, undefined)).toContain('target ≤ 20 ms: met');
    expect(formatRow(rate, 1, undefined)).toContain('target ≥ 20 000 reports/s: NOT met');
    expect(formatRow({ ...rate, value: 21_000 }, 1, undefined)).toContain('target ≥ 20 000 reports/s: met');
  });

  test('a detail comes last, in parentheses', () => {
    expect(formatRow({ ...p50, detail: 'n 60' }, 1, undefined)).toMatch(/previous —  \(n 60\)$/);
  });

  test('a previous figure in another unit is shown but not compared', () => {
    const line = formatRow(p50, 1, entry(0.0124, 's'));
    expect(line).toContain('previous 0.01 s (not comparable)');
    expect(line).not.toMatch(/SLOWER|WORSE/);
  });

  test('figures are spaced by thousands and rounded by size', () => {
    expect([formatNumber(1.234), formatNumber(12.34), formatNumber(123.4), formatNumber(12_345.6)]).toEqual(['1.23', '12.3', '123', '12 346']);
  });
});

describe('the ratio and the worse-than-20 % mark', () => {
  test('the ratio is now/previous; none without a comparable previous figure', () => {
    expect(ratio(p50, entry(10))).toBeCloseTo(1.24);
    expect(ratio(p50, undefined)).toBeNull();
    expect(ratio(p50, entry(0))).toBeNull();
    expect(ratio(p50, entry(10, 's'))).toBeNull();
    // Figures either side of zero (a difference of two clocks) have no ratio.
    expect(ratio({ ...p50, value: 0.5 }, entry(-0.01))).toBeNull();
    expect(ratio({ ...p50, value: -0.5 }, entry(0.01))).toBeNull();
    expect(formatRow({ ...p50, value: -0.5 }, 1, entry(0.01))).toContain('(not comparable)');
  });

  test('lower is better: a rise of more than 20 % is marked, one of 20 % is not', () => {
    expect(worseBy({ ...p50, value: 13.1 }, entry(10))).toBeCloseTo(1.31);
    expect(formatRow({ ...p50, value: 13.1 }, 1, entry(10))).toMatch(/previous 10\.0 ms \(×1\.31\)  SLOWER ×1\.31$/);
    expect(formatRow({ ...p50, value: 12 }, 1, entry(10))).not.toContain('SLOWER');
    expect(worseBy({ ...p50, value: 8 }, entry(10))).toBeNull();
    expect(formatRow({ ...p50, value: 5 }, 1, entry(10))).not.toContain('SLOWER');
  });

  test('higher is better: a fall to less than 1/1.2 of before is marked, by previous/now', () => {
    expect(worseBy({ ...rate, value: 10_000 }, entry(13_100, 'reports/s', 'higher'))).toBeCloseTo(1.31);
    expect(formatRow({ ...rate, value: 10_000 }, 1, entry(13_100, 'reports/s', 'higher'))).toContain('(×0.76)  SLOWER ×1.31  target ≥ 20 000 reports/s: NOT met');
    expect(formatRow({ ...rate, value: 10_000 }, 1, entry(12_000, 'reports/s', 'higher'))).not.toContain('SLOWER');
    // A rate that doubled is better, however large the ratio.
    expect(worseBy({ ...rate, value: 20_000 }, entry(10_000, 'reports/s', 'higher'))).toBeNull();
  });

  test('a figure that is not a time or a rate gets WORSE, not SLOWER', () => {
    const rss: Row = { name: 'peak RSS', value: 400, unit: 'MiB', better: 'lower' };
    expect(formatRow(rss, 1, entry(300, 'MiB'))).toContain('WORSE ×1.33');
  });

  test('targetMet is null without a target', () => {
    expect(targetMet(p50)).toBeNull();
    expect(targetMet({ ...p50, target: 12.4 })).toBe(true);
  });
});

describe('the baseline file', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'labeldesk-test-baseline-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test('an update replaces the measured rows and keeps every other', () => {
    const file: BaselineFile = { rows: { b: entry(2), a: entry(1), c: entry(3) } };
    const next = updated(file, { b: entry(20), d: entry(4) });
    expect(Object.keys(next.rows)).toEqual(['a', 'b', 'c', 'd']);
    expect(next.rows.a).toEqual(entry(1));
    expect(next.rows.b.value).toBe(20);
    expect(next.rows.c).toEqual(entry(3));
    expect(next.rows.d.value).toBe(4);
    expect(file.rows.b.value).toBe(2);
  });

  test('written through a temp file renamed over it: no temp file stays, the old one is replaced whole', () => {
    const path = join(dir, 'baseline.json');
    writeFileSync(path, JSON.stringify({ rows: { old: entry(1) } }));
    writeBaseline(path, { rows: { new: entry(2) } });
    expect(readdirSync(dir)).toEqual(['baseline.json']);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ rows: { new: entry(2) } });
  });

  test('a failed write leaves the file as it was and no temp file', () => {
    const path = join(dir, 'no-such-folder', 'baseline.json');
    expect(() => writeBaseline(path, { rows: {} })).toThrow();
    expect(existsSync(path)).toBe(false);
    expect(readdirSync(dir)).toEqual([]);
  });

  test('no file yet reads as an empty baseline; a file without rows is refused', () => {
    expect(readBaseline(join(dir, 'none.json'))).toEqual({ rows: {} });
    writeFileSync(join(dir, 'other.json'), '{"version":1}');
    expect(() => readBaseline(join(dir, 'other.json'))).toThrow(/not a bench baseline/);
  });

  test('a run prints each row beside the file as it found it, and saves into the file as it is then', () => {
    const path = join(dir, 'baseline.json');
    writeBaseline(path, { rows: { [p50.name]: entry(10), kept: entry(5) } });
    const lines: string[] = [];
    const run = new Baseline(path, (line) => lines.push(line), () => 0.5, () => new Date('2026-12-07T09:00:00.000Z'));
    run.report({ ...p50, value: 13.1 }, '  ');
    // Another bench writes the file meanwhile: its row stays.
    writeBaseline(path, updated(readBaseline(path), { other: entry(7) }));
    expect(run.save()).toBe(1);
    expect(lines).toEqual([`  ${p50.name}  13.1 ms  load 0.5  previous 10.0 ms (×1.31)  SLOWER ×1.31`]);
    const saved = readBaseline(path).rows;
    expect(Object.keys(saved).sort()).toEqual(['kept', 'other', p50.name].sort());
    expect(saved[p50.name]).toMatchObject({ value: 13.1, unit: 'ms', better: 'lower', load: 0.5, date: '2026-12-07T09:00:00.000Z' });
    expect(saved[p50.name].machine).toEqual({ cores: expect.any(Number), memoryGiB: expect.any(Number), node: process.version });
    expect(run.save()).toBe(0);
  });

  test('BENCH_BASELINE: off reads and writes nothing; a path names another file', () => {
    expect(baselinePath({})).toBe(DEFAULT_FILE);
    expect(baselinePath({ BENCH_BASELINE: 'off' })).toBeNull();
    expect(baselinePath({ BENCH_BASELINE: join(dir, 'mine.json') })).toBe(join(dir, 'mine.json'));
    const lines: string[] = [];
    const run = new Baseline(null, (line) => lines.push(line), () => 1);
    run.report(p50);
    expect(lines).toEqual([`${p50.name}  12.4 ms  load 1.0  previous —`]);
    expect(run.save()).toBe(0);
    expect(readdirSync(dir)).toEqual([]);
  });
});
