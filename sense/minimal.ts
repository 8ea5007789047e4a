/** minimalSenseData: the list view's 50-flag summary of the effective timeline. */
import type { MinimalSenseData, SenseFigures } from '../schema/sense';

export const MAX_FLATTENED_FLAGS = 50;

/**
 * One flag per datapoint up to 50 of them; beyond, bucket i covers datapoints
 * [floor(i·n/50), floor((i+1)·n/50)) and is 1 when any of them violates.
 */
export function flattenViolations(flags: Uint8Array): (0 | 1)[] {
  const n = flags.length;
  // Stryker disable next-line EqualityOperator: at n = 50, bucket i covers [i, i + 1), one flag per datapoint as well
  if (n <= MAX_FLATTENED_FLAGS) {
    return Array.from(flags, (f) => (f === 0 ? 0 : 1));
  }
  const out: (0 | 1)[] = [];
  for (let b = 0; b < MAX_FLATTENED_FLAGS; b++) {
    // n ≤ 2^32 datapoints keeps b·n far inside exact double integers.
    const end = Math.floor(((b + 1) * n) / MAX_FLATTENED_FLAGS);
    let flag: 0 | 1 = 0;
    for (let i = Math.floor((b * n) / MAX_FLATTENED_FLAGS); i < end; i++) {
      if (flags[i] !== 0) {
        flag = 1;
        break;
      }
    }
    out.push(flag);
  }
  return out;
}

/** `effective` and `flags` both belong to the effective timeline. */
export function minimalSenseData(effective: SenseFigures, flags: Uint8Array): MinimalSenseData {
  return {
    flattenedDatapoints: flattenViolations(flags),
    numberOfDatapointsAvailable: effective.numberOfDatapointsAvailable,
    numberOfDatapointsRead: effective.numberOfDatapointsRead,
    numberOfMeasurementsOccurred: effective.numberOfMeasurementsOccurred,
    numberOfViolations: { ...effective.numberOfViolations },
  };
}
