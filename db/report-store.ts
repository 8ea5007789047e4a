/**
 * SQL for label reports, their access entries, per-company state and custom fields.
 * Statements are prepared once per connection; callers own transactions.
 */
import type { Statement } from 'better-sqlite3';
import type { Report, ReportAccess } from '../model/report';
import type { ReportTableRecord } from '../model/report-table';
import type { ListQuery } from '../query/list-query';
import type { MinimalLabelReport } from '../schema/report';
import type { Db } from './database';
import { accessOf, minimalFromRow, reportFromRows, rowsFromReport, tableEntryFromRow } from './report-convert';
import { bindRangeParams, bindRangeWhere, compileListQuery, type ElementCounts, type OwnerKeys } from './query/compile';
import { TrigramCounts } from './query/trigram-frequency';
import { keptFieldRows, type CountedByField, type FieldCountsAccess } from './field-counts';
import { bulkLoadPlan, FIGURE_SOURCES, HOLD_FIGURES, RELEASE_FIGURES } from './read-model';
import { MINIMAL_COLUMNS, REPORT_COLUMNS, type MinimalReportRow, type ReportRow } from './report-rows';

export interface AccessRow {
  id: string;
  label_report_id: string;
  company_id: string;
  role: 'owner' | 'editor' | 'viewer';
}
export interface CompanyStateRow {
  company_id: string;
  label_report_id: string;
  has_flag: number;
  is_archived: number;
}
const sameAccess = (a: AccessRow, b: AccessRow) => a.id === b.id && a.company_id === b.company_id && a.role === b.role;
const sameState = (a: CompanyStateRow, b: CompanyStateRow) => a.company_id === b.company_id && a.has_flag === b.has_flag && a.is_archived === b.is_archived;
/** The same rows in any order. */
const same = <T>(a: readonly T[], b: readonly T[], eq: (x: T, y: T) => boolean) => a.length === b.length && a.every((x) => b.some((y) => eq(x, y)));

export interface CustomFieldRow {
  label_report_id: string;
  custom_field_id: string;
  value: string;
}

/** A report with what is stored beside it: access entries, per-company states, custom fields. */
export interface StoredReport {
  row: ReportRow;
  access: readonly AccessRow[];
  states: readonly CompanyStateRow[];
  customFields: readonly CustomFieldRow[];
}

/** A report as the list's table shows it. */
export interface ReportTableRow {
  id: string;
  label_reference: string;
  label_uid: string;
  label_name: string;
  status: string;
  alert_level: number;
  created: string;
  updated: string;
  company_name: string;
  has_flag: number;
  is_archived: number;
  excursions: number | null;
  excursion_seconds: number | null;
  degree_hours: number | null;
}

/** A compiled filter: a SQL condition over the listing alias l with positional parameters. */
export interface SqlFilter {
  where: string;
  params: readonly unknown[];
  orderBy: string;
  ranges?: { sortKey: string; conditions: readonly { where: string; params: readonly unknown[] }[] };
  /** The `where` that reads the same over listing_counts, whose counts then sum to the matches (see CompiledListQuery). */
  counted?: string;
  /** The page's own form of the `where` it replaces, with the same parameters (see CompiledListQuery). */
  pageWhere?: { replaces: string; where: string };
  /** The page's form of the `where` it replaces, each key's column unindexed, for many matches (see CompiledListQuery). */
  orderWalk?: { replaces: string; where: string; each: readonly { where: string; params: readonly unknown[] }[] };
  /** The filter over the kept counts of one custom field's values (see CompiledListQuery and db/field-counts.ts). */
  countedByField?: CountedByField;
  /** The page's walk of the default order for a search many reports meet (see CompiledListQuery). */
  textWalk?: { replaces: string; where: string; params: readonly unknown[]; column: string; test: string; testParams: readonly unknown[]; budget: number };
  /** The page's forms to choose from by how many rows each indexed comparison holds (see CompiledListQuery). */
  keyChoice?: {
    replaces: string;
    probes: readonly { where: string; params: readonly unknown[] }[];
    sorted: readonly { where: string; orderBy: string; index: string }[];
    walk: { where: string; orderBy: string };
    walksCovered: boolean;
  };
}

/** The `where` and order a page is read with, when they differ from the compiled filter's. */
interface PageForm {
  where?: string;
  orderBy?: string;
  /** The index the page's rows are read from, named for SQLite (a name of the read model's). */
  index?: string;
}

const VISIBLE_FROM = `
  FROM access a
  JOIN label_reports r ON r.id = a.label_report_id
  JOIN companies c ON c.id = r.owner_company_id
  LEFT JOIN company_report_state s ON s.label_report_id = r.id AND s.company_id = a.company_id`;

