/**
 * Excursions one limit at a time, and the time spent beyond each limit: what a reviewer reads
 * to decide on a shipment. Violations are those of docs/figures.md#violations (strictly beyond a limit; a
 * humidity limit counts only where it is set and the datapoint has humidity).
 */
import type { Direction, Excursion, LimitName, Quantity, TimePerQuantity } from '../schema/review';
import type { Limits } from '../schema/sense';
import type { Timeline } from './timeline';

export interface ExcursionSummary {
  /** In time order (by start, then temperature before humidity, maximum before minimum). */
  excursions: Excursion[];
  timeAbove: TimePerQuantity;
  timeBelow: TimePerQuantity;
}

interface LimitSide {
  quantity: Quantity;
  direction: Direction;
  limitName: LimitName;
  limit: number;
}

/**
 * The limits a timeline is judged by, each as one side to be crossed, in the order excursions
 * starting at the same datapoint are listed.
 */
function sidesOf(limits: Limits): LimitSide[] {
  const sides: LimitSide[] = [
    { quantity: 'temperature', direction: 'above', limitName: 'maxTemperature', limit: limits.maxTemperature },
    { quantity: 'temperature', direction: 'below', limitName: 'minTemperature', limit: limits.minTemperature },
  ];
  if (limits.maxHumidity !== undefined) {
    sides.push({ quantity: 'humidity', direction: 'above', limitName: 'maxHumidity', limit: limits.maxHumidity });
  }
  if (limits.minHumidity !== undefined) {
    sides.push({ quantity: 'humidity', direction: 'below', limitName: 'minHumidity', limit: limits.minHumidity });
  }
  return sides;
}

/**
 * Every excursion of the timeline: a maximal run of consecutive datapoints beyond one limit.
 * A reading that leaves the range on one side and comes back on the other within one run of
 * temperature violations counts as two excursions here (one per limit), where
 * `numberOfViolations.temperature` counts one.
 */
export function excursionsOf(timeline: Timeline, limits: Limits, interval: number): ExcursionSummary {
  const excursions: Excursion[] = [];
  const seconds = new Map<LimitName, number>();
  for (const side of sidesOf(limits)) {
    const values = side.quantity === 'temperature' ? timeline.temperatures : timeline.humidities;
    let total = 0;
    if (values !== null) {
      for (const run of runsBeyond(values, side)) {
        total += run.count * interval;
        excursions.push({
          start: timeline.timestamps[run.first],
          end: timeline.timestamps[run.last],
          durationSeconds: run.count * interval,
          datapoints: run.count,
          peak: values[run.peak],
          peakAt: timeline.timestamps[run.peak],
          ...side,
        });
      }
    }
    seconds.set(side.limitName, total);
  }
  // The sort is stable, so excursions starting together keep the order of sidesOf.
  excursions.sort((a, b) => a.start - b.start);
  const humidity = (name: LimitName) => (seconds.has(name) ? seconds.get(name)! : null);
  return {
    excursions,
    timeAbove: { temperature: seconds.get('maxTemperature')!, humidity: humidity('maxHumidity') },
    timeBelow: { temperature: seconds.get('minTemperature')!, humidity: humidity('minHumidity') },
  };
}

interface Run {
  first: number;
  last: number;
  count: number;
  peak: number;
}

/** Runs of indices whose value is beyond the side's limit; NaN (no humidity) is never beyond. */
function runsBeyond(values: Float64Array, side: LimitSide): Run[] {
  const beyond = side.direction === 'above' ? (v: number) => v > side.limit : (v: number) => v < side.limit;
  const further = side.direction === 'above' ? (v: number, than: number) => v > than : (v: number, than: number) => v < than;
  const runs: Run[] = [];
  let current: Run | null = null;
  // Stryker disable next-line EqualityOperator: loop bound; values[values.length] is undefined, which is beyond no limit
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (!beyond(v)) {
      current = null;
      continue;
    }
    if (current === null) {
      current = { first: i, last: i, count: 0, peak: i };
      runs.push(current);
    }
    current.last = i;
    current.count++;
    if (further(v, values[current.peak])) current.peak = i;
  }
  return runs;
}
