/** Excursions one limit at a time, and the time beyond each limit, from hand-made readings. */
import { describe, expect, test } from 'vitest';
import { excursionsOf } from '../../sense/excursions';
import { series, timelineOf } from './helpers';

const limits = { minTemperature: 2, maxTemperature: 8 };

describe('excursionsOf', () => {
  test('one excursion per run beyond one limit, with its start, end, duration and peak', () => {
    // 1400 4 · 2000 9 · 2600 10.5 · 3200 9.2 · 3800 5 · 4400 1 · 5000 0.5 · 5600 5 · 6200 8.1
    const timeline = timelineOf(series([4, 9, 10.5, 9.2, 5, 1, 0.5, 5, 8.1]));
    const { excursions, timeAbove, timeBelow } = excursionsOf(timeline, limits, 600);
    expect(excursions).toEqual([
      { start: 2000, end: 3200, durationSeconds: 1800, datapoints: 3, peak: 10.5, peakAt: 2600, quantity: 'temperature', direction: 'above', limitName: 'maxTemperature', limit: 8 },
      { start: 4400, end: 5000, durationSeconds: 1200, datapoints: 2, peak: 0.5, peakAt: 5000, quantity: 'temperature', direction: 'below', limitName: 'minTemperature', limit: 2 },
      { start: 6200, end: 6200, durationSeconds: 600, datapoints: 1, peak: 8.1, peakAt: 6200, quantity: 'temperature', direction: 'above', limitName: 'maxTemperature', limit: 8 },
    ]);
    expect(timeAbove).toEqual({ temperature: 2400, humidity: null });
    expect(timeBelow).toEqual({ temperature: 1200, humidity: null });
  });

  test('a reading equal to a limit is in range, and the first of equal peaks is the peak', () => {
    const timeline = timelineOf(series([8, 2, 9, 9, 8]));
    const { excursions } = excursionsOf(timeline, limits, 600);
    expect(excursions).toHaveLength(1);
    expect(excursions[0]).toMatchObject({ start: 2600, end: 3200, peak: 9, peakAt: 2600 });
  });

  test('the peak below the minimum is the lowest reading, the first of equal ones', () => {
    // 1400 1 · 2000 0.5 · 2600 1.5 · 3200 0.5: the lowest comes first and again last.
    const { excursions } = excursionsOf(timelineOf(series([1, 0.5, 1.5, 0.5])), limits, 600);
    expect(excursions).toHaveLength(1);
    expect(excursions[0]).toMatchObject({ direction: 'below', start: 1400, end: 3200, peak: 0.5, peakAt: 2000 });
  });

  test('excursions starting together are listed temperature before humidity, maximum before minimum', () => {
    const points = [
      { timestamp: 1400, temperature: 9, humidity: 95 },
      { timestamp: 2000, temperature: 5, humidity: 50 },
      { timestamp: 2600, temperature: 1, humidity: 10 },
    ];
    const { excursions } = excursionsOf(timelineOf(points), { ...limits, minHumidity: 20, maxHumidity: 90 }, 600);
    expect(excursions.map((e) => [e.start, e.limitName])).toEqual([
      [1400, 'maxTemperature'],
      [1400, 'maxHumidity'],
      [2600, 'minTemperature'],
      [2600, 'minHumidity'],
    ]);
    // Limits the wrong way round put a reading between them beyond both at once.
    const inverted = excursionsOf(timelineOf(series([5])), { minTemperature: 8, maxTemperature: 2 }, 600);
    expect(inverted.excursions.map((e) => e.limitName)).toEqual(['maxTemperature', 'minTemperature']);
  });

  test('humidity limits on readings without humidity: no excursion, and no time beyond them', () => {
    const summary = excursionsOf(timelineOf(series([5, 9])), { ...limits, minHumidity: 20, maxHumidity: 90 }, 600);
    expect(summary.excursions.map((e) => e.limitName)).toEqual(['maxTemperature']);
    // Zero, not null: the limits are set, and nothing was beyond them.
    expect(summary.timeAbove).toEqual({ temperature: 600, humidity: 0 });
    expect(summary.timeBelow).toEqual({ temperature: 0, humidity: 0 });
  });

  test('a jump from above the maximum straight below the minimum is two excursions, one per limit', () => {
    const { excursions } = excursionsOf(timelineOf(series([9, 1])), limits, 600);
    expect(excursions.map((e) => [e.limitName, e.start])).toEqual([
      ['maxTemperature', 1400],
      ['minTemperature', 2000],
    ]);
  });

  test('humidity counts only where its limit is set and the reading has humidity', () => {
    const points = [
      { timestamp: 1000, temperature: 5, humidity: 50 },
      { timestamp: 1600, temperature: 5, humidity: 75 },
      { timestamp: 2200, temperature: 5 },
      { timestamp: 2800, temperature: 5, humidity: 80 },
      { timestamp: 3400, temperature: 5, humidity: 20 },
    ];
    const onlyMax = excursionsOf(timelineOf(points), { ...limits, maxHumidity: 70 }, 600);
    // The reading without humidity splits the run: it is not beyond the limit.
    expect(onlyMax.excursions.map((e) => [e.limitName, e.start, e.end, e.peak])).toEqual([
      ['maxHumidity', 1600, 1600, 75],
      ['maxHumidity', 2800, 2800, 80],
    ]);
    expect(onlyMax.excursions[0]).toMatchObject({ quantity: 'humidity', direction: 'above', limit: 70, peakAt: 1600 });
    expect(onlyMax.timeAbove).toEqual({ temperature: 0, humidity: 1200 });
    // No minimum humidity set: nothing can be below it, and the figure says so with null.
    expect(onlyMax.timeBelow).toEqual({ temperature: 0, humidity: null });

    const both = excursionsOf(timelineOf(points), { ...limits, minHumidity: 30, maxHumidity: 70 }, 600);
    expect(both.timeBelow).toEqual({ temperature: 0, humidity: 600 });
    expect(both.excursions.at(-1)).toMatchObject({ quantity: 'humidity', direction: 'below', limitName: 'minHumidity', limit: 30, peak: 20 });
  });

  test('excursions of one limit add up to its time beyond it, as durationOfViolations counts', () => {
    const temperatures = Array.from({ length: 200 }, (_, i) => 5 + 6 * Math.sin(i / 7));
    const { excursions, timeAbove, timeBelow } = excursionsOf(timelineOf(series(temperatures)), limits, 300);
    const sum = (name: string) => excursions.filter((e) => e.limitName === name).reduce((s, e) => s + e.durationSeconds, 0);
    expect(sum('maxTemperature')).toBe(timeAbove.temperature);
    expect(sum('minTemperature')).toBe(timeBelow.temperature);
    expect(timeAbove.temperature).toBeGreaterThan(0);
    // In time order.
    expect(excursions.map((e) => e.start)).toEqual([...excursions.map((e) => e.start)].sort((a, b) => a - b));
  });

  test('no readings, no excursions', () => {
    expect(excursionsOf(timelineOf([]), limits, 600)).toEqual({
      excursions: [],
      timeAbove: { temperature: 0, humidity: null },
      timeBelow: { temperature: 0, humidity: null },
    });
  });
});