/**
 * Listing reads the caller's narrow rows (the listing migration), the company's id bound first: the
 * count, and the page of ids in order, with the reports themselves read only for that page.
 */
const LISTING_ROWS = 'FROM report_listing l WHERE l.ck = (SELECT k.ck FROM company_keys k WHERE k.company_id = ?)';
const COUNT_SQL = (filter: SqlFilter) => `SELECT count(*) AS n ${LISTING_ROWS} AND (${filter.where})`;
/** The same count from the kept counts (the listing counts migration): a few rows per company. */
const KEPT_COUNT_SQL = (filter: SqlFilter) =>
  `SELECT coalesce(sum(l.n), 0) AS n FROM listing_counts l WHERE l.ck = (SELECT k.ck FROM company_keys k WHERE k.company_id = ?) AND (${filter.where})`;
/** The page's ids: one ordered read, or one per range of the order key, merged (see CompiledListQuery). */
const PAGE_SQL = (filter: SqlFilter, form: PageForm = {}) => {
  const where = form.where ?? (filter.pageWhere?.replaces === filter.where ? filter.pageWhere.where : filter.where);
  return filter.ranges
    ? `${filter.ranges.conditions
        .map((range) => `SELECT l.id, ${filter.ranges!.sortKey} AS sort_key ${LISTING_ROWS} AND (${filter.where}) AND ${bindRangeWhere(range.where, filter.where)}`)
        .join(' UNION ALL ')} ORDER BY ${filter.orderBy} LIMIT ? OFFSET ?`
    : `SELECT l.id ${form.index ? LISTING_ROWS.replace('report_listing l', `report_listing l INDEXED BY ${form.index}`) : LISTING_ROWS} AND (${where}) ORDER BY ${form.orderBy ?? filter.orderBy} LIMIT ? OFFSET ?`;
};
/** A search's page walked in the default order: at most `budget` entries that meet the rest of the filter, tested for the text. */
const WALK_SQL = (filter: SqlFilter, walk: NonNullable<SqlFilter['textWalk']>) =>
  `SELECT l.id FROM (SELECT l.id, l.created, ${walk.column} ${LISTING_ROWS} AND (${walk.where}) ORDER BY ${filter.orderBy} LIMIT ?) l WHERE ${walk.test} ORDER BY ${filter.orderBy} LIMIT ? OFFSET ?`;
const WALK_PARAMS = (companyId: string, walk: NonNullable<SqlFilter['textWalk']>, limit: number, offset: number): unknown[] => [
  companyId,
  ...walk.params,
  walk.budget,
  ...walk.testParams,
  limit,
  offset,
];
const PAGE_PARAMS = (companyId: string, filter: SqlFilter, limit: number, offset: number): unknown[] =>
  filter.ranges
    ? filter.ranges.conditions.flatMap((range) => [companyId, ...filter.params, ...bindRangeParams(range.params, companyId, filter.params, limit, offset)])
    : [companyId, ...filter.params];

const WITH_DATAPOINTS = 'JOIN report_datapoints d ON d.label_report_id = r.id';
/** What `load` reads of one report, each by the report's key. */
const ROW_SQL = `SELECT r.*, d.datapoints FROM label_reports r ${WITH_DATAPOINTS} WHERE r.id = ?`;
const STATES_SQL = 'SELECT * FROM company_report_state WHERE label_report_id = ? ORDER BY company_id';
// Owner first, then by role and company so the order is stable.
const ACCESS_SQL = `SELECT * FROM access WHERE label_report_id IN (SELECT value FROM json_each(?))
       ORDER BY label_report_id, CASE role WHEN 'owner' THEN 0 WHEN 'editor' THEN 1 ELSE 2 END, company_id`;
const CUSTOM_FIELDS_SQL = 'SELECT * FROM custom_field_values WHERE label_report_id IN (SELECT value FROM json_each(?)) ORDER BY rowid';

const CALLER_COLUMNS = `c.name AS company_name, c.short_code AS company_short_code,
  COALESCE(s.has_flag, 0) AS has_flag, COALESCE(s.is_archived, 0) AS is_archived`;

/** Distinct queries whose counts are kept; the oldest goes first. */
const COUNT_CACHE_SIZE = 256;

