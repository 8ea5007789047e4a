/**
 * The one Retry-After rule both sync and webhook delivery read by: whole seconds or an HTTP
 * date; a past date is 0; negative numbers, fractions and words are no answer; every wait is
 * capped (30 days unless the caller says less).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_RETRY_AFTER_MS, parseRetryAfter } from '../../jobs/retry-after';
import { parseRetryAfter as syncParse } from '../../sync/backoff';
import { retryAfterMs as webhookParse } from '../../webhooks/retry-schedule';
import { assertProperty } from '../support/property';

const now = Date.parse('2026-11-22T10:00:00.000Z');

describe('Retry-After', () => {
  it('reads delay-seconds and HTTP dates', () => {
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('Sun, 22 Nov 2026 10:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter(['7', '9'], now)).toBe(7000);
  });

  it('reads a date in the past as now', () => {
    expect(parseRetryAfter('Sun, 22 Nov 2026 09:00:00 GMT', now)).toBe(0);
  });

  it('refuses negative numbers (which Date.parse reads as years), fractions and words', () => {
    for (const text of ['-5', '-0', '1.5', '1e3', '+3', '-2026', 'soon', '', '   ', '0x10', 'Sun, 99 Foo 2026']) {
      expect(parseRetryAfter(text, now), text).toBeUndefined();
    }
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });

  it('caps every wait, by seconds or by date, at 30 days or the maximum given', () => {
    expect(MAX_RETRY_AFTER_MS).toBe(30 * 24 * 3600 * 1000);
    expect(parseRetryAfter('99999999999', now)).toBe(MAX_RETRY_AFTER_MS);
    expect(parseRetryAfter('Fri, 01 Jan 2100 00:00:00 GMT', now)).toBe(MAX_RETRY_AFTER_MS);
    expect(parseRetryAfter('600', now, 60_000)).toBe(60_000);
  });

  it('is the rule sync and webhook delivery both read by', () => {
    const header = fc.oneof(
      fc.nat().map(String),
      fc.integer({ min: 1, max: 10 ** 6 }).map((n) => `-${n}`),
      fc.integer({ min: -(10 ** 9), max: 10 ** 11 }).map((offset) => new Date(now + offset).toUTCString()),
      fc.double({ min: 0, max: 100, noNaN: true }).map(String),
      fc.string(),
    );
    assertProperty(
      fc.property(header, (text) => {
        const expected = parseRetryAfter(text, now);
        expect(syncParse(text, now)).toBe(expected);
        expect(webhookParse(text, new Date(now))).toBe(expected ?? null);
        if (expected !== undefined) {
          expect(expected).toBeGreaterThanOrEqual(0);
          expect(expected).toBeLessThanOrEqual(MAX_RETRY_AFTER_MS);
        }
      }),
    );
  });
});
