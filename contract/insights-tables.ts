/**
 * The tables of the Insights screen as text people hand on: one CSV per table, the same from the
 * app and from `labeldesk insights`. RFC 4180 with CRLF, a byte order mark so spreadsheets read
 * UTF-8, and text that could run as a formula (=, +, -, @) prefixed with `'`.
 */

export type Cell = string | number | null;

export interface Table {
  readonly title: string;
  readonly columns: readonly string[];
  readonly rows: readonly (readonly Cell[])[];
}

function cell(value: Cell): string {
  if (value === null) return '';
  let text = typeof value === 'number' ? String(value) : value;
  if (typeof value === 'string' && /^[=+\-@]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function tableCsv(table: Table): string {
  return '\ufeff' + [table.columns, ...table.rows].map((row) => row.map(cell).join(',')).join('\r\n') + '\r\n';
}

/** Share of a count, in per cent with one decimal; null for no reports. */
export function percent(part: number, whole: number): number | null {
  return whole === 0 ? null : Math.round((part / whole) * 1000) / 10;
}

/** A group as the tables need it (schema/insights.ts Group, without importing zod here). */
export interface GroupRow {
  value: string | number | boolean | null;
  label?: string;
  from?: string;
  to?: string;
  count: number;
  reportsWithExcursions: number;
  excursions: number;
  secondsOutOfRange: number;
  degreeHours: number;
  mkt: { mean: number | null; max: number | null };
  alertLevels: Record<string, number>;
  decisions: Record<string, number>;
}

const LEVEL_KEYS = ['-1', '0', '1', '2'] as const;
const DECISION_KEYS = ['released', 'rejected', 'onHold', 'none'] as const;
const round = (n: number | null, digits = 2) => (n === null ? null : Math.round(n * 10 ** digits) / 10 ** digits);

export const GROUP_COLUMNS = [
  'reports',
  'with excursion',
  'share with excursion %',
  'excursions',
  'hours out of range',
  'degree-hours',
  'MKT mean °C',
  'MKT max °C',
  'alert: no taps',
  'alert: none',
  'alert: moderate',
  'alert: critical',
  'released',
  'rejected',
  'on hold',
  'not decided',
] as const;

export function groupCells(g: GroupRow): Cell[] {
  return [
    g.count,
    g.reportsWithExcursions,
    percent(g.reportsWithExcursions, g.count),
    g.excursions,
    round(g.secondsOutOfRange / 3600),
    round(g.degreeHours),
    round(g.mkt.mean),
    round(g.mkt.max),
    ...LEVEL_KEYS.map((k) => g.alertLevels[k] ?? 0),
    ...DECISION_KEYS.map((k) => g.decisions[k] ?? 0),
  ];
}

export function groupsTable(title: string, firstColumn: string, groups: readonly GroupRow[], name: (g: GroupRow) => string): Table {
  return { title, columns: [firstColumn, ...GROUP_COLUMNS], rows: groups.map((g) => [name(g), ...groupCells(g)]) };
}

/** The values with at least `minReports` reports, highest share with an excursion first, at most ten. */
export function worstTen<T extends GroupRow>(groups: readonly T[], minReports: number): T[] {
  return groups
    .filter((g) => g.value !== null && g.count >= minReports)
    .sort((a, b) => b.reportsWithExcursions / b.count - a.reportsWithExcursions / a.count || b.count - a.count)
    .slice(0, 10);
}

/** The sums of every group: the whole filter's alert levels and decisions. */
export function totalsOf(groups: readonly GroupRow[]): { alertLevels: Record<string, number>; decisions: Record<string, number> } {
  const alertLevels: Record<string, number> = Object.fromEntries(LEVEL_KEYS.map((k) => [k, 0]));
  const decisions: Record<string, number> = Object.fromEntries(DECISION_KEYS.map((k) => [k, 0]));
  for (const g of groups) {
    for (const k of LEVEL_KEYS) alertLevels[k] += g.alertLevels[k] ?? 0;
    for (const k of DECISION_KEYS) decisions[k] += g.decisions[k] ?? 0;
  }
  return { alertLevels, decisions };
}

export const ALERT_WORDS: Record<string, string> = { '-1': 'No taps', '0': 'None', '1': 'Moderate', '2': 'Critical' };
export const DECISION_WORDS: Record<string, string> = { released: 'Released', rejected: 'Rejected', onHold: 'On hold', none: 'Not decided' };

/**
 * The distributions, as ranges of the list's filter keys: each range's reports are what the list
 * answers for the filter plus its conditions.
 */
export const DISTRIBUTIONS: readonly { title: string; bins: readonly { label: string; filter: string }[] }[] = [
  {
    title: 'Time out of range',
    bins: [
      { label: 'none', filter: 'calculatedSenseData.durationOfViolations.all[eq]0' },
      { label: 'up to 1 h', filter: 'calculatedSenseData.durationOfViolations.all[gt]0,calculatedSenseData.durationOfViolations.all[lte]3600' },
      { label: '1–6 h', filter: 'calculatedSenseData.durationOfViolations.all[gt]3600,calculatedSenseData.durationOfViolations.all[lte]21600' },
      { label: '6–24 h', filter: 'calculatedSenseData.durationOfViolations.all[gt]21600,calculatedSenseData.durationOfViolations.all[lte]86400' },
      { label: 'over 24 h', filter: 'calculatedSenseData.durationOfViolations.all[gt]86400' },
    ],
  },
  {
    title: 'Degree-hours',
    bins: [
      { label: '0', filter: 'calculatedSenseData.analysedValues.temperature.degreeHour[lte]0' },
      { label: 'up to 1', filter: 'calculatedSenseData.analysedValues.temperature.degreeHour[gt]0,calculatedSenseData.analysedValues.temperature.degreeHour[lte]1' },
      { label: '1–10', filter: 'calculatedSenseData.analysedValues.temperature.degreeHour[gt]1,calculatedSenseData.analysedValues.temperature.degreeHour[lte]10' },
      { label: '10–100', filter: 'calculatedSenseData.analysedValues.temperature.degreeHour[gt]10,calculatedSenseData.analysedValues.temperature.degreeHour[lte]100' },
      { label: 'over 100', filter: 'calculatedSenseData.analysedValues.temperature.degreeHour[gt]100' },
    ],
  },
  {
    title: 'Mean kinetic temperature',
    bins: [
      { label: 'below 2 °C', filter: 'calculatedSenseData.analysedValues.temperature.meanKineticTemperature[lt]2' },
      { label: '2–8 °C', filter: 'calculatedSenseData.analysedValues.temperature.meanKineticTemperature[gte]2,calculatedSenseData.analysedValues.temperature.meanKineticTemperature[lt]8' },
      { label: '8–15 °C', filter: 'calculatedSenseData.analysedValues.temperature.meanKineticTemperature[gte]8,calculatedSenseData.analysedValues.temperature.meanKineticTemperature[lt]15' },
      { label: '15–25 °C', filter: 'calculatedSenseData.analysedValues.temperature.meanKineticTemperature[gte]15,calculatedSenseData.analysedValues.temperature.meanKineticTemperature[lt]25' },
      { label: '25 °C and above', filter: 'calculatedSenseData.analysedValues.temperature.meanKineticTemperature[gte]25' },
    ],
  },
];
