import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { indexAtOrAfter, limitsBeyond, outsideTrim, rowWindow, scrollTopFor } from '../../renderer/lib/readings';
import { violationFlags } from '../../renderer/lib/report-view';
import { assertProperty } from '../support/property';
import { readings } from './fixtures';

const T0 = 1_700_000_000;
const LIMITS = { minTemperature: 2, maxTemperature: 8, minHumidity: 30, maxHumidity: 80 };

describe('the readings table in words', () => {
  it('names the limit a reading is beyond, and says nothing for one on a limit', () => {
    const [inside, onMax, above, below, wet] = readings([5, 8, 9, 1, 5], T0, [50, 50, 50, 50, 90]);
    expect(limitsBeyond(inside, LIMITS)).toEqual([]);
    expect(limitsBeyond(onMax, LIMITS)).toEqual([]);
    expect(limitsBeyond(above, LIMITS)).toEqual(['Above max 8.0 °C']);
    expect(limitsBeyond(below, LIMITS)).toEqual(['Below min 2.0 °C']);
    expect(limitsBeyond(wet, LIMITS)).toEqual(['Humidity above max 80.0 %RH']);
    expect(limitsBeyond({ timestamp: T0, temperature: 12, humidity: 10 }, LIMITS)).toEqual(['Above max 8.0 °C', 'Humidity below min 30.0 %RH']);
    expect(limitsBeyond({ timestamp: T0, temperature: 5, humidity: 99 }, { minTemperature: 2, maxTemperature: 8 })).toEqual([]);
  });

  it('marks a reading exactly where the shared violation rule does', () => {
    assertProperty(
      fc.property(
        fc.array(fc.record({ t: fc.double({ min: -10, max: 20, noNaN: true }), h: fc.option(fc.double({ min: 0, max: 100, noNaN: true }), { nil: undefined }) }), { maxLength: 40 }),
        (points) => {
          const dps = points.map((p, i) => ({ timestamp: T0 + i * 60, temperature: p.t, ...(p.h !== undefined && { humidity: p.h }) }));
          const flags = violationFlags(dps, LIMITS);
          dps.forEach((d, i) => expect(limitsBeyond(d, LIMITS).length > 0).toBe(flags[i] !== 0));
        },
      ),
    );
  });

  it('leaves out what lies outside the trim, and nothing without one', () => {
    const trim = { start: T0 + 60, end: T0 + 120 };
    expect([T0, T0 + 60, T0 + 90, T0 + 120, T0 + 180].map((t) => outsideTrim(t, trim))).toEqual([true, false, false, false, true]);
    expect(outsideTrim(T0, null)).toBe(false);
  });

  it('finds the first reading at or after a time', () => {
    const dps = readings([5, 5, 5, 5]);
    expect(indexAtOrAfter(dps, T0 - 1)).toBe(0);
    expect(indexAtOrAfter(dps, T0 + 600)).toBe(1);
    expect(indexAtOrAfter(dps, T0 + 601)).toBe(2);
    expect(indexAtOrAfter(dps, T0 + 99_999)).toBe(3);
    expect(indexAtOrAfter([], T0)).toBe(0);
  });

  it('puts the rows in view and a few around them in the DOM, never all of them', () => {
    expect(rowWindow(0, 280, 28, 10_000)).toEqual({ first: 0, end: 19 });
    expect(rowWindow(28 * 5000, 280, 28, 10_000)).toEqual({ first: 4992, end: 5019 });
    expect(rowWindow(28 * 9990, 280, 28, 10_000)).toEqual({ first: 9982, end: 10_000 });
    expect(rowWindow(0, 280, 28, 0)).toEqual({ first: 0, end: 0 });
    assertProperty(
      fc.property(fc.nat(100_000), fc.integer({ min: 1, max: 50_000 }), fc.integer({ min: 50, max: 2000 }), (scroll, count, view) => {
        const w = rowWindow(scroll, view, 28, count);
        const top = Math.min(Math.floor(scroll / 28), count - 1);
        // The top row in view is always among those drawn, and the DOM stays small.
        expect(w.first).toBeLessThanOrEqual(top);
        expect(w.end).toBeGreaterThan(top);
        expect(w.end - w.first).toBeLessThanOrEqual(Math.ceil(view / 28) + 1 + 16);
      }),
    );
  });

  it('scrolls to a row with some context above it, and stays put when the row is in view', () => {
    expect(scrollTopFor(100, 0, 280, 28)).toBe(98 * 28);
    expect(scrollTopFor(1, 0, 280, 28)).toBe(0);
    expect(scrollTopFor(5, 0, 280, 28)).toBe(0);
    expect(scrollTopFor(5, 28 * 4, 280, 28)).toBe(28 * 3);
  });
});
