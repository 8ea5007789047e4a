/**
 * What the report browser is asking for, in the words of the filter bar, and its translation
 * into the API's own `filter` / `order` / `customFields` parameters. Filtering and sorting are
 * always done by the server: with 100 000 reports the renderer only ever holds a few pages.
 */
import { MODES, REPORT_TYPES, STATUSES } from '../../schema/report';
import type { Mode, ReportType, Status } from '../../schema/report';
import type { FilterOperator } from '../../contract/filter-operators';
import { DECISIONS, type Decision } from '../../schema/review';
import { buildCustomFieldsFilter, buildFilter, containsPattern } from './filter';
import type { Condition, CustomFieldCondition } from './filter';

export const ALERT_FILTERS = ['noTaps', 'none', 'moderate', 'critical', 'moderateOrWorse'] as const;
export type AlertFilter = (typeof ALERT_FILTERS)[number];
/** Where the company's review of a report stands: answered by the review list (GET /local/labelReports). */
export const REVIEW_FILTERS = ['awaitingReview', 'awaitingAcknowledgement'] as const;
export type ReviewFilter = (typeof REVIEW_FILTERS)[number];
/** The company's current decision; `none` when none stands (never made, or withdrawn). */
export const DECISION_FILTERS = [...DECISIONS, 'none'] as const;
export type DecisionFilter = (typeof DECISION_FILTERS)[number];
export const TRI_STATES = ['yes', 'no'] as const;
export type TriState = '' | (typeof TRI_STATES)[number];
/** The search box targets one field, because the API ANDs conditions and cannot OR two fields. */
export const SEARCH_FIELDS = ['reference', 'label'] as const;
export type SearchField = (typeof SEARCH_FIELDS)[number];

/**
 * Conditions of the list's filter grammar the filter bar has no control for: a start-time bucket
 * or a range of a figure, set by a bar of the Insights screen so the browser lists exactly its
 * reports. Shown as a chip with the bar's words, removed as one.
 */
export interface RangeFilter {
  /** What the chip says: "Time out of range: 1–6 h". */
  label: string;
  /**
   * `key[op]number` conditions, comma separated, on RANGE_KEYS; or `key[unset]` for reports
   * without the value (a custom field not set, no MKT, not started), sent as the /local list's
   * `unset`, which /v2's grammar cannot say.
   */
  filter: string;
}

/** The keys a RangeFilter may name: numbers, compared with numbers. */
export const RANGE_KEYS = [
  'calculatedSenseData.startTime',
  'calculatedSenseData.durationOfViolations.all',
  'calculatedSenseData.analysedValues.temperature.degreeHour',
  'calculatedSenseData.analysedValues.temperature.meanKineticTemperature',
] as const;

const RANGE_CONDITION = new RegExp(`^(?:${RANGE_KEYS.map((k) => k.replaceAll('.', '\\.')).join('|')})\\[(?:eq|gt|gte|lt|lte)\\]-?\\d+(?:\\.\\d+)?$`);

const UNSET_CONDITION = /^(?:customFields\.[A-Za-z0-9_.-]+|calculatedSenseData\.analysedValues\.temperature\.meanKineticTemperature|calculatedSenseData\.startTime)\[unset\]$/;

/** Whether `filter` is conditions a RangeFilter may hold; anything else is not sent. */
export function isRangeFilter(filter: string): boolean {
  return filter !== '' && filter.split(',').every((c) => RANGE_CONDITION.test(c) || UNSET_CONDITION.test(c));
}

/** The range chips' conditions as the list's `filter` conditions and its `unset` keys. */
function rangeParams(ranges: readonly RangeFilter[]): { filter: string[]; unset: string[] } {
  const filter: string[] = [];
  const unset: string[] = [];
  for (const c of ranges.flatMap((r) => r.filter.split(','))) {
    if (UNSET_CONDITION.test(c)) {
      const key = c.slice(0, -'[unset]'.length);
      if (!unset.includes(key)) unset.push(key);
    } else if (c !== '') filter.push(c);
  }
  return { filter, unset };
}