export class ReportStore {
  private readonly insertReport: Statement;
  private readonly insertDatapoints: Statement;
  private readonly updateDatapoints: Statement;
  private readonly deleteReport: Statement;
  private readonly insertAccess: Statement;
  private readonly deleteAccess: Statement;
  private readonly deleteState: Statement;
  private readonly upsertState: Statement;
  private readonly upsertCustomField: Statement;
  private readonly deleteCustomField: Statement;
  private readonly selectRow: Statement;
  private readonly listCache = new Map<string, Statement>();
  private readonly counts = new Map<string, { version: string; n: number }>();
  private readonly trigrams: TrigramCounts;
  /** The statements that hold and release a report's kept group figures; null where the schema keeps none. */
  private figureMoves: { hold: Statement[]; release: Statement[] } | null | undefined;

  /**
   * `mayReuseCounts` is false while a write transaction is open: a count taken there may see
   * changes that roll back, and a rollback leaves the data version as it was.
   */
  constructor(
    private readonly db: Db,
    private readonly mayReuseCounts: () => boolean = () => !db.inTransaction,
    /** Told of each report read whole (tests count them: a PATCH reads its report once). */
    private readonly onLoad: (id: string) => void = () => {},
  ) {
    this.trigrams = new TrigramCounts(db);
    this.insertReport = db.prepare(
      `INSERT INTO label_reports (${REPORT_COLUMNS.join(', ')}) VALUES (${REPORT_COLUMNS.map((c) => '@' + c).join(', ')})`,
    );
    this.insertDatapoints = db.prepare('INSERT INTO report_datapoints (label_report_id, datapoints) VALUES (?, ?)');
    this.updateDatapoints = db.prepare('UPDATE report_datapoints SET datapoints = ? WHERE label_report_id = ?');
    this.deleteReport = db.prepare('DELETE FROM label_reports WHERE id = ?');
    this.insertAccess = db.prepare(
      'INSERT INTO access (id, label_report_id, company_id, role) VALUES (@id, @label_report_id, @company_id, @role)',
    );
    this.deleteAccess = db.prepare('DELETE FROM access WHERE id = ?');
    this.deleteState = db.prepare('DELETE FROM company_report_state WHERE company_id = ? AND label_report_id = ?');
    this.upsertState = db.prepare(
      `INSERT INTO company_report_state (company_id, label_report_id, has_flag, is_archived)
       VALUES (@company_id, @label_report_id, @has_flag, @is_archived)
       ON CONFLICT (company_id, label_report_id) DO UPDATE SET has_flag = excluded.has_flag, is_archived = excluded.is_archived`,
    );
    this.upsertCustomField = db.prepare(
      `INSERT INTO custom_field_values (label_report_id, custom_field_id, value) VALUES (?, ?, ?)
       ON CONFLICT (label_report_id, custom_field_id) DO UPDATE SET value = excluded.value`,
    );
    this.deleteCustomField = db.prepare(
      'DELETE FROM custom_field_values WHERE label_report_id = ? AND custom_field_id = ?',
    );
    this.selectRow = db.prepare(ROW_SQL);
  }

  /**
   * Writes a report whole (import is an upsert by id). A report already `stored` is changed in
   * place: only the columns and child rows that differ are written, so the listing triggers
   * touch what changed instead of deleting and rebuilding every listing row, text entry and
   * custom field element of the report.
   */
  write(report: Report, before?: Report): void {
    this.replace(rowsFromReport(report), before && rowsFromReport(before));
  }

  /** `write` in rows: for the database's own tests and migrations. */
  replace(next: StoredReport, stored?: StoredReport): void {
    if (!stored) {
      const { datapoints, ...columns } = next.row;
      this.insertReport.run(columns);
      this.insertDatapoints.run(next.row.id, datapoints);
      for (const entry of next.access) this.insertAccess.run(entry);
      for (const state of next.states) this.upsertState.run(state);
      for (const f of next.customFields) this.upsertCustomField.run(f.label_report_id, f.custom_field_id, f.value);
      return;
    }
    const id = next.row.id;
    const changed = REPORT_COLUMNS.filter((c) => next.row[c] !== stored.row[c]);
    // The listing writes each moved column on its own: held, the figures move once for all of them.
    const held =
      (changed.some((c) => FIGURE_SOURCES.has(c)) || !same(next.access, stored.access, sameAccess) || !same(next.states, stored.states, sameState)) &&
      this.holdFigures(id);
    try {
      this.change(next, stored, changed);
    } finally {
      if (held) this.releaseFigures(held);
    }
  }

