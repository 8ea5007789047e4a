/**
 * Datapoints held as typed-array columns. A report carries up to hundreds of thousands of
 * readings; columns keep them in flat memory the calculation loops can walk without touching
 * one object per reading.
 */
import type { Datapoint, Trim } from '../schema/sense';

/** Datapoints as columns, in the order they were reported. humidities is null when no datapoint has humidity; otherwise NaN marks "absent" for a datapoint. */
export interface DatapointColumns {
  timestamps: Float64Array;
  temperatures: Float64Array;
  humidities: Float64Array | null;
}

/** Columns sorted by timestamp ascending, duplicate timestamps removed (the FIRST reported reading is kept). */
export type Timeline = DatapointColumns & { readonly sorted: true };

export function columnsFromDatapoints(datapoints: readonly Datapoint[]): DatapointColumns {
  const n = datapoints.length;
  const timestamps = new Float64Array(n);
  const temperatures = new Float64Array(n);
  let humidities: Float64Array | null = null;
  for (let i = 0; i < n; i++) {
    const d = datapoints[i];
    timestamps[i] = d.timestamp;
    temperatures[i] = d.temperature;
    const h = d.humidity;
    if (h !== undefined) {
      // Allocated on first sight so temperature-only reports never pay for a humidity column.
      if (humidities === null) humidities = new Float64Array(n).fill(Number.NaN);
      humidities[i] = h;
    }
  }
  return { timestamps, temperatures, humidities };
}

export function datapointsFromColumns(columns: DatapointColumns): Datapoint[] {
  const { timestamps, temperatures, humidities } = columns;
  const n = timestamps.length;
  // Stryker disable next-line ArrayDeclaration: every slot is written before the array is returned
  const out: Datapoint[] = new Array(n);
  if (humidities === null) {
    for (let i = 0; i < n; i++) out[i] = { timestamp: timestamps[i], temperature: temperatures[i] };
    return out;
  }
  for (let i = 0; i < n; i++) {
    const h = humidities[i];
    // An absent humidity must not appear as a key: JSON has no NaN and the schema rejects it.
    out[i] = Number.isNaN(h)
      ? { timestamp: timestamps[i], temperature: temperatures[i] }
      : { timestamp: timestamps[i], temperature: temperatures[i], humidity: h };
  }
  return out;
}

/**
 * `stored` followed by the readings of `incoming` at timestamps not seen before, in the order
 * they came. A label read again reports its whole memory: what was taken in before keeps its
 * first reading, as a duplicate timestamp does in a timeline, and is not stored twice.
 */
export function appendNewReadings(stored: DatapointColumns, incoming: readonly Datapoint[]): DatapointColumns {
  const seen = new Set<number>(stored.timestamps);
  const fresh = incoming.filter((d) => !seen.has(d.timestamp) && seen.add(d.timestamp));
  if (fresh.length === 0) return stored;
  const added = columnsFromDatapoints(fresh);
  const n = stored.timestamps.length;
  const joined = (a: Float64Array | null, b: Float64Array | null) => {
    const out = new Float64Array(n + fresh.length).fill(Number.NaN);
    if (a !== null) out.set(a);
    if (b !== null) out.set(b, n);
    return out;
  };
  return {
    timestamps: joined(stored.timestamps, added.timestamps),
    temperatures: joined(stored.temperatures, added.temperatures),
    humidities: stored.humidities === null && added.humidities === null ? null : joined(stored.humidities, added.humidities),
  };
}

/**
 * Precondition: timestamps are finite (the zod boundary guarantees it). Labels report in order,
 * so the common case is a single O(n) check that hands back the caller's arrays untouched.
 */
export function toTimeline(raw: DatapointColumns): Timeline {
  const { timestamps, temperatures } = raw;
  const n = timestamps.length;
  let i = 1;
  // Stryker disable next-line ConditionalExpression,EqualityOperator: `i < n` only keeps the read in bounds; timestamps[n] is undefined, and `undefined > t` is false
  while (i < n && timestamps[i] > timestamps[i - 1]) i++;
  if (i >= n) {
    return { timestamps, temperatures, humidities: nullIfNoHumidity(raw.humidities), sorted: true };
  }

  const order = stableOrderByTimestamp(timestamps);
  // Count survivors first so the output columns are allocated at their exact size.
  let m = 0;
  let previous = Number.NaN;
  for (let k = 0; k < n; k++) {
    const t = timestamps[order[k]];
    if (t !== previous) m++;
    previous = t;
  }
  const outTs = new Float64Array(m);
  const outTemp = new Float64Array(m);
  const inHum = raw.humidities;
  const outHum = inHum === null ? null : new Float64Array(m);
  let j = 0;
  previous = Number.NaN;
  // Stryker disable next-line EqualityOperator: loop bound; the extra step writes at index m, past the end of the typed arrays, which is ignored
  for (let k = 0; k < n; k++) {
    const src = order[k];
    const t = timestamps[src];
    // The order is stable, so the first index of each equal-timestamp group is the first reported reading.
    if (t === previous) continue;
    previous = t;
    outTs[j] = t;
    outTemp[j] = temperatures[src];
    if (outHum !== null) outHum[j] = inHum![src];
    j++;
  }
  return { timestamps: outTs, temperatures: outTemp, humidities: nullIfNoHumidity(outHum), sorted: true };
}

