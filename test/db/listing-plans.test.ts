/**
 * The plan of each path the report browser takes, on a database made the way a site makes it:
 * a bundle imported with `labeldesk import` (analysed when it switches in), three quarters of
 * the reports owned by the key's company and one quarter owned by another and shared with it as
 * viewer. Each path the browser takes (the requests its own code makes: archived reports hidden
 * unless asked for) reads the company's listing rows through the index meant for it, and neither
 * its default order nor a column sort needs sorting. LABELDESK_PLAN_REPORTS sets the size
 * (default 4 000).
 */
import { copyFileSync, rmSync } from 'node:fs';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DataStore } from '../../db/data-store';
import { parseListQuery } from '../../query/list-query';
import { MODES, REPORT_TYPES } from '../../schema/report';
import { defaultQuery, toApiParams, type ListFilters, type ListQuery as BrowserQuery } from '../../renderer/lib/list-query';
import { importPlanSite } from './plan-site';
import { KEY_ORDER_INDEXES, REBUILT_COUNT_INDEXES } from '../../db/read-model';
import { FIELD_COLUMNS } from '../../db/query/field-columns';

/** The list key whose listing column is `column`. */
const KEY_OF_COLUMN = new Map([...FIELD_COLUMNS].map(([key, c]) => [c.sql.replace(/^l\./, ''), key]));

const REPORTS = Number(process.env.LABELDESK_PLAN_REPORTS ?? 4000);
const HOME = 'alpha';

let dir: string;
let data: DataStore;

beforeAll(async () => {
  ({ dir } = await importPlanSite('labeldesk-listing-plans-', REPORTS));
  data = DataStore.open(join(dir, 'site.sqlite'));
}, 120_000);

afterAll(() => {
  data?.close();
  rmSync(dir, { recursive: true, force: true });
});

function plans(query: Record<string, string>) {
  const q = parseListQuery({ pageSize: '100', output: 'minimal', ...query });
  const filter = data.reports.compile(q);
  const plan = data.reports.plans(HOME, filter, q.pageSize, (q.pageNumber - 1) * q.pageSize);
  const total = data.reports.count(HOME, filter);
  return {
    countPlan: plan.count,
    matchesPlan: plan.matches,
    pagePlan: plan.page,
    total,
    text: `count:\n  ${plan.count.join('\n  ')}\nmatches:\n  ${plan.matches.join('\n  ')}\npage:\n  ${plan.page.join('\n  ')}`,
  };
}

/** Every line reading the listing rows goes through one of `indexes`, searched by the company. */
function readsThrough(lines: string[], ...indexes: string[]): boolean {
  const reads = lines.filter((line) => / l USING /.test(line));
  return reads.length > 0 && reads.every((line) => indexes.some((index) => line.includes(` INDEX ${index} (ck=?`)));
}

const SORTS = /USE TEMP B-TREE/;

/**
 * A count the kept counts answer: the company's few rows of listing_counts searched by its
 * primary key (report_listing's indexes are never named), and nothing scanned or sorted.
 */
