/** Columns, sorting, de-duplication and trimming. */
import { describe, expect, it } from 'vitest';
import {
  columnsFromDatapoints,
  datapointsFromColumns,
  toTimeline,
  trimTimeline,
} from '../../sense';
import { timelineOf } from './helpers';

const f64 = (...xs: number[]) => Float64Array.from(xs);

describe('columnsFromDatapoints / datapointsFromColumns', () => {
  it('has no humidity column when no datapoint has humidity', () => {
    const columns = columnsFromDatapoints([{ timestamp: 1, temperature: 5 }]);
    expect(columns.humidities).toBeNull();
  });

  it('marks absent humidity with NaN and leaves the key out on the way back', () => {
    const points = [
      { timestamp: 1, temperature: 5 },
      { timestamp: 2, temperature: 6, humidity: 40 },
      { timestamp: 3, temperature: 7 },
    ];
    const columns = columnsFromDatapoints(points);
    expect(Array.from(columns.humidities!)).toEqual([NaN, 40, NaN]);
    const back = datapointsFromColumns(columns);
    expect(back).toStrictEqual(points);
    expect('humidity' in back[0]).toBe(false);
  });

  it('keeps the reported order', () => {
    const columns = columnsFromDatapoints([
      { timestamp: 3, temperature: 1 },
      { timestamp: 1, temperature: 2 },
    ]);
    expect(Array.from(columns.timestamps)).toEqual([3, 1]);
  });
});

describe('toTimeline', () => {
  it('returns the very same arrays when already strictly ascending', () => {
    const raw = { timestamps: f64(1, 2, 3), temperatures: f64(5, 6, 7), humidities: f64(NaN, 40, NaN) };
    const timeline = toTimeline(raw);
    expect(timeline.timestamps).toBe(raw.timestamps);
    expect(timeline.temperatures).toBe(raw.temperatures);
    expect(timeline.humidities).toBe(raw.humidities);
    expect(timeline.sorted).toBe(true);
  });

  it('sorts unsorted input, carrying every column along', () => {
    const timeline = timelineOf([
      { timestamp: 30, temperature: 3, humidity: 33 },
      { timestamp: 10, temperature: 1 },
      { timestamp: 20, temperature: 2, humidity: 22 },
    ]);
    expect(Array.from(timeline.timestamps)).toEqual([10, 20, 30]);
    expect(Array.from(timeline.temperatures)).toEqual([1, 2, 3]);
    expect(Array.from(timeline.humidities!)).toEqual([NaN, 22, 33]);
  });

  it('keeps the first reported reading of a duplicated timestamp', () => {
    const timeline = timelineOf([
      { timestamp: 20, temperature: 2 },
      { timestamp: 10, temperature: 1 },
      { timestamp: 20, temperature: 99 },
      { timestamp: 10, temperature: 98 },
      { timestamp: 20, temperature: 97 },
    ]);
    expect(Array.from(timeline.timestamps)).toEqual([10, 20]);
    expect(Array.from(timeline.temperatures)).toEqual([1, 2]);
  });

  it('de-duplicates input that is ascending but not strictly', () => {
    const timeline = toTimeline({ timestamps: f64(1, 1, 2), temperatures: f64(5, 6, 7), humidities: null });
    expect(Array.from(timeline.timestamps)).toEqual([1, 2]);
    expect(Array.from(timeline.temperatures)).toEqual([5, 7]);
  });

  it('sorts stably through the comparator path too (fractional or far-apart timestamps)', () => {
    const fractional = toTimeline({ timestamps: f64(2.5, 1.5, 2.5, 0.5), temperatures: f64(1, 2, 3, 4), humidities: null });
    expect(Array.from(fractional.timestamps)).toEqual([0.5, 1.5, 2.5]);
    expect(Array.from(fractional.temperatures)).toEqual([4, 2, 1]);
    const far = toTimeline({ timestamps: f64(2 ** 52, 0, 2 ** 52), temperatures: f64(1, 2, 3), humidities: null });
    expect(Array.from(far.timestamps)).toEqual([0, 2 ** 52]);
    expect(Array.from(far.temperatures)).toEqual([2, 1]);
  });

  it('sorts timestamps that are not whole seconds apart', () => {
    // Whole-second timestamps are sorted by packing each with its index into one number; these
    // must not be, as their fractions would run into the index.
    const timeline = toTimeline({ timestamps: f64(0.3, 0.1, 0.2, 0.1), temperatures: f64(3, 1, 2, 9), humidities: null });
    expect(timeline).toStrictEqual({ timestamps: f64(0.1, 0.2, 0.3), temperatures: f64(1, 2, 3), humidities: null, sorted: true });
  });

  it('sorts timestamps too far apart to pack with their index into an exact double', () => {
    const wide = toTimeline({ timestamps: f64(2 ** 52 + 1, 0, -(2 ** 52)), temperatures: f64(1, 2, 3), humidities: null });
    expect(Array.from(wide.timestamps)).toEqual([-(2 ** 52), 0, 2 ** 52 + 1]);
    expect(Array.from(wide.temperatures)).toEqual([3, 2, 1]);
    // A spread just past what packs exactly: (spread + 1) · n reaches 2^53 while spread · n does not.
    const spread = 3_002_399_751_580_331;
    const edge = toTimeline({ timestamps: f64(spread, 0, 1), temperatures: f64(1, 2, 3), humidities: null });
    expect(Array.from(edge.timestamps)).toEqual([0, 1, spread]);
    expect(Array.from(edge.temperatures)).toEqual([2, 3, 1]);
  });

  it('drops a humidity column that holds no value', () => {
    const timeline = toTimeline({ timestamps: f64(1, 2), temperatures: f64(5, 6), humidities: f64(NaN, NaN) });
    expect(timeline.humidities).toBeNull();
  });

  it('handles empty and single-datapoint input', () => {
    expect(timelineOf([]).timestamps.length).toBe(0);
    expect(Array.from(timelineOf([{ timestamp: 7, temperature: 1 }]).timestamps)).toEqual([7]);
  });
});

