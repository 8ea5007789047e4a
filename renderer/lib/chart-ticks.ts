/**
 * Even ticks for the report chart: values in steps of 1, 2, 2.5 or 5 times a power of ten, and
 * times in steps people count in (5 min, 1 h, 6 h, 1 d, 7 d…) that fall on the hour, on midnight
 * and on round minutes in the zone the chart is shown in.
 */
import { zoneOffsetSeconds } from './time-zone';
import type { TimeZoneSetting } from './time-zone';

export interface NiceScale {
  min: number;
  max: number;
  step: number;
}

const MANTISSAS = [1, 2, 2.5, 5, 10];

/** The smallest round step that splits `span` into at most `maxTicks - 1` intervals. */
export function niceStep(span: number, maxTicks: number): number {
  if (!(span > 0) || !Number.isFinite(span)) return 1;
  const raw = span / Math.max(1, maxTicks - 1);
  const power = 10 ** Math.floor(Math.log10(raw));
  for (const m of MANTISSAS) {
    if (m * power >= raw * (1 - 1e-9)) return m * power;
  }
  return 10 * power;
}

/**
 * A range covering [low, high] whose ends are multiples of a round step, with at most
 * `maxTicks` ticks. An empty range (one value) is widened by one unit each side.
 */
export function niceScale(low: number, high: number, maxTicks = 8): NiceScale {
  let lo = Math.min(low, high);
  let hi = Math.max(low, high);
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) return { min: 0, max: 1, step: 0.2 };
  if (hi - lo < 1e-9) {
    lo -= 1;
    hi += 1;
  }
  let step = niceStep(hi - lo, maxTicks);
  // Rounding the ends outwards can add a tick too many; the next step up then fits.
  for (;;) {
    const { min, max } = coveringEnds(lo, hi, step);
    if (Math.round((max - min) / step) + 1 <= maxTicks) return { min, max, step };
    step = nextNiceStep(step);
  }
}

/**
 * The multiples of `step` at or beyond each end. The division's dust (0.7 / 0.1 = 6.999…) may
 * pick the multiple inside the range and tidying may round an end inwards: a chart that cut a
 * reading off would hide it, so an end that does not cover its value moves one step out.
 */
function coveringEnds(lo: number, hi: number, step: number): { min: number; max: number } {
  let min = tidy(Math.floor(lo / step + 1e-9) * step, step);
  let max = tidy(Math.ceil(hi / step - 1e-9) * step, step);
  if (min > lo) min = tidy(min - step, step);
  if (max < hi) max = tidy(max + step, step);
  return { min, max };
}

/** The round step after `step`: 1 → 2 → 2.5 → 5 → 10 → 20 … */
function nextNiceStep(step: number): number {
  const power = 10 ** Math.floor(Math.log10(step) + 1e-9);
  const m = step / power;
  const next = MANTISSAS.find((c) => c > m * (1 + 1e-9)) ?? 10;
  return next * power;
}

/** The values of a nice scale's ticks, free of floating-point dust (0.30000000000000004). */
export function scaleTicks(scale: NiceScale): number[] {
  const n = Math.round((scale.max - scale.min) / scale.step);
  return Array.from({ length: n + 1 }, (_, i) => tidy(scale.min + i * scale.step, scale.step));
}

function tidy(value: number, step: number): number {
  const decimals = Math.max(0, -Math.floor(Math.log10(step)) + 2);
  return Number(value.toFixed(Math.min(decimals, 12)));
}

const MINUTE = 60;
const HOUR = 3600;
const DAY = 86400;

/** Steps a time axis may take, smallest first. */
export const TIME_STEPS: readonly number[] = [
  1, 5, 15, 30, MINUTE, 5 * MINUTE, 10 * MINUTE, 15 * MINUTE, 30 * MINUTE, HOUR, 2 * HOUR, 3 * HOUR, 6 * HOUR, 12 * HOUR, DAY, 2 * DAY,
  7 * DAY, 14 * DAY, 28 * DAY,
];

export interface TimeTick {
  /** Epoch seconds. */
  value: number;
  /** The tick starts a new day in the zone: its label carries the date. */
  newDay: boolean;
}

/** The smallest step giving at most `maxTicks` ticks between `min` and `max` seconds. */
export function timeStep(min: number, max: number, maxTicks: number): number {
  const span = Math.max(0, max - min);
  for (const step of TIME_STEPS) if (span / step <= Math.max(1, maxTicks - 1)) return step;
  return TIME_STEPS[TIME_STEPS.length - 1];
}

/**
 * Ticks between `min` and `max` (epoch seconds) every `step`, on the zone's wall clock: an hour
 * step ticks on the hour, a day step at midnight, a week step on the same weekday midnight.
 * Across a change of daylight saving time each tick keeps its wall-clock place.
 */
export function timeTicks(min: number, max: number, step: number, zone: TimeZoneSetting): TimeTick[] {
  if (!(max >= min) || !(step > 0)) return [];
  const ticks: TimeTick[] = [];
  const wallMin = min + zoneOffsetSeconds(min, zone);
  const wallMax = max + zoneOffsetSeconds(max, zone);
  // Weeks start on a Monday: the epoch began on a Thursday, 3 days after a Monday.
  const anchor = step >= 7 * DAY ? -3 * DAY : 0;
  let wall = Math.ceil((wallMin - anchor) / step) * step + anchor;
  let previousDay: number | null = null;
  for (; wall <= wallMax && ticks.length < 1000; wall += step) {
    const guess = wall - zoneOffsetSeconds(wall, zone);
    const value = wall - zoneOffsetSeconds(guess, zone);
    if (value < min || value > max) continue;
    const day = Math.floor(wall / DAY);
    ticks.push({ value, newDay: previousDay === null || day !== previousDay || step >= DAY });
    previousDay = day;
  }
  return ticks;
}
