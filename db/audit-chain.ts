/**
 * The audit trail's hash chains. Each report has two chains: its change log entries (by seq) and
 * its review entries of every company (by id). An entry's prev_hash is the hash of the entry
 * before it in the same chain (null for the first), and its hash is SHA-256 over the canonical
 * form of every other column of its row, prev_hash included. An entry edited, deleted or moved
 * behind the service's back breaks its own hash or the next entry's link, and `verify` finds it.
 *
 * The chain proves that nothing was changed without recomputing the hashes after it; it is no
 * signature: whoever can write the file and knows this scheme can forge a whole chain, and the
 * deletion of a chain's newest entries leaves no trace in it. The signed checkpoints of each
 * chain's head (service/audit-checkpoints.ts, docs/review-and-audit.md#checkpoints) see both.
 */
import { createHash } from 'node:crypto';
import type { Statement } from 'better-sqlite3';
import type { Db } from './database';

export type AuditTable = 'change_log' | 'report_reviews';
export const AUDIT_TABLES: readonly AuditTable[] = ['change_log', 'report_reviews'];

/** Each table's entry number: the order of its chains. */
const ID_COLUMN: Record<AuditTable, string> = { change_log: 'seq', report_reviews: 'id' };

export type Row = Record<string, unknown>;

/** Every table whose rows are hashed this way: the two chains per report, and the one chain of report_access (db/access-store.ts). */
export type HashedTable = AuditTable | 'report_access';

/**
 * The text an entry's hash covers: the table's name and every column but `hash`, by name, with
 * the columns that hold null left out, so that a column a later schema adds (null in the old
 * rows) leaves the old hashes as they were.
 */
export function canonicalEntry(table: HashedTable, row: Row): string {
  const columns = Object.keys(row)
    .filter((name) => name !== 'hash' && row[name] !== null && row[name] !== undefined)
    .sort();
  return JSON.stringify([table, columns.map((name) => [name, row[name]])]);
}

export function entryHash(table: HashedTable, row: Row): string {
  return createHash('sha256').update(canonicalEntry(table, row), 'utf8').digest('hex');
}

/** Where a chain stands: its entry count, the number of its newest entry and that entry's hash. */
export interface ChainHead {
  reportId: string;
  length: number;
  lastId: number;
  head: string | null;
}

export type ChainProblemKind = 'contentChanged' | 'brokenLink' | 'missingEntry' | 'unsealed';

export interface ChainProblem {
  reportId: string;
  table: AuditTable;
  /** The seq (change_log) or id (report_reviews) of the first entry found wrong in its chain. */
  entry: number;
  kind: ChainProblemKind;
  detail: string;
}

export interface ChainReport {
  /** Entries read. */
  checked: number;
  /** Chains (report and table) read. */
  chains: number;
  /** The first problem of each broken chain, by table then report. */
  problems: ChainProblem[];
}

class TableChain {
  private readonly row: Statement;
  private readonly previousHash: Statement;
  private readonly seal: Statement;
  private readonly unsealedFrom: Statement;
  readonly all: Statement;
  readonly ofReport: Statement;
  private readonly maxId: Statement;
  private readonly countId: Statement;
  private readonly headsSince: Statement;
  private readonly entryById: Statement;

  constructor(
    db: Db,
    readonly table: AuditTable,
  ) {
    const id = ID_COLUMN[table];
    this.row = db.prepare(`SELECT * FROM ${table} WHERE ${id} = ?`);
    this.previousHash = db.prepare(`SELECT hash FROM ${table} WHERE label_report_id = ? AND ${id} < ? ORDER BY ${id} DESC LIMIT 1`).pluck();
    this.seal = db.prepare(`UPDATE ${table} SET prev_hash = ?, hash = ? WHERE ${id} = ?`);
    this.unsealedFrom = db.prepare(`SELECT ${id} FROM ${table} WHERE ${id} > ? AND hash IS NULL ORDER BY ${id}`).pluck();
    this.all = db.prepare(`SELECT * FROM ${table} ORDER BY label_report_id, ${id}`);
    this.ofReport = db.prepare(`SELECT * FROM ${table} WHERE label_report_id = ? ORDER BY ${id}`);
    this.maxId = db.prepare(`SELECT COALESCE(MAX(${id}), 0) FROM ${table}`).pluck();
    this.countId = db.prepare(`SELECT count(*) FROM ${table}`).pluck();
    // Each chain with an entry after ?: its length, its newest entry and that entry's hash.
    this.headsSince = db.prepare(
      `SELECT g.report AS reportId, g.length AS length, g.last AS lastId, t.hash AS head
         FROM (SELECT label_report_id AS report, count(*) AS length, max(${id}) AS last FROM ${table}
                WHERE label_report_id IN (SELECT label_report_id FROM ${table} WHERE ${id} > ?)
                GROUP BY label_report_id) g
         JOIN ${table} t ON t.${id} = g.last
        ORDER BY g.report`,
    );
    this.entryById = db.prepare(`SELECT label_report_id AS reportId, hash FROM ${table} WHERE ${id} = ?`);
  }

  /** The chains with an entry after `afterId` (0: every chain), by report. */
  heads(afterId: number): ChainHead[] {
    return this.headsSince.all(afterId) as ChainHead[];
  }

  /** The report and hash of one entry, or undefined when there is none of that number. */
  entry(id: number): { reportId: string; hash: string | null } | undefined {
    return this.entryById.get(id) as { reportId: string; hash: string | null } | undefined;
  }

  count(): number {
    return this.countId.get() as number;
  }

