/** Inputs at the edges: nothing, one reading, disorder, duplicates, limits hit exactly, empty trims. */
import { describe, expect, it } from 'vitest';
import { estimatedBatteryDaysLeft } from '../../sense';
import { makeConfig, run, series } from './helpers';

describe('no datapoints', () => {
  const result = run([], { trim: null });

  it('gives null extremes, average and MKT, and zero violations', () => {
    expect(result.calculated).toStrictEqual({
      numberOfDatapointsAvailable: 0,
      numberOfDatapointsRead: 0,
      numberOfMeasurementsOccurred: 0,
      attainedValues: { minTemperature: null, maxTemperature: null },
      startTime: 1400,
      elapsedTime: 0,
      elapsedTimeFromConfig: 400, // currentTime falls back to startTime: 1400 − 1000
      preciseElapsedTime: 0,
      preciseElapsedTimeFromConfig: 0,
      preciseInterval: 600, // the configured interval when n < 2
      currentTime: 1400,
      startDelay: 400,
      numberOfViolations: { temperature: 0, humidity: 0, all: 0 },
      durationOfViolations: { temperature: 0, humidity: 0, all: 0 },
      analysedValues: { temperature: { average: null, degreeHour: 0, meanKineticTemperature: null } },
    });
  });

  it('has an empty flag list and alert level 0 after a tap', () => {
    expect(result.minimal.flattenedDatapoints).toEqual([]);
    expect(result.alert).toEqual({ level: 0, timestamp: 0 });
  });
});

describe('one datapoint', () => {
  const { calculated } = run([{ timestamp: 2000, temperature: 9.5 }]);

  it('is its own extreme, average and MKT', () => {
    expect(calculated.attainedValues).toEqual({ minTemperature: 9.5, maxTemperature: 9.5 });
    expect(calculated.analysedValues.temperature.average).toBe(9.5);
    expect(calculated.analysedValues.temperature.meanKineticTemperature).toBeCloseTo(9.5, 10);
  });

  it('falls back to the configured interval and times from its timestamp', () => {
    expect(calculated).toMatchObject({
      preciseInterval: 600,
      currentTime: 2000,
      preciseElapsedTime: 600, // 2000 − 1400
      preciseElapsedTimeFromConfig: 1000, // 2000 − 1000
      numberOfViolations: { temperature: 1, humidity: 0, all: 1 },
      durationOfViolations: { temperature: 600, humidity: 0, all: 600 },
    });
  });
});

describe('disorder and duplicates', () => {
  it('gives the same figures for unsorted input as for sorted input', () => {
    const sorted = series([5, 9, 10, 5, 1]);
    const shuffled = [sorted[3], sorted[0], sorted[4], sorted[2], sorted[1]];
    expect(run(shuffled)).toEqual(run(sorted));
  });

  it('keeps the first reading of a duplicated timestamp', () => {
    // The second reading at 2000 (20 °C) is dropped: one violation, not two.
    const points = [
      { timestamp: 1400, temperature: 5 },
      { timestamp: 2000, temperature: 5 },
      { timestamp: 2000, temperature: 20 },
      { timestamp: 2600, temperature: 5 },
    ];
    const { calculated } = run(points);
    expect(calculated.numberOfDatapointsRead).toBe(3);
    expect(calculated.durationOfViolations.all).toBe(0);
    expect(calculated.attainedValues.maxTemperature).toBe(5);
  });
});

describe('limits', () => {
  it('treats a reading exactly on a limit as in range', () => {
    const config = makeConfig({ limits: { minTemperature: 2, maxTemperature: 8, minHumidity: 30, maxHumidity: 70 } });
    const points = [
      { timestamp: 1400, temperature: 2, humidity: 30 },
      { timestamp: 2000, temperature: 8, humidity: 70 },
    ];
    const result = run(points, { config });
    expect(result.calculated.durationOfViolations).toEqual({ temperature: 0, humidity: 0, all: 0 });
    expect(result.calculated.analysedValues.temperature.degreeHour).toBe(0);
    expect(result.alert.level).toBe(0);
  });

  it('flags the smallest step beyond a limit', () => {
    const { calculated } = run(series([8.000001, 1.999999]));
    expect(calculated.durationOfViolations.temperature).toBe(1200);
  });

  it('counts a humidity-only excursion when only maxHumidity is set', () => {
    const config = makeConfig({ limits: { minTemperature: 2, maxTemperature: 8, maxHumidity: 60 } });
    const points = [
      { timestamp: 1400, temperature: 5, humidity: 61 },
      { timestamp: 2000, temperature: 5 }, // no humidity: cannot violate, ends the run
      { timestamp: 2600, temperature: 5, humidity: 0 }, // no minimum set
      { timestamp: 3200, temperature: 5, humidity: 61 },
    ];
    const { calculated } = run(points, { config });
    expect(calculated.numberOfViolations).toEqual({ temperature: 0, humidity: 2, all: 2 });
    expect(calculated.durationOfViolations).toEqual({ temperature: 0, humidity: 1200, all: 1200 });
  });
});

describe('trims', () => {
  it('can select nothing, leaving empty trimmed figures but full calculated ones', () => {
    // Between the readings at 1400 and 2000.
    const result = run(series([20, 20, 20]), { trim: { startTime: 1401, endTime: 1999 } });
    expect(result.trimmedTimeline!.timestamps.length).toBe(0);
    expect(result.trimmed).toMatchObject({
      numberOfDatapointsRead: 0,
      attainedValues: { minTemperature: null, maxTemperature: null },
      currentTime: 1400, // no reported time, no datapoint: startTime
      preciseInterval: 600,
      preciseElapsedTime: 0,
      durationOfViolations: { temperature: 0, humidity: 0, all: 0 },
      analysedValues: { temperature: { average: null, degreeHour: 0, meanKineticTemperature: null } },
    });
    expect(result.calculated.durationOfViolations.all).toBe(1800);
    expect(result.minimal.flattenedDatapoints).toEqual([]);
    expect(result.alert).toEqual({ level: 0, timestamp: 0 });
  });

  it('gives −1 with no taps even when the trim holds violations', () => {
    expect(run(series([20]), { numberOfTaps: 0, trim: { startTime: 0, endTime: 9999 } }).alert).toEqual({
      level: -1,
      timestamp: 0,
    });
  });
});

describe('estimatedBatteryDaysLeft', () => {
  it('floors the days left of a 365-day battery', () => {
    // 10.5 days after configuration: floor(365 − 10.5) = 354.
    expect(estimatedBatteryDaysLeft(1_000, 1_000 + 10.5 * 86_400)).toBe(354);
    expect(estimatedBatteryDaysLeft(1_000, 1_000)).toBe(365);
  });

  it('never goes below 0 and honours another battery life', () => {
    expect(estimatedBatteryDaysLeft(0, 400 * 86_400)).toBe(0);
    expect(estimatedBatteryDaysLeft(0, 29.2 * 86_400, 30)).toBe(0); // floor(0.8)
    expect(estimatedBatteryDaysLeft(0, 28.9 * 86_400, 30)).toBe(1); // floor(1.1)
  });
});
