/** Small builders shared by the sense-engine tests. */
import type { AlertsConfig, Datapoint, SenseConfig, Trim } from '../../schema/sense';
import { columnsFromDatapoints, computeSense, toTimeline } from '../../sense';
import type { ReportedCounters, SenseResult, Timeline } from '../../sense';

/** Limits 2..8 °C, readings every 600 s, configured at 1000 and started 400 s later (startTime 1400). */
export function makeConfig(overrides: Partial<SenseConfig> = {}): SenseConfig {
  return {
    limits: { minTemperature: 2, maxTemperature: 8 },
    interval: 600,
    configTime: 1000,
    startDelay: 400,
    runningTime: 86_400,
    ...overrides,
  };
}

export function timelineOf(points: readonly Datapoint[]): Timeline {
  return toTimeline(columnsFromDatapoints(points));
}

/** Readings every `interval` seconds from `start`, one per temperature. */
export function series(temperatures: readonly number[], start = 1400, interval = 600): Datapoint[] {
  return temperatures.map((temperature, i) => ({ timestamp: start + i * interval, temperature }));
}

export interface RunOptions {
  config?: SenseConfig;
  reported?: ReportedCounters;
  alertsConfig?: AlertsConfig | null;
  numberOfTaps?: number;
  trim?: Trim | null;
}

export function run(points: readonly Datapoint[], options: RunOptions = {}): SenseResult {
  return computeSense({
    timeline: timelineOf(points),
    reported: options.reported ?? {},
    senseConfig: options.config ?? makeConfig(),
    alertsConfig: options.alertsConfig ?? null,
    numberOfTaps: options.numberOfTaps ?? 1,
    trim: options.trim ?? null,
  });
}
