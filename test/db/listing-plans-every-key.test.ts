/**
 * The plans of every allow-listed key, enumerated from query/fields.ts so that a key added there
 * is guarded here without a word more: each filter key with each operator its type takes (at a
 * value few reports hold, one about half hold and one nearly all hold, in both directions of the
 * default order), each order key both ways (with and without archived reports hidden), the text
 * searches, custom field equality and ranges, and the retrieve of one report. On the plan site
 * (test/db/plan-site.ts, imported with `labeldesk import`, analysed as the import leaves it):
 *
 * - nothing reads the listing or the reports but by a search of an index from the company (or a
 *   report's key): no `SCAN` of them;
 * - no page sorts many matches: a sort follows only a search of the condition's own index (or
 *   the trigram index) whose matches are fewer than √(page end × reports), the most a walk of
 *   the order's index may read before it fills the page;
 * - a page that walks its order's index for a condition an index could search does so because
 *   that condition holds at least √(page end × reports) of the rows: the walk then stops within
 *   about as many entries.
 *
 * The conditions no index can search (not-equal, patterns on keys that are not searchable texts,
 * the owner's name and short code, the access entries) walk the order's index and stop at the
 * page: docs/benchmarks.md#plans-guarded-for-every-key says why that is the bound.
 */
import { copyFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DataStore } from '../../db/data-store';
import { FIELD_COLUMNS } from '../../db/query/field-columns';
import { SEARCHED_COLUMNS } from '../../db/read-model';
import { FILTER_OPERATORS, type FilterOperator } from '../../contract/filter-operators';
import { FIELDS, type FieldDef } from '../../query/fields';
import { parseListQuery, type ListQuery } from '../../query/list-query';
import { importPlanSite } from './plan-site';

const REPORTS = 4000;
const HOME = 'alpha';
const PAGE = 100;

let dir: string;
let data: DataStore;
let raw: Database.Database;

beforeAll(async () => {
  ({ dir } = await importPlanSite('labeldesk-every-key-plans-', REPORTS));
  data = DataStore.open(join(dir, 'site.sqlite'));
  raw = new Database(join(dir, 'site.sqlite'), { readonly: true });
}, 120_000);

afterAll(() => {
  raw?.close();
  data?.close();
  rmSync(dir, { recursive: true, force: true });
});

const COMPARISONS: ReadonlySet<FilterOperator> = new Set(['eq', 'gt', 'gte', 'lt', 'lte']);

/** The operators the parser lets through for a key of this type (query/list-query.ts). */
function operatorsOf(field: FieldDef): readonly FilterOperator[] {
  if (field.type === 'boolean') return ['eq', 'neq'];
  if (field.type === 'number' || field.type === 'instant') return ['eq', 'neq', 'gt', 'gte', 'lt', 'lte'];
  return FILTER_OPERATORS;
}

/** The values the home company's rows hold for a key, at about 1 %, 50 % and 99 % of them in order. */
function valuesOf(key: string): unknown[] {
  const column = FIELD_COLUMNS.get(key)!;
  const from = column.array
    ? `${column.array.from} JOIN report_listing l ON ${column.array.link}`
    : 'report_listing l';
  const company = 'l.ck = (SELECT ck FROM company_keys WHERE company_id = ?)';
  const at = raw.prepare(`SELECT ${column.sql} FROM ${from} WHERE ${company} AND ${column.sql} IS NOT NULL ORDER BY 1 LIMIT 1 OFFSET ?`).pluck();
  const values = [0.01, 0.5, 0.99].map((share) => at.get(HOME, Math.floor(REPORTS * share))).filter((v) => v !== undefined && v !== null);
  return values.length > 0 ? [...new Set(values)] : [FIELDS.get(key)!.type === 'number' ? 0 : 'none'];
}

/** A value as a filter takes it, for a key of this definition. */
function asFilterValue(field: FieldDef, value: unknown): string {
  if (field.type === 'boolean') return value === 1 || value === true ? 'true' : 'false';
  return String(value).replaceAll(',', '\\,');
}

/** The filter conditions of a key: each operator at each value; patterns a run of the value's text. */
function conditionsOf(key: string, field: FieldDef): string[] {
  const out = new Set<string>();
  for (const value of valuesOf(key)) {
    const text = asFilterValue(field, value);
    const run = text.length > 4 ? text.slice(1, text.length - 1) : text;
    for (const op of operatorsOf(field)) {
      // An enum key's elements are its values: an array of them includes a value, not a run.
      const given = op === 'like' ? `%${run}%` : op === 'ilike' ? `%${run.toLowerCase()}%` : op === 'includes' && !field.values ? run : text;
      out.add(`${key}[${op}]${given}`);
    }
  }
  return [...out];
}

/** The most entries a page of the first page's end may read: a walk to it at that share, a sort of that many. */
const BOUND = Math.sqrt(PAGE * REPORTS);

/** The lines that read the listing (alias l) or the reports. */
const readsOfRows = (lines: readonly string[]) => lines.filter((line) => /^(SCAN|SEARCH) (l|r|report_listing|label_reports)\b/.test(line));

