/**
 * minimalSenseData.flattenedDatapoints: one flag per datapoint up to 50, then 50 buckets,
 * bucket i = datapoints [floor(i·n/50), floor((i+1)·n/50)).
 */
import { describe, expect, it } from 'vitest';
import { run, series } from './helpers';

/** n readings at 5 °C, with 20 °C (a violation of 2..8) at the given indices. */
function flagsFor(n: number, violating: number[]) {
  const temps = Array.from({ length: n }, (_, i) => (violating.includes(i) ? 20 : 5));
  return run(series(temps)).minimal.flattenedDatapoints;
}

function expectedFlags(length: number, ones: number[]) {
  return Array.from({ length }, (_, i) => (ones.includes(i) ? 1 : 0));
}

describe('flattenedDatapoints', () => {
  it('n = 50: one flag per datapoint', () => {
    expect(flagsFor(50, [0, 17, 49])).toEqual(expectedFlags(50, [0, 17, 49]));
  });

  it('n = 51: buckets 0..48 hold one datapoint each, bucket 49 holds datapoints 49 and 50', () => {
    // floor(i·51/50) = i for i ≤ 49 and floor(50·51/50) = 51, so the last bucket is [49, 51).
    expect(flagsFor(51, [50])).toEqual(expectedFlags(50, [49]));
    expect(flagsFor(51, [49])).toEqual(expectedFlags(50, [49]));
    expect(flagsFor(51, [0, 48])).toEqual(expectedFlags(50, [0, 48]));
  });

  it('n = 100: bucket i holds datapoints 2i and 2i + 1', () => {
    // 3 → bucket 1 ([2,4)), 4 → bucket 2 ([4,6)), 99 → bucket 49 ([98,100)).
    expect(flagsFor(100, [3, 4, 99])).toEqual(expectedFlags(50, [1, 2, 49]));
  });

  it('n = 137: uneven buckets, boundaries from floor(137·i/50)', () => {
    // Bucket starts: 0, 2, 5, 8, 10, … , 128, 131, 134, end 137.
    // 4 ∈ [2,5) → 1; 5 ∈ [5,8) → 2; 133 ∈ [131,134) → 48; 136 ∈ [134,137) → 49.
    expect(flagsFor(137, [4, 5, 133, 136])).toEqual(expectedFlags(50, [1, 2, 48, 49]));
    // 7 is the last datapoint of bucket 2 and 8 the first of bucket 3.
    expect(flagsFor(137, [7])).toEqual(expectedFlags(50, [2]));
    expect(flagsFor(137, [8])).toEqual(expectedFlags(50, [3]));
  });

  it('is empty without datapoints and all zero without violations', () => {
    expect(flagsFor(0, [])).toEqual([]);
    expect(flagsFor(1000, [])).toEqual(expectedFlags(50, []));
  });

  it('carries the counters and excursions of the effective timeline', () => {
    const temps = [5, 9, 10, 5, 1, 8, 2, 11, 5, 5];
    const { minimal } = run(series(temps), { reported: { numberOfDatapointsAvailable: 30 } });
    expect(minimal).toEqual({
      flattenedDatapoints: [0, 1, 1, 0, 1, 0, 0, 1, 0, 0],
      numberOfDatapointsAvailable: 30,
      numberOfDatapointsRead: 10,
      numberOfMeasurementsOccurred: 10,
      numberOfViolations: { temperature: 3, humidity: 0, all: 3 },
    });
  });
});
