/**
 * CSV people hand on (RFC 4180): a report's readings and the list's table. Pure functions over
 * typed values, shared by the HTTP answers and `labeldesk report --csv`. Lines end in CRLF; the
 * text starts with a UTF-8 byte order mark, without which spreadsheet programs read the
 * non-ASCII characters of names (`Rotterdam → Oslo`, `°`) in the wrong encoding.
 */
import type { Limits, Trim } from '../schema/sense';
import { thresholdsFromLimits, violationFlag } from '../sense/violations';
import type { CsvRange } from '../schema/review';
import { ALERT_LEVEL_NAMES } from '../sense/alert-rules';

export const CSV_BOM = '\uFEFF';
export const CSV_CONTENT_TYPE = 'text/csv; charset=utf-8; header=present';
const CRLF = '\r\n';

export type CsvValue = string | number | boolean | null;

/**
 * One field. Text that a spreadsheet would run as a formula (starting with =, +, -, @, a tab or
 * a carriage return) gets a leading apostrophe, so a label reference cannot become a command
 * when the file is opened; numbers are written as they are, minus sign included.
 */
export function csvField(value: CsvValue): string {
  if (value === null) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(values: readonly CsvValue[]): string {
  return values.map(csvField).join(',') + CRLF;
}

/** `2026-05-28T20:26:40Z`: a reading's time in ISO 8601 UTC (readings are whole seconds). */
export function isoSeconds(epochSeconds: number): string {
  return new Date(epochSeconds * 1000).toISOString().replace(/\.000Z$/, 'Z');
}

/* ---------- readings ---------- */

/**
 * The reading's own columns first, as they always were; then whether it is within the limits
 * (`in`) or beyond one (`out`: strictly beyond, as the alert counts it), and the report's
 * reference, units and limits on every line, so a line read on its own says what it was judged by.
 */
export const READINGS_CSV_COLUMNS = [
  'timestamp',
  'temperature',
  'humidity',
  'inTrimmedRange',
  'verdict',
  'reference',
  'temperatureUnit',
  'humidityUnit',
  'minTemperature',
  'maxTemperature',
  'minHumidity',
  'maxHumidity',
] as const;

/** What every line of a report's readings is judged by and named with. */
export interface ReadingsAbout {
  reference: string;
  limits: Limits;
}

/** The readings as the engine holds them: sorted columns, NaN for an absent humidity. */
export interface ReadingColumns {
  timestamps: ArrayLike<number>;
  temperatures: ArrayLike<number>;
  humidities: ArrayLike<number> | null;
}

/**
 * The readings CSV in chunks of about `perChunk` lines, header first; `about` gives the report's
 * reference and limits. `range: 'trimmed'` keeps
 * the readings of the trim only (the caller makes sure there is one); `inTrimmedRange` says of
 * each reading whether the trim keeps it, and is empty when the report has no trim.
 */
export function* readingsCsv(readings: ReadingColumns, trim: Trim | null, range: CsvRange, about: ReadingsAbout, perChunk = 2000): Generator<string> {
  let chunk = CSV_BOM + csvLine(READINGS_CSV_COLUMNS);
  let lines = 0;
  const { timestamps, temperatures, humidities } = readings;
  const { limits } = about;
  const thresholds = thresholdsFromLimits(limits);
  // The same on every line: written once.
  const fixed = csvLine([
    about.reference,
    '°C',
    humidities === null ? null : '%RH',
    limits.minTemperature,
    limits.maxTemperature,
    limits.minHumidity ?? null,
    limits.maxHumidity ?? null,
  ]);
  for (let i = 0; i < timestamps.length; i++) {
    const t = timestamps[i];
    const inTrim = trim === null ? null : t >= trim.startTime && t <= trim.endTime;
    if (range === 'trimmed' && inTrim !== true) continue;
    const h = humidities === null ? Number.NaN : humidities[i];
    // Every field is a time or a number: none needs quoting, so the line is written directly.
    const verdict = violationFlag(temperatures[i], h, thresholds) === 0 ? 'in' : 'out';
    chunk += `${isoSeconds(t)},${csvField(temperatures[i])},${csvField(Number.isNaN(h) ? null : h)},${csvField(inTrim)},${verdict},${fixed}`;
    if (++lines === perChunk) {
      yield chunk;
      chunk = '';
      lines = 0;
    }
  }
  if (chunk !== '') yield chunk;
}

/* ---------- the list's table ---------- */

export type { ReportTableRecord } from '../model/report-table';
import type { CurrentDecision, ReportTableRecord } from '../model/report-table';

/**
 * Header names, in the table's order; `alert` is the level in words beside its number. Then the
 * company's decision standing (empty when none), who signed it and when, and the whole run's
 * excursions: how many, the seconds beyond a limit and the degree-hours.
 */
export const REPORT_TABLE_CSV_COLUMNS = [
  'id',
  'reference',
  'labelUid',
  'labelName',
  'status',
  'alertLevel',
  'alert',
  'created',
  'updated',
  'flag',
  'archived',
  'ownerCompany',
  'decision',
  'decisionSignedBy',
  'decisionSignedAt',
  'excursions',
  'excursionSeconds',
  'degreeHours',
] as const;

/** Who signed a decision, as the history names them: "Anna Berg (anna)", or a tool's key. */
function signerText(d: CurrentDecision): string {
  if (d.person) return d.person.login ? `${d.person.name} (${d.person.login})` : d.person.name;
  return d.keyName ? `key ${d.keyName} (a tool)` : 'a tool';
}

export function reportTableCsvHeader(): string {
  return CSV_BOM + csvLine(REPORT_TABLE_CSV_COLUMNS);
}

export function reportTableCsvLine(r: ReportTableRecord): string {
  return csvLine([
    r.id,
    r.labelReference,
    r.labelUid,
    r.labelName,
    r.status,
    r.alertLevel,
    ALERT_LEVEL_NAMES[r.alertLevel] ?? String(r.alertLevel),
    r.created,
    r.updated,
    r.hasFlag,
    r.isArchived,
    r.ownerCompanyName,
    r.decision?.decision ?? null,
    r.decision ? signerText(r.decision) : null,
    r.decision?.at ?? null,
    r.excursions,
    r.excursionSeconds,
    r.degreeHours,
  ]);
}
