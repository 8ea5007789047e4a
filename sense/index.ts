/** Public API of the sense-data engine: pure functions, no I/O. */
export { appendNewReadings, columnsFromDatapoints, datapointsFromColumns, toTimeline, trimTimeline } from './timeline';
export type { DatapointColumns, Timeline } from './timeline';
export { computeSense } from './compute';
export type { ReportedCounters, SenseInput, SenseResult } from './compute';
export { estimatedBatteryDaysLeft } from './battery';
