/**
 * SQL of shipments (docs/shipments.md): the list read from the kept `shipment_listing` rows, one
 * per shipment, each filter and order by its own index; a shipment's labels; the facts a company keeps on a shipment and their
 * log; the shipment decisions, the review entry each wrote on each report, and their withdrawals.
 */
import type { Statement } from 'better-sqlite3';
import type { Db } from './database';
import { REGROUP, referenceKeyOf } from './read-model/shipments';

/** A shipment as the list sees it: its kept row. */
export interface ShipmentRow {
  refKey: string;
  reference: string;
  labels: number;
  worstAlert: number;
  firstCreated: string;
  lastCreated: string;
  firstStart: number | null;
  state: string;
  product: string | null;
  legs: string | null;
  origin: string | null;
  destination: string | null;
}

export type ShipmentOrderKey = 'created' | 'worstAlert' | 'labels' | 'firstStart';

/** The list's conditions, each already checked against its allowed values. */
export interface ShipmentConditions {
  alertLevels?: readonly number[];
  states?: readonly string[];
  labelsMin?: number;
  labelsMax?: number;
  /** Epoch seconds, inclusive. */
  startFrom?: number;
  startTo?: number;
  mode?: string;
  product?: string;
}

export interface ShipmentPageQuery {
  conditions: ShipmentConditions;
  order: ShipmentOrderKey;
  descending: boolean;
  limit: number;
  offset: number;
}

export interface ShipmentMember {
  id: string;
  labelReference: string;
  created: string;
  alertLevel: number;
  decision: string | null;
  withdrawn: boolean;
  acknowledgedLevel: number | null;
}

export interface FactsRow {
  origin: string | null;
  destination: string | null;
  product: string | null;
  legs: string;
  budget: string;
  updated: string;
}

export interface EntryAuthor {
  keyId: string | null;
  keyName: string | null;
  person: { id: string; login: string; name: string } | null;
}

export interface FactChangeRow extends EntryAuthor {
  id: number;
  changes: string;
  reason: string;
  at: string;
}

export interface DecisionRow extends EntryAuthor {
  id: number;
  decision: 'released' | 'rejected' | 'onHold';
  reason: string;
  meaning: string | null;
  zone: string | null;
  at: string;
  reports: { reportId: string; reviewEntryId: number }[];
  withdrawal: { reportId: string; text: string; at: string } | null;
}

const REF = referenceKeyOf('l');

/** The company's review of a listing row `l`. */
const REVIEW_JOIN = `LEFT JOIN review_current r ON r.label_report_id = l.id AND r.company_id = @company`;

const ORDER_COLUMNS: Record<ShipmentOrderKey, string> = {
  created: 'first_created',
  worstAlert: 'worst_alert',
  labels: 'labels',
  firstStart: 'first_start',
};

export class ShipmentStore {
  private readonly statements = new Map<string, Statement>();
  private readonly selectCk: Statement;
  private readonly selectMembers: Statement;
  private readonly selectReference: Statement;
  private readonly selectFacts: Statement;
  private readonly upsertFacts: Statement;
  private readonly insertFactChange: Statement;
  private readonly selectFactChanges: Statement;
  private readonly insertDecision: Statement;
  private readonly insertDecisionReport: Statement;
  private readonly selectDecisions: Statement;
  private readonly selectDecisionReports: Statement;
  private readonly selectWithdrawal: Statement;
  private readonly selectDecisionOfEntry: Statement;
  private readonly insertWithdrawal: Statement;
  private readonly selectProducts: Statement;
  private readonly updateSignature: Statement;

