/**
 * SQL of the insights: the list's matches (the same compiled filter over the company's listing
 * rows, so the same reports) counted and summed per value of a key, per custom field value or per
 * time bucket, and the company's current decisions from the review entries. Everything is read
 * from the tables the one write path keeps in step, in the caller's read transaction: the only
 * figures kept are the counts listing_counts holds, which the writes keep exact in their own
 * transaction, so none can be stale.
 */
import type { Statement } from 'better-sqlite3';
import type { Db } from './database';
import { currentDecisionsCte } from './review-state';
import type { SqlFilter } from './report-store';

/** Where a group's key comes from. */
export type StoreGrouping =
  | { kind: 'column'; key: ColumnKey }
  | { kind: 'customField'; field: string }
  | {
      kind: 'time';
      field: 'created' | 'startTime';
      unit: 'day' | 'week' | 'month';
      /** The zone's offsets, in order; `until` in ms, exclusive, null on the last. */
      segments: readonly { until: number | null; offsetSeconds: number }[];
    }
  /** One group of every match. */
  | { kind: 'all' }
  /** Group i: the rows meeting `cases[i]` (compiled list conditions over l, disjoint); key null: none of them. */
  | { kind: 'cases'; cases: readonly { where: string; params: readonly unknown[] }[] };

export type ColumnKey = 'status' | 'alert.level' | 'mode' | 'type' | 'company.id' | 'hasFlag' | 'isArchived';

const COLUMNS: Record<ColumnKey, string> = {
  status: 'l.status',
  'alert.level': 'l.alert_level',
  mode: 'l.mode',
  type: 'l.type',
  // The owner's integer key; its id is looked up once per group (companyIds).
  'company.id': 'l.owner_ck',
  hasFlag: 'l.has_flag',
  isArchived: 'l.is_archived',
};

export interface GroupFigures {
  /** The column's value, the custom field's value as its condition text, the bucket's local start; null for a custom field's absence. */
  key: string | number | null;
  count: number;
  reportsWithExcursions: number;
  excursions: number;
  secondsOutOfRange: number;
  degreeHours: number;
  mktMean: number | null;
  mktMax: number | null;
  /** Reports per alert level. */
  alertLevels: Map<number, number>;
}

export interface DecisionCount {
  key: string | number | null;
  decision: string;
  count: number;
}

const LEVELS = [-1, 0, 1, 2];

const FIGURES = `count(*) AS count,
  coalesce(sum(l.calc_violations_all > 0), 0) AS reports_with_excursions,
  total(l.calc_violations_all) AS excursions,
  total(l.calc_violation_duration_all) AS seconds_out,
  total(l.calc_degree_hour) AS degree_hours,
  avg(l.calc_mean_kinetic_temperature) AS mkt_mean,
  max(l.calc_mean_kinetic_temperature) AS mkt_max,
  ${LEVELS.map((level, i) => `coalesce(sum(l.alert_level = ${level}), 0) AS level_${i}`).join(',\n  ')}`;

const COMPANY_ROWS = 'l.ck = (SELECT k.ck FROM company_keys k WHERE k.company_id = ?)';

/**
 * Each report and custom field value it matches with eq, the value as the condition text that
 * picks it (`customFields=<field>[eq]<key>`): texts as they are, numbers as JavaScript writes
 * them, and a text written as a number another way (`10.0`) also with the reports holding that
 * number, as eq compares numbers numerically. Four parameters: the field.
 */
const CUSTOM_FIELD_PAIRS = `p(rk, key) AS (
  SELECT e.rk, e.text FROM custom_field_elements e WHERE e.field = ? AND e.text IS NOT NULL
  UNION
  SELECT e.rk, insights_number_text(e.num) FROM custom_field_elements e WHERE e.field = ? AND e.num IS NOT NULL
  UNION
  SELECT e.rk, a.text
    FROM (SELECT DISTINCT t.text, insights_numeric_alias(t.text) AS n FROM custom_field_elements t WHERE t.field = ? AND t.text IS NOT NULL) a
    JOIN custom_field_elements e ON e.field = ? AND e.num = a.n
   WHERE a.n IS NOT NULL)`;

/** The company's current decision of each report it decided (db/review-state.ts). One parameter: the company. */
const DECISIONS = currentDecisionsCte('d');

const STRICT_NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

