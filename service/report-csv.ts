/**
 * CSV people hand on (RFC 4180): a report's readings and the list's table. Pure functions over
 * typed values, shared by the HTTP answers and `labeldesk report --csv`. Lines end in CRLF; the
 * text starts with a UTF-8 byte order mark, without which spreadsheet programs read the
 * non-ASCII characters of names (`Rotterdam → Oslo`, `°`) in the wrong encoding.
 */
import type { Trim } from '../schema/sense';
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

export const READINGS_CSV_COLUMNS = ['timestamp', 'temperature', 'humidity', 'inTrimmedRange'] as const;

/** The readings as the engine holds them: sorted columns, NaN for an absent humidity. */
export interface ReadingColumns {
  timestamps: ArrayLike<number>;
  temperatures: ArrayLike<number>;
  humidities: ArrayLike<number> | null;
}

/**
 * The readings CSV in chunks of about `perChunk` lines, header first. `range: 'trimmed'` keeps
 * the readings of the trim only (the caller makes sure there is one); `inTrimmedRange` says of
 * each reading whether the trim keeps it, and is empty when the report has no trim.
 */
export function* readingsCsv(readings: ReadingColumns, trim: Trim | null, range: CsvRange, perChunk = 2000): Generator<string> {
  let chunk = CSV_BOM + csvLine(READINGS_CSV_COLUMNS);
  let lines = 0;
  const { timestamps, temperatures, humidities } = readings;
  for (let i = 0; i < timestamps.length; i++) {
    const t = timestamps[i];
    const inTrim = trim === null ? null : t >= trim.startTime && t <= trim.endTime;
    if (range === 'trimmed' && inTrim !== true) continue;
    const h = humidities === null ? Number.NaN : humidities[i];
    // Every field is a time or a number: none needs quoting, so the line is written directly.
    chunk += `${isoSeconds(t)},${csvField(temperatures[i])},${csvField(Number.isNaN(h) ? null : h)},${csvField(inTrim)}${CRLF}`;
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
import type { ReportTableRecord } from '../model/report-table';

/** Header names, in the table's order; `alert` is the level in words beside its number. */
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
] as const;

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
  ]);
}
