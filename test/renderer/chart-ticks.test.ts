import fc from 'fast-check';
import { assertProperty } from '../support/property';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { niceScale, niceStep, scaleTicks, TIME_STEPS, timeStep, timeTicks } from '../../renderer/lib/chart-ticks';
import { formatClock } from '../../renderer/lib/time-zone';

const savedTz = process.env.TZ;
beforeAll(() => {
  process.env.TZ = 'America/New_York';
});
afterAll(() => {
  if (savedTz === undefined) delete process.env.TZ;
  else process.env.TZ = savedTz;
});

const ROUND = [1, 2, 2.5, 5];
function isRound(step: number): boolean {
  const power = 10 ** Math.floor(Math.log10(step) + 1e-9);
  return ROUND.some((m) => Math.abs(step / power - m) < 1e-9) || Math.abs(step / power - 10) < 1e-9;
}

describe('value ticks', () => {
  it('steps in round numbers', () => {
    expect(niceStep(10, 6)).toBe(2);
    expect(niceStep(7, 8)).toBe(1);
    expect(niceStep(0.9, 10)).toBe(0.1);
    expect(niceStep(100, 5)).toBe(25);
  });

  it('covers every value exactly, even when the top is a hair above a multiple of the step', () => {
    // Found by the property below: the scale ended at 5, below the data.
    expect(niceScale(0, 5.000000001000001, 3)).toEqual({ min: 0, max: 10, step: 5 });
    const low = niceScale(-5.000000001000001, 0, 3);
    expect(low.min).toBeLessThanOrEqual(-5.000000001000001);
  });

  it('covers the range with round ends and evenly spaced ticks, never more than asked (property)', () => {
    assertProperty(
      fc.property(
        fc.double({ min: -300, max: 1000, noNaN: true }),
        // Readings have a tenth of a degree; a chart never spans less than a hundredth.
        fc.double({ min: 0.01, max: 1300, noNaN: true }),
        fc.integer({ min: 3, max: 12 }),
        (low, span, maxTicks) => {
          const s = niceScale(low, low + span, maxTicks);
          // Exactly: a chart never cuts a reading off.
          expect(s.min).toBeLessThanOrEqual(low);
          expect(s.max).toBeGreaterThanOrEqual(low + span);
          expect(isRound(s.step)).toBe(true);
          const ticks = scaleTicks(s);
          expect(ticks.length).toBeLessThanOrEqual(maxTicks);
          for (let i = 1; i < ticks.length; i++) expect(ticks[i] - ticks[i - 1]).toBeCloseTo(s.step, 9);
          // Every tick is a whole multiple of the step: 2.0, 2.5, 3.0 — never 2.13.
          for (const t of ticks) expect(Math.abs(t / s.step - Math.round(t / s.step))).toBeLessThan(1e-6 * Math.max(1, Math.abs(t / s.step)));
        },
      ),
    );
  });

  it('prints ticks without floating-point dust', () => {
    expect(scaleTicks(niceScale(0.1, 0.7, 8))).toEqual([0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7]);
  });
});

describe('time ticks', () => {
  const at = (iso: string) => Date.parse(iso) / 1000;

  it('takes a step people count in, for the room there is', () => {
    expect(timeStep(0, 19 * 86400, 12)).toBe(2 * 86400);
    expect(timeStep(0, 19 * 86400, 8)).toBe(7 * 86400);
    expect(timeStep(0, 6 * 3600, 8)).toBe(3600);
    expect(TIME_STEPS).toContain(timeStep(0, 123_456, 7));
  });

  it('ticks on the hour in the chosen zone, whatever the start', () => {
    const min = at('2026-11-22T13:17:41Z');
    const ticks = timeTicks(min, min + 8 * 3600, 3600, 'utc');
    expect(ticks[0].value).toBe(at('2026-11-22T14:00:00Z'));
    expect(ticks.every((t) => t.value % 3600 === 0)).toBe(true);
    expect(ticks).toHaveLength(8);
  });

  it('puts day ticks on local midnight and marks each new day, also across a clock change', () => {
    // New York leaves daylight saving time on 2026-11-01.
    const min = at('2026-10-29T10:00:00Z');
    const ticks = timeTicks(min, min + 6 * 86400, 86400, 'local');
    expect(ticks.map((t) => formatClock(t.value, 'local'))).toEqual(Array(ticks.length).fill('00:00'));
    expect(ticks.every((t) => t.newDay)).toBe(true);
    const six = timeTicks(min, min + 2 * 86400, 6 * 3600, 'local');
    expect(new Set(six.map((t) => formatClock(t.value, 'local')))).toEqual(new Set(['00:00', '06:00', '12:00', '18:00']));
    expect(six.filter((t) => t.newDay).map((t) => formatClock(t.value, 'local'))).toEqual([
      formatClock(six[0].value, 'local'),
      '00:00',
      '00:00',
    ]);
  });

  it('starts weeks on a Monday', () => {
    const ticks = timeTicks(at('2026-11-01T00:00:00Z'), at('2026-12-31T00:00:00Z'), 7 * 86400, 'utc');
    expect(ticks.every((t) => new Date(t.value * 1000).getUTCDay() === 1)).toBe(true);
  });
});
