/** SenseFigures of one timeline: the whole one for calculatedSenseData, the trimmed one for trimmedSenseData. */
import type { SenseConfig, SenseFigures } from '../schema/sense';
import type { ReportedCounters } from './compute';
import { meanKineticTemperature } from './mkt';
import { timeFigures } from './times';
import type { Timeline } from './timeline';
import { tallyViolations, thresholdsFromLimits, violationFlag } from './violations';
import type { Thresholds } from './violations';

export interface TimelineAnalysis {
  figures: SenseFigures;
  /** One violation flag per datapoint of the timeline (bits from violations.ts); alert and minimal data read it. */
  violationFlags: Uint8Array;
}

export function analyseTimeline(timeline: Timeline, config: SenseConfig, reported: ReportedCounters): TimelineAnalysis {
  const th = thresholdsFromLimits(config.limits);
  const temperatures = timeline.temperatures;
  const humidities = timeline.humidities;
  const n = temperatures.length;
  const flags = new Uint8Array(n);

  const scan =
    humidities === null ? scanTemperatures(temperatures, th, flags) : scanWithHumidity(temperatures, humidities, th, flags);

  const tally = tallyViolations(flags, config.interval);
  const { minT, maxT, sumT, degreesOutside, minH, maxH } = scan;
  const attainedValues: SenseFigures['attainedValues'] = {
    minTemperature: n > 0 ? minT : null,
    maxTemperature: n > 0 ? maxT : null,
  };
  // min > max means no datapoint of this timeline had humidity: the keys are then left out.
  if (minH <= maxH) {
    attainedValues.minHumidity = minH;
    attainedValues.maxHumidity = maxH;
  }

  const figures: SenseFigures = {
    numberOfDatapointsAvailable: reported.numberOfDatapointsAvailable ?? n,
    numberOfDatapointsRead: n,
    numberOfMeasurementsOccurred: reported.numberOfMeasurementsOccurred ?? n,
    attainedValues,
    ...timeFigures(timeline.timestamps, config, reported.currentTime),
    numberOfViolations: tally.numberOfViolations,
    durationOfViolations: tally.durationOfViolations,
    analysedValues: {
      temperature: {
        average: n > 0 ? sumT / n : null,
        degreeHour: (degreesOutside * config.interval) / 3600,
        meanKineticTemperature: meanKineticTemperature(temperatures, maxT),
      },
    },
  };
  return { figures, violationFlags: flags };
}

/*
 * Each loop lives in a small function of its own. V8 compiles a long-running loop while it runs
 * (on-stack replacement) and keeps reusing that code on later calls; code after the loop that had
 * not run yet at that moment has no type feedback and bails out of the reused code on every call.
 * After a short return that costs microseconds; with the rest of analyseTimeline after the loop it
 * cost a few tenths of a millisecond per call on 100 000 datapoints.
 */

interface Scan {
  minT: number;
  maxT: number;
  sumT: number;
  degreesOutside: number;
  /** minH > maxH when no datapoint has humidity. */
  minH: number;
  maxH: number;
}

/** Temperature statistics and violation flags, for timelines without humidity. */
function scanTemperatures(temperatures: Float64Array, th: Thresholds, flags: Uint8Array): Scan {
  const minLimit = th.minTemperature;
  const maxLimit = th.maxTemperature;
  let minT = Number.POSITIVE_INFINITY;
  let maxT = Number.NEGATIVE_INFINITY;
  let sumT = 0;
  let degreesOutside = 0;
  for (let i = 0; i < temperatures.length; i++) {
    const t = temperatures[i];
    // Stryker disable next-line EqualityOperator: on a tie the extreme is replaced by an equal value
    if (t < minT) minT = t;
    // Stryker disable next-line EqualityOperator: on a tie the extreme is replaced by an equal value
    if (t > maxT) maxT = t;
    sumT += t;
    // Two independent terms, as defined: with inverted limits a reading can be outside both.
    // Stryker disable next-line EqualityOperator: a reading exactly on the limit adds 0
    if (t > maxLimit) degreesOutside += t - maxLimit;
    // Stryker disable next-line EqualityOperator: a reading exactly on the limit adds 0
    if (t < minLimit) degreesOutside += minLimit - t;
    flags[i] = violationFlag(t, Number.NaN, th);
  }
  return { minT, maxT, sumT, degreesOutside, minH: Number.POSITIVE_INFINITY, maxH: Number.NEGATIVE_INFINITY };
}

/** The same as scanTemperatures, plus humidity extremes and humidity violations in the same pass. */
function scanWithHumidity(temperatures: Float64Array, humidities: Float64Array, th: Thresholds, flags: Uint8Array): Scan {
  const minLimit = th.minTemperature;
  const maxLimit = th.maxTemperature;
  let minT = Number.POSITIVE_INFINITY;
  let maxT = Number.NEGATIVE_INFINITY;
  let sumT = 0;
  let degreesOutside = 0;
  let minH = Number.POSITIVE_INFINITY;
  let maxH = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < temperatures.length; i++) {
    const t = temperatures[i];
    const h = humidities[i];
    // Stryker disable next-line EqualityOperator: on a tie the extreme is replaced by an equal value
    if (t < minT) minT = t;
    // Stryker disable next-line EqualityOperator: on a tie the extreme is replaced by an equal value
    if (t > maxT) maxT = t;
    sumT += t;
    // Stryker disable next-line EqualityOperator: a reading exactly on the limit adds 0
    if (t > maxLimit) degreesOutside += t - maxLimit;
    // Stryker disable next-line EqualityOperator: a reading exactly on the limit adds 0
    if (t < minLimit) degreesOutside += minLimit - t;
    // An absent humidity is NaN, and comparisons with NaN are false, so it is skipped.
    // Stryker disable next-line EqualityOperator: on a tie the extreme is replaced by an equal value
    if (h < minH) minH = h;
    // Stryker disable next-line EqualityOperator: on a tie the extreme is replaced by an equal value
    if (h > maxH) maxH = h;
    flags[i] = violationFlag(t, h, th);
  }
  return { minT, maxT, sumT, degreesOutside, minH, maxH };
}
