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

/** A bar of a distribution: its words, and the list filter that gives exactly its reports. */
export interface Bin {
  label: string;
  filter: string;
}

/**
 * Bins of `key` cut at `edges`, labelled in order: at or below the first edge (`firstOp`), then
 * between two edges, then beyond the last. `upper`: each range holds its upper edge (a, b];
 * `lower`: its lower one [a, b).
 */
function rangeBins(key: string, edges: readonly number[], labels: readonly string[], closed: 'upper' | 'lower', firstOp = closed === 'upper' ? 'lte' : 'lt'): Bin[] {
  const [above, below] = closed === 'upper' ? ['gt', 'lte'] : ['gte', 'lt'];
  const filters = [
    `${key}[${firstOp}]${edges[0]}`,
    ...edges.slice(1).map((edge, i) => `${key}[${above}]${edges[i]},${key}[${below}]${edge}`),
    `${key}[${above}]${edges[edges.length - 1]}`,
  ];
  return filters.map((filter, i) => ({ label: labels[i], filter }));
}

/**
 * The distributions, as ranges of the list's filter keys: each range's reports are what the list
 * answers for the filter plus its conditions. `by` is the group-by of /local/insights/groups
 * that answers one group per range, in this order.
 */
export const DISTRIBUTIONS: readonly { by: string; title: string; bins: readonly Bin[] }[] = [
  {
    by: 'bins.secondsOutOfRange',
    title: 'Time out of range',
    bins: rangeBins('calculatedSenseData.durationOfViolations.all', [0, 3600, 21600, 86400], ['none', 'up to 1 h', '1–6 h', '6–24 h', 'over 24 h'], 'upper', 'eq'),
  },
  {
    by: 'bins.degreeHours',
    title: 'Degree-hours',
    bins: rangeBins('calculatedSenseData.analysedValues.temperature.degreeHour', [0, 1, 10, 100], ['0', 'up to 1', '1–10', '10–100', 'over 100'], 'upper'),
  },
  {
    by: 'bins.mkt',
    title: 'Mean kinetic temperature',
    bins: rangeBins('calculatedSenseData.analysedValues.temperature.meanKineticTemperature', [2, 8, 15, 25], ['below 2 °C', '2–8 °C', '8–15 °C', '15–25 °C', '25 °C and above'], 'lower'),
  },
];

/** Reports per range of each distribution (the groups of its `by`), in the ranges' order; a range without reports is 0. */
export function binCounts(bins: readonly { groups: readonly { value: unknown; count: number }[] }[]): number[][] {
  return DISTRIBUTIONS.map((d, i) => d.bins.map((b) => bins[i].groups.find((g) => g.value === b.label)?.count ?? 0));
}

/** The distributions' counts (`counts[i][j]`: bin j of distribution i) as table rows. */
export function distributionRows(counts: readonly (readonly number[])[]): (string | number)[][] {
  return DISTRIBUTIONS.flatMap((d, i) => d.bins.map((b, j) => [d.title, b.label, counts[i][j]]));
}