/** What is wrong with these lines of a plan as reads go: a scan of the listing or the reports, a read not from the company. */
function scanned(lines: readonly string[]): string[] {
  const wrong: string[] = [];
  for (const line of lines) {
    // The scans allowed: the trigram index's own, and the few keys of the companies (company_keys).
    if (/^SCAN /.test(line) && !/^SCAN (report_text VIRTUAL TABLE|k)\b/.test(line)) wrong.push(`scans: ${line}`);
  }
  for (const line of readsOfRows(lines)) {
    // From the company's range, or a candidate's row by its report key.
    if (!/^SEARCH l USING (COVERING )?(INDEX \w+|PRIMARY KEY) \((ck=\?|rk=\? AND ck=\?\))/.test(line)) wrong.push(`reads the listing not by the company: ${line}`);
  }
  return wrong;
}

/** A condition that an index of its own searches within the company (the read model's SEARCHED_COLUMNS). */
function searchable(condition: string, order: ListQuery['order']): boolean {
  const [, key, op] = /^(.*?)\[(\w+)\]/.exec(condition)!;
  const name = /^l\.(\w+)$/.exec(FIELD_COLUMNS.get(key)!.sql)?.[1];
  return name !== undefined && name !== 'is_archived' && key !== order.key && COMPARISONS.has(op as FilterOperator) && SEARCHED_COLUMNS.has(name);
}

interface Case {
  filter?: string;
  customFields?: string;
  order: string;
}

