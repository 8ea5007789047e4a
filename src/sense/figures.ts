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

  const temperatureScan = scanTemperatures(temperatures, th, flags);
  const humidityScan = humidities === null ? null : scanHumidities(temperatures, humidities, th, flags);

  const tally = tallyViolations(flags, config.interval);
  const read = n;
  const { min: minT, max: maxT, sum: sumT, degreesOutside } = temperatureScan;
  const attainedValues: SenseFigures['attainedValues'] = {
    minTemperature: n > 0 ? minT : null,
    maxTemperature: n > 0 ? maxT : null,
  };
  if (humidityScan !== null && humidityScan.min <= humidityScan.max) {
    attainedValues.minHumidity = humidityScan.min;
    attainedValues.maxHumidity = humidityScan.max;
  }

  const figures: SenseFigures = {
    numberOfDatapointsAvailable: reported.numberOfDatapointsAvailable ?? read,
    numberOfDatapointsRead: read,
    numberOfMeasurementsOccurred: reported.numberOfMeasurementsOccurred ?? read,
    attainedValues,
    ...timeFigures(timeline.timestamps, config, reported.currentTime),
    numberOfViolations: tally.numberOfViolations,
    durationOfViolations: tally.durationOfViolations,
    analysedValues: {
      temperature: {
        average: n > 0 ? sumT / n : null,
        degreeHour: (degreesOutside * config.interval) / 3600,
        meanKineticTemperature: n > 0 ? meanKineticTemperature(temperatures, maxT) : null,
      },
    },
  };
  return { figures, violationFlags: flags };
}

/*
 * The loops live in functions of their own, with nothing after the loop but the return.
 * V8 compiles a long-running loop on the fly (on-stack replacement) and then reuses that code on
 * later calls; any statement after the loop that had not yet run at that moment lacks type
 * feedback and makes the reused code bail out on every call, which cost more than the whole
 * calculation when this was one function.
 */

interface TemperatureScan {
  min: number;
  max: number;
  sum: number;
  degreesOutside: number;
}

/** Temperature statistics, and each datapoint's temperature violation bit written to `flags`. */
function scanTemperatures(temperatures: Float64Array, th: Thresholds, flags: Uint8Array): TemperatureScan {
  const minLimit = th.minTemperature;
  const maxLimit = th.maxTemperature;
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  let sum = 0;
  let degreesOutside = 0;
  for (let i = 0; i < temperatures.length; i++) {
    const t = temperatures[i];
    if (t < min) min = t;
    if (t > max) max = t;
    sum += t;
    // Two independent terms, as defined: with inverted limits a reading can be outside both.
    if (t > maxLimit) degreesOutside += t - maxLimit;
    if (t < minLimit) degreesOutside += minLimit - t;
    flags[i] = violationFlag(t, Number.NaN, th);
  }
  return { min, max, sum, degreesOutside };
}

/**
 * Humidity extremes (min > max when no datapoint has humidity), and the full violation flag of
 * each datapoint written to `flags`. A separate pass so temperature-only labels skip it.
 */
function scanHumidities(
  temperatures: Float64Array,
  humidities: Float64Array,
  th: Thresholds,
  flags: Uint8Array,
): { min: number; max: number } {
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < humidities.length; i++) {
    const h = humidities[i];
    // An absent humidity is NaN, and comparisons with NaN are false, so it is skipped.
    if (h < min) min = h;
    if (h > max) max = h;
    flags[i] = violationFlag(temperatures[i], h, th);
  }
  return { min, max };
}