  /** The columns, datapoints, access, states and custom fields of a stored report that differ in `next`. */
  private change(next: StoredReport, stored: StoredReport, changed: readonly (typeof REPORT_COLUMNS)[number][]): void {
    const id = next.row.id;
    if (changed.length > 0) this.updateColumns(id, Object.fromEntries(changed.map((c) => [c, next.row[c]])));
    if (!next.row.datapoints.equals(stored.row.datapoints)) this.updateDatapoints.run(next.row.datapoints, id);

    // Entries go before new ones come: an entry for the same company under another id or role would collide.
    for (const entry of stored.access) if (!next.access.some((e) => sameAccess(e, entry))) this.deleteAccess.run(entry.id);
    for (const entry of next.access) if (!stored.access.some((e) => sameAccess(e, entry))) this.insertAccess.run(entry);

    for (const state of stored.states) {
      if (!next.states.some((s) => s.company_id === state.company_id)) this.deleteState.run(state.company_id, id);
    }
    for (const state of next.states) {
      const before = stored.states.find((s) => s.company_id === state.company_id);
      if (before?.has_flag !== state.has_flag || before?.is_archived !== state.is_archived) this.upsertState.run(state);
    }

    this.replaceCustomFields(id, next.customFields, stored.customFields);
  }

  /**
   * Holds the report's kept group figures (migration 023) for a change: its report key, or
   * false where the database keeps none (an older schema, in the migrations' own tests).
   */
  private holdFigures(id: string): number | false {
    if (this.figureMoves === undefined) {
      const kept = this.db.prepare(`SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'group_figures_moving'`).get() !== undefined;
      this.figureMoves = kept ? { hold: HOLD_FIGURES.map((sql) => this.db.prepare(sql)), release: RELEASE_FIGURES.map((sql) => this.db.prepare(sql)) } : null;
    }
    if (!this.figureMoves) return false;
    const rk = this.statement('SELECT rk FROM report_keys WHERE report_id = ?').pluck().get(id) as number | undefined;
    if (rk === undefined) return false;
    for (const statement of this.figureMoves.hold) statement.run(rk);
    return rk;
  }

  private releaseFigures(rk: number): void {
    for (const statement of this.figureMoves!.release) statement.run(rk);
  }

  /**
   * Custom fields are read back in the order they were written (by rowid). A value updated in
   * place keeps its place; a new field goes last. When that would not give `next`'s order, the
   * report's fields are written again from the first.
   */
  private replaceCustomFields(id: string, next: readonly CustomFieldRow[], stored: readonly CustomFieldRow[]): void {
    // By sets and maps: a report holds up to 200 fields, and a search of each list in the other
    // made every write of such a report cost 200² steps.
    const nextIds = next.map((f) => f.custom_field_id);
    const nextSet = new Set(nextIds);
    const storedById = new Map(stored.map((f) => [f.custom_field_id, f]));
    const kept = stored.filter((f) => nextSet.has(f.custom_field_id)).map((f) => f.custom_field_id);
    const keptSet = new Set(kept);
    const added = nextIds.filter((f) => !keptSet.has(f));
    const inPlace = nextSet.size === nextIds.length && [...kept, ...added].every((f, i) => f === nextIds[i]);
    for (const f of stored) {
      if (!inPlace || !nextSet.has(f.custom_field_id)) this.deleteCustomField.run(id, f.custom_field_id);
    }
    for (const f of next) {
      const before = inPlace ? storedById.get(f.custom_field_id) : undefined;
      if (before?.value !== f.value) this.upsertCustomField.run(id, f.custom_field_id, f.value);
    }
  }

  /** Removes a report; its datapoints, access entries, states and custom fields go with it by cascade. */
  remove(id: string): void {
    this.deleteReport.run(id);
  }

  /** A parsed list query as SQL for `count` and the list pages; opaque to callers. */
  compile(query: ListQuery): SqlFilter {
    return compileListQuery(query, this.trigrams.frequency, this.elementCounts, this.ownerKeys);
  }

  private readonly fieldCounts: FieldCountsAccess = {
    statement: (sql) => this.statement(sql),
    hasTable: (name) => this.hasTable(name),
  };
  private readonly tables = new Set<string>();

  /** A table a migration added is there; once seen it stays, so only its absence is asked again. */
  private hasTable(name: string): boolean {
    if (this.tables.has(name)) return true;
    const has = this.statement('SELECT 1 FROM sqlite_schema WHERE name = ?').get(name) !== undefined;
    if (has) this.tables.add(name);
    return has;
  }

  private readonly ownerKeys: OwnerKeys = {
    upTo: (cap) => this.statement('SELECT ck FROM company_keys ORDER BY ck LIMIT ?').pluck().all(cap) as number[],
  };

  private readonly elementCounts: ElementCounts = {
    countUpTo: (sql, params, cap) => this.statement(sql).pluck().get(...params, cap) as number,
    // The newest report key: about how many reports there have been, found in one index step.
    reports: () => (this.statement('SELECT max(rk) FROM report_keys').pluck().get() as number | null) ?? 0,
  };

