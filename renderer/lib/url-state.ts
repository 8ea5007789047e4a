/**
 * The browser's query string as the home of a view: filters, sort, the open report and the
 * screen, so a reload (or a bookmarked link on the desk) shows the same thing again.
 * Decoding is forgiving: anything unknown or malformed falls back to the default rather than
 * producing a request the API would refuse.
 */
import { FILTER_OPERATORS, type FilterOperator } from '../../contract/filter-operators';
import type { CustomFieldCondition } from './filter';
import { ALERT_FILTERS, DECISION_FILTERS, DEFAULT_SORT, ENUMS, REVIEW_FILTERS, SEARCH_FIELDS, SORT_KEYS, TRI_STATES, defaultFilters, isRangeFilter } from './list-query';
import type { ListQuery, RangeFilter, SortColumn, SortDirection } from './list-query';
import { SHIPMENT_STATE_VALUES, TRANSPORT_MODES } from '../../schema/shipment';

/** `print` is one report laid out for paper (components/PrintView.tsx), opened by its own address. */
export const VIEWS = ['reports', 'shipments', 'insights', 'settings', 'alarms', 'audit', 'print'] as const;
export type View = (typeof VIEWS)[number];

/** The shipments screen as the address carries it: the list's filters, order and page, and the shipment open. */
export interface ShipmentsView {
  alert?: string;
  state?: string;
  labelsMin?: string;
  startFrom?: string;
  mode?: string;
  product?: string;
  order?: string;
  pageNumber?: number;
  /** The id of the shipment open, or null for the list. */
  open: string | null;
}

export const SHIPMENT_ALERTS = ['0', '1', '2', '1,2'] as const;
export const SHIPMENT_ORDERS = ['created[desc]', 'created[asc]', 'worstAlert[desc]', 'labels[desc]', 'labels[asc]', 'firstStart[desc]', 'firstStart[asc]'] as const;
export const DEFAULT_SHIPMENTS_VIEW: ShipmentsView = { order: 'created[desc]', pageNumber: 1, open: null };

export interface UrlState {
  query: ListQuery;
  /** Id of the report open in the detail panel. */
  report: string | null;
  view: View;
  /** The shipments screen's list and open shipment; the default when left out. */
  shipments?: ShipmentsView;
}

/**
 * The shipments screen's parameters, each behind `sh.` so they never meet the report list's
 * (`alert`, `mode`…) in one address; the open shipment as `shipment`.
 */
function encodeShipments(p: URLSearchParams, v: ShipmentsView): void {
  if (v.alert) p.set('sh.alert', v.alert);
  if (v.state) p.set('sh.state', v.state);
  if (v.labelsMin) p.set('sh.labels', v.labelsMin);
  if (v.startFrom) p.set('sh.from', v.startFrom);
  if (v.mode) p.set('sh.mode', v.mode);
  if (v.product) p.set('sh.product', v.product);
  if (v.order && v.order !== DEFAULT_SHIPMENTS_VIEW.order) p.set('sh.order', v.order);
  if (v.pageNumber && v.pageNumber > 1) p.set('sh.page', String(v.pageNumber));
  if (v.open) p.set('shipment', v.open);
}

/** The shipments screen as part of a state: left out when it is the default, as the address leaves it out. */
function shipmentsPart(v: ShipmentsView): { shipments?: ShipmentsView } {
  const defaults = Object.keys(v).every((k) => v[k as keyof ShipmentsView] === DEFAULT_SHIPMENTS_VIEW[k as keyof ShipmentsView]);
  return defaults ? {} : { shipments: v };
}

function decodeShipments(p: URLSearchParams): ShipmentsView {
  const v: ShipmentsView = { ...DEFAULT_SHIPMENTS_VIEW };
  const alert = oneOf(SHIPMENT_ALERTS, p.get('sh.alert'));
  if (alert) v.alert = alert;
  const state = oneOf(SHIPMENT_STATE_VALUES, p.get('sh.state'));
  if (state) v.state = state;
  const labels = p.get('sh.labels');
  if (labels && /^[1-9]\d{0,5}$/.test(labels)) v.labelsMin = labels;
  const from = p.get('sh.from');
  if (from && DAY.test(from)) v.startFrom = from;
  const mode = oneOf(TRANSPORT_MODES, p.get('sh.mode'));
  if (mode) v.mode = mode;
  const product = p.get('sh.product');
  if (product && product.length <= 200) v.product = product;
  const order = oneOf(SHIPMENT_ORDERS, p.get('sh.order'));
  if (order) v.order = order;
  const page = p.get('sh.page');
  if (page && /^[1-9]\d{0,6}$/.test(page)) v.pageNumber = Number(page);
  const open = p.get('shipment');
  // A shipment id is its key, @ and a day (model/shipment.ts).
  if (open && /^.+@\d{4}-\d{2}-\d{2}$/s.test(open) && open.length <= 300) v.open = open;
  return v;
}

