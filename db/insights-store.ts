/**
 * SQL of the insights: the list's matches (the same compiled filter over the company's listing
 * rows, so the same reports) counted and summed per value of a key, per custom field value or per
 * time bucket, and the company's current decisions from the review entries. Everything is read
 * from the tables the one write path keeps in step, in the caller's read transaction: the kept
 * counts (listing_counts per combination of the fixed keys, custom_field_counts and
 * custom_field_totals per custom field value, custom_field_pair_counts per pair of values) and
 * group figures (migration 022), which the writes keep exact in their own transaction, so none
 * can be stale; what they cannot answer is read from the matches.
 */
import type { Statement } from 'better-sqlite3';
import type { Db } from './database';
import { currentDecision, currentDecisionsCte } from './review-state';
import type { SqlFilter } from './report-store';
import { columnsTested, keptFieldRows, keptPairRows, type FieldCountsAccess } from './field-counts';
import { CUSTOM_FIELD_TOTALS_SPLIT, DECISIONS as KEPT_DECISIONS, keptRowHours, LEVELS as KEPT_LEVELS, NONE, TIME_SPLIT, TIME_TOTALS_SPLIT, UNKEYED } from './read-model';

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
  /**
   * Group i: the rows meeting `cases[i]` (compiled list conditions over l, disjoint); key null:
   * none of them. `bin`: the kept figures' column (migration 022) that holds the same i, -1 for none.
   */
  | { kind: 'cases'; cases: readonly { where: string; params: readonly unknown[] }[]; bin?: 'bin_seconds' | 'bin_degree_hours' | 'bin_mkt' };

export type ColumnKey = 'status' | 'alert.level' | 'mode' | 'type' | 'company.id' | 'hasFlag' | 'isArchived';

/** A kept row of custom_field_counts or custom_field_totals summed per value: a text, a number, or the blob of holding the field. */
type KeptValueRow = { value: string | number | Buffer; count: number };

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
/** The kept figures' column (migration 022) of each level in LEVELS. */
const keptLevelColumn = (level: number) => KEPT_LEVELS.find(([, kept]) => kept === level)![0];

interface Sums {
  count: number;
  withExcursions: number;
  excursions: number;
  secondsOut: number;
  degreeHours: number;
  mktSum: number;
  mktN: number;
  mktMax: number | null;
  levels: Map<number, number>;
}

const emptySums = (): Sums => ({ count: 0, withExcursions: 0, excursions: 0, secondsOut: 0, degreeHours: 0, mktSum: 0, mktN: 0, mktMax: null, levels: new Map() });

/** Adds a row of sums (SUMS and the MKT's sum, count and maximum) over `count` reports; the levels are the caller's. */
function addSums(s: Sums, row: Record<string, unknown>, count: number): void {
  s.count += count;
  s.withExcursions += row.reports_with_excursions as number;
  s.excursions += row.excursions as number;
  s.secondsOut += row.seconds_out as number;
  s.degreeHours += row.degree_hours as number;
  s.mktSum += row.mkt_sum as number;
  s.mktN += row.mkt_n as number;
  const max = row.mkt_max as number | null;
  if (max !== null && (s.mktMax === null || max > s.mktMax)) s.mktMax = max;
}

function figuresOf(key: string | number | null, s: Sums): GroupFigures {
  return {
    key,
    count: s.count,
    reportsWithExcursions: s.withExcursions,
    excursions: Math.round(s.excursions),
    secondsOutOfRange: s.secondsOut,
    degreeHours: s.degreeHours,
    mktMean: s.mktN === 0 ? null : s.mktSum / s.mktN,
    mktMax: s.mktMax,
    alertLevels: new Map(LEVELS.map((level) => [level, s.levels.get(level) ?? 0])),
  };
}

/** The figures every group sums, whichever way its MKT is then summarised. */
const SUMS = `count(*) AS count,
  coalesce(sum(l.calc_violations_all > 0), 0) AS reports_with_excursions,
  total(l.calc_violations_all) AS excursions,
  total(l.calc_violation_duration_all) AS seconds_out,
  total(l.calc_degree_hour) AS degree_hours`;

const FIGURES = `${SUMS},
  avg(l.calc_mean_kinetic_temperature) AS mkt_mean,
  max(l.calc_mean_kinetic_temperature) AS mkt_max,
  ${LEVELS.map((level, i) => `coalesce(sum(l.alert_level = ${level}), 0) AS level_${i}`).join(',\n  ')}`;