  /** Whether the company has an access entry on the report: the visibility check, without reading the report. */
  isVisible(companyId: string, id: string): boolean {
    return this.statement('SELECT 1 FROM access WHERE company_id = ? AND label_report_id = ?').get(companyId, id) !== undefined;
  }

  /** Of these access entry ids, those another report than `reportId` holds, with that report's id. */
  accessHeldElsewhere(reportId: string, accessIds: readonly string[]): Map<string, string> {
    if (accessIds.length === 0) return new Map();
    const rows = this.statement(
      'SELECT id, label_report_id FROM access WHERE id IN (SELECT value FROM json_each(?)) AND label_report_id <> ?',
    ).all(JSON.stringify(accessIds), reportId) as { id: string; label_report_id: string }[];
    return new Map(rows.map((r) => [r.id, r.label_report_id]));
  }

  /** Of `ids`, those some company's report has, in one read and without reading the reports. */
  existing(ids: readonly string[]): Set<string> {
    return new Set(this.selectByReportIds('SELECT id FROM label_reports WHERE id IN (SELECT value FROM json_each(?))', ids).map((r) => (r as { id: string }).id));
  }

  /** Whether any company's report has this id, without reading the report. */
  exists(id: string): boolean {
    return this.statement('SELECT 1 FROM label_reports WHERE id = ?').get(id) !== undefined;
  }

  /** The report as stored, with its access entries, company states and custom fields. */
  load(id: string): Report | undefined {
    const row = this.selectRow.get(id) as ReportRow | undefined;
    this.onLoad(id);
    if (!row) return undefined;
    return reportFromRows({
      row,
      access: this.accessRowsFor([id]).get(id) ?? [],
      states: this.statement(STATES_SQL).all(id) as CompanyStateRow[],
      customFields: this.customFieldRowsFor([id]).get(id) ?? [],
    });
  }

  /** How SQLite runs each read of `load`: the lines of EXPLAIN QUERY PLAN, for the plan tests. */
  loadPlans(id: string): string[][] {
    const explain = (sql: string, param: string) => (this.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(param) as { detail: string }[]).map((r) => r.detail);
    return [explain(ROW_SQL, id), explain(STATES_SQL, id), explain(ACCESS_SQL, JSON.stringify([id])), explain(CUSTOM_FIELDS_SQL, JSON.stringify([id]))];
  }

  /** Whole reports, in the order of `ids`; one removed since is left out. */
  loadMany(ids: readonly string[]): Report[] {
    if (ids.length === 0) return [];
    for (const id of ids) this.onLoad(id);
    const rows = this.selectByReportIds(
      'SELECT r.*, d.datapoints FROM label_reports r JOIN report_datapoints d ON d.label_report_id = r.id WHERE r.id IN (SELECT value FROM json_each(?))',
      ids,
    ) as ReportRow[];
    const access = this.accessRowsFor(ids);
    const fields = this.customFieldRowsFor(ids);
    const states = groupBy(
      this.selectByReportIds(
        'SELECT * FROM company_report_state WHERE label_report_id IN (SELECT value FROM json_each(?)) ORDER BY label_report_id, company_id',
        ids,
      ) as CompanyStateRow[],
      (s) => s.label_report_id,
    );
    const byId = new Map(rows.map((row) => [row.id, row]));
    return ids.flatMap((id) => {
      const row = byId.get(id);
      if (!row) return [];
      return [reportFromRows({ row, access: access.get(id) ?? [], states: states.get(id) ?? [], customFields: fields.get(id) ?? [] })];
    });
  }

  /**
   * How many reports match. A filter on what listing_counts splits by (the browser's own
   * filters) sums the counts the writes keep, exact after any change. Any other count reads every
   * match, which paging through one query would ask again and again: it is computed once per
   * version of the data (this connection's changes and other connections' commits) and reused
   * until the data changes.
   */
  count(companyId: string, filter: SqlFilter): number {
    const byField = keptFieldRows(this.fieldCounts, companyId, filter);
    if (byField) return this.statement(`SELECT coalesce(sum(l.n), 0) ${byField.from}`).pluck().get(...byField.params) as number;
    if (this.readsKeptCounts(filter)) return this.countNow(companyId, filter);
    return this.reusedCount(`${companyId}\0${filter.where}\0${JSON.stringify(filter.params)}`, () => this.countNow(companyId, filter));
  }

