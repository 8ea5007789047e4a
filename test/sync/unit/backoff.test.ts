/** Retry delays: 1 s doubling to at most 5 minutes, shortened at random by up to a fifth, Retry-After waited out. */
import { describe, expect, it } from 'vitest';
import { FIRST_RETRY_MS, JITTER, MAX_RETRY_MS, parseRetryAfter, retryDelayMs } from '../../../sync/backoff';

describe('retry delays', () => {
  it('double from one second and stop at five minutes', () => {
    const none = () => 0;
    expect([1, 2, 3, 4, 9, 10, 50].map((n) => retryDelayMs(n, none))).toEqual([1000, 2000, 4000, 8000, 256_000, MAX_RETRY_MS, MAX_RETRY_MS]);
  });

  it('are shortened by the jitter, never lengthened', () => {
    for (const r of [0, 0.25, 0.5, 0.999]) {
      for (let n = 1; n < 15; n++) {
        const base = Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** (n - 1));
        const delay = retryDelayMs(n, () => r);
        expect(delay).toBeLessThanOrEqual(base);
        expect(delay).toBeGreaterThanOrEqual(Math.floor(base * (1 - JITTER)));
      }
    }
    expect(new Set([0.1, 0.5, 0.9].map((r) => retryDelayMs(5, () => r))).size).toBe(3);
  });

  it('wait at least what Retry-After asks, even beyond five minutes', () => {
    expect(retryDelayMs(1, () => 0, 30_000)).toBe(30_000);
    expect(retryDelayMs(20, () => 0, 600_000)).toBe(600_000);
    expect(retryDelayMs(5, () => 0, 100)).toBe(16_000);
  });
});

describe('Retry-After', () => {
  const now = Date.parse('2026-11-22T10:00:00.000Z');
  it('reads seconds and HTTP dates', () => {
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('Sun, 22 Nov 2026 10:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Sun, 22 Nov 2026 09:00:00 GMT', now)).toBe(0);
  });
  it('ignores what it cannot read', () => {
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('-5', now)).toBeUndefined();
  });
});
