/**
 * Insights over the list's matches: facets (each value of a key with its count) and groups (the
 * matches split by a key, a custom field or a time bucket in a named zone, with the figures per
 * group). The filter is the list's own, parsed and compiled by the list's code, over the same
 * rows the list reads: the counts are what the list answers for the same filter plus each
 * value's condition, which every value carries.
 */
import type { DataStore } from '../db/data-store';
import type { DecisionCount, GroupFigures, StoreGrouping } from '../db/insights-store';
import { invalidInput } from '../model/errors';
import { parseListQuery, quote, type ListQuery } from '../query/list-query';
import { DISTRIBUTIONS } from '../contract/insights-tables';
import {
  ALERT_LEVELS,
  BIN_KEYS,
  CUSTOM_FIELD_PREFIX,
  FACET_KEYS,
  GROUP_KEYS,
  TIME_FIELDS,
  TIME_UNITS,
  type BinKey,
  type FacetKey,
  type FacetValue,
  type Facets,
  type Group,
  type GroupBy,
  type GroupKey,
  type Groups,
  type InsightsScreenFigures,
  type TimeField,
  type TimeUnit,
} from '../schema/insights';
import { DECISIONS } from '../schema/review';
import type { ReviewCondition } from '../schema/review-list';
import type { SqlFilter } from '../db/report-store';
import { requirePermission, type Caller } from './api-keys';
import { bucketBounds, checkZone, offsetSegments } from './insights-zone';
import { reviewWhere } from './review-list';
import { bothWhere, unsetWhere } from '../db/unset-where';
import { UNSET_MKT, UNSET_START } from '../query/unset-keys';

const CUSTOM_FIELD_ID = /^[A-Za-z0-9_.-]+$/;
const KEYS_HINT = `known are ${FACET_KEYS.join(', ')} and customFields.<custom field id>`;
const BY_HINT = `known are ${GROUP_KEYS.join(', ')}, customFields.<custom field id>, ${TIME_FIELDS.flatMap((f) => TIME_UNITS.map((u) => `${f}.${u}`)).join(', ')} and ${BIN_KEYS.join(', ')}`;
export const DEFAULT_GROUP_BY = 'created.month';
export const DEFAULT_ZONE = 'UTC';

/** A facet key or group-by key as asked: a key of the list's rows, the decision, or a custom field. */
type Asked = { kind: 'key'; key: FacetKey } | { kind: 'customField'; field: string };

/** `keys` of the facets: comma separated, each once; none given: every fixed key. */
export function parseFacetKeys(text: string | undefined): Asked[] {
  if (text === undefined || text === '') return FACET_KEYS.map((key) => ({ kind: 'key', key }));
  const seen = new Set<string>();
  const asked: Asked[] = [];
  for (const name of text.split(',')) {
    if (seen.has(name)) continue;
    seen.add(name);
    const field = customFieldOf(name, 'INVALID_KEYS', 'facet key');
    if (field !== null) asked.push({ kind: 'customField', field });
    else if ((FACET_KEYS as readonly string[]).includes(name)) asked.push({ kind: 'key', key: name as FacetKey });
    else throw invalidInput('INVALID_KEYS', name === '' ? `keys ${quote(text)} has an empty key; ${KEYS_HINT}` : `unknown facet key ${quote(name)}; ${KEYS_HINT}`);
  }
  return asked;
}

/** `by` of the groups; none given: months of created. */
export function parseGroupBy(text: string | undefined): GroupBy {
  const by = text === undefined || text === '' ? DEFAULT_GROUP_BY : text;
  const field = customFieldOf(by, 'INVALID_BY', 'group-by key');
  if (field !== null) return { kind: 'customField', field };
  if ((GROUP_KEYS as readonly string[]).includes(by)) return { kind: 'key', key: by as GroupKey };
  if ((BIN_KEYS as readonly string[]).includes(by)) return { kind: 'bins', key: by as BinKey };
  const [timeField, unit, ...rest] = by.split('.');
  if (rest.length === 0 && (TIME_FIELDS as readonly string[]).includes(timeField) && (TIME_UNITS as readonly string[]).includes(unit)) {
    return { kind: 'time', field: timeField as TimeField, unit: unit as TimeUnit };
  }
  throw invalidInput('INVALID_BY', `unknown group-by key ${quote(by)}; ${BY_HINT}`);
}

function customFieldOf(name: string, code: string, what: string): string | null {
  if (!name.startsWith(CUSTOM_FIELD_PREFIX)) return null;
  const field = name.slice(CUSTOM_FIELD_PREFIX.length);
  if (!CUSTOM_FIELD_ID.test(field)) {
    throw invalidInput(code, `${what} ${quote(name)} names no custom field id: ids hold only letters, digits, _ . and -`);
  }
  return field;
}

