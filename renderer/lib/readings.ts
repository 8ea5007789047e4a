/**
 * The readings table's arithmetic, apart from React so it is tested in Node: what each reading
 * is in words (within the limits, beyond which limit, left out by the trim), where a time falls
 * among the readings, and which rows a scroll position shows.
 */
import type { Datapoint, Limits } from '../../schema/sense';
import { formatHumidity, formatTemperature } from './format';
import type { TimeRange } from './report-view';

/**
 * Each limit a reading is beyond, in words ("Above max 8.0 °C"), temperature first; empty when
 * it is within all of them. Strict comparisons as in sense/violations.ts: a reading equal to a
 * limit is in range.
 */
export function limitsBeyond(d: Datapoint, limits: Limits): string[] {
  const out: string[] = [];
  if (d.temperature > limits.maxTemperature) out.push(`Above max ${formatTemperature(limits.maxTemperature)}`);
  else if (d.temperature < limits.minTemperature) out.push(`Below min ${formatTemperature(limits.minTemperature)}`);
  if (d.humidity !== undefined) {
    if (limits.maxHumidity !== undefined && d.humidity > limits.maxHumidity) out.push(`Humidity above max ${formatHumidity(limits.maxHumidity)}`);
    else if (limits.minHumidity !== undefined && d.humidity < limits.minHumidity) out.push(`Humidity below min ${formatHumidity(limits.minHumidity)}`);
  }
  return out;
}

/** "Temperature 2.0 °C to 8.0 °C; humidity 30.0 %RH to 80.0 %RH.": the limits as printed. */
export function limitsSentence(limits: Limits): string {
  const humidity =
    limits.minHumidity !== undefined || limits.maxHumidity !== undefined ? `; humidity ${formatHumidity(limits.minHumidity)} to ${formatHumidity(limits.maxHumidity)}` : '';
  return `Temperature ${formatTemperature(limits.minTemperature)} to ${formatTemperature(limits.maxTemperature)}${humidity}.`;
}

/** Pixels per row of the readings table; readings.css fixes every row at this height, so a row's place is index × height. */
export const READING_ROW_HEIGHT = 28;

/** Whether the trim leaves the reading at `timestamp` out (never, without a trim). */
export function outsideTrim(timestamp: number, trim: TimeRange | null): boolean {
  return trim !== null && (timestamp < trim.start || timestamp > trim.end);
}

/** Index of the first reading at or after `timestamp` (readings are in time order); the last one when none is. */
export function indexAtOrAfter(datapoints: readonly Pick<Datapoint, 'timestamp'>[], timestamp: number): number {
  let lo = 0;
  let hi = datapoints.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (datapoints[mid].timestamp < timestamp) lo = mid + 1;
    else hi = mid;
  }
  return Math.min(lo, Math.max(0, datapoints.length - 1));
}

export interface RowWindow {
  /** First row in the DOM. */
  first: number;
  /** One past the last row in the DOM. */
  end: number;
}

/**
 * The rows to put in the DOM for a scroll position: those in view plus `overscan` on each side,
 * so a quick scroll never shows a blank gap before React catches up.
 */
export function rowWindow(scrollTop: number, viewHeight: number, rowHeight: number, count: number, overscan = 8): RowWindow {
  if (count <= 0) return { first: 0, end: 0 };
  const top = Math.max(0, Math.floor(scrollTop / rowHeight));
  const shown = Math.ceil(Math.max(viewHeight, rowHeight) / rowHeight) + 1;
  const first = Math.min(Math.max(0, top - overscan), count - 1);
  return { first, end: Math.min(count, top + shown + overscan) };
}

/**
 * The scroll position that puts row `index` in view with a few rows of context above it, or
 * keeps the current one when the row is already well in view.
 */
export function scrollTopFor(index: number, current: number, viewHeight: number, rowHeight: number, context = 2): number {
  const top = index * rowHeight;
  if (top >= current + context * rowHeight && top + rowHeight <= current + viewHeight - context * rowHeight) return current;
  return Math.max(0, top - context * rowHeight);
}
