/** The one backoff: doubling to a ceiling or a schedule, its jitter, Retry-After as a floor, and no attempt left. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { delayAfter, exponential, jittered, schedule, SHORTEN_ONLY, SPREAD_EVENLY } from '../../jobs/backoff';
import { assertProperty } from '../support/property';

describe('backoff', () => {
  it('doubles from the first delay up to the ceiling, and stops after the attempts given', () => {
    const backoff = exponential(100, 1000, SHORTEN_ONLY, 6);
    expect([1, 2, 3, 4, 5].map((n) => delayAfter(backoff, n, () => 0))).toEqual([100, 200, 400, 800, 1000]);
    expect(delayAfter(backoff, 6, () => 0)).toBeNull();
    expect(delayAfter(exponential(100, 1000), 10_000, () => 0)).toBe(1000);
  });

  it('follows a schedule, then has nothing left', () => {
    const backoff = schedule([5, 50, 500], SHORTEN_ONLY);
    expect([1, 2, 3, 4].map((n) => delayAfter(backoff, n, () => 0))).toEqual([5, 50, 500, null]);
  });

  it('spreads each delay within its jitter: shorten-only never lengthens, evenly reaches both ends', () => {
    assertProperty(
      fc.property(fc.integer({ min: 0, max: 10 ** 7 }), fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), (ms, r) => {
        const short = jittered(ms, SHORTEN_ONLY, () => r);
        expect(short).toBeLessThanOrEqual(ms);
        expect(short).toBeGreaterThanOrEqual(Math.floor(ms * 0.8));
        const even = jittered(ms, SPREAD_EVENLY, () => r);
        expect(even).toBeLessThanOrEqual(Math.ceil(ms * 1.2));
        expect(even).toBeGreaterThanOrEqual(Math.floor(ms * 0.8));
      }),
    );
    expect(jittered(1000, SPREAD_EVENLY, () => 0)).toBe(1200);
    expect(jittered(1000, SPREAD_EVENLY, () => 0.5)).toBe(1000);
    expect(jittered(1000, SHORTEN_ONLY, () => 0)).toBe(1000);
    expect(jittered(1000, SHORTEN_ONLY, () => 0.5)).toBe(900);
  });

  it('never waits less than Retry-After asked, even past the ceiling', () => {
    const backoff = exponential(1000, 5000);
    expect(delayAfter(backoff, 1, () => 0, 60_000)).toBe(60_000);
    expect(delayAfter(backoff, 3, () => 0, 10)).toBe(4000);
    expect(delayAfter(schedule([1000]), 2, () => 0, 60_000)).toBeNull();
  });
});