export interface ListFilters {
  status: '' | Status;
  alert: '' | AlertFilter;
  mode: '' | Mode;
  type: '' | ReportType;
  flagged: TriState;
  /** 'no' by default: archived reports are put away, and shown only when asked for. */
  archived: TriState;
  review: '' | ReviewFilter;
  decision: '' | DecisionFilter;
  /** Id of the owning company, '' for any. */
  owner: string;
  /** Local calendar days, `YYYY-MM-DD`, both inclusive; '' for open-ended. */
  createdFrom: string;
  createdTo: string;
  searchField: SearchField;
  search: string;
  customFields: CustomFieldCondition[];
  ranges: RangeFilter[];
}

/** Columns that can be sorted, mapped to the API's order keys. */
export const SORT_KEYS = {
  reference: 'labelReference',
  label: 'label.sequenceCode',
  status: 'status',
  mode: 'mode',
  type: 'type',
  alert: 'alert.level',
  created: 'created',
  updated: 'updated',
  flag: 'hasFlag',
  archived: 'isArchived',
  excursions: 'calculatedSenseData.numberOfViolations.all',
} as const;
export type SortColumn = keyof typeof SORT_KEYS;
export type SortDirection = 'asc' | 'desc';

export interface SortState {
  column: SortColumn;
  direction: SortDirection;
}

export interface ListQuery {
  filters: ListFilters;
  sort: SortState;
}

export function defaultFilters(): ListFilters {
  return {
    status: '',
    alert: '',
    mode: '',
    type: '',
    flagged: '',
    archived: 'no',
    review: '',
    decision: '',
    owner: '',
    createdFrom: '',
    createdTo: '',
    searchField: 'reference',
    search: '',
    customFields: [],
    ranges: [],
  };
}

/** Newest first: what staff look for most is the shipment that just arrived. */
export const DEFAULT_SORT: SortState = Object.freeze({ column: 'created', direction: 'desc' });

export function defaultQuery(): ListQuery {
  return { filters: defaultFilters(), sort: { ...DEFAULT_SORT } };
}

