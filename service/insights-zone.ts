/**
 * Days, weeks and months of an IANA time zone, for the insights' time buckets. SQLite knows no
 * zones, only fixed offsets: a zone is handed to it as the offsets it had between its
 * transitions, and each bucket's bounds are found here, as the first instant of its local day.
 */
import { invalidInput } from '../model/errors';
import { quote } from '../query/list-query';
import type { TimeUnit } from '../schema/insights';

const DAY_MS = 86_400_000;
/** Zones change offset at most a few times a year; sampling finds every change at least this far from the next. */
const SAMPLE_MS = 6 * 3_600_000;

/**
 * The zone as asked (the answer names it so; Intl may know it by an older alias), `UTC` for any
 * spelling of it, or a 400 naming what was given.
 */
export function checkZone(zone: string): string {
  try {
    const canonical = new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
    return canonical === 'UTC' ? 'UTC' : zone;
  } catch {
    throw invalidInput('INVALID_ZONE', `zone ${quote(zone)} is not an IANA time zone name (e.g. UTC, Europe/Berlin, America/New_York)`);
  }
}

const formats = new Map<string, Intl.DateTimeFormat>();

function format(zone: string): Intl.DateTimeFormat {
  let f = formats.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      era: 'short',
    });
    formats.set(zone, f);
  }
  return f;
}

/** Seconds the zone's wall clock is ahead of UTC at the instant `ms`. */
export function offsetAt(zone: string, ms: number): number {
  if (zone === 'UTC') return 0;
  const parts: Record<string, string> = {};
  for (const p of format(zone).formatToParts(new Date(ms))) parts[p.type] = p.value;
  const year = parts.era === 'BC' ? 1 - Number(parts.year) : Number(parts.year);
  const wall = Date.UTC(year, Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute), Number(parts.second));
  return Math.round((wall - Math.floor(ms / 1000) * 1000) / 1000);
}

/** A stretch of time with one offset, up to `until` (exclusive; null: no end). */
export interface OffsetSegment {
  readonly until: number | null;
  readonly offsetSeconds: number;
}

const yearTransitions = new Map<string, { at: number; offsetSeconds: number }[]>();

/** The instants in the UTC year at which the zone's offset changes, with the offset from then on. */
function transitionsIn(zone: string, year: number): { at: number; offsetSeconds: number }[] {
  const key = `${zone}\0${year}`;
  let found = yearTransitions.get(key);
  if (found) return found;
  found = [];
  const start = Date.UTC(year, 0, 1);
  const end = Date.UTC(year + 1, 0, 1);
  let before = offsetAt(zone, start - 1000);
  for (let t = start; t < end; t += SAMPLE_MS) {
    const probe = Math.min(t + SAMPLE_MS, end) - 1000;
    const after = offsetAt(zone, probe);
    if (after !== before) {
      // The first whole second with the new offset: offsets change on whole seconds.
      let lo = Math.floor((t - 1000) / 1000);
      let hi = Math.floor(probe / 1000);
      while (hi - lo > 1) {
        const mid = Math.floor((lo + hi) / 2);
        if (offsetAt(zone, mid * 1000) === before) lo = mid;
        else hi = mid;
      }
      found.push({ at: hi * 1000, offsetSeconds: after });
      before = after;
    }
  }
  yearTransitions.set(key, found);
  return found;
}

/** The offsets the zone had from `fromMs` to `toMs` (both inclusive), in order; the last has no end. */
export function offsetSegments(zone: string, fromMs: number, toMs: number): OffsetSegment[] {
  if (zone === 'UTC') return [{ until: null, offsetSeconds: 0 }];
  const segments: OffsetSegment[] = [];
  let offset = offsetAt(zone, fromMs);
  const first = new Date(fromMs).getUTCFullYear();
  const last = new Date(toMs).getUTCFullYear();
  for (let year = first; year <= last; year++) {
    for (const change of transitionsIn(zone, year)) {
      if (change.at <= fromMs || change.at > toMs) continue;
      segments.push({ until: change.at, offsetSeconds: offset });
      offset = change.offsetSeconds;
    }
  }
  segments.push({ until: null, offsetSeconds: offset });
  return segments;
}

/** Days since 1970-01-01 of the local date at `ms`. */
function localDay(zone: string, ms: number): number {
  return Math.floor((ms + offsetAt(zone, ms) * 1000) / DAY_MS);
}

/** The first instant whose local date is the day `day` (days since 1970-01-01) or later. */
function startOfLocalDay(zone: string, day: number): number {
  // Where the offset is the same two days either side, the local date only grows across the
  // search's range and the day starts at local midnight at that offset: two reads of the offset
  // instead of the forty of the search (which took most of a monthly group-by).
  const offset = offsetAt(zone, day * DAY_MS - 2 * DAY_MS);
  if (offsetAt(zone, day * DAY_MS + 2 * DAY_MS) === offset) {
    const midnight = day * DAY_MS - offset * 1000;
    if (localDay(zone, midnight) >= day && localDay(zone, midnight - 1) < day) return midnight;
  }
  let lo = day * DAY_MS - 2 * DAY_MS;
  let hi = day * DAY_MS + 2 * DAY_MS;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (localDay(zone, mid) >= day) hi = mid;
    else lo = mid;
  }
  return hi;
}

const bounds = new Map<string, { from: number; to: number }>();

/** The bucket's bounds as instants (ms): its first instant and the first of the next one. */
export function bucketBounds(zone: string, unit: TimeUnit, value: string): { from: number; to: number } {
  // Each group of every answer asks for its bounds, and the same buckets come back with each question.
  const key = `${zone}\0${unit}\0${value}`;
  let found = bounds.get(key);
  if (!found) {
    if (bounds.size >= 10_000) bounds.clear();
    bounds.set(key, (found = boundsOf(zone, unit, value)));
  }
  return found;
}

function boundsOf(zone: string, unit: TimeUnit, value: string): { from: number; to: number } {
  const [y, m, d] = value.split('-').map(Number);
  const first = Math.floor(Date.UTC(y, m - 1, unit === 'month' ? 1 : d) / DAY_MS);
  const next = unit === 'day' ? first + 1 : unit === 'week' ? first + 7 : Math.floor(Date.UTC(y, m, 1) / DAY_MS);
  return { from: startOfLocalDay(zone, first), to: startOfLocalDay(zone, next) };
}