function oneOf<T extends string>(allowed: readonly T[], value: string | null): T | '' {
  return value !== null && (allowed as readonly string[]).includes(value) ? (value as T) : '';
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Custom field filters travel as `cf=<fieldId>~<op>~<value>`; ids and operators never contain `~`. */
function encodeCustomField(c: CustomFieldCondition): string {
  return `${c.fieldId}~${c.op}~${c.value}`;
}

function decodeCustomField(raw: string): CustomFieldCondition | null {
  const first = raw.indexOf('~');
  const second = first < 0 ? -1 : raw.indexOf('~', first + 1);
  if (second < 0) return null;
  const fieldId = raw.slice(0, first);
  const op = raw.slice(first + 1, second);
  if (!(FILTER_OPERATORS as readonly string[]).includes(op)) return null;
  return { fieldId, op: op as FilterOperator, value: raw.slice(second + 1) };
}

/** A range travels as `range=<filter>~<words>`: its conditions hold no `~`. */
function decodeRange(raw: string): RangeFilter | null {
  const at = raw.indexOf('~');
  if (at < 0) return null;
  const filter = raw.slice(0, at);
  return isRangeFilter(filter) ? { filter, label: raw.slice(at + 1) } : null;
}

/** Query string (with `?`, or empty) for a state; defaults are left out to keep links short. */
export function encodeUrlState(state: UrlState): string {
  const p = new URLSearchParams();
  const f = state.query.filters;
  if (state.view !== 'reports') p.set('view', state.view);
  if (f.status) p.set('status', f.status);
  if (f.alert) p.set('alert', f.alert);
  if (f.mode) p.set('mode', f.mode);
  if (f.type) p.set('type', f.type);
  if (f.flagged) p.set('flagged', f.flagged);
  // Hidden archived reports are the default; `any` asks for them alongside the others.
  if (f.archived !== 'no') p.set('archived', f.archived || 'any');
  if (f.review) p.set('review', f.review);
  if (f.decision) p.set('decision', f.decision);
  if (f.owner) p.set('owner', f.owner);
  if (f.createdFrom) p.set('from', f.createdFrom);
  if (f.createdTo) p.set('to', f.createdTo);
  if (f.search) p.set('q', f.search);
  if (f.searchField !== 'reference') p.set('in', f.searchField);
  for (const c of f.customFields) p.append('cf', encodeCustomField(c));
  for (const r of f.ranges) p.append('range', `${r.filter}~${r.label}`);
  const s = state.query.sort;
  if (s.column !== DEFAULT_SORT.column || s.direction !== DEFAULT_SORT.direction) p.set('sort', `${s.column}.${s.direction}`);
  if (state.report) p.set('report', state.report);
  if (state.shipments) encodeShipments(p, state.shipments);
  const text = p.toString();
  return text ? `?${text}` : '';
}

export function decodeUrlState(search: string): UrlState {
  const p = new URLSearchParams(search);
  const filters = defaultFilters();
  filters.status = oneOf(ENUMS.STATUSES, p.get('status'));
  filters.alert = oneOf(ALERT_FILTERS, p.get('alert'));
  filters.mode = oneOf(ENUMS.MODES, p.get('mode'));
  filters.type = oneOf(ENUMS.REPORT_TYPES, p.get('type'));
  filters.flagged = oneOf(TRI_STATES, p.get('flagged'));
  const archived = p.get('archived');
  filters.archived = archived === 'any' ? '' : oneOf(TRI_STATES, archived) || 'no';
  filters.review = oneOf(REVIEW_FILTERS, p.get('review'));
  filters.decision = oneOf(DECISION_FILTERS, p.get('decision'));
  filters.owner = p.get('owner') ?? '';
  const from = p.get('from');
  const to = p.get('to');
  filters.createdFrom = from && DAY.test(from) ? from : '';
  filters.createdTo = to && DAY.test(to) ? to : '';
  filters.search = p.get('q') ?? '';
  filters.searchField = oneOf(SEARCH_FIELDS, p.get('in')) || 'reference';
  filters.customFields = p
    .getAll('cf')
    .map(decodeCustomField)
    .filter((c): c is CustomFieldCondition => c !== null);
  filters.ranges = p
    .getAll('range')
    .map(decodeRange)
    .filter((r): r is RangeFilter => r !== null);

  let sort = { ...DEFAULT_SORT };
  const rawSort = p.get('sort');
  if (rawSort) {
    const dot = rawSort.lastIndexOf('.');
    const column = rawSort.slice(0, dot);
    const direction = rawSort.slice(dot + 1);
    if (dot > 0 && Object.hasOwn(SORT_KEYS, column) && (direction === 'asc' || direction === 'desc')) {
      sort = { column: column as SortColumn, direction: direction as SortDirection };
    }
  }
  const report = p.get('report');
  return {
    query: { filters, sort },
    report: report ? report : null,
    view: oneOf(VIEWS, p.get('view')) || 'reports',
    ...shipmentsPart(decodeShipments(p)),
  };
}