  /** A count kept under `key` while the data stays the same version (none is kept inside a write). */
  private reusedCount(key: string, count: () => number): number {
    if (!this.mayReuseCounts()) return count();
    const version = this.dataVersion();
    const cached = this.counts.get(key);
    if (cached && cached.version === version) return cached.n;
    const n = count();
    if (this.counts.size >= COUNT_CACHE_SIZE) this.counts.delete(this.counts.keys().next().value!);
    this.counts.delete(key);
    this.counts.set(key, { version, n });
    return n;
  }

  /**
   * Whether the count of `filter` is read from listing_counts: its conditions test only what the
   * counts split by, and the table is there (a database before the listing counts migration has none).
   */
  readsKeptCounts(filter: SqlFilter): boolean {
    // A `where` narrowed after compiling tests more than the counts split by.
    if (filter.counted === undefined || filter.counted !== filter.where) return false;
    return this.hasTable('listing_counts');
  }

  /** Changes by this connection, and commits by any other one: equal versions, equal data. */
  private dataVersion(): string {
    return `${this.statement('PRAGMA data_version').pluck().get()}:${this.statement('SELECT total_changes()').pluck().get()}`;
  }

  private countNow(companyId: string, filter: SqlFilter): number {
    const stmt = this.statement(this.readsKeptCounts(filter) ? KEPT_COUNT_SQL(filter) : COUNT_SQL(filter));
    return (stmt.get(companyId, ...filter.params) as { n: number }).n;
  }

  /**
   * The ids of one page, in its order. The order, the filter and the offset are all taken on
   * the company's narrow listing rows (an index holds the order and the id), so a deep page
   * walks index entries, not reports; the reports themselves are then read a chunk at a time,
   * by id, with `minimalByIds`/`fullByIds`.
   */
  pageIds(companyId: string, filter: SqlFilter, limit: number, offset: number): string[] {
    const walk = this.walkOf(filter, limit);
    if (walk) {
      // A full page from the walk is the page; a short one may only mean the walk stopped early.
      const ids = this.statement(WALK_SQL(filter, walk)).pluck().all(...WALK_PARAMS(companyId, walk, limit, offset)) as string[];
      if (ids.length === limit) return ids;
    }
    const stmt = this.statement(PAGE_SQL(filter, this.pageFormOf(companyId, filter, limit, offset)));
    return stmt.pluck().all(...PAGE_PARAMS(companyId, filter, limit, offset), limit, offset) as string[];
  }

