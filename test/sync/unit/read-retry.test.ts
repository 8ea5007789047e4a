/** Reads retried inside a cycle: transient failures only, a few attempts, short doubling waits, a long Retry-After left to the cycle. */
import { describe, expect, it } from 'vitest';
import { JITTER } from '../../../sync/backoff';
import { READ_RETRY, readRetryDelayMs, type ReadRetryPolicy } from '../../../sync/read-retry';

const policy: ReadRetryPolicy = { attempts: 4, firstDelayMs: 100, longestWaitMs: 1000 };
const none = () => 0;
const transient = { transient: true };

describe('read retries inside a cycle', () => {
  it('wait from the first delay, doubling, until the attempts are spent', () => {
    expect([1, 2, 3, 4, 5].map((attempt) => readRetryDelayMs(policy, attempt, transient, none))).toEqual([100, 200, 400, null, null]);
  });

  it('never wait longer than the longest wait', () => {
    const many = { ...policy, attempts: 10 };
    expect(readRetryDelayMs(many, 6, transient, none)).toBe(1000);
    expect(readRetryDelayMs(many, 9, transient, none)).toBe(1000);
  });

  it('are shortened by the jitter, never lengthened', () => {
    for (const r of [0, 0.3, 0.999]) {
      const delay = readRetryDelayMs(policy, 2, transient, () => r)!;
      expect(delay).toBeLessThanOrEqual(200);
      expect(delay).toBeGreaterThanOrEqual(Math.floor(200 * (1 - JITTER)));
    }
    expect(readRetryDelayMs(policy, 2, transient, () => 0.5)).not.toBe(readRetryDelayMs(policy, 2, transient, () => 0.1));
  });

  it('leave a failure that is not transient to the cycle at once', () => {
    expect(readRetryDelayMs(policy, 1, { transient: false }, none)).toBeNull();
    expect(readRetryDelayMs(policy, 1, { transient: false, retryAfterMs: 0 }, none)).toBeNull();
  });

  it('wait at least a short Retry-After, and leave a long one to the cycle', () => {
    expect(readRetryDelayMs(policy, 1, { transient: true, retryAfterMs: 0 }, none)).toBe(100);
    expect(readRetryDelayMs(policy, 1, { transient: true, retryAfterMs: 700 }, none)).toBe(700);
    expect(readRetryDelayMs(policy, 1, { transient: true, retryAfterMs: 1000 }, none)).toBe(1000);
    expect(readRetryDelayMs(policy, 1, { transient: true, retryAfterMs: 1001 }, none)).toBeNull();
  });

  it('by default: a few attempts within about a second, and any Retry-After of a second or more left to the cycle', () => {
    expect(readRetryDelayMs(READ_RETRY, 1, { transient: true, retryAfterMs: 1000 }, none)).toBeNull();
    expect(readRetryDelayMs(READ_RETRY, 1, { transient: true, retryAfterMs: 0 }, none)).not.toBeNull();
    const waits: number[] = [];
    for (let attempt = 1; ; attempt++) {
      const delay = readRetryDelayMs(READ_RETRY, attempt, transient, none);
      if (delay === null) break;
      waits.push(delay);
    }
    expect(waits.length).toBe(READ_RETRY.attempts - 1);
    expect(waits.length).toBeGreaterThan(0);
    expect(waits.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(READ_RETRY.longestWaitMs * 2);
  });
});