/** A condition value as the list's grammar reads it back: a comma is `\,`. */
function conditionValue(value: string): string {
  return value.replaceAll(',', '\\,');
}

/** What a value of a fixed key shows, and the condition that picks its reports. */
function keyValue(key: GroupKey, raw: string | number | null, companies: Map<number, { id: string; name: string }>): Pick<FacetValue, 'value' | 'label' | 'filter'> {
  switch (key) {
    case 'hasFlag':
    case 'isArchived': {
      const value = raw === 1;
      return { value, filter: `${key}[eq]${value}` };
    }
    case 'company.id': {
      const company = companies.get(raw as number);
      const id = company?.id ?? String(raw);
      return { value: id, label: company?.name ?? id, filter: `company.id[eq]${conditionValue(id)}` };
    }
    default:
      return { value: raw, filter: `${key}[eq]${conditionValue(String(raw))}` };
  }
}

const byCountThenValue = (a: { count: number; value: unknown }, b: { count: number; value: unknown }) =>
  b.count - a.count || (a.value === null ? 1 : b.value === null ? -1 : String(a.value) < String(b.value) ? -1 : String(a.value) > String(b.value) ? 1 : 0);

export class InsightsService {
  constructor(private readonly data: DataStore) {}

  /**
   * The list's filter narrowed by the review conditions, as GET /local/labelReports narrows it:
   * the same SQL, so the same reports.
   */
  private compile(caller: Caller, q: ListQuery, narrowing: Narrowing): SqlFilter {
    const compiled = this.data.reports.compile(q);
    const narrow = bothWhere(reviewWhere(narrowing.review, caller.companyId), unsetWhere(narrowing.unset));
    return narrow === null ? compiled : { ...compiled, where: `(${compiled.where}) AND (${narrow.sql})`, params: [...compiled.params, ...narrow.params] };
  }

  /** Each value of each asked key among the filter's matches (narrowed by `review`, as the review list), with its count. */
  facets(caller: Caller, q: ListQuery, keysText?: string, narrowBy: Narrowing | readonly ReviewCondition[] = []): Facets {
    const narrowing = narrowingOf(narrowBy);
    const review = narrowing.review;
    requirePermission(caller, 'labelReports:read');
    const asked = parseFacetKeys(keysText);
    const sql = this.compile(caller, q, narrowing);
    const askedDecision = review.find((c) => c.startsWith('decision.'));
    const companyId = caller.companyId;
    const store = this.data.insights;
    return this.data.read(() => {
      const totalDocuments = this.data.reports.count(companyId, sql);
      const facets: Record<string, FacetValue[]> = {};
      const columnKeys = asked.flatMap((a) => (a.kind === 'key' && a.key !== 'decision' ? [a.key] : []));
      const columnCounts = store.columnCounts(companyId, sql, columnKeys);
      for (const a of asked) {
        if (a.kind === 'customField') {
          facets[CUSTOM_FIELD_PREFIX + a.field] = store
            .customFieldCounts(companyId, sql, a.field, totalDocuments)
            .map((row) => customFieldValue(a.field, row.key, row.count, narrowing))
            .sort(byCountThenValue);
        } else if (a.key === 'decision') {
          const decided = store.decisions(companyId, sql, { kind: 'all' });
          // The review list's condition for the value; left out when the request holds it already.
          const condition = (value: string | null): Pick<FacetValue, 'review'> => {
            const c = `decision.${value ?? 'none'}`;
            return c === askedDecision ? {} : { review: c };
          };
          const values: FacetValue[] = decided.map((row) => ({ value: row.decision, count: row.count, ...condition(row.decision) }));
          const none = totalDocuments - decided.reduce((sum, row) => sum + row.count, 0);
          if (none > 0) values.push({ value: null, count: none, ...condition(null) });
          facets.decision = values.sort(byCountThenValue);
        } else {
          const key = a.key;
          const rows = columnCounts.get(key)!;
          const companies = key === 'company.id' ? store.companies(rows.map((r) => r.key as number)) : new Map();
          facets[key] = rows.map((row) => ({ ...keyValue(key, row.key, companies), count: row.count })).sort(byCountThenValue);
        }
      }
      return { totalDocuments, facets };
    });
  }

  /** The filter's matches (narrowed by `review`, as the review list) split by `by`, with the figures of each group. */
  groups(caller: Caller, q: ListQuery, byText?: string, zoneText?: string, narrowBy: Narrowing | readonly ReviewCondition[] = []): Groups {
    requirePermission(caller, 'labelReports:read');
    const narrowing = narrowingOf(narrowBy);
    const by = parseGroupBy(byText);
    const zone = checkZone(zoneText === undefined || zoneText === '' ? DEFAULT_ZONE : zoneText);
    const sql = this.compile(caller, q, narrowing);
    const companyId = caller.companyId;
    const store = this.data.insights;
    return this.data.read(() => {
      const total = this.data.reports.count(companyId, sql);
      const grouping = this.storeGrouping(companyId, by, zone);
      const [kept] = store.keptFigures(companyId, sql, [grouping]) ?? [];
      if (kept) return this.answer(by, zone, total, kept.figures, kept.decisions, narrowing);
      return this.answer(by, zone, total, store.figures(companyId, sql, grouping), store.decisions(companyId, sql, grouping), narrowing);
    });
  }

