/**
 * JSON text of a full report, written without first building one object per datapoint: a report
 * can carry 100 000 datapoints three times over (reported, calculated, trimmed), and building
 * and stringifying those objects is most of the cost of answering retrieve.
 */
import { randomUUID } from 'node:crypto';
import type { LabelReport } from '../schema/report';
import { datapointsFromColumns, type DatapointColumns } from '../sense';

/** A report whose datapoint lists are still columns. Its `report` holds empty lists there. */
export interface ReportDocument {
  report: LabelReport;
  datapoints: { reported: DatapointColumns; calculated: DatapointColumns; trimmed: DatapointColumns | null };
}

/** The report as objects, for callers in this process. */
export function materialize({ report, datapoints }: ReportDocument): LabelReport {
  return {
    ...report,
    reportedSenseData: { ...report.reportedSenseData, datapoints: datapointsFromColumns(datapoints.reported) },
    calculatedSenseData: { ...report.calculatedSenseData, datapoints: datapointsFromColumns(datapoints.calculated) },
    trimmedSenseData:
      report.trimmedSenseData && datapoints.trimmed
        ? { ...report.trimmedSenseData, datapoints: datapointsFromColumns(datapoints.trimmed) }
        : null,
  };
}

// A per-process marker no client text can contain, stood in for each list and then replaced.
const MARK = `\u0001datapoints-${randomUUID()}`;
const slot = (name: string) => `${MARK}-${name}`;
const slotText = (name: string) => JSON.stringify(slot(name));

/**
 * Exactly `JSON.stringify(materialize(document))`, with the number formatting (most of the cost)
 * done once per datapoint: labels report in order, so the calculated list is usually the
 * reported one, and a trimmed list is always a run of the calculated one.
 */
export function reportJson({ report, datapoints }: ReportDocument): string {
  const text = JSON.stringify({
    ...report,
    reportedSenseData: { ...report.reportedSenseData, datapoints: slot('reported') },
    calculatedSenseData: { ...report.calculatedSenseData, datapoints: slot('calculated') },
    trimmedSenseData: report.trimmedSenseData && { ...report.trimmedSenseData, datapoints: slot('trimmed') },
  });
  const { reported, calculated, trimmed } = datapoints;
  const calculatedList = datapointList(calculated);
  const sameAsReported = reported.timestamps === calculated.timestamps && reported.temperatures === calculated.temperatures;
  const fills: [string, string][] = [
    ['reported', sameAsReported ? calculatedList.text : datapointsJson(reported)],
    ['calculated', calculatedList.text],
  ];
  if (trimmed) {
    const start = runStart(trimmed, calculated);
    fills.push(['trimmed', start === -1 ? datapointsJson(trimmed) : calculatedList.run(start, trimmed.timestamps.length)]);
  }
  return filled(text, fills);
}

/**
 * `text` with each slot's marker replaced by its list, found in the short text and joined once:
 * replacing one after another would search (and so copy) the lists already put in.
 */
function filled(text: string, fills: readonly [string, string][]): string {
  const places = fills.map(([name, list]) => ({ at: text.indexOf(slotText(name)), length: slotText(name).length, list })).sort((a, b) => a.at - b.at);
  let out = '';
  let from = 0;
  for (const { at, length, list } of places) {
    out += text.slice(from, at) + list;
    from = at + length;
  }
  return out + text.slice(from);
}

/** The JSON array of datapoint objects; number text is the same as JSON.stringify's. */
export function datapointsJson(columns: DatapointColumns): string {
  return datapointList(columns).text;
}

/** The list's text, and the text of any run of it, cut from the same string. */
function datapointList({ timestamps, temperatures, humidities }: DatapointColumns) {
  const n = timestamps.length;
  // starts[i]: where element i begins; starts[n]: one past the last element's closing brace.
  const starts = new Uint32Array(n + 1);
  let text = '[';
  for (let i = 0; i < n; i++) {
    if (i > 0) text += ',';
    starts[i] = text.length;
    const h = humidities === null ? Number.NaN : humidities[i];
    text += '{"timestamp":' + num(timestamps[i]) + ',"temperature":' + reading(temperatures[i]);
    text += Number.isNaN(h) ? '}' : ',"humidity":' + reading(h) + '}';
  }
  starts[n] = text.length;
  text += ']';
  return {
    text,
    run(from: number, count: number): string {
      if (count === 0) return '[]';
      const end = from + count < n ? starts[from + count] - 1 : starts[n]; // -1: the comma before the next
      return `[${text.slice(starts[from], end)}]`;
    },
  };
}

/** Where `run` starts inside `whole` when it is a view of the same columns, else -1. */
function runStart(run: DatapointColumns, whole: DatapointColumns): number {
  const sameColumns =
    run.timestamps.buffer === whole.timestamps.buffer &&
    run.temperatures.buffer === whole.temperatures.buffer &&
    (run.humidities === null || run.humidities.buffer === whole.humidities?.buffer);
  if (!sameColumns) return -1;
  const start = (run.timestamps.byteOffset - whole.timestamps.byteOffset) / Float64Array.BYTES_PER_ELEMENT;
  const tempStart = (run.temperatures.byteOffset - whole.temperatures.byteOffset) / Float64Array.BYTES_PER_ELEMENT;
  return start === tempStart && start >= 0 && start + run.timestamps.length <= whole.timestamps.length ? start : -1;
}

/** JSON writes -0 as 0; template literals already do, and every stored number is finite. */
function num(value: number): string {
  return `${value}`;
}

/** The fraction of a number of hundredths as JSON writes it: '', '.01' … '.09', '.1', '.11' … '.99'. */
const HUNDREDTHS = Array.from({ length: 100 }, (_, f) => (f === 0 ? '' : f % 10 === 0 ? `.${f / 10}` : `.${String(f).padStart(2, '0')}`));

/**
 * A reading as JSON writes it. Sensors report hundredths: for a double that is exactly a number
 * of hundredths (as the datapoint codec keeps them), the shortest text that reads back as it is
 * those hundredths written out, so it is put together from integers, several times cheaper than
 * formatting the double. Any other value is formatted as it is.
 */
function reading(value: number): string {
  const scaled = Math.round(value * 100);
  if (scaled / 100 !== value || Math.abs(scaled) > 0x7fffffff) return num(value);
  const whole = Math.abs(scaled);
  return `${scaled < 0 ? '-' : ''}${(whole - (whole % 100)) / 100}${HUNDREDTHS[whole % 100]}`;
}