const COMPANY_ROWS = 'l.ck = (SELECT k.ck FROM company_keys k WHERE k.company_id = ?)';

/** The kept figures (migration 022) of the rows under the filter, summed per key. */
const KEPT_SUMS = `sum(l.n) AS count,
  sum(l.with_excursions) AS reports_with_excursions,
  total(l.excursions) AS excursions,
  total(l.seconds_out) AS seconds_out,
  total(l.degree_hours) AS degree_hours,
  total(l.mkt_sum) AS mkt_sum,
  sum(l.mkt_n) AS mkt_n,
  max(l.mkt_max) AS mkt_max,
  ${LEVELS.map((level, i) => `sum(l.${keptLevelColumn(level)}) AS level_${i}`).join(',\n  ')},
  ${KEPT_DECISIONS.map(([column]) => `sum(l.${column}) AS ${column}`).join(',\n  ')}`;

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

/**
 * The report `l` holds no value of the custom field that a condition could pick (no text, no
 * number): the group `null` of a custom field, and `unset=customFields.<field>`.
 */
export function customFieldUnset(field: string): { sql: string; params: unknown[] } {
  return { sql: CUSTOM_FIELD_UNSET, params: [field] };
}
const CUSTOM_FIELD_UNSET = 'NOT EXISTS (SELECT 1 FROM custom_field_elements e WHERE e.rk = l.rk AND e.field = ? AND (e.text IS NOT NULL OR e.num IS NOT NULL))';

/** The company's current decision of each report it decided (db/review-state.ts). One parameter: the company. */
const DECISIONS = currentDecisionsCte('d');

const STRICT_NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

export class InsightsStore {
  private readonly cache = new Map<string, Statement>();
  private hasKeptCounts = false;
  private readonly keptTables = new Set<string>();

  /** The time cuts the statements name by their place; reset only between statements. */
  private readonly cuts: TimeCut[] = [];

  constructor(private readonly db: Db) {
    db.function('insights_time_key', { deterministic: true }, (value: unknown, at: unknown) => {
      const ms = typeof value === 'string' ? Date.parse(value) : typeof value === 'number' ? value * 1000 : NaN;
      return Number.isFinite(ms) ? bucketNumber(this.cuts[at as number], ms) : null;
    });
    db.aggregate('insights_sums', {
      varargs: true,
      start: null,
      step: (_: unknown, ...args: unknown[]) => {
        if (!this.summing) throw new Error('insights_sums is read by summedMatches only');
        this.summing(args);
      },
    });
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
    // Each end from the column's index, as min() and max() order values; the two aggregates at
    // once read every row of the company (60 ms at 100 000 reports).
    const end = (direction: 'ASC' | 'DESC') =>
      `(SELECT ${column} FROM report_listing l WHERE ${COMPANY_ROWS} AND ${column} IS NOT NULL ORDER BY ${column} ${direction} LIMIT 1)`;
    const row = this.statement(`SELECT ${end('ASC')} AS lo, ${end('DESC')} AS hi`).get(companyId, companyId) as {
      lo: string | number | null;
      hi: string | number | null;
    };
    if (row.lo === null || row.hi === null) return null;
    const ms = (v: string | number) => (typeof v === 'string' ? Date.parse(v) : v * 1000);
    return { min: ms(row.lo), max: ms(row.hi) };
  }