export class InsightsStore {
  private readonly cache = new Map<string, Statement>();
  private hasKeptCounts = false;

  constructor(private readonly db: Db) {
    db.function('insights_number_text', { deterministic: true }, (n: unknown) => (typeof n === 'number' || typeof n === 'bigint' ? String(n) : null));
    // A text that reads as a number but is not how that number is written: eq on it also picks the number.
    db.function('insights_numeric_alias', { deterministic: true }, (text: unknown) => {
      if (typeof text !== 'string' || !STRICT_NUMBER.test(text)) return null;
      const n = Number(text);
      return Number.isFinite(n) && String(n) !== text ? n : null;
    });
  }

  /** The earliest and latest created (ms) or start time (epoch s, as ms) of the company's reports; null when it sees none. */
  timeRange(companyId: string, field: 'created' | 'startTime'): { min: number; max: number } | null {
    const column = field === 'created' ? 'l.created' : 'l.calc_start_time';
    const row = this.statement(`SELECT min(${column}) AS lo, max(${column}) AS hi FROM report_listing l WHERE ${COMPANY_ROWS}`).get(companyId) as {
      lo: string | number | null;
      hi: string | number | null;
    };
    if (row.lo === null || row.hi === null) return null;
    const ms = (v: string | number) => (typeof v === 'string' ? Date.parse(v) : v * 1000);
    return { min: ms(row.lo), max: ms(row.hi) };
  }

  /** The figures of each group of the filter's matches; a custom field also answers the group of reports without it (key null). */
  figures(companyId: string, filter: SqlFilter, grouping: StoreGrouping): GroupFigures[] {
    const parts = this.grouped(companyId, filter, grouping, FIGURES, '');
    const rows: Record<string, unknown>[] = parts.flatMap(({ sql, params }) => this.statement(sql).all(...params) as Record<string, unknown>[]);
    return rows
      .filter((row) => (row.count as number) > 0)
      .map((row) => ({
        key: row.key as string | number | null,
        count: row.count as number,
        reportsWithExcursions: row.reports_with_excursions as number,
        excursions: Math.round(row.excursions as number),
        secondsOutOfRange: row.seconds_out as number,
        degreeHours: row.degree_hours as number,
        mktMean: row.mkt_mean as number | null,
        mktMax: row.mkt_max as number | null,
        alertLevels: new Map(LEVELS.map((level, i) => [level, row[`level_${i}`] as number])),
      }));
  }

  /**
   * How many reports each group holds; as `figures`, without the sums. Grouped by a column the
   * kept counts split by, under a filter they split by too, the counts are summed from
   * listing_counts (a few rows per company) instead of read from every match.
   */
  counts(companyId: string, filter: SqlFilter, grouping: StoreGrouping): { key: string | number | null; count: number }[] {
    if ((grouping.kind === 'column' || grouping.kind === 'all') && this.readsKeptCounts(filter)) {
      const key = grouping.kind === 'column' ? COLUMNS[grouping.key] : 'NULL';
      return (
        this.statement(
          `SELECT ${key} AS key, sum(l.n) AS count FROM listing_counts l WHERE ${COMPANY_ROWS} AND (${filter.where})${key === 'NULL' ? '' : ` GROUP BY ${key}`}`,
        ).all(companyId, ...filter.params) as { key: string | number | null; count: number | null }[]
      ).flatMap((row) => (row.count ? [{ key: row.key, count: row.count }] : []));
    }
    const parts = this.grouped(companyId, filter, grouping, 'count(*) AS count', '');
    return parts
      .flatMap(({ sql, params }) => this.statement(sql).all(...params) as { key: string | number | null; count: number }[])
      .filter((row) => row.count > 0);
  }

