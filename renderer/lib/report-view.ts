/**
 * Facts the detail and the list derive from a full report: the effective figures, the trim
 * range, where the excursions lie on the time axis, and the list row an edited report turns into.
 * The violation rule and the 50-flag flattening come from the shared sense engine (pure code,
 * no I/O), so the renderer can never disagree with the service about what "out of range" means.
 */
import type { LabelReport, MinimalLabelReport } from '../../schema/report';
import type { CalculatedSenseData, Datapoint, Limits } from '../../schema/sense';
import { flattenViolations } from '../../sense/minimal';
import { thresholdsFromLimits, violationFlag } from '../../sense/violations';

export interface TimeRange {
  start: number;
  end: number;
}

/** The trim range of a report: first and last timestamps of trimmedSenseData (null without trim). */
export function trimRange(report: Pick<LabelReport, 'trimmedSenseData'>): TimeRange | null {
  const dps = report.trimmedSenseData?.datapoints;
  if (!dps || dps.length === 0) return null;
  return { start: dps[0].timestamp, end: dps[dps.length - 1].timestamp };
}

/** Figures of the effective timeline: trimmed when a trim is set (alert and list use the same). */
export function effectiveSenseData(report: Pick<LabelReport, 'calculatedSenseData' | 'trimmedSenseData'>): CalculatedSenseData {
  return report.trimmedSenseData ?? report.calculatedSenseData;
}

/** Per-datapoint violation flags (0 = in range) under the given limits. */
export function violationFlags(datapoints: readonly Datapoint[], limits: Limits): Uint8Array {
  const th = thresholdsFromLimits(limits);
  const flags = new Uint8Array(datapoints.length);
  for (let i = 0; i < datapoints.length; i++) {
    const d = datapoints[i];
    flags[i] = violationFlag(d.temperature, d.humidity ?? Number.NaN, th);
  }
  return flags;
}

/**
 * Time ranges of the excursions (maximal runs of violating datapoints), for shading the chart.
 * A run covers its readings plus half an interval on each side, so a single bad reading still
 * shows as a visible band instead of a zero-width line.
 */
export function excursionRanges(datapoints: readonly Datapoint[], limits: Limits, interval: number): TimeRange[] {
  const flags = violationFlags(datapoints, limits);
  const half = interval / 2;
  const out: TimeRange[] = [];
  let runStart = -1;
  for (let i = 0; i <= flags.length; i++) {
    const violating = i < flags.length && flags[i] !== 0;
    if (violating && runStart < 0) runStart = i;
    if (!violating && runStart >= 0) {
      out.push({ start: datapoints[runStart].timestamp - half, end: datapoints[i - 1].timestamp + half });
      runStart = -1;
    }
  }
  return out;
}

export function hasHumidity(datapoints: readonly Datapoint[]): boolean {
  return datapoints.some((d) => d.humidity !== undefined);
}

/**
 * The list row a full report (a PATCH answer) stands for, so the table shows an edit at once
 * without refetching its page. minimalSenseData is rebuilt from the effective timeline exactly as
 * docs/figures.md#trimmed-and-minimal-data defines it.
 */
export function toMinimalRow(report: LabelReport): MinimalLabelReport {
  const effective = effectiveSenseData(report);
  const flags = violationFlags(effective.datapoints, report.senseConfig.limits);
  return {
    id: report.id,
    created: report.created,
    updated: report.updated,
    company: report.company,
    subCompany: report.subCompany,
    label: { uid: report.label.uid, sequenceCode: report.label.sequenceCode },
    mode: report.mode,
    type: report.type,
    status: report.status,
    labelReference: report.labelReference,
    senseConfig: report.senseConfig,
    hasFlag: report.hasFlag,
    isArchived: report.isArchived,
    numberOfTaps: report.numberOfTaps,
    minimalSenseData: {
      flattenedDatapoints: flattenViolations(flags),
      numberOfDatapointsAvailable: effective.numberOfDatapointsAvailable,
      numberOfDatapointsRead: effective.numberOfDatapointsRead,
      numberOfMeasurementsOccurred: effective.numberOfMeasurementsOccurred,
      numberOfViolations: { ...effective.numberOfViolations },
    },
    alert: report.alert,
  };
}

/**
 * At most `max` ranges: when there are more, the closest neighbours are merged first. Thousands
 * of annotation boxes would make every zoom step slow, and at full view they overlap anyway.
 */
export function mergeRanges(ranges: readonly TimeRange[], max: number): TimeRange[] {
  if (ranges.length <= max) return ranges.slice();
  const gaps = ranges.slice(1).map((r, i) => r.start - ranges[i].end);
  // The (ranges.length - max)-th smallest gap: every gap up to it is closed.
  const sorted = [...gaps].sort((a, b) => a - b);
  const threshold = sorted[ranges.length - max - 1];
  let merges = ranges.length - max;
  const out: TimeRange[] = [{ ...ranges[0] }];
  for (let i = 1; i < ranges.length; i++) {
    const gap = gaps[i - 1];
    if (merges > 0 && gap <= threshold) {
      out[out.length - 1].end = Math.max(out[out.length - 1].end, ranges[i].end);
      merges--;
    } else {
      out.push({ ...ranges[i] });
    }
  }
  return out;
}
