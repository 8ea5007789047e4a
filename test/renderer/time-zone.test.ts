import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  formatClock,
  formatDay,
  formatIsoTime,
  formatTime,
  fromDateTimeInput,
  toDateTimeInput,
  zoneLabel,
  TIME_ZONE_STORAGE_KEY,
  zoneOffsetSeconds,
} from '../../renderer/lib/time-zone';
import { createTimeZoneStore } from '../../renderer/state/time-zone';

// A zone with daylight saving time, so the conversions meet a clock change.
const savedTz = process.env.TZ;
beforeAll(() => {
  process.env.TZ = 'Europe/Berlin';
});
afterAll(() => {
  if (savedTz === undefined) delete process.env.TZ;
  else process.env.TZ = savedTz;
});

// 2026-03-29 01:00 UTC: Berlin moves from 02:00 CET to 03:00 CEST.
const DST_START = Date.UTC(2026, 2, 29, 1, 0, 0) / 1000;

describe('time zone of the report panel', () => {
  it('names the zone beside the times', () => {
    expect(zoneLabel('utc')).toBe('UTC');
    expect(zoneLabel('local')).toBe('local time (Europe/Berlin)');
  });

  it('names the local zone even where it is UTC', () => {
    process.env.TZ = 'UTC';
    try {
      expect(zoneLabel('local')).toBe('local time (UTC)');
    } finally {
      process.env.TZ = 'Europe/Berlin';
    }
  });

  it('shows the same instant in UTC and in local time', () => {
    const t = Date.UTC(2026, 10, 22, 13, 5, 0) / 1000;
    expect(formatClock(t, 'utc')).toBe('13:05');
    expect(formatClock(t, 'local')).toBe('14:05');
    expect(formatTime(t, 'utc')).toMatch(/(13|0?1):05/);
    expect(zoneOffsetSeconds(t, 'utc')).toBe(0);
    expect(zoneOffsetSeconds(t, 'local')).toBe(3600);
    expect(zoneOffsetSeconds(DST_START + 60, 'local')).toBe(7200);
  });

  it('round-trips datetime-local input text in either zone, across the clock change', () => {
    for (const zone of ['utc', 'local'] as const) {
      for (const t of [0, 1_700_000_000, DST_START - 1, DST_START, DST_START + 3599, 1_790_000_123]) {
        expect(fromDateTimeInput(toDateTimeInput(t, zone), zone)).toBe(t);
      }
    }
    expect(toDateTimeInput(DST_START, 'local')).toBe('2026-03-29T03:00:00');
    expect(toDateTimeInput(DST_START, 'utc')).toBe('2026-03-29T01:00:00');
  });

  it('accepts minutes-only input and refuses nonsense', () => {
    expect(fromDateTimeInput('2026-03-04T05:06', 'utc')).toBe(Date.UTC(2026, 2, 4, 5, 6) / 1000);
    expect(fromDateTimeInput('2026-03-04T05:06', 'local')).toBe(Date.UTC(2026, 2, 4, 4, 6) / 1000);
    for (const bad of ['', '2026-02-30T10:00', '2026-01-01T25:00', 'yesterday']) expect(fromDateTimeInput(bad, 'local')).toBeNull();
  });

  it('keeps the choice in storage, local time until chosen otherwise', () => {
    const saved = new Map<string, string>();
    const storage = { getItem: (k: string) => saved.get(k) ?? null, setItem: (k: string, v: string) => void saved.set(k, v) };
    const first = createTimeZoneStore(storage);
    expect(first.getState().zone).toBe('local');
    first.getState().setZone('utc');
    expect(saved.get(TIME_ZONE_STORAGE_KEY)).toBe('utc');
    expect(createTimeZoneStore(storage).getState().zone).toBe('utc');
    saved.set(TIME_ZONE_STORAGE_KEY, 'mars');
    expect(createTimeZoneStore(storage).getState().zone).toBe('local');
  });
});

describe('one format of date and time', () => {
  const late = Date.UTC(2026, 10, 22, 23, 5, 9) / 1000;

  it('is on a 24-hour clock in every zone and style, a signer’s zone included', () => {
    for (const zone of ['utc', 'local', { iana: 'America/New_York' }, { iana: 'Asia/Tokyo' }] as const) {
      for (const text of [formatTime(late, zone), formatTime(late, zone, true), formatClock(late, zone)]) {
        expect(text).not.toMatch(/AM|PM|a\.m\.|p\.m\./i);
        expect(text).toMatch(/\b([01]\d|2[0-3]):\d\d\b/);
      }
    }
    expect(formatTime(late, 'utc')).toContain('23:05');
    expect(formatTime(late, 'utc', true)).toContain('23:05:09');
    expect(formatClock(late, 'local')).toBe('00:05');
    expect(formatDay(late, 'utc')).toMatch(/22/);
  });

  it('shows a signer’s zone as the header’s zone is shown: the same text for the same zone', () => {
    const iso = new Date(late * 1000).toISOString();
    expect(formatIsoTime(iso, { iana: 'UTC' }, true)).toBe(formatIsoTime(iso, 'utc', true));
    expect(formatIsoTime(iso, { iana: 'Europe/Berlin' })).toBe(formatIsoTime(iso, 'local'));
    // A zone name this runtime does not know: the time in UTC, said so.
    expect(formatTime(late, { iana: 'Mars/Olympus' })).toBe(`${formatTime(late, 'utc')} UTC`);
  });

  it('is made in renderer/lib/time-zone.ts alone: no other part of the UI formats a date itself', () => {
    const root = fileURLToPath(new URL('../../renderer/', import.meta.url));
    const files = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [join(dir, e.name)] : []));
    const own = join(root, 'lib', 'time-zone.ts');
    const formatting = /new Intl\.DateTimeFormat\(|\.toLocale(Date|Time)String\(|new Date\([^)]*\)\.toLocaleString\(/;
    const offenders = files(root).filter((f) => f !== own && formatting.test(readFileSync(f, 'utf8')));
    expect(offenders).toEqual([]);
  });
});