  /**
   * Every figure the Insights screen shows for one filter, in one read of its matches: the
   * groups of `time` (a time bucket), of `by` (the split) and of each distribution's ranges
   * (`bins.*`), each as GET /local/insights/groups answers it for the same filter. A split by a
   * custom field is a second read, as a report may hold several of its values.
   */
  screen(caller: Caller, q: ListQuery, asked: { time?: string; by?: string; zone?: string }, narrowBy: Narrowing | readonly ReviewCondition[] = []): InsightsScreenFigures {
    requirePermission(caller, 'labelReports:read');
    const narrowing = narrowingOf(narrowBy);
    const timeText = asked.time === undefined || asked.time === '' ? DEFAULT_GROUP_BY : asked.time;
    const [timeField, unit, ...rest] = timeText.split('.');
    if (rest.length > 0 || !(TIME_FIELDS as readonly string[]).includes(timeField) || !(TIME_UNITS as readonly string[]).includes(unit)) {
      throw invalidInput('INVALID_TIME', `time ${quote(timeText)} is not a time bucket; known are ${TIME_FIELDS.flatMap((f) => TIME_UNITS.map((u) => `${f}.${u}`)).join(', ')}`);
    }
    const time: GroupBy = { kind: 'time', field: timeField as TimeField, unit: unit as TimeUnit };
    const by = parseGroupBy(asked.by === undefined || asked.by === '' ? 'mode' : asked.by);
    const zone = checkZone(asked.zone === undefined || asked.zone === '' ? DEFAULT_ZONE : asked.zone);
    const sql = this.compile(caller, q, narrowing);
    const companyId = caller.companyId;
    const store = this.data.insights;
    const bins = BIN_KEYS.map((key): GroupBy => ({ kind: 'bins', key }));
    return this.data.read(() => {
      const wanted = by.kind === 'customField' ? [time, ...bins] : [time, by, ...bins];
      const groupings = wanted.map((g) => this.storeGrouping(companyId, g, zone) as Exclude<StoreGrouping, { kind: 'customField' }>);
      const read = store.keptFigures(companyId, sql, groupings) ?? store.figuresAtOnce(companyId, sql, groupings);
      // Every match is in one time bucket (or none: not started), so the time groups add up to the total.
      const total = read[0].figures.reduce((n, f) => n + f.count, 0);
      const answers = wanted.map((g, i) => this.answer(g, zone, total, read[i].figures, read[i].decisions, narrowing));
      if (by.kind === 'customField') {
        const grouping = this.storeGrouping(companyId, by, zone);
        answers.splice(1, 0, this.answer(by, zone, total, store.figures(companyId, sql, grouping), store.decisions(companyId, sql, grouping), narrowing));
      }
      const [timeGroups, split, ...distributions] = answers;
      return { total, zone, time: timeGroups, split, bins: distributions };
    });
  }

  /** The answer of a group-by from its figures and decisions per group. */
  private answer(by: GroupBy, zone: string, total: number, figures: GroupFigures[], decisions: DecisionCount[], narrowing: Narrowing): Groups {
    const store = this.data.insights;
    const decided = new Map<string, Map<string, number>>();
    for (const row of decisions) {
      const k = JSON.stringify(row.key);
      const counts = decided.get(k) ?? new Map<string, number>();
      counts.set(row.decision, row.count);
      decided.set(k, counts);
    }
    const companies = by.kind === 'key' && by.key === 'company.id' ? store.companies(figures.map((f) => f.key as number)) : new Map();
    const groups = figures.map((f) => {
      const place = this.placeOf(by, f.key, zone, companies, narrowing);
      return { ...place, ...figuresOf(f, decided.get(JSON.stringify(f.key))) };
    });
    if (by.kind === 'bins') {
      const labels = binsOf(by.key).map((b) => b.label as unknown);
      const at = (g: Group) => (g.value === null ? labels.length : labels.indexOf(g.value));
      groups.sort((a, b) => at(a) - at(b));
    } else groups.sort(by.kind === 'time' ? (a, b) => (String(a.value) < String(b.value) ? -1 : String(a.value) > String(b.value) ? 1 : 0) : byCountThenValue);
    return { total, by: byName(by), zone, groups };
  }

