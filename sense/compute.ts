/** The sense-data engine's entry point: every figure of a report from its timeline and settings. */
import { DEFAULT_ALERT_RULES } from '../schema/sense';
import type { Alert, AlertsConfig, MinimalSenseData, SenseConfig, SenseFigures, Trim } from '../schema/sense';
import { alertFromViolations } from './alert';
import { analyseTimeline } from './figures';
import { minimalSenseData } from './minimal';
import { trimTimeline } from './timeline';
import type { Timeline } from './timeline';

export interface ReportedCounters {
  currentTime?: number;
  numberOfDatapointsAvailable?: number;
  numberOfMeasurementsOccurred?: number;
}

export interface SenseInput {
  timeline: Timeline;
  reported: ReportedCounters;
  senseConfig: SenseConfig;
  /** null → DEFAULT_ALERT_RULES */
  alertsConfig: AlertsConfig | null;
  numberOfTaps: number;
  trim: Trim | null;
}

export interface SenseResult {
  /** whole timeline */
  calculated: SenseFigures;
  /** null when trim is null */
  trimmed: SenseFigures | null;
  /** the trimmed view (so callers can output its datapoints), null when no trim */
  trimmedTimeline: Timeline | null;
  /** effective timeline */
  minimal: MinimalSenseData;
  /** effective timeline */
  alert: Alert;
}

export function computeSense(input: SenseInput): SenseResult {
  const { senseConfig, reported } = input;
  const whole = analyseTimeline(input.timeline, senseConfig, reported);

  const trimmedTimeline = input.trim === null ? null : trimTimeline(input.timeline, input.trim);
  const trimmed = trimmedTimeline === null ? null : analyseTimeline(trimmedTimeline, senseConfig, reported);

  const effective = trimmed ?? whole;
  const effectiveTimeline = trimmedTimeline ?? input.timeline;
  const rules = input.alertsConfig === null ? DEFAULT_ALERT_RULES : input.alertsConfig.rules;

  return {
    calculated: whole.figures,
    trimmed: trimmed === null ? null : trimmed.figures,
    trimmedTimeline,
    minimal: minimalSenseData(effective.figures, effective.violationFlags),
    alert: alertFromViolations(
      effective.violationFlags,
      effectiveTimeline.timestamps,
      senseConfig.interval,
      rules,
      input.numberOfTaps,
    ),
  };
}
