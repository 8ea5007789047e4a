/** The time fields of the calculated sense data (docs/figures.md#times). */
import type { SenseConfig } from '../schema/sense';

export interface TimeFigures {
  startTime: number;
  elapsedTime: number;
  elapsedTimeFromConfig: number;
  preciseElapsedTime: number;
  preciseElapsedTimeFromConfig: number;
  preciseInterval: number;
  currentTime: number;
  startDelay: number;
}

/** `timestamps` must be sorted: only its first and last entries are read. */
export function timeFigures(
  timestamps: Float64Array,
  config: SenseConfig,
  reportedCurrentTime: number | undefined,
): TimeFigures {
  const n = timestamps.length;
  const startTime = config.configTime + config.startDelay;
  const last = timestamps.at(-1);
  const currentTime = reportedCurrentTime ?? last ?? startTime;
  return {
    startTime,
    elapsedTime: Math.max(0, currentTime - startTime),
    elapsedTimeFromConfig: Math.max(0, currentTime - config.configTime),
    // Not clamped, unlike the elapsed times: the definition has no max(0, …) here.
    preciseElapsedTime: last === undefined ? 0 : last - startTime,
    preciseElapsedTimeFromConfig: last === undefined ? 0 : last - config.configTime,
    preciseInterval: n < 2 ? config.interval : (last! - timestamps[0]) / (n - 1),
    currentTime,
    startDelay: config.startDelay,
  };
}
