/**
 * What the report browser is asking for, in the words of the filter bar, and its translation
 * into the API's own `filter` / `order` / `customFields` parameters. Filtering and sorting are
 * always done by the server: with 100 000 reports the renderer only ever holds a few pages.
 */
import { MODES, REPORT_TYPES, STATUSES } from '../../schema/report';
import type { Mode, ReportType, Status } from '../../schema/report';
import { buildCustomFieldsFilter, buildFilter, containsPattern } from './filter';
import type { Condition, CustomFieldCondition } from './filter';

export const ALERT_FILTERS = ['noTaps', 'none', 'moderate', 'critical', 'moderateOrWorse'] as const;
export type AlertFilter = (typeof ALERT_FILTERS)[number];
export const TRI_STATES = ['yes', 'no'] as const;
export type TriState = '' | (typeof TRI_STATES)[number];
/** The search box targets one field, because the API ANDs conditions and cannot OR two fields. */
export const SEARCH_FIELDS = ['reference', 'label'] as const;
export type SearchField = (typeof SEARCH_FIELDS)[number];

export interface ListFilters {
  status: '' | Status;
  alert: '' | AlertFilter;
  mode: '' | Mode;
  type: '' | ReportType;
  flagged: TriState;
  archived: TriState;
  /** Local calendar days, `YYYY-MM-DD`, both inclusive; '' for open-ended. */
  createdFrom: string;
  createdTo: string;
  searchField: SearchField;
  search: string;
  customFields: CustomFieldCondition[];
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
    archived: '',
    createdFrom: '',
    createdTo: '',
    searchField: 'reference',
    search: '',
    customFields: [],
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
}

/** The query parameters (other than paging and output) that ask the API for this view. */
export function toApiParams(q: ListQuery): ListApiParams {
  const params: ListApiParams = { order: `${SORT_KEYS[q.sort.column]}[${q.sort.direction}]` };
  const filter = buildFilter(filterConditions(q.filters));
  if (filter !== undefined) params.filter = filter;
  const customFields = buildCustomFieldsFilter(q.filters.customFields);
  if (customFields !== undefined) params.customFields = customFields;
  return params;
}

/** How many filters deviate from the defaults; shown next to "Clear filters". */
export function activeFilterCount(f: ListFilters): number {
  let n = 0;
  for (const key of ['status', 'alert', 'mode', 'type', 'flagged', 'archived', 'createdFrom', 'createdTo'] as const) {
    if (f[key]) n++;
  }
  if (f.search.trim()) n++;
  n += f.customFields.filter((c) => c.fieldId.trim() !== '' && c.value !== '').length;
  return n;
}

export const ENUMS = { MODES, REPORT_TYPES, STATUSES } as const;