  /**
   * How many of the filter's matches hold each value of a custom field, as the list's eq picks
   * them, and how many hold none. Texts and numbers are each counted from their own index; only
   * where one condition text picks both (the text `10` and the number 10, or `10.0`) is a report
   * that holds both counted once by the slower exact grouping. `total`: the filter's matches.
   */
  customFieldCounts(companyId: string, filter: SqlFilter, field: string, total: number): { key: string | null; count: number }[] {
    const part = (index: string, column: string, value: string) =>
      this.statement(
        `SELECT ${value} AS key, count(DISTINCT e.rk) AS count
           FROM custom_field_elements e INDEXED BY ${index} JOIN report_listing l ON l.rk = e.rk
          WHERE e.field = ? AND e.${column} IS NOT NULL AND ${COMPANY_ROWS} AND (${filter.where})
          GROUP BY e.${column}`,
      ).all(field, companyId, ...filter.params) as { key: string; count: number }[];
    const texts = part('custom_field_elements_text', 'text', 'e.text');
    const numbers = part('custom_field_elements_num', 'num', 'insights_number_text(e.num)');
    const textKeys = new Set(texts.map((t) => t.key));
    const overlap = numbers.some((n) => textKeys.has(n.key)) || texts.some((t) => STRICT_NUMBER.test(t.key) && String(Number(t.key)) !== t.key);
    if (overlap) return this.counts(companyId, filter, { kind: 'customField', field }) as { key: string | null; count: number }[];
    const holding = this.statement(
      `SELECT count(*) AS n FROM report_listing l WHERE ${COMPANY_ROWS} AND (${filter.where})
          AND EXISTS (SELECT 1 FROM custom_field_elements e WHERE e.rk = l.rk AND e.field = ? AND (e.text IS NOT NULL OR e.num IS NOT NULL))`,
    ).get(companyId, ...filter.params, field) as { n: number };
    const missing = total - holding.n;
    return [...texts, ...numbers, ...(missing > 0 ? [{ key: null, count: missing }] : [])];
  }

  /** How many reports of each group are counted under each current decision; undecided ones are not listed. */
  decisions(companyId: string, filter: SqlFilter, grouping: StoreGrouping): DecisionCount[] {
    const parts = this.grouped(companyId, filter, grouping, 'd.decision AS decision, count(*) AS count', 'd');
    return parts.flatMap(({ sql, params }) => this.statement(sql).all(...params) as DecisionCount[]);
  }

  /** Id and name of each owner key a company.id group names. */
  companies(ownerKeys: readonly number[]): Map<number, { id: string; name: string }> {
    if (ownerKeys.length === 0) return new Map();
    const rows = this.statement(
      `SELECT k.ck, k.company_id AS id, coalesce(c.name, k.company_id) AS name
         FROM company_keys k LEFT JOIN companies c ON c.id = k.company_id
        WHERE k.ck IN (SELECT value FROM json_each(?))`,
    ).all(JSON.stringify(ownerKeys)) as { ck: number; id: string; name: string }[];
    return new Map(rows.map((r) => [r.ck, { id: r.id, name: r.name }]));
  }