  private storeGrouping(companyId: string, by: GroupBy, zone: string): StoreGrouping {
    switch (by.kind) {
      case 'key':
        return { kind: 'column', key: by.key };
      case 'customField':
        return { kind: 'customField', field: by.field };
      case 'time': {
        const range = this.data.insights.timeRange(companyId, by.field);
        const segments = range ? offsetSegments(zone, range.min, range.max) : [{ until: null, offsetSeconds: 0 }];
        return { kind: 'time', field: by.field, unit: by.unit, segments };
      }
      case 'bins':
        // Each range compiled by the list's own compiler, so a group is exactly what the list answers for it.
        return { kind: 'cases', cases: binsOf(by.key).map((b) => this.data.reports.compile(parseListQuery({ filter: b.filter }))), bin: KEPT_BINS[by.key] };
    }
  }

  /** A group's value, words and the conditions that pick its reports. */
  private placeOf(
    by: GroupBy,
    key: string | number | null,
    zone: string,
    companies: Map<number, { id: string; name: string }>,
    narrowing: Narrowing,
  ): Pick<Group, 'value' | 'label' | 'from' | 'to' | 'filter' | 'customFields' | 'unset'> {
    switch (by.kind) {
      case 'key':
        return keyValue(by.key, key, companies);
      case 'customField': {
        const { count: _, ...place } = customFieldValue(by.field, key, 0, narrowing);
        return place;
      }
      case 'time': {
        if (key === null) return { value: null, ...unsetCondition(UNSET_START, narrowing) };
        const { from, to } = bucketBounds(zone, by.unit, String(key));
        const filter =
          by.field === 'created'
            ? `created[gte]${new Date(from).toISOString()},created[lt]${new Date(to).toISOString()}`
            : `calculatedSenseData.startTime[gte]${Math.ceil(from / 1000)},calculatedSenseData.startTime[lt]${Math.ceil(to / 1000)}`;
        return { value: String(key), from: new Date(from).toISOString(), to: new Date(to).toISOString(), filter };
      }
      case 'bins': {
        // In no range: without the figure; only an MKT can be missing (no readings yet).
        if (key === null) return by.key === 'bins.mkt' ? { value: null, ...unsetCondition(UNSET_MKT, narrowing) } : { value: null };
        const bin = binsOf(by.key)[key as number];
        return { value: bin.label, filter: bin.filter };
      }
    }
  }
}

/** The kept figures' column of each distribution's ranges (migration 022). */
const KEPT_BINS: Record<BinKey, 'bin_seconds' | 'bin_degree_hours' | 'bin_mkt'> = {
  'bins.secondsOutOfRange': 'bin_seconds',
  'bins.degreeHours': 'bin_degree_hours',
  'bins.mkt': 'bin_mkt',
};

/** How the insights narrow the list's filter as GET /local/labelReports does: `review` and `unset`. */
export interface Narrowing {
  review: readonly ReviewCondition[];
  unset: readonly string[];
}

function narrowingOf(given: Narrowing | readonly ReviewCondition[]): Narrowing {
  return Array.isArray(given) ? { review: given as readonly ReviewCondition[], unset: [] } : (given as Narrowing);
}

/** The `unset` key that picks a group's reports; left out when the request holds it already. */
function unsetCondition(key: string, narrowing: Narrowing): Pick<FacetValue, 'unset'> {
  return narrowing.unset.includes(key) ? {} : { unset: key };
}

function customFieldValue(field: string, key: string | number | null, count: number, narrowing: Narrowing): FacetValue {
  if (key === null) return { value: null, count, ...unsetCondition(CUSTOM_FIELD_PREFIX + field, narrowing) };
  return { value: String(key), count, customFields: `${field}[eq]${conditionValue(String(key))}` };
}

function binsOf(key: BinKey) {
  return DISTRIBUTIONS.find((d) => d.by === key)!.bins;
}

function byName(by: GroupBy): string {
  switch (by.kind) {
    case 'key':
    case 'bins':
      return by.key;
    case 'customField':
      return CUSTOM_FIELD_PREFIX + by.field;
    case 'time':
      return `${by.field}.${by.unit}`;
  }
}

function figuresOf(f: GroupFigures, decided: Map<string, number> | undefined) {
  const decisions = Object.fromEntries(DECISIONS.map((d) => [d, decided?.get(d) ?? 0])) as Record<(typeof DECISIONS)[number], number>;
  const none = f.count - DECISIONS.reduce((sum, d) => sum + decisions[d], 0);
  return {
    count: f.count,
    reportsWithExcursions: f.reportsWithExcursions,
    excursions: f.excursions,
    secondsOutOfRange: f.secondsOutOfRange,
    degreeHours: f.degreeHours,
    mkt: { mean: f.mktMean, max: f.mktMax },
    alertLevels: Object.fromEntries(ALERT_LEVELS.map((level) => [String(level), f.alertLevels.get(level) ?? 0])),
    decisions: { ...decisions, none },
  };
}