/** Every fault of one list request's plans on `store`, as text; none when the request is guarded. */
function faultsOf(store: DataStore, c: Case): string[] {
  const q = parseListQuery({ pageSize: String(PAGE), order: c.order, ...(c.filter ? { filter: c.filter } : {}), ...(c.customFields ? { customFields: c.customFields } : {}) });
  let plan: ReturnType<DataStore['reports']['plans']>;
  let matches: number;
  try {
    const compiled = store.reports.compile(q);
    plan = store.reports.plans(HOME, compiled, PAGE, 0);
    matches = store.reports.count(HOME, compiled);
  } catch (error) {
    return [`does not run: ${(error as Error).message}`];
  }
  const where = `${JSON.stringify(c)} (${matches} matches)\n  page: ${plan.page.join('\n        ')}\n  count: ${plan.count.join('\n        ')}`;
  const faults = [...scanned(plan.page), ...scanned(plan.count), ...scanned(plan.walk ?? [])];
  const page = plan.page.join('\n');
  const text = /report_text VIRTUAL TABLE/.test(page);
  const reads = readsOfRows(plan.page);
  if (/USE TEMP B-TREE FOR ORDER BY/.test(page)) {
    // The matches sorted come from a search of the condition's index, the custom field
    // elements' or the trigram index's: never the company's every row.
    const narrowed = text || /SEARCH e USING COVERING INDEX custom_field_elements_/.test(page) || reads.some((line) => /\(ck=\? AND (?!rk=)\w+[=<>]/.test(line));
    if (!narrowed) faults.push('sorts the company\'s rows');
    // The trigram index's candidates are as many as the rarest trigram's reports: a search sorts them.
    if (!text && matches >= BOUND) faults.push(`sorts ${matches} matches, more than √(page end × reports) = ${Math.round(BOUND)}`);
  } else if (c.filter && !c.filter.includes(',') && searchable(c.filter, q.order)) {
    // Walked for a condition an index searches: only when it holds so many rows that the walk is short.
    const readsOwnRange = reads.some((line) => /\(ck=\? AND \w+[=<>]/.test(line));
    if (!readsOwnRange && matches < BOUND) faults.push(`walks the order's index for ${matches} matches, fewer than √(page end × reports) = ${Math.round(BOUND)}`);
  }
  return faults.map((fault) => `${fault}\n${where}`);
}

const FILTER_KEYS = [...FIELDS].map(([key, field]) => [key, field] as const);
const ORDER_KEYS = [...FIELDS].filter(([, field]) => !field.array).map(([key]) => key);

describe(`every allow-listed key on ${REPORTS} imported reports`, () => {
  it('the keys enumerated are the allow-list: every key of query/fields.ts, each with the operators the parser takes', () => {
    expect(FILTER_KEYS.length).toBe(FIELDS.size);
    for (const [key, field] of FILTER_KEYS) {
      for (const op of operatorsOf(field)) expect(() => parseListQuery({ filter: `${key}[${op}]${asFilterValue(field, valuesOf(key)[0])}` }), `${key}[${op}]`).not.toThrow();
    }
  });

  it.each(FILTER_KEYS)('filtered by %s, with every operator it takes, newest and oldest first: guarded', (key, field) => {
    const faults = conditionsOf(key, field).flatMap((filter) => ['created[asc]', 'created[desc]'].flatMap((order) => faultsOf(data, { filter, order })));
    expect(faults, faults.join('\n\n')).toEqual([]);
  });

  it.each(ORDER_KEYS)('ordered by %s, both ways, with and without archived reports hidden: no scan, no sort but of a range bounded by the page', (key) => {
    for (const direction of ['asc', 'desc']) {
      for (const filter of [undefined, 'isArchived[eq]false']) {
        const q = parseListQuery({ pageSize: String(PAGE), order: `${key}[${direction}]`, ...(filter ? { filter } : {}) });
        const plan = data.reports.plans(HOME, data.reports.compile(q), PAGE, 0);
        const text = `${key}[${direction}] ${filter ?? ''}\n${plan.page.join('\n')}`;
        expect(scanned(plan.page), text).toEqual([]);
        // Merged ranges: each arm that sorts reads a range the page's end bounds (the rows above
        // the page's last value, an owner's prefix up to its page-end id); one read sorts nothing.
        for (const arm of arms(plan.page)) {
          if (arm.some((line) => /USE TEMP B-TREE FOR ORDER BY/.test(line))) expect(arm[0], text).toMatch(/\(ck=\? AND \w+(>\?|=\? AND id<\?)\)$/);
        }
      }
    }
  });

  it.each([
    ['labelReference[ilike]%po-012%'],
    ['labelReference[like]PO-012%'],
    ['labelReference[includes]O-0123'],
    ['label.sequenceCode[includes]LBL-00012'],
    ['label.uid[ilike]04:00%'],
    ['label.name[like]Label 12%'],
  ])('text search %s: the trigram index picks the candidates, each looked up by its key', (filter) => {
    for (const order of ['created[desc]', 'created[asc]']) {
      expect(faultsOf(data, { filter, order })).toEqual([]);
      const plan = data.reports.plans(HOME, data.reports.compile(parseListQuery({ filter, order, pageSize: String(PAGE) })), PAGE, 0);
      for (const lines of [plan.page, plan.count]) expect(lines.join('\n')).toMatch(/SCAN report_text VIRTUAL TABLE INDEX \d+:M/);
    }
  });

  it.each([
    ['equality, few', 'batch[eq]B-42'],
    ['equality, many', 'pallets[eq]7'],
    ['a number range, few', 'pallets[gte]39'],
    ['a number range, many', 'pallets[gte]2'],
    ['a text range', 'batch[lt]B-1'],
    ['a text range, many', 'batch[gt]B-1'],
    ['not equal', 'batch[neq]B-42'],
  ])('custom field %s (%s), both ways, archived hidden or not: guarded', (_name, customFields) => {
    for (const order of ['created[desc]', 'created[asc]']) {
      for (const filter of [undefined, 'isArchived[eq]false']) expect(faultsOf(data, { customFields, order, filter })).toEqual([]);
    }
  });

  it('retrieve: the report, its datapoints, access entries, states and custom fields, each searched by the report\'s key', () => {
    const id = raw.prepare('SELECT id FROM label_reports ORDER BY id LIMIT 1 OFFSET 1234').pluck().get() as string;
    const plans = data.reports.loadPlans(id);
    expect(plans.length).toBeGreaterThanOrEqual(4);
    for (const lines of plans) {
      // The ids given (one) are the only rows scanned; every table is searched by the report.
      expect(lines.filter((line) => /^SCAN/.test(line) && !/^SCAN json_each VIRTUAL TABLE/.test(line)), lines.join('\n')).toEqual([]);
      for (const line of lines.filter((l) => /^SEARCH/.test(l))) expect(line, lines.join('\n')).toMatch(/\((id|label_report_id|rowid)=\?\)$/);
      // What is put in order (access entries, custom fields) is the one report's own rows:
      // at most MAX_REPORT_CUSTOM_FIELDS of them.
    }
    expect(data.reports.load(id)?.datapoints.length ?? 0).toBeGreaterThan(0);
  });

  it.each([
    ['listing_degree_hour', 'calculatedSenseData.analysedValues.temperature.degreeHour'],
    ['listing_reference', 'labelReference'],
    ['listing_attained_max_temperature', 'calculatedSenseData.attainedValues.maxTemperature'],
    ['listing_flag', 'hasFlag'],
  ])('without %s the plans of %s are not guarded: the guard depends on the index', (index, key) => {
    const copy = join(dir, `without-${index}.sqlite`);
    copyFileSync(join(dir, 'site.sqlite'), copy);
    const db = new Database(copy);
    db.exec(`DROP INDEX ${index}`);
    db.close();
    const other = DataStore.open(copy);
    try {
      const field = FIELDS.get(key)!;
      const faults = conditionsOf(key, field).flatMap((filter) => faultsOf(other, { filter, order: 'created[desc]' }));
      expect(faults.length).toBeGreaterThan(0);
    } finally {
      other.close();
    }
  });
});

/** The lines of a merged plan, cut at each arm of the merge; a plan that merges nothing is one arm. */
function arms(lines: readonly string[]): string[][] {
  if (!lines.includes('MERGE (UNION ALL)')) return [[...lines]];
  const out: string[][] = [];
  for (const line of lines) {
    if (/^(MERGE|LEFT|RIGHT)/.test(line)) out.push([]);
    else out[out.length - 1]?.push(line);
  }
  return out.filter((arm) => arm.length > 0);
}