  constructor(private readonly db: Db) {
    this.selectCk = db.prepare('SELECT ck FROM company_keys WHERE company_id = ?').pluck();
    this.selectMembers = db.prepare(
      `SELECT l.id, l.shipment_ref AS label_reference, l.created, l.alert_level, r.decision, r.withdrawn, r.acknowledged_level
         FROM report_listing l ${REVIEW_JOIN}
        WHERE l.ck = @ck AND ${REF} = @key AND l.shipment_ref <> '' AND l.created >= @from AND l.created <= @to
        ORDER BY l.created, l.id`,
    );
    this.selectReference = db.prepare(
      `SELECT l.shipment_ref FROM report_listing l WHERE l.ck = @ck AND ${REF} = @key AND l.shipment_ref <> '' AND l.created = @created ORDER BY l.id LIMIT 1`,
    ).pluck();
    this.selectFacts = db.prepare('SELECT origin, destination, product, legs, budget, updated FROM shipment_facts WHERE company_id = ? AND shipment_id = ?');
    this.upsertFacts = db.prepare(
      `INSERT INTO shipment_facts (company_id, shipment_id, origin, destination, product, legs, budget, updated)
       VALUES (@company, @shipment, @origin, @destination, @product, @legs, @budget, @updated)
       ON CONFLICT (company_id, shipment_id) DO UPDATE SET origin = excluded.origin, destination = excluded.destination, product = excluded.product,
         legs = excluded.legs, budget = excluded.budget, updated = excluded.updated`,
    );
    this.insertFactChange = db.prepare(
      `INSERT INTO shipment_fact_changes (company_id, shipment_id, changes, reason, api_key_id, api_key_name, user_id, user_login, user_name, at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.selectFactChanges = db.prepare('SELECT * FROM shipment_fact_changes WHERE company_id = ? AND shipment_id = ? ORDER BY id');
    this.insertDecision = db.prepare(
      `INSERT INTO shipment_decisions (company_id, shipment_id, decision, reason, api_key_id, api_key_name, user_id, user_login, user_name, meaning, zone, at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.insertDecisionReport = db.prepare('INSERT INTO shipment_decision_reports (decision_id, label_report_id, review_entry_id) VALUES (?, ?, ?)');
    this.selectDecisions = db.prepare('SELECT * FROM shipment_decisions WHERE company_id = ? AND shipment_id = ? ORDER BY id');
    this.selectDecisionReports = db.prepare('SELECT label_report_id, review_entry_id FROM shipment_decision_reports WHERE decision_id = ? ORDER BY label_report_id');
    this.selectWithdrawal = db.prepare('SELECT label_report_id, text, at FROM shipment_decision_withdrawals WHERE decision_id = ?');
    this.selectDecisionOfEntry = db.prepare(
      `SELECT d.id, d.company_id, d.shipment_id FROM shipment_decision_reports x JOIN shipment_decisions d ON d.id = x.decision_id
        WHERE x.review_entry_id = ? AND NOT EXISTS (SELECT 1 FROM shipment_decision_withdrawals w WHERE w.decision_id = d.id)`,
    );
    this.insertWithdrawal = db.prepare('INSERT INTO shipment_decision_withdrawals (decision_id, label_report_id, text, at) VALUES (?, ?, ?, ?)');
    this.updateSignature = db.prepare('UPDATE shipment_decisions SET meaning = ?, zone = ? WHERE id = ?');
    this.selectProducts = db.prepare('SELECT DISTINCT product FROM shipment_facts WHERE company_id = ? AND product IS NOT NULL ORDER BY product').pluck();
  }

  private statement(sql: string): Statement {
    let s = this.statements.get(sql);
    if (!s) {
      s = this.db.prepare(sql);
      this.statements.set(sql, s);
    }
    return s;
  }

  /** The custom field the company groups its shipments by; null: the label reference. */
  grouping(companyId: string): string | null {
    const ck = this.ckOf(companyId);
    if (ck === undefined) return null;
    return (this.statement('SELECT field FROM shipment_grouping WHERE ck = ?').pluck().get(ck) as string | null | undefined) ?? null;
  }

  /** Groups the company's shipments by `field` (null: the label reference) from now on, its kept shipments made again. */
  regroup(companyId: string, field: string | null): void {
    this.statement('INSERT INTO company_keys (company_id) SELECT ? WHERE NOT EXISTS (SELECT 1 FROM company_keys WHERE company_id = ?)').run(companyId, companyId);
    const ck = this.ckOf(companyId)!;
    for (const sql of REGROUP) this.statement(sql).run(sql.includes('@field') ? { ck, field } : { ck });
  }

  /** The reference key and creation of the report as its company groups it: where to find its shipment; undefined when it has none. */
  shipmentOf(companyId: string, reportId: string): ShipmentRow | undefined {
    const ck = this.ckOf(companyId);
    if (ck === undefined) return undefined;
    const row = this.statement(
      `SELECT ${ROW_COLUMNS} FROM report_listing l JOIN shipment_listing g ON g.ck = l.ck AND g.ref_key = ${REF} AND l.created BETWEEN g.first_created AND g.last_created
        WHERE l.ck = @ck AND l.id = @id AND l.shipment_ref <> ''`,
    ).get({ ck, id: reportId, company: companyId }) as RawRow | undefined;
    return row && this.rowOf(ck, companyId, row);
  }

  ckOf(companyId: string): number | undefined {
    return this.selectCk.get(companyId) as number | undefined;
  }

  /** A page of the company's shipments meeting the conditions, and how many meet them. */
  page(companyId: string, query: ShipmentPageQuery): { rows: ShipmentRow[]; total: number } {
    const ck = this.ckOf(companyId);
    if (ck === undefined) return { rows: [], total: 0 };
    const { page, count, bind } = this.pageSql(ck, companyId, query);
    const rows = this.statement(page).all(bind) as RawRow[];
    const total = this.statement(count).pluck().get(bind) as number;
    return { rows: rows.map((r) => this.rowOf(ck, companyId, r)), total };
  }

  /** How SQLite reads a page and its count: the lines of EXPLAIN QUERY PLAN, for the plan tests. */
  plans(companyId: string, query: ShipmentPageQuery): { page: string[]; count: string[]; sorts: boolean } {
    const { page, count, bind, sorts } = this.pageSql(this.ckOf(companyId) ?? -1, companyId, query);
    const explain = (sql: string) => (this.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(bind) as { detail: string }[]).map((r) => r.detail);
    return { page: explain(page), count: explain(count), sorts };
  }

  /**
   * The SQL of a page and of its count. A page either walks its order's index, testing each row
   * against the conditions, or searches the conditions' index and sorts what it finds: it sorts
   * when the matches are fewer than √(page end × shipments), the most a walk may read before it
   * fills the page when the matches lie evenly along the order (as the report list decides,
   * docs/benchmarks.md#plans-guarded-for-every-key). A `+` before a column keeps SQLite from
   * reading that term by an index, so the plan is the one chosen here, whatever the statistics.
   */
  private pageSql(ck: number, companyId: string, query: ShipmentPageQuery): { page: string; count: string; bind: Record<string, unknown>; sorts: boolean } {
    const c = query.conditions;
    const searched = conditionsSql(c, 'k', null);
    const bind = { ...searched.params, ck, company: companyId, limit: query.limit, offset: query.offset };
    const count = countSql(c) ?? `SELECT count(*) FROM shipment_listing k WHERE k.ck = @ck AND ${searched.where}`;
    let sorts = false;
    if (searched.where !== '1') {
      const matches = this.statement(count).pluck().get(bind) as number;
      const shipments = this.statement(countSql({})!).pluck().get({ ck }) as number;
      // A range of first starts is a range of creations too, near enough: walked in another order
      // its matches lie together, not evenly, and a walk would read every shipment after them.
      const startRange = (c.startFrom !== undefined || c.startTo !== undefined) && query.order !== 'firstStart';
      sorts = startRange || matches * matches < (query.offset + query.limit) * shipments;
    }
    // A walk may still search its own order's column: that index is the one walked.
    const where = sorts ? searched.where : conditionsSql(c, 'k', ORDER_COLUMNS[query.order]).where;
    // The page's keys first, read from the index alone where the conditions allow; then its rows.
    const keys = `SELECT k.ref_key, k.first_created FROM shipment_listing k WHERE k.ck = @ck AND ${where} ORDER BY ${orderSql(query, 'k', sorts ? '+' : '')} LIMIT @limit OFFSET @offset`;
    const page = `SELECT ${ROW_COLUMNS} FROM shipment_listing g WHERE g.ck = @ck AND (g.ref_key, g.first_created) IN (${keys}) ORDER BY ${orderSql(query, 'g', '+')}`;
    return { page, count, bind, sorts };
  }

  /** One shipment by its reference key and the UTC day of its first report; undefined when the company has none such. */
  one(companyId: string, key: string, day: string): ShipmentRow | undefined {
    const ck = this.ckOf(companyId);
    if (ck === undefined) return undefined;
    const row = this.statement(`SELECT ${ROW_COLUMNS} FROM shipment_listing g WHERE g.ck = @ck AND g.ref_key = @key AND g.first_created >= @day AND g.first_created < @day || 'U'`).get({
      ck,
      company: companyId,
      key,
      day,
    }) as RawRow | undefined;
    return row && this.rowOf(ck, companyId, row);
  }

  /** The labels of the shipment: the reference's listing rows created within its first and last. */
  members(companyId: string, row: Pick<ShipmentRow, 'refKey' | 'firstCreated' | 'lastCreated'>): ShipmentMember[] {
    const ck = this.ckOf(companyId);
    if (ck === undefined) return [];
    return (this.selectMembers.all({ ck, company: companyId, key: row.refKey, from: row.firstCreated, to: row.lastCreated }) as MemberRow[]).map((m) => ({
      id: m.id,
      labelReference: m.label_reference,
      created: m.created,
      alertLevel: m.alert_level,
      decision: m.decision,
      withdrawn: m.withdrawn === 1,
      acknowledgedLevel: m.acknowledged_level,
    }));
  }

  /** A kept row as the list answers it, with the rest of its facts (the row holds the product and modes). */
  private rowOf(ck: number, companyId: string, r: RawRow): ShipmentRow {
    const facts = this.selectFacts.get(companyId, `${r.ref_key}@${r.first_created.slice(0, 10)}`) as FactsRow | undefined;
    return {
      refKey: r.ref_key,
      reference: (this.selectReference.get({ ck, key: r.ref_key, created: r.first_created }) as string | undefined) ?? r.ref_key,
      labels: r.labels,
      worstAlert: r.worst_alert,
      firstCreated: r.first_created,
      lastCreated: r.last_created,
      firstStart: r.first_start,
      state: r.state,
      product: r.product,
      legs: facts?.legs ?? null,
      origin: facts?.origin ?? null,
      destination: facts?.destination ?? null,
    };
  }

  facts(companyId: string, shipmentId: string): FactsRow | undefined {
    return this.selectFacts.get(companyId, shipmentId) as FactsRow | undefined;
  }

  /** Writes the facts and the log entry of their change, in the caller's transaction. */
  putFacts(companyId: string, shipmentId: string, facts: FactsRow, change: Omit<FactChangeRow, 'id'>): void {
    this.upsertFacts.run({ company: companyId, shipment: shipmentId, ...facts });
    this.insertFactChange.run(companyId, shipmentId, change.changes, change.reason, ...authorColumns(change), change.at);
  }

  factChanges(companyId: string, shipmentId: string): FactChangeRow[] {
    return (this.selectFactChanges.all(companyId, shipmentId) as EntryRow[]).map((r) => ({ id: r.id, changes: r.changes!, reason: r.reason, at: r.at, ...authorOf(r) }));
  }

  products(companyId: string): string[] {
    return this.selectProducts.all(companyId) as string[];
  }

  /** Returns the decision's id. */
  appendDecision(companyId: string, shipmentId: string, d: Omit<DecisionRow, 'id' | 'reports' | 'withdrawal'>): number {
    const result = this.insertDecision.run(companyId, shipmentId, d.decision, d.reason, ...authorColumns(d), d.meaning, d.zone, d.at);
    return Number(result.lastInsertRowid);
  }

  /** The signature's meaning and zone, as each report's entry of the decision carries them; in the transaction that wrote it. */
  signDecision(decisionId: number, meaning: string, zone: string): void {
    this.updateSignature.run(meaning, zone, decisionId);
  }

  linkReport(decisionId: number, reportId: string, reviewEntryId: number): void {
    this.insertDecisionReport.run(decisionId, reportId, reviewEntryId);
  }

  decisions(companyId: string, shipmentId: string): DecisionRow[] {
    return (this.selectDecisions.all(companyId, shipmentId) as EntryRow[]).map((r) => {
      const withdrawal = this.selectWithdrawal.get(r.id) as { label_report_id: string; text: string; at: string } | undefined;
      return {
        id: r.id,
        decision: r.decision!,
        reason: r.reason,
        meaning: r.meaning ?? null,
        zone: r.zone ?? null,
        at: r.at,
        ...authorOf(r),
        reports: (this.selectDecisionReports.all(r.id) as { label_report_id: string; review_entry_id: number }[]).map((x) => ({
          reportId: x.label_report_id,
          reviewEntryId: x.review_entry_id,
        })),
        withdrawal: withdrawal ? { reportId: withdrawal.label_report_id, text: withdrawal.text, at: withdrawal.at } : null,
      };
    });
  }

  /** The standing shipment decision that wrote a review entry, if any. */
  standingDecisionOfEntry(reviewEntryId: number): { id: number; companyId: string; shipmentId: string } | undefined {
    const row = this.selectDecisionOfEntry.get(reviewEntryId) as { id: number; company_id: string; shipment_id: string } | undefined;
    return row && { id: row.id, companyId: row.company_id, shipmentId: row.shipment_id };
  }

  withdraw(decisionId: number, reportId: string, text: string, at: string): void {
    this.insertWithdrawal.run(decisionId, reportId, text, at);
  }
}

interface RawRow {
  ref_key: string;
  labels: number;
  worst_alert: number;
  first_created: string;
  last_created: string;
  first_start: number | null;
  state: string;
  product: string | null;
}

interface MemberRow {
  id: string;
  label_reference: string;
  created: string;
  alert_level: number;
  decision: string | null;
  withdrawn: number | null;
  acknowledged_level: number | null;
}

interface EntryRow {
  id: number;
  changes?: string;
  decision?: 'released' | 'rejected' | 'onHold';
  reason: string;
  api_key_id: string | null;
  api_key_name: string | null;
  user_id: string | null;
  user_login: string | null;
  user_name: string | null;
  meaning?: string | null;
  zone?: string | null;
  at: string;
}

const ROW_COLUMNS = 'g.ref_key, g.labels, g.worst_alert, g.first_created, g.last_created, g.first_start, g.state, g.product';

/**
 * The order of a page: each walks an index of shipment_listing (db/read-model/shipments.ts) with
 * its ties broken the same way, by first creation in the order's direction; a shipment not yet
 * started comes after every started one either way, so the ascending order by first start walks
 * the index that puts them last, unless a range of first starts leaves none such. `plain` ('+') keeps the order from an index: the page sorts.
 */
function orderSql(query: ShipmentPageQuery, t: string, plain: '' | '+'): string {
  const d = query.descending ? 'DESC' : 'ASC';
  // With a range of first starts, every match has started: the plain order walks the range.
  const started = query.conditions.startFrom !== undefined || query.conditions.startTo !== undefined;
  if (query.order === 'firstStart' && !query.descending && !started) return `${plain}${t}.first_start IS NULL, ${t}.first_start, ${t}.first_created, ${t}.ref_key`;
  return `${query.order === 'created' ? '' : `${plain}${t}.${ORDER_COLUMNS[query.order]} ${d}, `}${plain}${t}.first_created ${d}, ${t}.ref_key ${d}`;
}

/**
 * The exact count from the kept counts (shipment_counts) when the conditions test only the worst
 * alert and the review state; null when another condition needs the rows themselves.
 */
function countSql(c: ShipmentConditions): string | null {
  const others = Object.entries(c).some(([k, v]) => v !== undefined && k !== 'alertLevels' && k !== 'states');
  if (others) return null;
  const parts = ['n.ck = @ck'];
  if (c.alertLevels?.length) parts.push(`n.worst_alert IN (${c.alertLevels.map((_, i) => `@alert${i}`).join(', ')})`);
  if (c.states?.length) parts.push(`n.state IN (${c.states.map((_, i) => `@state${i}`).join(', ')})`);
  return `SELECT coalesce(sum(n.n), 0) FROM shipment_counts n WHERE ${parts.join(' AND ')}`;
}

/**
 * The conditions over a row `t`. With `searchable` not null, a `+` before every column but that
 * one keeps SQLite from searching an index by it: the page walks its order's index instead.
 */
function conditionsSql(c: ShipmentConditions, t: string, searchable: string | null): { where: string; params: Record<string, unknown> } {
  const parts: string[] = [];
  const params: Record<string, unknown> = {};
  const g = (column: string) => `${searchable === null || searchable === column ? '' : '+'}${t}.${column}`;
  if (c.alertLevels?.length) {
    parts.push(`${g('worst_alert')} IN (${c.alertLevels.map((_, i) => `@alert${i}`).join(', ')})`);
    c.alertLevels.forEach((v, i) => (params[`alert${i}`] = v));
  }
  if (c.states?.length) {
    parts.push(`${g('state')} IN (${c.states.map((_, i) => `@state${i}`).join(', ')})`);
    c.states.forEach((v, i) => (params[`state${i}`] = v));
  }
  if (c.labelsMin !== undefined) (parts.push(`${g('labels')} >= @labelsMin`), (params.labelsMin = c.labelsMin));
  if (c.labelsMax !== undefined) (parts.push(`${g('labels')} <= @labelsMax`), (params.labelsMax = c.labelsMax));
  if (c.startFrom !== undefined) (parts.push(`${g('first_start')} >= @startFrom`), (params.startFrom = c.startFrom));
  if (c.startTo !== undefined) (parts.push(`${g('first_start')} <= @startTo`), (params.startTo = c.startTo));
  // The product column compares without case; a shipment without facts has neither product nor
  // modes. Their indexes are partial (the shipments with facts), found by the IS NOT NULL term.
  if (c.product !== undefined) (parts.push(`${g('product')} IS NOT NULL AND ${g('product')} = @product`), (params.product = c.product));
  if (c.mode !== undefined) (parts.push(`${g('modes')} IS NOT NULL AND instr(${t}.modes, ',' || @mode || ',') > 0`), (params.mode = c.mode));
  return { where: parts.length === 0 ? '1' : parts.join(' AND '), params };
}

function authorColumns(a: EntryAuthor): [string | null, string | null, string | null, string | null, string | null] {
  return [a.keyId, a.keyName, a.person?.id ?? null, a.person?.login ?? null, a.person?.name ?? null];
}

function authorOf(r: EntryRow): EntryAuthor {
  return {
    keyId: r.api_key_id,
    keyName: r.api_key_name,
    person: r.user_id === null ? null : { id: r.user_id, login: r.user_login ?? '', name: r.user_name ?? '' },
  };
}
