import fc from 'fast-check';
import { assertProperty } from '../support/property';
import { describe, expect, it } from 'vitest';
import { DEFAULT_TARGET_POINTS, downsampleMinMax, downsampleWindow } from '../../renderer/lib/downsample';

const series = (ys: number[]) => ys.map((y, x) => ({ x, y }));

describe('min/max-preserving downsampling', () => {
  it('returns short series unchanged (as a copy)', () => {
    const s = series([1, 2, 3]);
    const out = downsampleMinMax(s, 10);
    expect(out).toEqual(s);
    expect(out).not.toBe(s);
  });

  it('keeps a single spike that striding would lose', () => {
    const ys = new Array(100_000).fill(5);
    ys[54_321] = 42;
    ys[77_777] = -30;
    const out = downsampleMinMax(series(ys), 2000);
    expect(out.length).toBeLessThanOrEqual(2000);
    expect(out.some((p) => p.y === 42 && p.x === 54_321)).toBe(true);
    expect(out.some((p) => p.y === -30 && p.x === 77_777)).toBe(true);
  });

  it('refuses a target too small to keep first, last, min and max', () => {
    expect(() => downsampleMinMax(series([1, 2, 3, 4, 5]), 3)).toThrow(RangeError);
  });

  it('keeps first and last, global min and max, order, and at most target points (property)', () => {
    assertProperty(
      fc.property(
        fc.array(fc.double({ min: -100, max: 100, noNaN: true }), { minLength: 1, maxLength: 3000 }),
        fc.integer({ min: 4, max: 500 }),
        (ys, target) => {
          const input = series(ys);
          const out = downsampleMinMax(input, target);
          expect(out.length).toBeLessThanOrEqual(Math.max(target, 0));
          expect(out[0]).toBe(input[0]);
          expect(out[out.length - 1]).toBe(input[input.length - 1]);
          for (let i = 1; i < out.length; i++) expect(out[i].x).toBeGreaterThan(out[i - 1].x);
          const min = Math.min(...ys);
          const max = Math.max(...ys);
          expect(out.some((p) => p.y === min)).toBe(true);
          expect(out.some((p) => p.y === max)).toBe(true);
          // A subsequence of the same objects.
          for (const p of out) expect(input[p.x]).toBe(p);
        },
      ),
      { numRuns: 200 },
    );
  });

  // How fast this is belongs to `npm run bench -- chart`; here only what it keeps.
  it('brings 1 000 000 points down to the default target, first, last, lowest and highest kept', () => {
    const ys = Array.from({ length: 1_000_000 }, (_, i) => Math.sin(i / 1000) * 10 + (i === 654_321 ? 25 : 0));
    const input = series(ys);
    const out = downsampleMinMax(input);
    expect(out.length).toBeLessThanOrEqual(DEFAULT_TARGET_POINTS);
    expect(out.length).toBeGreaterThan(DEFAULT_TARGET_POINTS / 2);
    expect(out[0]).toBe(input[0]);
    expect(out[out.length - 1]).toBe(input[input.length - 1]);
    expect(out).toContain(input[654_321]);
    const lowest = ys.reduce((min, y) => Math.min(min, y));
    expect(out.some((p) => p.y === lowest)).toBe(true);
  });
});

describe('downsampling the zoomed window', () => {
  it('draws the visible window in full detail, from the neighbour before it to its end', () => {
    const s = series(Array.from({ length: 100_000 }, (_, i) => i % 7));
    const out = downsampleWindow(s, 50_000, 50_500, 2000);
    expect(out[0].x).toBe(49_999);
    expect(out[out.length - 1].x).toBe(50_500);
    expect(out).toHaveLength(502);
  });

  it('keeps a one-reading spike however far out the view is', () => {
    const ys = new Array(200_000).fill(5);
    ys[123_457] = 31;
    const s = series(ys);
    for (const [from, to] of [
      [0, 200_000],
      [100_000, 150_000],
      [123_000, 124_000],
    ]) {
      expect(downsampleWindow(s, from, to, 500).some((p) => p.y === 31)).toBe(true);
    }
  });
});