/** Clicking a header: a new column starts ascending (dates newest first), the same column flips. */
export function toggleSort(current: SortState, column: SortColumn): SortState {
  if (current.column === column) return { column, direction: current.direction === 'asc' ? 'desc' : 'asc' };
  const startsDescending = column === 'created' || column === 'updated' || column === 'alert' || column === 'excursions';
  return { column, direction: startsDescending ? 'desc' : 'asc' };
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Start of a local calendar day as an instant, or null when the text is not a real date. */
export function localDayStart(day: string, offsetDays = 0): Date | null {
  const m = DAY.exec(day);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(y, mo - 1, d + offsetDays);
  // Date rolls 2026-02-31 over into March; such a day is refused rather than reinterpreted.
  const check = new Date(y, mo - 1, d);
  if (check.getFullYear() !== y || check.getMonth() !== mo - 1 || check.getDate() !== d) return null;
  return date;
}

const ALERT_CONDITIONS: Record<AlertFilter, Condition> = {
  noTaps: { key: 'alert.level', op: 'eq', value: -1 },
  none: { key: 'alert.level', op: 'eq', value: 0 },
  moderate: { key: 'alert.level', op: 'eq', value: 1 },
  critical: { key: 'alert.level', op: 'eq', value: 2 },
  moderateOrWorse: { key: 'alert.level', op: 'gte', value: 1 },
};

export function filterConditions(f: ListFilters): Condition[] {
  const out: Condition[] = [];
  if (f.status) out.push({ key: 'status', op: 'eq', value: f.status });
  if (f.alert) out.push(ALERT_CONDITIONS[f.alert]);
  if (f.mode) out.push({ key: 'mode', op: 'eq', value: f.mode });
  if (f.type) out.push({ key: 'type', op: 'eq', value: f.type });
  if (f.flagged) out.push({ key: 'hasFlag', op: 'eq', value: f.flagged === 'yes' });
  if (f.archived) out.push({ key: 'isArchived', op: 'eq', value: f.archived === 'yes' });
  if (f.owner) out.push({ key: 'company.id', op: 'eq', value: f.owner });
  const from = f.createdFrom ? localDayStart(f.createdFrom) : null;
  if (from) out.push({ key: 'created', op: 'gte', value: from.toISOString() });
  // "To" is inclusive for people, so the condition is "before the next local midnight".
  const to = f.createdTo ? localDayStart(f.createdTo, 1) : null;
  if (to) out.push({ key: 'created', op: 'lt', value: to.toISOString() });
  const text = f.search.trim();
  if (text) {
    out.push({
      key: f.searchField === 'label' ? 'label.sequenceCode' : 'labelReference',
      op: 'ilike',
      value: containsPattern(text),
    });
  }
  return out;
}

export interface ListApiParams {
  filter?: string;
  order: string;
  customFields?: string;
  /** The review list's own parameter; the /v2 list and the insights know none. */
  review?: string;
  /** The /local list's keys without a value (range chips of a bar with no value condition). */
  unset?: string;
}

/**
 * Why the created range cannot be asked for, in words, or null. A range whose start is after its
 * end would match nothing, and an empty list looks like "no such reports", not like a typo.
 */
export function createdRangeProblem(f: Pick<ListFilters, 'createdFrom' | 'createdTo'>): string | null {
  if (!f.createdFrom || !f.createdTo || f.createdFrom <= f.createdTo) return null;
  return `“Created from” (${f.createdFrom}) is after “Created to” (${f.createdTo}): swap them, or clear one.`;
}

/** The `review` parameter of the review list for these filters; undefined when none applies. */
export function reviewParam(f: ListFilters): string | undefined {
  const parts: string[] = [];
  if (f.review) parts.push(f.review);
  if (f.decision) parts.push(`decision.${f.decision}`);
  return parts.length > 0 ? parts.join(',') : undefined;
}

/** The query parameters (other than paging and output) that ask the API for this view. */
export function toApiParams(q: ListQuery): ListApiParams {
  const params: ListApiParams = { order: `${SORT_KEYS[q.sort.column]}[${q.sort.direction}]` };
  const review = reviewParam(q.filters);
  if (review !== undefined) params.review = review;
  const ranges = rangeParams(q.filters.ranges);
  const filter = [buildFilter(filterConditions(q.filters)), ...ranges.filter].filter((f) => f !== undefined && f !== '').join(',');
  if (filter !== '') params.filter = filter;
  if (ranges.unset.length > 0) params.unset = ranges.unset.join(',');
  const customFields = buildCustomFieldsFilter(q.filters.customFields);
  if (customFields !== undefined) params.customFields = customFields;
  return params;
}

/** How many filters deviate from the defaults; shown next to "Clear filters". */
export function activeFilterCount(f: ListFilters): number {
  const defaults = defaultFilters();
  let n = 0;
  for (const key of ['status', 'alert', 'mode', 'type', 'flagged', 'archived', 'review', 'decision', 'owner', 'createdFrom', 'createdTo'] as const) {
    if (f[key] !== defaults[key]) n++;
  }
  if (f.search.trim()) n++;
  n += f.customFields.filter((c) => c.fieldId.trim() !== '' && c.value !== '').length;
  return n + f.ranges.length;
}

export const ALERT_FILTER_LABELS: Record<AlertFilter, string> = {
  critical: 'Critical',
  moderate: 'Moderate',
  moderateOrWorse: 'Moderate or critical',
  none: 'None',
  noTaps: 'No taps yet',
};

export const REVIEW_FILTER_LABELS: Record<ReviewFilter, string> = {
  awaitingReview: 'Awaiting review',
  awaitingAcknowledgement: 'Awaiting acknowledgement',
};

export const DECISION_LABELS: Record<DecisionFilter, string> = {
  released: 'Released',
  rejected: 'Rejected',
  onHold: 'On hold',
  none: 'None',
};

export type { Decision };

export const OPERATOR_WORDS: Record<FilterOperator, string> = {
  eq: '=',
  neq: '≠',
  gt: '>',
  gte: '≥',
  lt: '<',
  lte: '≤',
  like: 'like',
  ilike: 'like (any case)',
  includes: 'contains',
};

/** A filter in force, as a chip of the filter bar: what it says, and what removing it changes. */
export interface FilterChip {
  id: string;
  label: string;
  remove: Partial<ListFilters>;
}

export interface ChipWords {
  status(value: Status): string;
  mode(value: Mode): string;
  type(value: ReportType): string;
  company(id: string): string;
}

/**
 * The chips of the filters in force. Archived reports being hidden is the default, yet it gets a
 * chip too: a filter nobody can see is how lists come to look wrong.
 */
export function filterChips(f: ListFilters, words: ChipWords): FilterChip[] {
  const chips: FilterChip[] = [];
  const text = f.search.trim();
  if (text) chips.push({ id: 'search', label: `${f.searchField === 'label' ? 'Label code' : 'Reference'} contains “${text}”`, remove: { search: '' } });
  if (f.status) chips.push({ id: 'status', label: `Status: ${words.status(f.status)}`, remove: { status: '' } });
  if (f.alert) chips.push({ id: 'alert', label: `Alert: ${ALERT_FILTER_LABELS[f.alert]}`, remove: { alert: '' } });
  if (f.review) chips.push({ id: 'review', label: REVIEW_FILTER_LABELS[f.review], remove: { review: '' } });
  if (f.decision) chips.push({ id: 'decision', label: `Decision: ${DECISION_LABELS[f.decision]}`, remove: { decision: '' } });
  if (f.mode) chips.push({ id: 'mode', label: `Mode: ${words.mode(f.mode)}`, remove: { mode: '' } });
  if (f.type) chips.push({ id: 'type', label: `Type: ${words.type(f.type)}`, remove: { type: '' } });
  if (f.owner) chips.push({ id: 'owner', label: `Owner: ${words.company(f.owner)}`, remove: { owner: '' } });
  if (f.flagged) chips.push({ id: 'flagged', label: f.flagged === 'yes' ? 'Flagged' : 'Not flagged', remove: { flagged: '' } });
  if (f.archived === 'no') chips.push({ id: 'archived', label: 'Archived hidden', remove: { archived: '' } });
  if (f.archived === 'yes') chips.push({ id: 'archived', label: 'Archived only', remove: { archived: 'no' } });
  if (f.createdFrom && f.createdTo) {
    chips.push({ id: 'created', label: `Created ${f.createdFrom} to ${f.createdTo}`, remove: { createdFrom: '', createdTo: '' } });
  } else if (f.createdFrom) {
    chips.push({ id: 'created', label: `Created from ${f.createdFrom}`, remove: { createdFrom: '' } });
  } else if (f.createdTo) {
    chips.push({ id: 'created', label: `Created up to ${f.createdTo}`, remove: { createdTo: '' } });
  }
  f.ranges.forEach((r, i) => {
    chips.push({ id: `range${i}`, label: r.label, remove: { ranges: f.ranges.filter((_, j) => j !== i) } });
  });
  f.customFields.forEach((c, i) => {
    if (c.fieldId.trim() === '' || c.value === '') return;
    chips.push({
      id: `cf${i}`,
      label: `${c.fieldId.trim()} ${OPERATOR_WORDS[c.op]} ${c.value}`,
      remove: { customFields: f.customFields.filter((_, j) => j !== i) },
    });
  });
  return chips;
}

export const ENUMS = { MODES, REPORT_TYPES, STATUSES } as const;
