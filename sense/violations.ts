/**
 * When a datapoint violates its limits, and how violations add up into excursions and durations
 * (docs/figures.md#violations).
 */
import type { Limits, ViolationCounts } from '../schema/sense';

/** Bit set on a datapoint's violation flag; `all` is simply "flag ≠ 0". */
export const TEMPERATURE_VIOLATION = 1;
export const HUMIDITY_VIOLATION = 2;

/**
 * Limits with the unset humidity bounds widened to ±Infinity. Together with NaN for an absent
 * humidity this makes "limit set AND datapoint has humidity" fall out of plain comparisons
 * (every comparison with NaN, and `h > +Infinity`, is false), with no branch per datapoint.
 */
export interface Thresholds {
  readonly minTemperature: number;
  readonly maxTemperature: number;
  readonly minHumidity: number;
  readonly maxHumidity: number;
}

export function thresholdsFromLimits(limits: Limits): Thresholds {
  return {
    minTemperature: limits.minTemperature,
    maxTemperature: limits.maxTemperature,
    minHumidity: limits.minHumidity ?? -Infinity,
    maxHumidity: limits.maxHumidity ?? Infinity,
  };
}

/**
 * Violation flag of one datapoint; `humidity` is NaN when the datapoint has none.
 * Strict comparisons because a reading equal to a limit is in range.
 */
export function violationFlag(temperature: number, humidity: number, th: Thresholds): number {
  let flag = temperature < th.minTemperature || temperature > th.maxTemperature ? TEMPERATURE_VIOLATION : 0;
  if (humidity < th.minHumidity || humidity > th.maxHumidity) flag |= HUMIDITY_VIOLATION;
  return flag;
}

export interface ViolationTally {
  numberOfViolations: ViolationCounts;
  durationOfViolations: ViolationCounts;
}

/**
 * Excursions are maximal runs of consecutive violating datapoints of one kind, so a run is
 * counted where it starts: a violating datapoint whose predecessor does not violate that kind.
 */
export function tallyViolations(flags: Uint8Array, interval: number): ViolationTally {
  let tempPoints = 0;
  let humPoints = 0;
  let allPoints = 0;
  let tempRuns = 0;
  let humRuns = 0;
  let allRuns = 0;
  let previous = 0;
  for (let i = 0; i < flags.length; i++) {
    const f = flags[i];
    if (f !== 0) {
      allPoints++;
      if (previous === 0) allRuns++;
      if (f & TEMPERATURE_VIOLATION) {
        tempPoints++;
        if (!(previous & TEMPERATURE_VIOLATION)) tempRuns++;
      }
      if (f & HUMIDITY_VIOLATION) {
        humPoints++;
        if (!(previous & HUMIDITY_VIOLATION)) humRuns++;
      }
    }
    previous = f;
  }
  return {
    numberOfViolations: { temperature: tempRuns, humidity: humRuns, all: allRuns },
    durationOfViolations: {
      temperature: tempPoints * interval,
      humidity: humPoints * interval,
      all: allPoints * interval,
    },
  };
}