  /**
   * The statements that answer `select` per group. With `decided` ('d'), only the rows of
   * decided reports, grouped by their decision as well.
   */
  private grouped(companyId: string, filter: SqlFilter, grouping: StoreGrouping, select: string, decided: '' | 'd'): { sql: string; params: unknown[] }[] {
    const ctes: string[] = [];
    const cteParams: unknown[] = [];
    if (decided) {
      ctes.push(DECISIONS);
      cteParams.push(companyId);
    }
    const from = (join: string) => (decided ? `d JOIN report_listing l ON l.rk = d.rk ${join}` : `report_listing l ${join}`);
    // `+`: the rows are read in the company's primary key range and sorted, not in a per-key
    // index's order with every row looked up from it (three times slower at 100 000 rows).
    // Counts alone are read from the key's index, in its order, without the rows.
    const plus = select === FIGURES ? '+' : '';
    const groupBy = (key: string) => (decided ? `GROUP BY ${key}, d.decision` : key === 'NULL' ? '' : `GROUP BY ${plus}${key}`);
    const where = `WHERE ${COMPANY_ROWS} AND (${filter.where})`;
    const withClause = () => (ctes.length > 0 ? `WITH ${ctes.join(', ')} ` : '');

    switch (grouping.kind) {
      case 'all':
        return [{ sql: `${withClause()}SELECT NULL AS key, ${select} FROM ${from('')} ${where} ${groupBy('NULL')}`, params: [...cteParams, companyId, ...filter.params] }];
      case 'cases': {
        const key = `CASE ${grouping.cases.map((c, i) => `WHEN (${c.where}) THEN ${i}`).join(' ')} END`;
        const params = grouping.cases.flatMap((c) => c.params);
        return [{ sql: `${withClause()}SELECT ${key} AS key, ${select} FROM ${from('')} ${where} ${groupBy('1')}`, params: [...cteParams, ...params, companyId, ...filter.params] }];
      }
      case 'column': {
        const key = COLUMNS[grouping.key];
        return [{ sql: `${withClause()}SELECT ${key} AS key, ${select} FROM ${from('')} ${where} ${groupBy(key)}`, params: [...cteParams, companyId, ...filter.params] }];
      }
      case 'time': {
        const { key, params: keyParams } = timeKey(grouping);
        return [
          {
            sql: `${withClause()}SELECT ${key} AS key, ${select} FROM ${from('')} ${where} ${groupBy('1')}`,
            params: [...cteParams, ...keyParams, companyId, ...filter.params],
          },
        ];
      }
      case 'customField': {
        const field = grouping.field;
        const withValues = {
          sql: `WITH ${[...ctes, CUSTOM_FIELD_PAIRS].join(', ')} SELECT p.key AS key, ${select} FROM ${
            decided ? 'd JOIN report_listing l ON l.rk = d.rk JOIN p ON p.rk = l.rk' : 'p JOIN report_listing l ON l.rk = p.rk'
          } ${where} ${groupBy('p.key')}`,
          params: [...cteParams, field, field, field, field, companyId, ...filter.params],
        };
        const without = {
          sql: `${withClause()}SELECT NULL AS key, ${select} FROM ${from('')} ${where}
                  AND NOT EXISTS (SELECT 1 FROM custom_field_elements e WHERE e.rk = l.rk AND e.field = ? AND (e.text IS NOT NULL OR e.num IS NOT NULL))
                ${decided ? 'GROUP BY d.decision' : ''}`,
          params: [...cteParams, companyId, ...filter.params, field],
        };
        return [withValues, without];
      }
    }
  }

  /** As ReportStore.readsKeptCounts: the filter is one the kept counts split by, and they exist. */
  private readsKeptCounts(filter: SqlFilter): boolean {
    if (filter.counted === undefined || filter.counted !== filter.where) return false;
    this.hasKeptCounts ||= this.statement(`SELECT 1 FROM sqlite_schema WHERE name = 'listing_counts'`).get() !== undefined;
    return this.hasKeptCounts;
  }

  /** Filters compile to a bounded set of SQL texts, so caching their statements is safe. */
  private statement(sql: string): Statement {
    let stmt = this.cache.get(sql);
    if (!stmt) {
      if (this.cache.size > 500) this.cache.clear();
      stmt = this.db.prepare(sql);
      this.cache.set(sql, stmt);
    }
    return stmt;
  }
}

/**
 * The local start of the bucket each report falls in: its instant moved by the zone's offset at
 * that instant (one CASE branch per offset the zone had), then cut to the day, the Monday on or
 * before it, or the month. Offsets and bounds are parameters, so the text depends only on how
 * many offsets there were.
 */
function timeKey(grouping: Extract<StoreGrouping, { kind: 'time' }>): { key: string; params: unknown[] } {
  const created = grouping.field === 'created';
  const column = created ? 'l.created' : 'l.calc_start_time';
  const params: unknown[] = [];
  const cut = () => {
    const moved = created ? `${column}, ?` : `${column}, 'unixepoch', ?`;
    switch (grouping.unit) {
      case 'day':
        return `date(${moved})`;
      case 'week':
        return `date(${moved}, '-6 days', 'weekday 1')`;
      case 'month':
        return `strftime('%Y-%m', ${moved})`;
    }
  };
  const modifier = (offsetSeconds: number) => `${offsetSeconds >= 0 ? '+' : ''}${offsetSeconds} seconds`;
  const segments = grouping.segments;
  if (segments.length === 1) {
    params.push(modifier(segments[0].offsetSeconds));
    return { key: cut(), params };
  }
  const branches = segments.map((segment) => {
    if (segment.until === null) {
      const expr = cut();
      params.push(modifier(segment.offsetSeconds));
      return `ELSE ${expr}`;
    }
    params.push(created ? new Date(segment.until).toISOString() : segment.until / 1000);
    const expr = cut();
    params.push(modifier(segment.offsetSeconds));
    return `WHEN ${column} < ? THEN ${expr}`;
  });
  return { key: `CASE ${branches.join(' ')} END`, params };
}
