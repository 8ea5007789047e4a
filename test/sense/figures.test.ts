/**
 * Worked examples, small enough to check every figure by hand against docs/figures.md.
 */
import { describe, expect, it } from 'vitest';
import { makeConfig, run, series } from './helpers';

/*
 * The reference timeline: limits 2..8 °C, interval 600 s, configTime 1000, startDelay 400.
 *
 *   index        0     1     2     3     4     5     6     7     8     9
 *   timestamp 1400  2000  2600  3200  3800  4400  5000  5600  6200  6800
 *   °C           5     9    10     5     1     8     2    11     5     5
 *   violates     .     T     T     .     T     .     .     T     .     .
 *
 * 8 and 2 sit exactly on the limits, so they are in range.
 */
const REFERENCE = series([5, 9, 10, 5, 1, 8, 2, 11, 5, 5]);

describe('calculated figures of the reference timeline', () => {
  const { calculated } = run(REFERENCE);

  it('counts excursions as maximal runs: {1,2}, {4}, {7} are three', () => {
    expect(calculated.numberOfViolations).toEqual({ temperature: 3, humidity: 0, all: 3 });
  });

  it('gives durations as violating datapoints × interval: 4 × 600 = 2400', () => {
    expect(calculated.durationOfViolations).toEqual({ temperature: 2400, humidity: 0, all: 2400 });
  });

  it('sums degrees outside the limits: (1 + 2 + 1 + 3) × 600 / 3600 = 7/6 degree-hours', () => {
    // 9 is 1 above 8, 10 is 2 above, 1 is 1 below 2, 11 is 3 above; 8 and 2 add nothing.
    expect(calculated.analysedValues.temperature.degreeHour).toBeCloseTo(7 / 6, 12);
  });

  it('averages: 61 / 10 = 6.1', () => {
    // 5 + 9 + 10 + 5 + 1 + 8 + 2 + 11 + 5 + 5 = 61
    expect(calculated.analysedValues.temperature.average).toBeCloseTo(6.1, 12);
  });

  it('reports the attained extremes and no humidity keys without humidity', () => {
    expect(calculated.attainedValues).toStrictEqual({ minTemperature: 1, maxTemperature: 11 });
  });

  it('derives the times from the config and the datapoints', () => {
    // startTime = 1000 + 400; no reported currentTime, so the last timestamp 6800.
    expect(calculated).toMatchObject({
      startTime: 1400,
      currentTime: 6800,
      elapsedTime: 5400, // 6800 − 1400
      elapsedTimeFromConfig: 5800, // 6800 − 1000
      preciseElapsedTime: 5400, // last datapoint − startTime
      preciseElapsedTimeFromConfig: 5800, // last datapoint − configTime
      preciseInterval: 600, // (6800 − 1400) / 9
      startDelay: 400,
    });
  });

  it('defaults the counters to the number of datapoints read', () => {
    expect(calculated).toMatchObject({
      numberOfDatapointsRead: 10,
      numberOfDatapointsAvailable: 10,
      numberOfMeasurementsOccurred: 10,
    });
  });

  it('gives MKT above the arithmetic mean (6.689 °C, computed with the Haynes formula at 40 digits)', () => {
    expect(calculated.analysedValues.temperature.meanKineticTemperature).toBeCloseTo(6.68884172530359, 9);
  });
});

describe('times and counters', () => {
  it('uses the reported currentTime and counters when given', () => {
    const { calculated } = run(REFERENCE, {
      reported: { currentTime: 10_000, numberOfDatapointsAvailable: 12, numberOfMeasurementsOccurred: 15 },
    });
    expect(calculated).toMatchObject({
      currentTime: 10_000,
      elapsedTime: 8600, // 10000 − 1400
      elapsedTimeFromConfig: 9000, // 10000 − 1000
      // The precise times still come from the last datapoint, not from currentTime.
      preciseElapsedTime: 5400,
      preciseElapsedTimeFromConfig: 5800,
      numberOfDatapointsRead: 10,
      numberOfDatapointsAvailable: 12,
      numberOfMeasurementsOccurred: 15,
    });
  });

  it('measures preciseInterval from irregular timestamps: (2650 − 1400) / 4 = 312.5', () => {
    const points = [1400, 1700, 2000, 2400, 2650].map((timestamp) => ({ timestamp, temperature: 5 }));
    expect(run(points).calculated.preciseInterval).toBe(312.5);
  });

  it('measures preciseInterval from two readings too, whatever the configured interval', () => {
    const points = [1400, 1700].map((timestamp) => ({ timestamp, temperature: 5 }));
    expect(run(points).calculated.preciseInterval).toBe(300);
  });

  it('clamps elapsed times at 0 when currentTime is before the start', () => {
    const { calculated } = run(REFERENCE, { reported: { currentTime: 1200 } });
    // 1200 − 1400 < 0 → 0; 1200 − 1000 = 200.
    expect(calculated.elapsedTime).toBe(0);
    expect(calculated.elapsedTimeFromConfig).toBe(200);
  });

  it('does not clamp preciseElapsedTime when a datapoint precedes the start', () => {
    // A single reading at 1100, before startTime 1400: 1100 − 1400 = −300, as defined.
    const { calculated } = run([{ timestamp: 1100, temperature: 5 }]);
    expect(calculated.preciseElapsedTime).toBe(-300);
    expect(calculated.preciseElapsedTimeFromConfig).toBe(100);
    expect(calculated.elapsedTime).toBe(0);
  });
});