  /** Links the entry to its chain and hashes it; in the transaction that wrote it. */
  sealEntry(id: number): void {
    const row = this.row.get(id) as Row;
    const prev = (this.previousHash.get(row.label_report_id, id) as string | null | undefined) ?? null;
    const linked = { ...row, prev_hash: prev };
    this.seal.run(prev, entryHash(this.table, linked), id);
  }

  /** Seals, in order, the entries after `id` that have no hash yet (an import's bulk insert). */
  sealAfter(id: number): number {
    const ids = this.unsealedFrom.all(id) as number[];
    for (const each of ids) this.sealEntry(each);
    return ids.length;
  }

  lastId(): number {
    return this.maxId.get() as number;
  }

  /**
   * Seals the entries written before the chains existed: those of each chain that come before
   * its first sealed entry. An entry without hash after a sealed one is never sealed here: it
   * stays for `verify` to report. Returns how many it sealed; a second run seals none.
   */
  backfill(): number {
    const sealedReports = new Set<string>();
    const toSeal: number[] = [];
    const id = ID_COLUMN[this.table];
    for (const row of this.all.iterate() as Iterable<Row>) {
      const report = row.label_report_id as string;
      if (row.hash !== null) sealedReports.add(report);
      else if (!sealedReports.has(report)) toSeal.push(row[id] as number);
    }
    for (const each of toSeal) this.sealEntry(each);
    return toSeal.length;
  }
}

export class AuditChain {
  private readonly chains: Record<AuditTable, TableChain>;

  private readonly backfillPending: Statement;
  private readonly backfillDone: Statement;

  constructor(db: Db) {
    this.chains = { change_log: new TableChain(db, 'change_log'), report_reviews: new TableChain(db, 'report_reviews') };
    this.backfillPending = db.prepare('SELECT count(*) FROM audit_backfill').pluck();
    this.backfillDone = db.prepare('DELETE FROM audit_backfill');
  }

  seal(table: AuditTable, id: number): void {
    this.chains[table].sealEntry(id);
  }

  sealAfter(table: AuditTable, id: number): number {
    return this.chains[table].sealAfter(id);
  }

  lastId(table: AuditTable): number {
    return this.chains[table].lastId();
  }

  /** Every chain of the table with an entry numbered above `afterId` (0: all), by report. */
  heads(table: AuditTable, afterId = 0): ChainHead[] {
    return this.chains[table].heads(afterId);
  }

  /** One entry's report and hash, by its seq (change_log) or id (report_reviews). */
  entry(table: AuditTable, id: number): { reportId: string; hash: string | null } | undefined {
    return this.chains[table].entry(id);
  }

  /** How many entries the table holds. */
  count(table: AuditTable): number {
    return this.chains[table].count();
  }

  /** The stored rows, every column, in chain order: of one report, or of all (by report). */
  rows(table: AuditTable, reportId?: string): Iterable<Row> {
    const chain = this.chains[table];
    return (reportId === undefined ? chain.all.iterate() : chain.ofReport.iterate(reportId)) as Iterable<Row>;
  }

  /** Seals entries from before the chains (see TableChain.backfill); the caller holds the write transaction. */
  backfill(): number {
    return AUDIT_TABLES.reduce((n, table) => n + this.chains[table].backfill(), 0);
  }

  /**
   * The backfill, once: the migration that brought the chains asks for it, and every later write
   * seals its own entries. Reading both tables whole at every open would cost each start of the
   * service and of the command line seconds at a million reports.
   */
  backfillOnce(): number {
    if ((this.backfillPending.get() as number) === 0) return 0;
    const sealed = this.backfill();
    this.backfillDone.run();
    return sealed;
  }

  /** Reads every chain and names the first wrong entry of each broken one. */
  verify(): ChainReport {
    const result: ChainReport = { checked: 0, chains: 0, problems: [] };
    for (const table of AUDIT_TABLES) {
      const id = ID_COLUMN[table];
      let report: string | null = null;
      let previous: string | null = null;
      let broken = false;
      let seen = new Set<string>();
      for (const row of this.chains[table].all.iterate() as Iterable<Row>) {
        result.checked++;
        if (row.label_report_id !== report) {
          report = row.label_report_id as string;
          previous = null;
          broken = false;
          seen = new Set();
          result.chains++;
        }
        if (broken) continue;
        const problem = checkEntry(table, row, previous, seen);
        if (problem) {
          result.problems.push({ reportId: report as string, table, entry: row[id] as number, ...problem });
          broken = true;
        }
        previous = row.hash as string | null;
        if (previous !== null) seen.add(previous);
      }
    }
    return result;
  }
}

function checkEntry(table: AuditTable, row: Row, expectedPrev: string | null, seen: Set<string>): Pick<ChainProblem, 'kind' | 'detail'> | null {
  if (row.hash === null) return { kind: 'unsealed', detail: 'the entry has no hash: it was written or cleared outside the service' };
  if (row.prev_hash !== expectedPrev) {
    if (expectedPrev === null) {
      return { kind: 'missingEntry', detail: 'the entry links to an earlier entry, but it is the first of its chain: an entry before it is missing' };
    }
    if (row.prev_hash === null || !seen.has(row.prev_hash as string)) {
      return { kind: 'missingEntry', detail: `the entry links to ${short(row.prev_hash)}, which is no entry of its chain: an entry before it is missing` };
    }
    return { kind: 'brokenLink', detail: `the entry links to ${short(row.prev_hash)}, not to the entry before it (${short(expectedPrev)})` };
  }
  const actual = entryHash(table, row);
  if (actual !== row.hash) return { kind: 'contentChanged', detail: `the entry's content hashes to ${short(actual)}, not to its stored hash ${short(row.hash)}` };
  return null;
}

function short(hash: unknown): string {
  return typeof hash === 'string' ? hash.slice(0, 12) : 'nothing';
}