describe('trimTimeline', () => {
  const timeline = timelineOf(
    [10, 20, 30, 40, 50].map((timestamp, i) => ({ timestamp, temperature: i, ...(i === 4 ? { humidity: 60 } : {}) })),
  );

  it('keeps startTime ≤ ts ≤ endTime, both bounds included', () => {
    expect(Array.from(trimTimeline(timeline, { startTime: 20, endTime: 40 }).timestamps)).toEqual([20, 30, 40]);
    expect(Array.from(trimTimeline(timeline, { startTime: 15, endTime: 45 }).temperatures)).toEqual([1, 2, 3]);
    expect(Array.from(trimTimeline(timeline, { startTime: 0, endTime: 100 }).timestamps)).toEqual([10, 20, 30, 40, 50]);
  });

  it('shares memory with the timeline instead of copying', () => {
    const trimmed = trimTimeline(timeline, { startTime: 20, endTime: 40 });
    expect(trimmed.timestamps.buffer).toBe(timeline.timestamps.buffer);
    expect(trimmed.temperatures.buffer).toBe(timeline.temperatures.buffer);
  });

  it('can select nothing', () => {
    expect(trimTimeline(timeline, { startTime: 21, endTime: 29 }).timestamps.length).toBe(0);
    expect(trimTimeline(timeline, { startTime: 60, endTime: 70 }).timestamps.length).toBe(0);
    expect(trimTimeline(timeline, { startTime: 0, endTime: 5 }).timestamps.length).toBe(0);
  });

  it('is itself a timeline, sorted', () => {
    expect(trimTimeline(timeline, { startTime: 20, endTime: 40 }).sorted).toBe(true);
  });

  it('has a humidity column only when the kept datapoints have humidity', () => {
    expect(trimTimeline(timeline, { startTime: 10, endTime: 40 }).humidities).toBeNull();
    expect(Array.from(trimTimeline(timeline, { startTime: 40, endTime: 50 }).humidities!)).toEqual([NaN, 60]);
  });
});