describe('humidity', () => {
  /*
   * Only maxHumidity = 70 is set; interval 300.
   *
   *   index      0    1    2    3    4    5    6    7
   *   °C         5    5    5    9    9    5    5    1
   *   %RH       50    –   75   80    –   70   71   10
   *   violates   .    .    H   TH    T    .    H    T
   *
   * 70 is on the limit; 10 is fine because no minHumidity is set; "–" cannot violate humidity.
   */
  const temps = [5, 5, 5, 9, 9, 5, 5, 1];
  const hums = [50, undefined, 75, 80, undefined, 70, 71, 10];
  const points = temps.map((temperature, i) => {
    const humidity = hums[i];
    return humidity === undefined
      ? { timestamp: i * 300, temperature }
      : { timestamp: i * 300, temperature, humidity };
  });
  const config = makeConfig({ interval: 300, limits: { minTemperature: 2, maxTemperature: 8, maxHumidity: 70 } });
  const { calculated } = run(points, { config });

  it('counts excursions of each kind separately and together', () => {
    // temperature: {3,4}, {7}; humidity: {2,3}, {6}; all: {2,3,4}, {6,7}
    expect(calculated.numberOfViolations).toEqual({ temperature: 2, humidity: 2, all: 2 });
  });

  it('gives durations per kind: 3, 3 and 5 violating datapoints × 300', () => {
    expect(calculated.durationOfViolations).toEqual({ temperature: 900, humidity: 900, all: 1500 });
  });

  it('adds humidity extremes over the datapoints that have humidity', () => {
    expect(calculated.attainedValues).toStrictEqual({
      minTemperature: 1,
      maxTemperature: 9,
      minHumidity: 10,
      maxHumidity: 80,
    });
  });

  it('leaves humidity out of the temperature figures', () => {
    // average 44 / 8 = 5.5; degree-hours (1 + 1 + 1) × 300 / 3600 = 0.25
    expect(calculated.analysedValues.temperature.average).toBe(5.5);
    expect(calculated.analysedValues.temperature.degreeHour).toBeCloseTo(0.25, 12);
  });

  it('never flags humidity when no humidity limit is set', () => {
    const { calculated: noLimits } = run(points, { config: makeConfig({ interval: 300 }) });
    expect(noLimits.numberOfViolations).toEqual({ temperature: 2, humidity: 0, all: 2 });
  });

  it('applies a lone minHumidity without inventing a maximum', () => {
    // minHumidity 60: 50 and 10 are below; 75, 80, 70, 71 are fine with no maximum.
    const lone = makeConfig({ interval: 300, limits: { minTemperature: 2, maxTemperature: 8, minHumidity: 60 } });
    const { calculated: c } = run(points, { config: lone });
    expect(c.numberOfViolations.humidity).toBe(2); // {0}, {7}
    expect(c.durationOfViolations.humidity).toBe(600);
  });
});

describe('trimmed figures', () => {
  it('apply the same rules to the datapoints inside the trim, bounds included', () => {
    // Trim 2600..5000 keeps indices 2..6: 10, 5, 1, 8, 2 → excursions {2}, {4}.
    const result = run(REFERENCE, { trim: { startTime: 2600, endTime: 5000 } });
    expect(result.trimmed).toMatchObject({
      numberOfDatapointsRead: 5,
      numberOfDatapointsAvailable: 5,
      attainedValues: { minTemperature: 1, maxTemperature: 10 },
      numberOfViolations: { temperature: 2, humidity: 0, all: 2 },
      durationOfViolations: { temperature: 1200, humidity: 0, all: 1200 },
      currentTime: 5000, // last datapoint of the trimmed timeline
      preciseElapsedTime: 3600, // 5000 − 1400
      preciseInterval: 600, // (5000 − 2600) / 4
    });
    // (2 + 1) × 600 / 3600 = 0.5; (10 + 5 + 1 + 8 + 2) / 5 = 5.2
    expect(result.trimmed!.analysedValues.temperature.degreeHour).toBeCloseTo(0.5, 12);
    expect(result.trimmed!.analysedValues.temperature.average).toBeCloseTo(5.2, 12);
    expect(Array.from(result.trimmedTimeline!.timestamps)).toEqual([2600, 3200, 3800, 4400, 5000]);
    // The whole-timeline figures do not move.
    expect(result.calculated.numberOfViolations.all).toBe(3);
  });

  it('feed the minimal data and the alert when a trim is set', () => {
    const result = run(REFERENCE, { trim: { startTime: 2600, endTime: 5000 } });
    expect(result.minimal).toEqual({
      flattenedDatapoints: [1, 0, 1, 0, 0],
      numberOfDatapointsAvailable: 5,
      numberOfDatapointsRead: 5,
      numberOfMeasurementsOccurred: 5,
      numberOfViolations: { temperature: 2, humidity: 0, all: 2 },
    });
    // First violating datapoint of the trimmed timeline is at 2600 (the first one at 2000 is cut).
    expect(result.alert).toEqual({ level: 1, timestamp: 2600 });
  });

  it('are null without a trim', () => {
    const result = run(REFERENCE);
    expect(result.trimmed).toBeNull();
    expect(result.trimmedTimeline).toBeNull();
  });
});