/** Keeps `startTime ≤ timestamp ≤ endTime`; the result shares memory with `timeline`. */
export function trimTimeline(timeline: Timeline, trim: Trim): Timeline {
  const ts = timeline.timestamps;
  const lo = firstIndexAtLeast(ts, trim.startTime);
  const hi = Math.max(lo, firstIndexAbove(ts, trim.endTime));
  return {
    timestamps: ts.subarray(lo, hi),
    temperatures: timeline.temperatures.subarray(lo, hi),
    humidities: timeline.humidities === null ? null : nullIfNoHumidity(timeline.humidities.subarray(lo, hi)),
    sorted: true,
  };
}

function firstIndexAtLeast(sorted: Float64Array, value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function firstIndexAbove(sorted: Float64Array, value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] <= value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Upholds the DatapointColumns promise that a humidity column exists only when it holds a value. */
function nullIfNoHumidity(humidities: Float64Array | null): Float64Array | null {
  if (humidities === null) return null;
  for (let i = 0; i < humidities.length; i++) if (humidities[i] === humidities[i]) return humidities;
  return null;
}

/** 2^53: beyond it doubles stop representing every integer, so packed keys would collide. */
const EXACT_INTEGER_LIMIT = 9007199254740992;

/**
 * Indices of `timestamps` in ascending timestamp order, ties kept in input order.
 * Integer timestamps (the norm: epoch seconds) are packed with their index into one double,
 * `(t − min) · n + index`, so the native comparator-free Float64Array sort does the work; that is
 * several times faster than sorting indices through a JS comparator, which remains the fallback.
 */
function stableOrderByTimestamp(timestamps: Float64Array): Uint32Array {
  const n = timestamps.length;
  /*
   * The packed sort only saves time: where it is not taken, the comparator sort gives the same order. So the mutants below
   * that merely turn it off are equivalent; every mutant that packs where packing is not exact
   * is killed by the tests.
   */
  let min = Infinity;
  // Stryker disable next-line UnaryOperator: max stays +Infinity, so packing is never taken and the comparator sort gives the same order
  let max = -Infinity;
  // Stryker disable next-line BooleanLiteral: packing is never taken, and the comparator sort gives the same order
  let integral = true;
  // Stryker disable next-line EqualityOperator: loop bound; undefined is not an integer, so packing is not taken and the comparator sort gives the same order
  for (let i = 0; i < n; i++) {
    const t = timestamps[i];
    // Stryker disable next-line EqualityOperator: on a tie the minimum is replaced by an equal value
    if (t < min) min = t;
    // Stryker disable next-line EqualityOperator: on a tie the maximum is replaced by an equal value
    if (t > max) max = t;
    // Stryker disable next-line ConditionalExpression: packing is never taken, and the comparator sort gives the same order
    if (!Number.isInteger(t)) integral = false;
  }
  const order = new Uint32Array(n);
  // Stryker disable next-line ConditionalExpression,EqualityOperator,BlockStatement: packing not taken, the comparator sort gives the same order; at a product of exactly 2^53 the largest key is 2^53 − 1, still exact
  if (integral && (max - min + 1) * n < EXACT_INTEGER_LIMIT) {
    const keys = new Float64Array(n);
    // Stryker disable next-line EqualityOperator: loop bound; a write past the end of a typed array is ignored
    for (let i = 0; i < n; i++) keys[i] = (timestamps[i] - min) * n + i;
    keys.sort();
    // Stryker disable next-line EqualityOperator: loop bound; a write past the end of a typed array is ignored
    for (let k = 0; k < n; k++) order[k] = keys[k] % n;
    return order;
  }
  // Stryker disable next-line EqualityOperator: loop bound; a write past the end of a typed array is ignored
  for (let i = 0; i < n; i++) order[i] = i;
  order.sort((a, b) => timestamps[a] - timestamps[b] || a - b);
  return order;
}
