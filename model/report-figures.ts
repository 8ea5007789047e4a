/**
 * The sense figures of a report, computed from its raw datapoints and its inputs (the sense
 * configuration, alert rules, taps, trim and the counters the label reported).
 */
import { computeSense, toTimeline, type SenseInput, type SenseResult } from '../sense';
import { decodeDatapoints } from './datapoint-codec';
import type { Report, ReportFigures } from './report';

/** What the engine needs from a report besides its datapoints. */
export type SenseSettings = Omit<SenseInput, 'timeline'>;

export function senseSettingsOf(report: Pick<Report, 'senseConfig' | 'alertsConfig' | 'numberOfTaps' | 'trim' | 'reported'>): SenseSettings {
  return {
    senseConfig: report.senseConfig,
    alertsConfig: report.alertsConfig,
    numberOfTaps: report.numberOfTaps,
    trim: report.trim,
    reported: report.reported,
  };
}

export function figuresOf(result: SenseResult): ReportFigures {
  return { calculated: result.calculated, trimmed: result.trimmed, minimal: result.minimal, alert: result.alert };
}

/** The report with its figures computed again from its datapoints and inputs. */
export function withFigures(report: Omit<Report, 'figures'>): Report {
  const timeline = toTimeline(decodeDatapoints(report.datapoints));
  return { ...report, figures: figuresOf(computeSense({ ...senseSettingsOf(report), timeline })) };
}