function readsKeptCounts(lines: string[]): boolean {
  const reads = lines.filter((line) => / l USING /.test(line));
  return (
    reads.length === 1 &&
    /^SEARCH l USING PRIMARY KEY \(ck=\?/.test(reads[0]) &&
    !lines.some((line) => /^SCAN|TEMP B-TREE|listing_/.test(line))
  );
}

/** The request the report browser sends for this view: archived reports hidden unless asked. */
function browser(change: (q: BrowserQuery) => void = () => {}, extra: Record<string, string> = {}): Record<string, string> {
  const q = defaultQuery();
  change(q);
  return { ...(toApiParams(q) as unknown as Record<string, string>), ...extra };
}
const filters = (patch: Partial<ListFilters>) => (q: BrowserQuery) => Object.assign(q.filters, patch);

/**
 * Each range of a merged order (an equality on the key) reads the index in the order of the
 * page: after its SEARCH line and the company subquery, no sort follows.
 */
function valuesMergedFrom(lines: string[], read: string): boolean {
  if (!lines.includes('MERGE (UNION ALL)')) return false;
  const equal = lines.flatMap((line, i) => (line.endsWith(read) ? [i] : []));
  return (
    equal.length > 0 &&
    equal.every((i) => {
      const next = lines.slice(i + 1).find((line) => !/^SCALAR SUBQUERY|^SEARCH k /.test(line));
      return next === undefined || !SORTS.test(next);
    })
  );
}

describe(`list plans on ${REPORTS} imported reports`, () => {
  it('the default view (archived hidden, newest first): the archive index, in its order, covering', () => {
    const p = plans(browser());
    expect(p.total).toBe(REPORTS - REPORTS / 100);
    expect(p.pagePlan, p.text).toContain('SEARCH l USING COVERING INDEX listing_archived (ck=? AND is_archived=?)');
    expect(p.matchesPlan, p.text).toContain('SEARCH l USING COVERING INDEX listing_archived (ck=? AND is_archived=?)');
    expect(readsKeptCounts(p.countPlan), p.text).toBe(true);
    expect(p.pagePlan.join('\n'), p.text).not.toMatch(SORTS);
  });

  it('a deep page of the default view walks the covering archive index, not the reports', () => {
    const p = plans(browser(undefined, { pageNumber: String(Math.floor(REPORTS / 100) - 2) }));
    expect(p.pagePlan, p.text).toEqual([
      'SEARCH l USING COVERING INDEX listing_archived (ck=? AND is_archived=?)',
      'SCALAR SUBQUERY 1',
      expect.stringContaining('company_keys'),
    ]);
  });

  it('all reports, newest first: the created index, in its order, covering', () => {
    const p = plans({ order: 'created[desc]' });
    expect(p.total).toBe(REPORTS);
    expect(p.pagePlan, p.text).toContain('SEARCH l USING COVERING INDEX listing_created (ck=?)');
    expect(p.pagePlan.join('\n'), p.text).not.toMatch(SORTS);
  });

  it.each([
    ['status', { status: 'active' }, ['listing_status']],
    ['alert level or worse', { alert: 'moderateOrWorse' }, ['listing_alert']],
    ['status and alert level', { status: 'active', alert: 'moderateOrWorse' }, ['listing_status', 'listing_alert']],
    ['no alert', { alert: 'none' }, ['listing_alert']],
    ['mode', { mode: MODES[1] }, ['listing_mode']],
    ['type', { type: REPORT_TYPES[1] }, ['listing_type']],
    ['flagged', { flagged: 'yes' }, ['listing_flag']],
    ['shared with me', { owner: 'beta' }, ['listing_owner']],
  ] as const)('the browser filtering by %s: the page walks the archive index in order, the count sums the kept counts, the matches read their own index', (_name, patch, countIndexes) => {
    const p = plans(browser(filters(patch as Partial<ListFilters>)));
    expect(p.total).toBeGreaterThan(0);
    expect(p.total).toBeLessThan(REPORTS);
    expect(p.pagePlan, p.text).toContain('SEARCH l USING COVERING INDEX listing_archived (ck=? AND is_archived=?)');
    expect(p.pagePlan.join('\n'), p.text).not.toMatch(SORTS);
    expect(p.matchesPlan.filter((line) => / l USING /.test(line)), p.text).toEqual([
      expect.stringMatching(new RegExp(`^SEARCH l USING COVERING INDEX (${countIndexes.join('|')}) \\(ck=\\? AND `)),
    ]);
    expect(readsKeptCounts(p.countPlan), p.text).toBe(true);
  });

  it('archived only: its own range of the archive index, in order', () => {
    const p = plans(browser(filters({ archived: 'yes' })));
    expect(p.total).toBe(REPORTS / 100);
    expect(p.pagePlan, p.text).toContain('SEARCH l USING COVERING INDEX listing_archived (ck=? AND is_archived=?)');
    expect(p.pagePlan.join('\n'), p.text).not.toMatch(SORTS);
  });

  it('a date range: a range of the archive index, in its order', () => {
    const p = plans(browser(filters({ createdFrom: '2025-10-10', createdTo: '2025-10-12' })));
    expect(p.total).toBeGreaterThan(0);
    expect(p.pagePlan, p.text).toContain('SEARCH l USING COVERING INDEX listing_archived (ck=? AND is_archived=? AND created>? AND created<?)');
    expect(p.pagePlan.join('\n'), p.text).not.toMatch(SORTS);
  });

  it.each([
    ['status', 'asc', 'listing_status', 'status'],
    ['status', 'desc', 'listing_status', 'status'],
    ['mode', 'asc', 'listing_mode', 'mode'],
    ['type', 'desc', 'listing_type', 'type'],
    ['alert', 'desc', 'listing_alert', 'alert_level'],
    ['alert', 'asc', 'listing_alert', 'alert_level'],
    ['flag', 'asc', 'listing_flag', 'has_flag'],
    ['flag', 'desc', 'listing_flag', 'has_flag'],
    ['excursions', 'desc', 'listing_violations_all', 'calc_violations_all'],
    ['excursions', 'asc', 'listing_violations_all', 'calc_violations_all'],
  ] as const)('the browser sorted by %s %s: each value read from its index in id order, merged without sorting', (column, direction, index, sqlColumn) => {
    const p = plans(browser((q) => (q.sort = { column, direction })));
    expect(p.total).toBe(REPORTS - REPORTS / 100);
    expect(valuesMergedFrom(p.pagePlan, `INDEX ${index} (ck=? AND ${sqlColumn}=?)`), p.text).toBe(true);
  });

  it('the browser sorted by the archive column: the archived-hidden rows all share it, so they are read in id order from the id index', () => {
    const p = plans(browser((q) => (q.sort = { column: 'archived', direction: 'asc' })));
    expect(readsThrough(p.pagePlan, 'listing_id'), p.text).toBe(true);
    expect(p.pagePlan.join('\n'), p.text).not.toMatch(SORTS);
  });

  it.each([
    ['updated', 'listing_updated'],
    ['reference', 'listing_reference'],
    ['label', 'listing_sequence_code'],
  ] as const)('the browser sorted by %s: read in the order of its index', (column, index) => {
    const p = plans(browser((q) => (q.sort = { column, direction: 'asc' })));
    expect(readsThrough(p.pagePlan, index), p.text).toBe(true);
    expect(p.pagePlan.join('\n'), p.text).not.toMatch(/USE TEMP B-TREE FOR ORDER BY/);
  });

  it.each([
    ['calculatedSenseData.analysedValues.temperature.meanKineticTemperature', 'listing_mean_kinetic_temperature'],
    ['calculatedSenseData.analysedValues.temperature.degreeHour', 'listing_degree_hour'],
    ['calculatedSenseData.analysedValues.temperature.average', 'listing_average_temperature'],
  ] as const)('ordered by the figure %s, either way, archived hidden: its index walked in order, only ties sorted', (key, index) => {
    for (const direction of ['desc', 'asc']) {
      const p = plans({ filter: 'isArchived[eq]false', order: `${key}[${direction}]` });
      expect(p.total).toBe(REPORTS - REPORTS / 100);
      expect(readsThrough(p.pagePlan, index), p.text).toBe(true);
      expect(p.pagePlan.join('\n'), p.text).not.toMatch(/USE TEMP B-TREE FOR ORDER BY/);
      expect(readsKeptCounts(p.countPlan), p.text).toBe(true);
    }
  });

  /**
   * Every figure of the calculated sense data a list orders by, with the index that holds its
   * order; but the datapoint counts, whose runs of equal counts are sorted (migration 018).
   */
  const FIGURE_ORDERS = [
    ['startTime', 'listing_start_time', 'calc_start_time'],
    ['currentTime', 'listing_current_time', 'calc_current_time'],
    ['elapsedTime', 'listing_elapsed_time', 'calc_elapsed_time'],
    ['numberOfViolations.temperature', 'listing_violations_temperature', 'calc_violations_temperature'],
    ['numberOfViolations.humidity', 'listing_violations_humidity', 'calc_violations_humidity'],
    ['numberOfViolations.all', 'listing_violations_all', 'calc_violations_all'],
    ['durationOfViolations.temperature', 'listing_violation_duration_temperature', 'calc_violation_duration_temperature'],
    ['durationOfViolations.humidity', 'listing_violation_duration_humidity', 'calc_violation_duration_humidity'],
    ['durationOfViolations.all', 'listing_violation_duration_all', 'calc_violation_duration_all'],
    ['attainedValues.minTemperature', 'listing_attained_min_temperature', 'calc_attained_min_temperature'],
    ['attainedValues.maxTemperature', 'listing_attained_max_temperature', 'calc_attained_max_temperature'],
    ['analysedValues.temperature.average', 'listing_average_temperature', 'calc_average_temperature'],
    ['analysedValues.temperature.degreeHour', 'listing_degree_hour', 'calc_degree_hour'],
    ['analysedValues.temperature.meanKineticTemperature', 'listing_mean_kinetic_temperature', 'calc_mean_kinetic_temperature'],
  ] as const;
  const FEW_VALUES = new Set(['numberOfViolations.temperature', 'numberOfViolations.all', 'numberOfViolations.humidity', 'durationOfViolations.humidity']);

  /**
   * The page walks the figure's index in its order: no sort of all the matches. Ascending, the
   * index holds the id tiebreak too, so nothing is sorted; descending, the walk sorts each run
   * of equal figures by id, run by run, and stops at the page. A figure of few values merges one
   * range a value, each in id order.
   */
  function walksFigureIndex(lines: string[], key: string, index: string, column: string, direction: string): boolean {
    if (FEW_VALUES.has(key)) return valuesMergedFrom(lines, `INDEX ${index} (ck=? AND ${column}=?)`);
    return readsThrough(lines, index) && !(direction === 'asc' ? SORTS : /USE TEMP B-TREE FOR ORDER BY/).test(lines.join('\n'));
  }

  it.each(FIGURE_ORDERS)('ordered by the figure %s, both ways, with and without archived hidden: its index walked in order', (key, index, column) => {
    const views: Record<string, string>[] = [{}, { filter: 'isArchived[eq]false' }];
    for (const view of views) {
      for (const direction of ['asc', 'desc']) {
        const p = plans({ ...view, order: `calculatedSenseData.${key}[${direction}]` });
        expect(p.total).toBe(view.filter ? REPORTS - REPORTS / 100 : REPORTS);
        expect(walksFigureIndex(p.pagePlan, key, index, column, direction), p.text).toBe(true);
        expect(p.pagePlan.join('\n'), p.text).not.toMatch(/^SCAN l\b/m);
      }
    }
  });

  it('without its index, an order by a figure sorts every match: the plans above depend on the indexes', () => {
    const copy = join(dir, 'without-figure-index.sqlite');
    data.close();
    copyFileSync(join(dir, 'site.sqlite'), copy);
    data = DataStore.open(join(dir, 'site.sqlite'));
    const raw = new Database(copy);
    raw.exec('DROP INDEX listing_violation_duration_all');
    raw.close();
    const other = DataStore.open(copy);
    try {
      const q = parseListQuery({ pageSize: '100', output: 'minimal', order: 'calculatedSenseData.durationOfViolations.all[asc]' });
      const page = other.reports.plans(HOME, other.reports.compile(q), q.pageSize, 0).page;
      expect(page.join('\n')).toMatch(/USE TEMP B-TREE FOR ORDER BY/);
      expect(walksFigureIndex(page, 'durationOfViolations.all', 'listing_violation_duration_all', 'calc_violation_duration_all', 'asc')).toBe(false);
    } finally {
      other.close();
    }
  });

  /**
   * Every key of long runs of equal values with an index of its own (migration 021, and 018's
   * elapsed time): [key, index, column].
   */
  const KEY_ORDERS: (readonly [key: string, index: string, column: string])[] = [
    ...[...KEY_ORDER_INDEXES, ...REBUILT_COUNT_INDEXES].map(([index, column]) => [KEY_OF_COLUMN.get(column)!, index, column] as const),
    ['calculatedSenseData.elapsedTime', 'listing_elapsed_time', 'calc_elapsed_time'] as const,
  ].filter(([key]) => key !== 'dataIsIncomplete');

  /** The lines of a merged plan, cut at each arm of the merge: an arm's reads and sorts. */
  function arms(lines: string[]): string[][] {
    const out: string[][] = [];
    for (const line of lines) {
      if (/^(MERGE|LEFT|RIGHT)/.test(line)) out.push([]);
      else out[out.length - 1]?.push(line);
    }
    return out.filter((arm) => arm.length > 0);
  }

  /**
   * Descending by a key of long runs: the page's last value read from the index walked
   * backwards (no sort), the rows above it (fewer than the page's end; sorted, the only sort),
   * the rows equal to it in id order, the NULLs in id order; nothing scanned.
   */
  function readsFromPageEnd(lines: string[], index: string, column: string): boolean {
    const all = arms(lines);
    const above = all.filter((arm) => arm[0].includes(`INDEX ${index} (ck=? AND ${column}>?)`));
    const equal = all.filter((arm) => arm[0].includes(`INDEX ${index} (ck=? AND ${column}=?)`));
    const others = all.filter((arm) => !above.includes(arm) && !equal.includes(arm));
    return (
      lines.includes('MERGE (UNION ALL)') &&
      readsThrough(lines, index) &&
      !lines.some((line) => /^SCAN/.test(line)) &&
      above.length === 1 &&
      equal.length >= 1 &&
      others.length === 0 &&
      // The equal run and the NULLs in id order, the page's last value walked in the index's
      // order: the rows above it are all that is sorted.
      equal.every((arm) => !arm.some((line) => SORTS.test(line)))
    );
  }

  it.each(KEY_ORDERS)('ordered by %s, both ways, with and without archived hidden: its index, ascending in order, descending from the page\'s last value', (key, index, column) => {
    for (const view of [{}, { filter: 'isArchived[eq]false' }] as Record<string, string>[]) {
      const asc = plans({ ...view, order: `${key}[asc]` });
      expect(asc.total).toBe(view.filter ? REPORTS - REPORTS / 100 : REPORTS);
      expect(readsThrough(asc.pagePlan, index), asc.text).toBe(true);
      expect(asc.pagePlan.join('\n'), asc.text).not.toMatch(SORTS);
      const desc = plans({ ...view, order: `${key}[desc]` });
      expect(readsFromPageEnd(desc.pagePlan, index, column), desc.text).toBe(true);
    }
  });

  it('whether data is incomplete, both ways: each value read from its index in id order, merged', () => {
    for (const direction of ['asc', 'desc']) {
      const p = plans({ filter: 'isArchived[eq]false', order: `dataIsIncomplete[${direction}]` });
      expect(valuesMergedFrom(p.pagePlan, 'INDEX listing_data_is_incomplete (ck=? AND data_is_incomplete=?)'), p.text).toBe(true);
      expect(p.pagePlan.join('\n'), p.text).not.toMatch(/^SCAN l\b/m);
    }
  });

  it.each(['company.id', 'company.name', 'company.shortCode'])('ordered by the owner %s, both ways: each owner\'s prefix read from the owner index in id order, merged', (key) => {
    for (const direction of ['asc', 'desc']) {
      const p = plans({ filter: 'isArchived[eq]false', order: `${key}[${direction}]` });
      expect(p.total).toBe(REPORTS - REPORTS / 100);
      expect(p.pagePlan, p.text).toContain('MERGE (UNION ALL)');
      expect(readsThrough(p.pagePlan, 'listing_owner'), p.text).toBe(true);
      expect(p.pagePlan.join('\n'), p.text).not.toMatch(/^SCAN/m);
      // One arm per owner, each cut at the id of its page-end row: only that prefix is sorted.
      const owners = arms(p.pagePlan).filter((arm) => arm[0].startsWith('SEARCH l USING COVERING INDEX listing_owner (ck=? AND owner_ck=?'));
      expect(owners.length, p.text).toBe(2);
      for (const arm of owners) {
        expect(arm[0], p.text).toBe('SEARCH l USING COVERING INDEX listing_owner (ck=? AND owner_ck=? AND id<?)');
        const prefixEnd = arm.indexOf('SEARCH l USING COVERING INDEX listing_owner (ck=? AND owner_ck=?)');
        expect(prefixEnd, p.text).toBeGreaterThan(0);
        expect(SORTS.test(arm[prefixEnd + 1] ?? ''), p.text).toBe(false);
      }
    }
  });

  it('the pages of an order from the page\'s last value and by owner are those of a sort of every match', () => {
    const raw = new Database(join(dir, 'site.sqlite'), { readonly: true });
    try {
      const sorted = (expr: string, direction: string, filter: string) =>
        raw
          .prepare(`SELECT l.id FROM report_listing l WHERE l.ck = (SELECT ck FROM company_keys WHERE company_id = ?) AND ${filter} ORDER BY ${expr} ${direction}, l.id ASC`)
          .pluck()
          .all(HOME) as string[];
      const cases = [
        ['numberOfTaps', 'l.number_of_taps'],
        ['senseConfig.limits.minHumidity', 'l.min_humidity'],
        ['calculatedSenseData.numberOfDatapointsRead', 'l.calc_datapoints_read'],
        ['company.id', '(SELECT company_id FROM company_keys WHERE ck = l.owner_ck)'],
        ['company.name', '(SELECT c.name FROM company_keys k JOIN companies c ON c.id = k.company_id WHERE k.ck = l.owner_ck)'],
      ] as const;
      for (const [key, expr] of cases) {
        for (const direction of ['asc', 'desc']) {
          for (const [filter, sql] of [['isArchived[eq]false', 'l.is_archived = 0'], ['numberOfTaps[gte]2', 'l.number_of_taps >= 2']]) {
            const all = sorted(expr, direction, sql);
            for (const [pageNumber, pageSize] of [[1, 100], [7, 100], [2, 1000], [Math.ceil(all.length / 100), 100]]) {
              const q = parseListQuery({ filter, order: `${key}[${direction}]`, pageNumber: String(pageNumber), pageSize: String(pageSize) });
              const page = data.reports.pageIds(HOME, data.reports.compile(q), pageSize, (pageNumber - 1) * pageSize);
              expect(page, `${key} ${direction} ${filter} page ${pageNumber} of ${pageSize}`).toEqual(all.slice((pageNumber - 1) * pageSize, pageNumber * pageSize));
            }
            // As a caller narrows the compiled condition (the review filters, unset keys), and
            // every match at once (the table export): the same order.
            const compiled = data.reports.compile(parseListQuery({ filter, order: `${key}[${direction}]` }));
            const narrowed = { ...compiled, where: `(${compiled.where}) AND (l.type = ?)`, params: [...compiled.params, REPORT_TYPES[0]] };
            const active = sorted(expr, direction, `${sql} AND l.type = '${REPORT_TYPES[0]}'`);
            expect(active.length).toBeGreaterThan(100);
            expect(data.reports.pageIds(HOME, narrowed, 100, 0), `${key} ${direction} ${filter}, narrowed`).toEqual(active.slice(0, 100));
            expect(data.reports.pageIds(HOME, narrowed, 100, 200), `${key} ${direction} ${filter}, narrowed, page 3`).toEqual(active.slice(200, 300));
            expect(data.reports.pageIds(HOME, compiled, -1, 0), `${key} ${direction} ${filter}, every match`).toEqual(all);
          }
        }
      }
    } finally {
      raw.close();
    }
  });

  it('without its index, an order by a key of long runs or by the owner sorts every match: the plans above depend on the indexes', () => {
    const copy = join(dir, 'without-key-index.sqlite');
    data.close();
    copyFileSync(join(dir, 'site.sqlite'), copy);
    data = DataStore.open(join(dir, 'site.sqlite'));
    const raw = new Database(copy);
    raw.exec('DROP INDEX listing_number_of_taps; DROP INDEX listing_owner');
    raw.close();
    const other = DataStore.open(copy);
    try {
      const page = (order: string) => {
        const q = parseListQuery({ pageSize: '100', output: 'minimal', filter: 'isArchived[eq]false', order });
        return other.reports.plans(HOME, other.reports.compile(q), q.pageSize, 0).page;
      };
      expect(page('numberOfTaps[asc]').join('\n')).toMatch(/USE TEMP B-TREE FOR ORDER BY/);
      expect(readsThrough(page('numberOfTaps[asc]'), 'listing_number_of_taps')).toBe(false);
      expect(readsFromPageEnd(page('numberOfTaps[desc]'), 'listing_number_of_taps', 'number_of_taps')).toBe(false);
      expect(readsThrough(page('company.name[asc]'), 'listing_owner')).toBe(false);
    } finally {
      other.close();
    }
  });

  it('a filter the kept counts do not split by (a date range) is counted from its matches, through an index', () => {
    const p = plans(browser(filters({ createdFrom: '2025-10-10', createdTo: '2025-10-12' })));
    expect(p.countPlan, p.text).toEqual(p.matchesPlan);
    expect(readsThrough(p.countPlan, 'listing_archived'), p.text).toBe(true);
  });

  it.each([
    ['labelReference[ilike]%po-012%'],
    ['labelReference[like]PO-012%'],
    ['label.sequenceCode[includes]LBL-00012'],
  ])('text search %s: the trigram index picks the reports', (filter) => {
    const p = plans({ filter, order: 'created[desc]' });
    expect(p.total).toBeGreaterThan(0);
    for (const lines of [p.countPlan, p.pagePlan]) {
      expect(lines.join('\n'), p.text).toMatch(/SCAN report_text VIRTUAL TABLE INDEX \d+:M/);
      expect(lines.join('\n'), p.text).not.toMatch(/SCAN l\b|USING INDEX listing_created \(ck=\?\)/);
    }
  });

  it.each([
    ['reference', filters({ search: 'po-0' })],
    ['label code, flagged', filters({ searchField: 'label', search: 'lbl-00', flagged: 'yes' })],
  ])('a browser search many reports meet (%s): the page walks the default order inside listing_archived; the count looks up the candidates', (_name, change) => {
    const q = parseListQuery({ pageSize: '100', ...browser(change) });
    const filter = data.reports.compile(q);
    expect(filter.textWalk, JSON.stringify(filter)).toBeDefined();
    const plan = data.reports.plans(HOME, filter, q.pageSize, 0);
    const text = JSON.stringify(plan, null, 1);
    // The walk: one read of the index in its order, covered (no listing row), nothing sorted.
    expect(plan.walk!.filter((line) => / l USING /.test(line)), text).toEqual(['SEARCH l USING COVERING INDEX listing_archived (ck=? AND is_archived=?)']);
    expect(plan.walk!.join('\n'), text).not.toMatch(SORTS);
    // The count and the collecting page: the trigram index's candidates, each looked up by key.
    for (const lines of [plan.count, plan.page]) {
      expect(lines.join('\n'), text).toMatch(/SCAN report_text VIRTUAL TABLE INDEX \d+:M/);
      expect(lines.filter((line) => / l USING /.test(line)), text).toEqual(['SEARCH l USING PRIMARY KEY (ck=? AND rk=?)']);
    }
    // A full page is the walk's; a short one (40 flagged) is read again by collecting: the same rows.
    const page = data.reports.pageIds(HOME, filter, q.pageSize, 0);
    expect(page).toHaveLength(Math.min(q.pageSize, data.reports.count(HOME, filter)));
    expect(page).toEqual(data.reports.pageIds(HOME, { ...filter, textWalk: undefined }, q.pageSize, 0));
  });

  it.each([
    ['archived reports included', 'labelReference[ilike]%po-0%,alert.level[gte]1'],
    ['beside a condition the index does not hold', 'isArchived[eq]false,labelReference[ilike]%po-0%,numberOfTaps[gte]2'],
  ])('a search many reports meet, %s, collects: a walk would read listing rows', (_name, filter) => {
    const compiled = data.reports.compile(parseListQuery({ filter, order: 'created[desc]', pageSize: '20' }));
    expect(compiled.textWalk).toBeUndefined();
    // Given the archive state and a key the index holds, it walks.
    expect(data.reports.compile(parseListQuery({ filter: 'isArchived[eq]false,labelReference[ilike]%po-0%,alert.level[gte]1', order: 'created[desc]', pageSize: '20' })).textWalk).toBeDefined();
  });

  it('a filter of the kept keys many reports meet walks the order; one few meet sorts its matches from the key index', () => {
    const page = (filter: string, pageNumber = '1') => {
      const q = parseListQuery({ filter, pageSize: '100', pageNumber });
      const compiled = data.reports.compile(q);
      const offset = (q.pageNumber - 1) * q.pageSize;
      const read = (f: typeof compiled) => data.reports.pageIds(HOME, f, q.pageSize, offset);
      // Walked or sorted, the same rows: the form without the walk is the one sorted.
      expect(read(compiled), filter).toEqual(read({ ...compiled, orderWalk: undefined }));
      return { plan: data.reports.plans(HOME, compiled, q.pageSize, offset).page, matches: data.reports.count(HOME, compiled) };
    };
    const reads = (plan: string[]) => plan.filter((line) => / l USING /.test(line));
    // About one report in five has an alert: the page walks the created order and stops.
    const many = page('alert.level[gte]1');
    expect(many.matches ** 2).toBeGreaterThanOrEqual(100 * REPORTS);
    expect(reads(many.plan), many.plan.join('\n')).toEqual(['SEARCH l USING INDEX listing_created (ck=?)']);
    expect(many.plan.join('\n')).not.toMatch(/USE TEMP B-TREE FOR ORDER BY/);
    // Few matches: the rows of one condition's key, read from its index and sorted, are fewer
    // than a walk would read (page end × rows ÷ matches).
    const few = page('alert.level[gte]1,mode[eq]airFreight');
    expect(few.matches ** 2).toBeLessThan(100 * REPORTS);
    expect(reads(few.plan).join('\n'), few.plan.join('\n')).toMatch(/USING INDEX listing_(alert|mode) \(ck=\? AND (alert_level>\?|mode=\?)\)/);
    expect(few.plan.join('\n')).toMatch(/USE TEMP B-TREE FOR ORDER BY/);
    // A deep page of the many: walking to it would read more rows than sorting the matches.
    const deep = page('alert.level[gte]1', '8');
    expect(deep.plan.join('\n')).toMatch(/USE TEMP B-TREE FOR ORDER BY/);
  });

  it('a text pattern too short for trigrams falls back to reading the rows', () => {
    const p = plans({ filter: 'labelReference[ilike]%12%', order: 'created[desc]' });
    expect(p.total).toBeGreaterThan(0);
    expect([...p.countPlan, ...p.pagePlan].join('\n'), p.text).not.toMatch(/report_text/);
  });

  it.each([
    ['a reference', `labelReference[eq]PO-${String((1234 * 37) % 100_000).padStart(5, '0')}`, 'listing_reference', 1],
    ['a label uid', `label.uid[eq]04:${(1234 * 7919).toString(16).padStart(12, '0')}`, 'listing_label_uid', 1],
    ['a sequence code', 'label.sequenceCode[eq]LBL-0001234', 'listing_sequence_code', 1],
    ['a label name', 'label.name[eq]Label 1234', 'listing_label_name', 1],
    ['a reference no report has', 'labelReference[eq]PO-none', 'listing_reference', 0],
    ['a rare datapoint count', 'calculatedSenseData.numberOfDatapointsRead[gt]20', 'listing_datapoints_read', 0],
    ['datapoints available', 'calculatedSenseData.numberOfDatapointsAvailable[gte]1000', 'listing_datapoints_available', 0],
    ['measurements occurred', 'calculatedSenseData.numberOfMeasurementsOccurred[gte]1000', 'listing_measurements_occurred', 0],
    ['humidity violations', 'calculatedSenseData.numberOfViolations.humidity[gte]1', 'listing_violations_humidity', 0],
    ['humidity violation time', 'calculatedSenseData.durationOfViolations.humidity[gte]600', 'listing_violation_duration_humidity', 0],
  ])('%s, newest first: starts from its rare-value index, never walks the created index', (_name, filter, index, total) => {
    const p = plans({ filter, order: 'created[desc]' });
    expect(p.total).toBe(total);
    expect(readsThrough(p.countPlan, index), p.text).toBe(true);
    expect(readsThrough(p.pagePlan, index), p.text).toBe(true);
  });

  it('a datapoint count every report holds: the page walks the created order and stops, nothing sorted; the count reads the key index', () => {
    const p = plans({ filter: 'calculatedSenseData.numberOfDatapointsRead[gte]20', order: 'created[desc]' });
    expect(p.total).toBe(REPORTS);
    expect(readsThrough(p.pagePlan, 'listing_created'), p.text).toBe(true);
    expect(p.pagePlan.join('\n'), p.text).not.toMatch(SORTS);
    expect(readsThrough(p.countPlan, 'listing_datapoints_read'), p.text).toBe(true);
  });

  it.each([
    ['newest first', { order: 'created[desc]' }, 'listing_created'],
    ['the browser, archived hidden', browser(), 'listing_archived'],
  ])('a custom field condition most reports meet, %s: the page walks the order and tests each report, the count collects from the element index', (_name, query, index) => {
    const p = plans({ ...query, customFields: 'batch[gte]B-2' });
    expect(p.total).toBeGreaterThan(REPORTS / 4);
    expect(readsThrough(p.pagePlan, index), p.text).toBe(true);
    expect(p.pagePlan.join('\n'), p.text).not.toMatch(SORTS);
    expect(p.pagePlan.join('\n'), p.text).toContain('SEARCH e USING PRIMARY KEY (rk=? AND field=?)');
    expect(p.countPlan.join('\n'), p.text).toContain('SEARCH e USING COVERING INDEX custom_field_elements_text (field=? AND text>?)');
  });

  it.each([
    ['custom field equality', 'batch[eq]B-42', 'custom_field_elements_text (field=? AND text=?)'],
    ['a custom number range', 'pallets[gte]38', 'custom_field_elements_num (field=? AND num>?)'],
  ])('%s: a search of the element index', (_name, customFields, search) => {
    const p = plans({ customFields, order: 'created[desc]' });
    expect(p.total).toBeGreaterThan(0);
    for (const lines of [p.countPlan, p.pagePlan]) {
      expect(lines.join('\n'), p.text).toContain(`SEARCH e USING COVERING INDEX ${search}`);
      expect(lines.join('\n'), p.text).not.toMatch(/json_each/);
    }
  });
});
