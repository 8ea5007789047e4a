/**
 * The sense figures of a report, computed from its raw datapoints and its inputs (the sense
 * configuration, alert rules, taps, trim and the counters the label reported), or kept as
 * another engine (a remote's) shows them.
 */
import type { Alert, SenseFigures } from '../schema/sense';
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

/**
 * The report with its figures computed again from its datapoints and inputs. With `previous`
 * (the figures it showed before), what these datapoints cannot tell is kept from them: a
 * mirrored report's datapoints may carry no humidity while the remote counted humidity
 * excursions (docs/sync.md#what-the-mirror-holds).
 */
export function withFigures(report: Omit<Report, 'figures'>, previous?: ReportFigures): Report {
  const timeline = toTimeline(decodeDatapoints(report.datapoints));
  const figures = figuresOf(computeSense({ ...senseSettingsOf(report), timeline }));
  return { ...report, figures: previous && timeline.humidities === null ? keepUnseen(figures, previous) : figures };
}

/** What another engine showed as a report's figures; the datapoint lists are the report's own. */
export interface ShownFigures {
  calculated: SenseFigures;
  trimmed: SenseFigures | null;
  alert: Alert;
}

/**
 * The report with the figures another engine showed for it. The list's counters come from its
 * effective figures (the trimmed ones when it shows them); the 50 flags of the list are drawn
 * from the datapoints and limits held here, which that engine does not show.
 */
export function withShownFigures(report: Report, shown: ShownFigures): Report {
  const effective = shown.trimmed ?? shown.calculated;
  return {
    ...report,
    figures: {
      calculated: shown.calculated,
      trimmed: shown.trimmed,
      alert: shown.alert,
      minimal: { ...minimalCounters(effective), flattenedDatapoints: report.figures.minimal.flattenedDatapoints },
    },
  };
}

/**
 * Humidity figures the datapoints cannot give, kept from before. `all` cannot be computed
 * either: it is at least the larger of the two kinds. The alert does not fall below the one
 * shown before while kept humidity excursions count: the desk cannot tell that they stopped.
 */
function keepUnseen(next: ReportFigures, previous: ReportFigures): ReportFigures {
  const calculated = keepHumidity(next.calculated, previous.calculated);
  const trimmed = next.trimmed && previous.trimmed ? keepHumidity(next.trimmed, previous.trimmed) : next.trimmed;
  if (calculated === next.calculated && trimmed === next.trimmed) return next;
  const effective = trimmed ?? calculated;
  const alert = effective.durationOfViolations.humidity > 0 && previous.alert.level > next.alert.level ? previous.alert : next.alert;
  return { calculated, trimmed, alert, minimal: { ...next.minimal, ...minimalCounters(effective), flattenedDatapoints: next.minimal.flattenedDatapoints } };
}

function keepHumidity(next: SenseFigures, previous: SenseFigures): SenseFigures {
  const { numberOfViolations: n, durationOfViolations: d, attainedValues: a } = previous;
  if (n.humidity === 0 && d.humidity === 0 && a.minHumidity === undefined && a.maxHumidity === undefined) return next;
  const attainedValues = { ...next.attainedValues };
  if (a.minHumidity !== undefined) attainedValues.minHumidity = a.minHumidity;
  if (a.maxHumidity !== undefined) attainedValues.maxHumidity = a.maxHumidity;
  return {
    ...next,
    attainedValues,
    numberOfViolations: { temperature: next.numberOfViolations.temperature, humidity: n.humidity, all: Math.max(next.numberOfViolations.all, n.humidity) },
    durationOfViolations: { temperature: next.durationOfViolations.temperature, humidity: d.humidity, all: Math.max(next.durationOfViolations.all, d.humidity) },
  };
}

function minimalCounters(effective: SenseFigures): Omit<ReportFigures['minimal'], 'flattenedDatapoints'> {
  return {
    numberOfDatapointsAvailable: effective.numberOfDatapointsAvailable,
    numberOfDatapointsRead: effective.numberOfDatapointsRead,
    numberOfMeasurementsOccurred: effective.numberOfMeasurementsOccurred,
    numberOfViolations: { ...effective.numberOfViolations },
  };
}