  /** The figures of each group of the filter's matches; a custom field also answers the group of reports without it (key null). */
  figures(companyId: string, filter: SqlFilter, grouping: StoreGrouping): GroupFigures[] {
    // A custom field's (report, value) pairs are grouped by SQLite: summed here they cost more.
    if (grouping.kind !== 'customField') return this.summedMatches(companyId, filter, [grouping], false)[0].figures;
    const parts = this.grouped(companyId, filter, grouping, FIGURES, '');
    const rows: Record<string, unknown>[] = parts.flatMap(({ sql, params }) => this.statement(sql).all(...params) as Record<string, unknown>[]);
    return rows
      .filter((row) => (row.count as number) > 0)
      .map((row) => ({
        key: keyOf(grouping, row.key as string | number | null),
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
   * How many matches hold each value of each of `keys`, as `counts` gives them key by key. From
   * listing_counts when the filter is one they split by; otherwise from one read of the matches
   * grouped by all the keys at once, summed per key here: a review or custom field condition is
   * then tested once per match instead of once per match and key.
   */
  columnCounts(companyId: string, filter: SqlFilter, keys: readonly ColumnKey[]): Map<ColumnKey, { key: string | number | null; count: number }[]> {
    if (keys.length === 0) return new Map();
    // A filter of the kept keys and one comparison of a custom field: its kept value rows, summed.
    const byField = this.readsKeptCounts(filter) ? undefined : keptFieldRows(this.fieldCounts, companyId, filter);
    if (!byField && (keys.length < 2 || this.readsKeptCounts(filter))) return new Map(keys.map((key) => [key, this.counts(companyId, filter, { kind: 'column', key })]));
    const columns = keys.map((key) => COLUMNS[key]);
    const rows = (
      byField
        ? this.statement(`SELECT ${columns.join(', ')}, sum(l.n) ${byField.from} GROUP BY ${columns.join(', ')}`).raw(true).all(...byField.params)
        : this.statement(`SELECT ${columns.join(', ')}, count(*) FROM report_listing l WHERE ${COMPANY_ROWS} AND (${filter.where}) GROUP BY ${columns.join(', ')}`)
            .raw(true)
            .all(companyId, ...filter.params)
    ) as [...(string | number | null)[]][];
    return new Map(
      keys.map((key, i) => {
        const sums = new Map<string | number | null, number>();
        for (const row of rows) sums.set(row[i], (sums.get(row[i]) ?? 0) + (row[keys.length] as number));
        return [key, [...sums].map(([value, count]) => ({ key: value, count }))];
      }),
    );
  }

  /**
   * How many of the filter's matches hold each value of a custom field, as the list's eq picks
   * them, and how many hold none. Texts and numbers are counted apart; only where one condition
   * text picks both (the text `10` and the number 10, or `10.0`) is a report that holds both
   * counted once by the slower exact grouping. `total`: the filter's matches.
   */
  customFieldCounts(companyId: string, filter: SqlFilter, field: string, total: number): { key: string | null; count: number }[] {
    if (this.readsKeptCounts(filter) && this.hasKept('custom_field_counts')) return this.keptCustomFieldCounts(companyId, filter, field, total);
    // The field the filter compares, each report holding one value of it: its kept value rows.
    const byField = filter.countedByField?.field === field ? keptFieldRows(this.fieldCounts, companyId, filter) : undefined;
    if (byField) {
      const rows = this.statement(`SELECT l.value AS value, sum(l.n) AS count ${byField.from} GROUP BY l.value`).all(...byField.params) as KeptValueRow[];
      // Every match holds one of these values, and one only: the holding rows are their sum.
      const holding: KeptValueRow = { value: Buffer.alloc(0), count: rows.reduce((sum, row) => sum + row.count, 0) };
      return this.keptValues(companyId, filter, field, [...rows, holding], total);
    }
    // Another field under the comparison of one: the kept pairs of the compared values.
    const pairs = keptPairRows(this.fieldCounts, companyId, filter, field);
    if (pairs) {
      const rows = this.statement(`SELECT l.other_value AS value, sum(l.n) AS count ${pairs.from} GROUP BY l.other_value`).all(...pairs.params) as KeptValueRow[];
      return this.keptValues(companyId, filter, field, rows, total);
    }
    // The matches' elements of the field read once (a review or custom field condition tested
    // once per match, not once per statement), then counted per text, per number and in all.
    const rows = this.statement(
      `WITH m AS MATERIALIZED (
         SELECT e.rk, e.text, e.num FROM custom_field_elements e JOIN report_listing l ON l.rk = e.rk
          WHERE e.field = ? AND (e.text IS NOT NULL OR e.num IS NOT NULL) AND ${COMPANY_ROWS} AND (${filter.where}))
       SELECT 'text' AS part, text AS key, count(DISTINCT rk) AS count FROM m WHERE text IS NOT NULL GROUP BY text
       UNION ALL SELECT 'number', insights_number_text(num), count(DISTINCT rk) FROM m WHERE num IS NOT NULL GROUP BY num
       UNION ALL SELECT 'holding', NULL, count(DISTINCT rk) FROM m`,
    ).all(field, companyId, ...filter.params) as { part: 'text' | 'number' | 'holding'; key: string; count: number }[];
    const values = (part: 'text' | 'number') => rows.filter((r) => r.part === part).map(({ key, count }) => ({ key, count }));
    const holding = rows.find((r) => r.part === 'holding')!.count;
    return this.fieldValues(companyId, filter, field, values('text'), values('number'), total - holding);
  }

  /** The field's texts and numbers and the reports holding neither; the exact grouping where one condition text picks both a text and a number. */
  private fieldValues(
    companyId: string,
    filter: SqlFilter,
    field: string,
    texts: { key: string; count: number }[],
    numbers: { key: string; count: number }[],
    missing: number,
  ): { key: string | null; count: number }[] {
    const textKeys = new Set(texts.map((t) => t.key));
    const overlap = numbers.some((n) => textKeys.has(n.key)) || texts.some((t) => STRICT_NUMBER.test(t.key) && String(Number(t.key)) !== t.key);
    if (overlap) return this.counts(companyId, filter, { kind: 'customField', field }) as { key: string | null; count: number }[];
    return [...texts, ...numbers, ...(missing > 0 ? [{ key: null, count: missing }] : [])];
  }

  /**
   * customFieldCounts from custom_field_counts or custom_field_totals (migration 019): the kept
   * rows of the field under the filter summed per value, a few per value and combination of the
   * split columns, instead of every match holding the field. The same answer, its one exception
   * included: where one condition text picks both a text and a number, the exact grouping counts
   * the reports once.
   */
  private keptCustomFieldCounts(companyId: string, filter: SqlFilter, field: string, total: number): { key: string | null; count: number }[] {
    // The coarse counts when the filter tests none of the columns only the fine ones split by.
    const table = columnsTested(filter.where).every((column) => CUSTOM_FIELD_TOTALS_SPLIT.includes(column)) && this.hasKept('custom_field_totals')
      ? 'custom_field_totals'
      : 'custom_field_counts';
    const rows = this.statement(
      `SELECT l.value AS value, sum(l.n) AS count FROM ${table} l
        WHERE ${COMPANY_ROWS} AND l.field = ? AND (${filter.where}) GROUP BY l.value`,
    ).all(companyId, field, ...filter.params) as KeptValueRow[];
    return this.keptValues(companyId, filter, field, rows, total);
  }

  /** Kept rows of a field's values (and of holding it, a blob) as the field's facet. */
  private keptValues(companyId: string, filter: SqlFilter, field: string, rows: KeptValueRow[], total: number): { key: string | null; count: number }[] {
    let holding = 0;
    const texts: { key: string; count: number }[] = [];
    const numbers: { key: string; count: number }[] = [];
    for (const row of rows) {
      if (Buffer.isBuffer(row.value)) holding += row.count;
      else if (typeof row.value === 'string') texts.push({ key: row.value, count: row.count });
      else numbers.push({ key: String(row.value), count: row.count });
    }
    return this.fieldValues(companyId, filter, field, texts, numbers, total - holding);
  }

  /**
   * `figures` and `decisions` of several groupings of the same matches in one read of them, each
   * match summed into its group of every grouping as it is read. Each grouping gives one key per
   * report, so a custom field (a report may hold several values) is not one of them.
   */
  figuresAtOnce(companyId: string, filter: SqlFilter, groupings: readonly Exclude<StoreGrouping, { kind: 'customField' }>[]): { figures: GroupFigures[]; decisions: DecisionCount[] }[] {
    return this.summedMatches(companyId, filter, groupings, true);
  }

  /**
   * One read of the matches, each summed into its group of every grouping as it is read (the
   * aggregate `insights_sums`). A GROUP BY sorted every match by its keys first: at a million
   * reports, the 420 000 matches of a custom field comparison took 0.88 s, summed as they come
   * 0.61 s. A time grouping reads the column itself and the bucket is found here, so
   * each match costs one call. With `decided`, the company's current decision of each match is
   * probed (review_current's primary key) and counted per group.
   */
  private summedMatches(
    companyId: string,
    filter: SqlFilter,
    groupings: readonly Exclude<StoreGrouping, { kind: 'customField' }>[],
    decided: boolean,
  ): { figures: GroupFigures[]; decisions: DecisionCount[] }[] {
    const keys: string[] = [];
    const keyParams: unknown[] = [];
    const bucketOf: ((value: unknown) => string | number | null)[] = [];
    for (const grouping of groupings) {
      switch (grouping.kind) {
        case 'all':
          keys.push('NULL');
          bucketOf.push(() => null);
          break;
        case 'column':
          keys.push(COLUMNS[grouping.key]);
          bucketOf.push((value) => value as string | number | null);
          break;
        case 'cases':
          keys.push(`CASE ${grouping.cases.map((c, i) => `WHEN (${c.where}) THEN ${i}`).join(' ')} END`);
          keyParams.push(...grouping.cases.flatMap((c) => c.params));
          bucketOf.push((value) => value as number | null);
          break;
        case 'time': {
          const cut: TimeCut = { unit: grouping.unit, segments: grouping.segments };
          keys.push(grouping.field === 'created' ? 'l.created' : 'l.calc_start_time');
          // The bucket of each local day, found once: a month's is a Date's work.
          const ofDay = new Map<number, number>();
          bucketOf.push((value) => {
            const ms = typeof value === 'string' ? Date.parse(value) : typeof value === 'number' ? value * 1000 : NaN;
            if (!Number.isFinite(ms)) return null;
            const day = localDay(cut, ms);
            let bucket = ofDay.get(day);
            if (bucket === undefined) ofDay.set(day, (bucket = dayBucket(cut.unit, day)));
            return bucket;
          });
          break;
        }
      }
    }
    const decisionColumn = decided ? currentDecision('l.id', companyId) : { sql: 'NULL', params: [] };
    const groups = groupings.map(() => new Map<string | number | null, Sums & { decided: Map<string, number> }>());
    this.summing = (args) => {
      const n = groupings.length;
      const level = args[n] as number;
      const decision = args[n + 1] as string | null;
      const violations = args[n + 2] as number | null;
      const seconds = args[n + 3] as number | null;
      const degreeHours = args[n + 4] as number | null;
      const mkt = args[n + 5] as number | null;
      for (let i = 0; i < n; i++) {
        const key = bucketOf[i](args[i]);
        let s = groups[i].get(key);
        if (!s) groups[i].set(key, (s = { ...emptySums(), decided: new Map() }));
        s.count++;
        if (violations !== null) {
          if (violations > 0) s.withExcursions++;
          s.excursions += violations;
        }
        if (seconds !== null) s.secondsOut += seconds;
        if (degreeHours !== null) s.degreeHours += degreeHours;
        if (mkt !== null) {
          s.mktSum += mkt;
          s.mktN++;
          if (s.mktMax === null || mkt > s.mktMax) s.mktMax = mkt;
        }
        s.levels.set(level, (s.levels.get(level) ?? 0) + 1);
        if (decision !== null) s.decided.set(decision, (s.decided.get(decision) ?? 0) + 1);
      }
    };
    try {
      this.statement(
        `SELECT insights_sums(${keys.join(', ')}, l.alert_level, ${decisionColumn.sql},
            l.calc_violations_all, l.calc_violation_duration_all, l.calc_degree_hour, l.calc_mean_kinetic_temperature)
          FROM report_listing l WHERE ${COMPANY_ROWS} AND (${filter.where})`,
      ).get(...keyParams, ...decisionColumn.params, companyId, ...filter.params);
    } finally {
      this.summing = undefined;
    }
    return groupings.map((grouping, i) => {
      const figures: GroupFigures[] = [];
      const decisions: DecisionCount[] = [];
      for (const [bucket, s] of groups[i]) {
        const key = keyOf(grouping, bucket);
        figures.push(figuresOf(key, s));
        for (const [decision, count] of s.decided) decisions.push({ key, decision, count });
      }
      return { figures, decisions };
    });
  }

  /** What `insights_sums` does with each match's values, while summedMatches reads. */
  private summing: ((args: unknown[]) => void) | undefined;

  /**
   * figuresAtOnce's answer summed from the kept figures (migration 022) instead of read from
   * every match, or null when they cannot give it exactly, and the question is read from the
   * matches: a filter on anything the kept rows do not split by (time groups: owner, flag and
   * archive state; the others: the fixed keys), a custom field, a time bucket that cuts a kept
   * row (a day or week in a zone not at UTC, a zone whose offset is not whole hours), or a time
   * the kept rows could not place.
   */
  keptFigures(companyId: string, filter: SqlFilter, groupings: readonly StoreGrouping[]): { figures: GroupFigures[]; decisions: DecisionCount[] }[] | null {
    if (!this.readsKeptFigures || !this.readsKeptCounts(filter) || !this.hasKept('group_figures_split')) return null;
    const columns = columnsTested(filter.where);
    const answers: { figures: GroupFigures[]; decisions: DecisionCount[] }[] = [];
    for (const grouping of groupings) {
      let rows: { key: string | number | null; row: Record<string, unknown> }[];
      switch (grouping.kind) {
        case 'all':
        case 'column': {
          const key = grouping.kind === 'all' ? 'NULL' : COLUMNS[grouping.key];
          rows = this.keptRows('group_figures_split', key, companyId, filter).map((row) => ({ key: row.key as string | number | null, row }));
          break;
        }
        case 'cases': {
          if (grouping.bin === undefined) return null;
          rows = this.keptRows('group_figures_split', `l.${grouping.bin}`, companyId, filter).map((row) => ({ key: row.key === -1 ? null : (row.key as number), row }));
          break;
        }
        case 'time': {
          if (!columns.every((column) => TIME_SPLIT.includes(column))) return null;
          const table = columns.every((column) => TIME_TOTALS_SPLIT.includes(column)) ? 'group_figures_time_totals' : 'group_figures_time';
          const cut: TimeCut = { unit: grouping.unit, segments: grouping.segments };
          rows = [];
          for (const row of this.keptRows(table, 'l.at', companyId, filter, grouping.field === 'created' ? 0 : 1)) {
            const at = row.key as number;
            if (at === UNKEYED) return null;
            if (at === NONE) {
              rows.push({ key: null, row });
              continue;
            }
            const start = at * 3_600_000;
            const bucket = wholeBucket(cut, start, start + keptRowHours(at) * 3_600_000);
            if (bucket === null) return null;
            rows.push({ key: keyOf(grouping, bucket), row });
          }
          break;
        }
        default:
          return null;
      }
      answers.push(summed(rows));
    }
    return answers;
  }

  /** Whether keptFigures answers what it can (a test compares it with the reads of the matches). */
  readsKeptFigures = true;

  /** The kept rows of `table` under the filter, summed per `key` (over l); group_figures_time's of one field. */
  private keptRows(table: 'group_figures_split' | 'group_figures_time' | 'group_figures_time_totals', key: string, companyId: string, filter: SqlFilter, field?: number): Record<string, unknown>[] {
    const byField = field === undefined ? '' : ' AND l.field = ?';
    return this.statement(
      `SELECT ${key} AS key, ${KEPT_SUMS} FROM ${table} l WHERE ${COMPANY_ROWS}${byField} AND (${filter.where})${key === 'NULL' ? '' : ` GROUP BY ${key}`}`,
    ).all(companyId, ...(field === undefined ? [] : [field]), ...filter.params) as Record<string, unknown>[];
  }

  /** How many reports of each group are counted under each current decision; undecided ones are not listed. */
  decisions(companyId: string, filter: SqlFilter, grouping: StoreGrouping): DecisionCount[] {
    const parts = this.grouped(companyId, filter, grouping, 'd.decision AS decision, count(*) AS count', 'd');
    return parts.flatMap(({ sql, params }) => (this.statement(sql).all(...params) as DecisionCount[]).map((row) => ({ ...row, key: keyOf(grouping, row.key) })));
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
        const { key, params: keyParams } = timeKey(grouping, this.cuts);
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
                  AND ${CUSTOM_FIELD_UNSET}
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

  private readonly fieldCounts: FieldCountsAccess = { statement: (sql) => this.statement(sql), hasTable: (name) => this.hasKept(name) };

  /** The table a migration added is there (as readsKeptCounts, asked again until it is). */
  private hasKept(table: string): boolean {
    if (this.keptTables.has(table)) return true;
    const has = this.statement(`SELECT 1 FROM sqlite_schema WHERE name = ?`).get(table) !== undefined;
    if (has) this.keptTables.add(table);
    return has;
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

const DAY_MS = 86_400_000;

/** A group's key as the store answers it: a time bucket's number as its text. */
function keyOf(grouping: StoreGrouping, key: string | number | null): string | number | null {
  return grouping.kind === 'time' && typeof key === 'number' ? bucketText(grouping.unit, key) : key;
}

/** How a time grouping cuts an instant: its unit, and the zone's offsets in order (`until` exclusive, ms). */
interface TimeCut {
  unit: 'day' | 'week' | 'month';
  segments: readonly { until: number | null; offsetSeconds: number }[];
}

/**
 * The local start of the bucket an instant (ms) falls in, as a number: the local day (days since
 * 1970-01-01) for a day, the day of the Monday on or before it for a week, year × 12 + month
 * index for a month. The instant is moved by the offset the zone had at that instant.
 */
function bucketNumber(cut: TimeCut, ms: number): number {
  return dayBucket(cut.unit, localDay(cut, ms));
}

/** The local day (days since 1970-01-01) an instant (ms) falls on, by the offset the zone had then. */
function localDay(cut: TimeCut, ms: number): number {
  let offsetSeconds = 0;
  for (const segment of cut.segments) {
    offsetSeconds = segment.offsetSeconds;
    if (segment.until === null || ms < segment.until) break;
  }
  return Math.floor((ms + offsetSeconds * 1000) / DAY_MS);
}

/** bucketNumber of a local day. */
function dayBucket(unit: TimeCut['unit'], day: number): number {
  switch (unit) {
    case 'day':
      return day;
    case 'week':
      // 1970-01-01 was a Thursday: three days after a Monday.
      return day - (((day + 3) % 7) + 7) % 7;
    case 'month': {
      const date = new Date(day * DAY_MS);
      return date.getUTCFullYear() * 12 + date.getUTCMonth();
    }
  }
}

/** The bucket's local start as the groups name it: `YYYY-MM-DD` for a day or a week, `YYYY-MM` for a month. */
function bucketText(unit: TimeCut['unit'], n: number): string {
  if (unit === 'month') {
    const year = Math.floor(n / 12);
    return `${String(year).padStart(4, '0')}-${String(n - year * 12 + 1).padStart(2, '0')}`;
  }
  return new Date(n * DAY_MS).toISOString().slice(0, 10);
}

/**
 * The local start of the bucket each report falls in, by `insights_time_key` (one call per row:
 * a parse of the instant, a look at the zone's few offsets and some arithmetic, several times
 * cheaper than SQLite's date functions with one CASE branch per offset). The cut is a parameter
 * (its place in `cuts`), so the text is the same for every zone and range.
 */
function timeKey(grouping: Extract<StoreGrouping, { kind: 'time' }>, cuts: TimeCut[]): { key: string; params: unknown[] } {
  const column = grouping.field === 'created' ? 'l.created' : 'l.calc_start_time';
  const text = JSON.stringify([grouping.unit, grouping.segments]);
  let at = cuts.findIndex((c) => JSON.stringify([c.unit, c.segments]) === text);
  if (at < 0) {
    if (cuts.length >= 200) cuts.length = 0;
    at = cuts.push({ unit: grouping.unit, segments: grouping.segments }) - 1;
  }
  return { key: `insights_time_key(${column}, ?)`, params: [at] };
}

/**
 * The bucket every instant from `start` to `end` (ms, exclusive) falls in, or null when they
 * fall in more than one. Between two changes of the zone's offset the bucket only grows with
 * the instant, so the ends of each stretch tell.
 */
function wholeBucket(cut: TimeCut, start: number, end: number): number | null {
  const bucket = bucketNumber(cut, start);
  if (bucketNumber(cut, end - 1) !== bucket) return null;
  for (const { until } of cut.segments) {
    if (until !== null && until > start && until < end && (bucketNumber(cut, until - 1) !== bucket || bucketNumber(cut, until) !== bucket)) return null;
  }
  return bucket;
}

/** Kept rows summed per group key: the figures and decisions of each group. */
function summed(rows: readonly { key: string | number | null; row: Record<string, unknown> }[]): { figures: GroupFigures[]; decisions: DecisionCount[] } {
  const groups = new Map<string | number | null, Sums & { decided: number[] }>();
  for (const { key, row } of rows) {
    const count = (row.count as number | null) ?? 0;
    if (count === 0) continue;
    let s = groups.get(key);
    if (!s) groups.set(key, (s = { ...emptySums(), decided: KEPT_DECISIONS.map(() => 0) }));
    addSums(s, row, count);
    LEVELS.forEach((level, i) => s.levels.set(level, (s.levels.get(level) ?? 0) + (row[`level_${i}`] as number)));
    KEPT_DECISIONS.forEach(([column], i) => (s.decided[i] += row[column] as number));
  }
  const figures: GroupFigures[] = [];
  const decisions: DecisionCount[] = [];
  for (const [key, s] of groups) {
    figures.push(figuresOf(key, s));
    KEPT_DECISIONS.forEach(([, decision], i) => {
      if (s.decided[i] > 0) decisions.push({ key, decision, count: s.decided[i] });
    });
  }
  return { figures, decisions };
}