  /**
   * How SQLite runs `count` and `pageIds` for this filter: the lines of EXPLAIN QUERY PLAN. The
   * plan tests pin them; they also tell why a query is slow on a site's database. `matches`: the
   * count read from the listing rows, as every filter the kept counts do not split by is counted
   * (and as the insights read the filter's matches).
   */
  plans(companyId: string, filter: SqlFilter, limit: number, offset: number): { count: string[]; matches: string[]; page: string[]; walk?: string[] } {
    const explain = (sql: string, params: unknown[]) =>
      (this.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((r) => r.detail);
    const walk = this.walkOf(filter, limit);
    return {
      count: explain(this.readsKeptCounts(filter) ? KEPT_COUNT_SQL(filter) : COUNT_SQL(filter), [companyId, ...filter.params]),
      matches: explain(COUNT_SQL(filter), [companyId, ...filter.params]),
      page: explain(PAGE_SQL(filter, this.pageFormOf(companyId, filter, limit, offset)), [...PAGE_PARAMS(companyId, filter, limit, offset), limit, offset]),
      ...(walk ? { walk: explain(WALK_SQL(filter, walk), WALK_PARAMS(companyId, walk, limit, offset)) } : {}),
    };
  }

  /**
   * The page's `where` with each key unindexed when the kept counts say walking reads fewer rows:
   * walking the order until the page's end reads about page end × rows ÷ matches rows; sorting
   * reads the rows of the most selective condition from its index. Otherwise (or once a caller
   * narrowed the `where`) the page's usual one.
   */
  private pageFormOf(companyId: string, filter: SqlFilter, limit: number, offset: number): PageForm {
    if (this.readsKeptCounts(filter)) {
      const walk = this.orderWalkOf(companyId, filter, limit, offset);
      if (walk !== undefined) return { where: walk };
      const choice = this.choiceOf(filter, limit);
      // The browser's filters: SQLite walks the archive index, covered, which beats a sort.
      if (!choice || choice.walksCovered) return {};
      return this.fewestOf(choice, (probe) => this.keptCount(companyId, probe), Number.POSITIVE_INFINITY) ?? {};
    }
    const choice = this.choiceOf(filter, limit);
    if (!choice) return {};
    const cap = Math.ceil(Math.sqrt((offset + limit) * Math.max(1, this.elementCounts.reports())));
    const probe = (p: { where: string; params: readonly unknown[] }) =>
      this.reusedCount(`${companyId}\0${p.where}\0${JSON.stringify(p.params)}\0${cap}`, () =>
        this.statement(`SELECT count(*) FROM (SELECT 1 ${LISTING_ROWS} AND (${p.where}) LIMIT ?)`).pluck().get(companyId, ...p.params, cap) as number,
      );
    return this.fewestOf(choice, probe, cap) ?? choice.walk;
  }

  /** The key choice a page of `limit` rows makes: not once a caller narrowed the `where`, nor for every match (all are sorted then). */
  private choiceOf(filter: SqlFilter, limit: number): SqlFilter['keyChoice'] {
    return limit > 0 && filter.keyChoice?.replaces === filter.where ? filter.keyChoice : undefined;
  }

  /**
   * The page read from the index of the condition that holds the fewest rows, fewer than `cap`
   * (see CompiledListQuery.keyChoice); undefined when each holds at least that many.
   */
  private fewestOf(choice: NonNullable<SqlFilter['keyChoice']>, count: (probe: { where: string; params: readonly unknown[] }) => number, cap: number): PageForm | undefined {
    let fewest: { i: number; n: number } | undefined;
    choice.probes.forEach((probe, i) => {
      const n = count(probe);
      if (n < cap && (fewest === undefined || n < fewest.n)) fewest = { i, n };
    });
    return fewest && choice.sorted[fewest.i];
  }

  /** The matches of a condition listing_counts splits by, from the kept counts. */
  private keptCount(companyId: string, alone: { where: string; params: readonly unknown[] }): number {
    return this.countNow(companyId, { where: alone.where, params: alone.params, orderBy: '', counted: alone.where });
  }

  private orderWalkOf(companyId: string, filter: SqlFilter, limit: number, offset: number): string | undefined {
    if (limit <= 0 || filter.orderWalk?.replaces !== filter.where || !this.readsKeptCounts(filter)) return undefined;
    const counted = (where: string, params: readonly unknown[]) => this.keptCount(companyId, { where, params });
    const matches = counted(filter.where, filter.params);
    const sorted = Math.min(...filter.orderWalk.each.map((alone) => counted(alone.where, alone.params)));
    return matches * sorted >= (offset + limit) * counted('1', []) ? filter.orderWalk.where : undefined;
  }

  /** The walk a page of `limit` rows takes first, if any: not once a caller narrowed the `where`, nor for every match. */
  private walkOf(filter: SqlFilter, limit: number): SqlFilter['textWalk'] {
    return limit > 0 && filter.textWalk?.replaces === filter.where ? filter.textWalk : undefined;
  }

  /** The reports the company sees among `ids`, as the minimal output needs them, in the order of `ids`. */
  minimalByIds(companyId: string, ids: readonly string[]): MinimalLabelReport[] {
    const columns = MINIMAL_COLUMNS.map((c) => 'r.' + c).join(', ');
    return inOrder(ids, this.byIds(`SELECT ${columns}, ${CALLER_COLUMNS} ${VISIBLE_FROM}`, companyId, ids) as MinimalReportRow[]).map(
      minimalFromRow,
    );
  }

  /** The columns of the list's table (and its CSV) for these reports, in the order of `ids`. */
  tableByIds(companyId: string, ids: readonly string[]): Omit<ReportTableRecord, 'decision'>[] {
    const columns = `r.id, r.label_reference, r.label_uid, r.label_name, r.status, r.alert_level, r.created, r.updated,
      json_extract(r.calculated, '$.numberOfViolations.all') AS excursions,
      json_extract(r.calculated, '$.durationOfViolations.all') AS excursion_seconds,
      json_extract(r.calculated, '$.analysedValues.temperature.degreeHour') AS degree_hours`;
    return inOrder(ids, this.byIds(`SELECT ${columns}, ${CALLER_COLUMNS} ${VISIBLE_FROM}`, companyId, ids) as ReportTableRow[]).map(
      tableEntryFromRow,
    );
  }

  /** The access entries of these reports: the owner first, then by role and company. */
  accessFor(ids: readonly string[]): Map<string, ReportAccess[]> {
    const byReport = new Map<string, ReportAccess[]>();
    for (const [id, rows] of this.accessRowsFor(ids)) byReport.set(id, rows.map(accessOf));
    return byReport;
  }

  private accessRowsFor(ids: readonly string[]): Map<string, AccessRow[]> {
    const rows = this.selectByReportIds(ACCESS_SQL, ids) as AccessRow[];
    return groupBy(rows, (r) => r.label_report_id);
  }

  private customFieldRowsFor(ids: readonly string[]): Map<string, CustomFieldRow[]> {
    const rows = this.selectByReportIds(CUSTOM_FIELDS_SQL, ids) as CustomFieldRow[];
    return groupBy(rows, (r) => r.label_report_id);
  }

  /** Sets the named columns; names come from our own code, never from a request. */
  private updateColumns(id: string, changes: Partial<ReportRow>): void {
    const names = Object.keys(changes).filter((k) => (REPORT_COLUMNS as readonly string[]).includes(k));
    if (names.length === 0) return;
    this.statement(`UPDATE label_reports SET ${names.map((n) => `${n} = @${n}`).join(', ')} WHERE id = @id`).run({
      ...changes,
      id,
    });
  }

  setCompanyState(state: CompanyStateRow): void {
    this.upsertState.run(state);
  }

  /** Report ids in (created, id) order, a page at a time, by keyset so each page is one index range. */
  *idPages(pageSize: number): Generator<string[]> {
    const first = this.statement('SELECT id, created FROM label_reports ORDER BY created, id LIMIT ?');
    const next = this.statement('SELECT id, created FROM label_reports WHERE (created, id) > (?, ?) ORDER BY created, id LIMIT ?');
    let page = first.all(pageSize) as { id: string; created: string }[];
    while (page.length > 0) {
      yield page.map((r) => r.id);
      if (page.length < pageSize) return;
      const last = page[page.length - 1];
      page = next.all(last.created, last.id, pageSize) as { id: string; created: string }[];
    }
  }

  /** The company that owns the most reports (ties: the smaller id), or undefined without reports. */
  busiestOwner(): string | undefined {
    return this.statement(
      `SELECT company_id FROM access WHERE role = 'owner' GROUP BY company_id ORDER BY COUNT(*) DESC, company_id LIMIT 1`,
    )
      .pluck()
      .get() as string | undefined;
  }

  isEmpty(): boolean {
    return this.statement('SELECT NOT EXISTS (SELECT 1 FROM label_reports)').pluck().get() === 1;
  }

  /**
   * Runs `write`, which brings `incoming` reports, inside the caller's transaction. When they
   * are at least as many as the database holds (a first import, a restore), what the read model
   * derives from the reports is not kept up report by report: the triggers and indexes of every
   * kept table the read model rebuilds after a bulk load (db/read-model) are set aside for the
   * writes; then each declaration's rebuild runs (the listing rows, the text index and the custom
   * field elements made again for every report, a statement each, then the kept counts and sums),
   * and the indexes come back with one sort each and the triggers as declared. (The text index
   * writes a segment at every statement that touches it: row by row, an import would spend most
   * of its time there.) A rollback undoes all of it with the writes.
   */
  writingMany<T>(incoming: number, write: () => T): T {
    const held = this.statement('SELECT count(*) FROM report_keys').pluck().get() as number;
    if (incoming === 0 || incoming < held) return write();
    const plan = bulkLoadPlan();
    for (const { name } of plan.triggers) this.db.exec(`DROP TRIGGER ${name}`);
    for (const { name } of plan.indexes) this.db.exec(`DROP INDEX ${name}`);
    const result = write();
    for (const sql of plan.rebuild) this.db.exec(sql);
    for (const { sql } of plan.indexes) this.db.exec(sql);
    for (const { sql } of plan.triggers) this.db.exec(sql);
    return result;
  }

  private byIds(selectFrom: string, companyId: string, ids: readonly string[]): unknown[] {
    if (ids.length === 0) return [];
    const stmt = this.statement(`${selectFrom} WHERE a.company_id = ? AND r.id IN (SELECT value FROM json_each(?))`);
    return stmt.all(companyId, JSON.stringify(ids));
  }

  private selectByReportIds(sql: string, ids: readonly string[]): unknown[] {
    if (ids.length === 0) return [];
    return this.statement(sql).all(JSON.stringify(ids));
  }

  /** Filters compile to a bounded set of SQL texts, so caching their statements is safe. */
  private statement(sql: string): Statement {
    let stmt = this.listCache.get(sql);
    if (!stmt) {
      if (this.listCache.size > 500) this.listCache.clear();
      stmt = this.db.prepare(sql);
      this.listCache.set(sql, stmt);
    }
    return stmt;
  }
}

function groupBy<T>(rows: readonly T[], key: (row: T) => string): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const row of rows) {
    const k = key(row);
    const list = map.get(k);
    if (list) list.push(row);
    else map.set(k, [row]);
  }
  return map;
}

function inOrder<T extends { id: string }>(ids: readonly string[], rows: T[]): T[] {
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}
