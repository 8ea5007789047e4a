/** The retry schedule of docs/webhooks.md#delivery, its jitter, the environment's replacement, and Retry-After. */
import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY_DELAYS_S, RetrySchedule, retryAfterMs, RETRY_DELAYS_ENV } from '../../webhooks/retry-schedule';

describe('the retry schedule', () => {
  it('is 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, each within ±20 %, then nothing', () => {
    expect(DEFAULT_RETRY_DELAYS_S).toEqual([5, 300, 1800, 7200, 18_000, 36_000, 36_000]);
    const low = new RetrySchedule(undefined, () => 0);
    const high = new RetrySchedule(undefined, () => 1);
    const middle = new RetrySchedule(undefined, () => 0.5);
    DEFAULT_RETRY_DELAYS_S.forEach((seconds, i) => {
      expect(low.delayAfter(i + 1)).toBe(seconds * 800);
      expect(high.delayAfter(i + 1)).toBe(seconds * 1200);
      expect(middle.delayAfter(i + 1)).toBe(seconds * 1000);
    });
    expect(middle.delayAfter(8)).toBeNull();
  });

  it(`${RETRY_DELAYS_ENV} replaces the delays; unset or empty keeps the default; nonsense is refused`, () => {
    const schedule = RetrySchedule.fromEnvironment({ [RETRY_DELAYS_ENV]: ' 1, 0.25,0 ' }, () => 0.5);
    expect([1, 2, 3, 4].map((n) => schedule.delayAfter(n))).toEqual([1000, 250, 0, null]);
    expect(RetrySchedule.fromEnvironment({}).delaysS).toEqual(DEFAULT_RETRY_DELAYS_S);
    expect(RetrySchedule.fromEnvironment({ [RETRY_DELAYS_ENV]: ' ' }).delaysS).toEqual(DEFAULT_RETRY_DELAYS_S);
    for (const text of ['5,,6', '-1', '1s', 'abc']) {
      expect(() => RetrySchedule.fromEnvironment({ [RETRY_DELAYS_ENV]: text })).toThrow(RETRY_DELAYS_ENV);
    }
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = new Date('2026-11-20T10:00:00.000Z');
    expect(retryAfterMs('120', now)).toBe(120_000);
    expect(retryAfterMs('Fri, 20 Nov 2026 10:01:00 GMT', now)).toBe(60_000);
    expect(retryAfterMs('Fri, 20 Nov 2026 09:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs('soon', now)).toBeNull();
    expect(retryAfterMs(undefined, now)).toBeNull();
    expect(retryAfterMs('99999999999', now)).toBe(30 * 24 * 3600 * 1000);
  });
});
