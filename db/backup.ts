/**
 * Backups of the SQLite file, as SQL sees them (docs/operations.md#backups-and-restore): the
 * online copy through SQLite's backup API, the read-only inspection of a copy (integrity, the
 * audit chains, the counts), the record of each backup (`backup_runs`, migration 026), and the
 * checks a restore needs (the schema version of a file, whether any other connection has it open).
 */
import { copyFileSync, existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import type { Statement } from 'better-sqlite3';
import { AccessStore } from './access-store';
import { AuditChain, type ChainReport } from './audit-chain';
import type { Db } from './database';
import { isDamage } from './faults';
import { checkBeforeOpen } from './open-check';

/** What a backup counts, by the table that holds it. */
export const COUNTED_TABLES = {
  reports: 'label_reports',
  people: 'users',
  reviewEntries: 'report_reviews',
  changeLogEntries: 'change_log',
  alarms: 'alarms',
  webhooks: 'webhooks',
  companies: 'companies',
  apiKeys: 'api_keys',
} as const;

export type CountName = keyof typeof COUNTED_TABLES;
/** Rows of each counted table; null where the file's schema has no such table yet. */
export type BackupCounts = Record<CountName, number | null>;

/** How many pages each step of the online copy takes: about 256 KiB at SQLite's 4 KiB pages. */
export const PAGES_PER_STEP = 64;

/** How long the copy's connection waits for another's lock while it opens and counts. */
const COPY_BUSY_TIMEOUT_MS = 5000;

function tableExists(db: Db, table: string): boolean {
  return db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?").get(table) !== undefined;
}

/** The rows of each counted table, in the connection's current read transaction. */
export function countRows(db: Db): BackupCounts {
  const counts = {} as BackupCounts;
  for (const [name, table] of Object.entries(COUNTED_TABLES) as [CountName, string][]) {
    counts[name] = tableExists(db, table) ? (db.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number) : null;
  }
  return counts;
}

export interface CopyResult {
  /** The counts of the source in the very snapshot the copy holds. */
  counts: BackupCounts;
  schemaVersion: number;
  pages: number;
}

/**
 * Copies `source` into `destination` (a new file) while other connections go on writing to it.
 * A connection of its own opens one read transaction first, so that every step of the backup
 * copies the same snapshot (WAL mode: writers are not held up, and a write meanwhile does not
 * make the copy start over) and the counts read in it are those of the copy. Each step copies
 * `pagesPerStep` pages, and the event loop turns between steps. The copy ends in SQLite's
 * rollback journal mode, one self-contained file (no -wal to go with it).
 */
export async function copyDatabase(
  source: string,
  destination: string,
  pagesPerStep = PAGES_PER_STEP,
  /** Files copied once the snapshot is taken (the checkpoints file beside the database), when there. */
  sideFiles: readonly { from: string; to: string }[] = [],
): Promise<CopyResult> {
  const db = new Database(source, { readonly: true, fileMustExist: true });
  let counts: BackupCounts;
  let schemaVersion: number;
  let pages = 0;
  try {
    db.pragma(`busy_timeout = ${COPY_BUSY_TIMEOUT_MS}`);
    db.exec('BEGIN');
    // The first read starts the snapshot the whole copy then reads.
    schemaVersion = db.pragma('user_version', { simple: true }) as number;
    counts = countRows(db);
    for (const side of sideFiles) if (existsSync(side.from)) copyFileSync(side.from, side.to);
    const done = await db.backup(destination, {
      progress: ({ totalPages }) => {
        pages = totalPages;
        return pagesPerStep;
      },
    });
    pages = done.totalPages;
    db.exec('COMMIT');
  } finally {
    db.close();
  }
  const copy = new Database(destination, { fileMustExist: true });
  try {
    copy.pragma('journal_mode = DELETE');
  } finally {
    copy.close();
  }
  return { counts, schemaVersion, pages };
}

export interface CopyInspection {
  /** `PRAGMA integrity_check`'s lines: `['ok']` when sound. */
  integrity: string[];
  schemaVersion: number;
  counts: BackupCounts;
  /** The audit chains as `labeldesk audit verify` checks them; null before schema 13, which has none. */
  chains: ChainReport | null;
  /** The chain of who saw which report, as `labeldesk audit verify` checks it; null before the schema that keeps it. */
  access: ReturnType<AccessStore['verify']> | null;
}

/**
 * Reads a copy opened read-only: its integrity, schema version, counts and audit chains (the
 * same check as `labeldesk audit verify`, AuditChain.verify). Throws when the file is no SQLite
 * database at all.
 */
export function inspectCopy(file: string): CopyInspection {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const integrity = (db.pragma('integrity_check') as { integrity_check: string }[]).map((r) => r.integrity_check);
    const schemaVersion = db.pragma('user_version', { simple: true }) as number;
    if (integrity.length !== 1 || integrity[0] !== 'ok') return { integrity, schemaVersion, counts: countRows(db), chains: null, access: null };
    return db.transaction(() => ({
      integrity,
      schemaVersion,
      counts: countRows(db),
      chains: tableExists(db, 'audit_backfill') ? new AuditChain(db).verify() : null,
      access: tableExists(db, 'report_access') ? new AccessStore(db).verify() : null,
    }))();
  } finally {
    db.close();
  }
}

/** The schema version of a database file, read without opening it for writing. */
export function schemaVersionOf(file: string): number {
  checkBeforeOpen(file);
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return db.pragma('user_version', { simple: true }) as number;
  } finally {
    db.close();
  }
}

/**
 * Whether no other connection has the file open (no running service, no command), checked by
 * leaving the write-ahead log: SQLite lets a connection change the journal mode of a file in
 * WAL mode only while it is the file's one connection, and a file in rollback journal mode
 * then takes an exclusive lock only when nobody reads it. Leaving the log also copies the log
 * into the file, so the file stands alone afterwards (no -wal beside it).
 */
export function nobodyElseHasOpen(file: string): boolean {
  const db = new Database(file, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 0');
    try {
      if (db.pragma('journal_mode = DELETE', { simple: true }) !== 'delete') return false;
      db.exec('BEGIN EXCLUSIVE');
      db.exec('ROLLBACK');
      return true;
    } catch (err) {
      if (String((err as { code?: unknown }).code).startsWith('SQLITE_BUSY')) return false;
      // No LabelDesk can have open what SQLite cannot read: every one refuses a damaged file at its start.
      if (isDamage(err)) return true;
      throw err;
    }
  } finally {
    db.close();
  }
}

/** One backup as `backup_runs` keeps it. */
export interface BackupRunRecord {
  at: string;
  file: string;
  bytes: number | null;
  reason: string;
  ok: boolean;
  failure: string | null;
  counts: Partial<BackupCounts>;
  sha256: string | null;
}

interface BackupRunRow {
  id: number;
  at: string;
  file: string;
  bytes: number | null;
  reason: string;
  ok: number;
  failure: string | null;
  counts: string;
  sha256: string | null;
}

const fromRow = (row: BackupRunRow): BackupRunRecord & { id: number } => ({
  id: row.id,
  at: row.at,
  file: row.file,
  bytes: row.bytes,
  reason: row.reason,
  ok: row.ok === 1,
  failure: row.failure,
  counts: JSON.parse(row.counts) as Partial<BackupCounts>,
  sha256: row.sha256,
});

/** The backups of this database, newest first. */
export class BackupRunStore {
  private readonly insert: Statement;
  private readonly newest: Statement;
  private readonly newestGood: Statement;

  constructor(db: Db) {
    this.insert = db.prepare('INSERT INTO backup_runs (at, file, bytes, reason, ok, failure, counts, sha256) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
    this.newest = db.prepare('SELECT * FROM backup_runs ORDER BY at DESC, id DESC LIMIT ?');
    this.newestGood = db.prepare('SELECT * FROM backup_runs WHERE ok = 1 ORDER BY at DESC, id DESC LIMIT 1');
  }

  record(run: BackupRunRecord): void {
    this.insert.run(run.at, run.file, run.bytes, run.reason, run.ok ? 1 : 0, run.failure, JSON.stringify(run.counts), run.sha256);
  }

  list(limit: number): (BackupRunRecord & { id: number })[] {
    return (this.newest.all(limit) as BackupRunRow[]).map(fromRow);
  }

  lastGood(): (BackupRunRecord & { id: number }) | undefined {
    const row = this.newestGood.get() as BackupRunRow | undefined;
    return row && fromRow(row);
  }
}

/**
 * Records a backup in the database it was taken of, on a connection of its own (a command's:
 * the service may have the file open meanwhile). False when the file's schema has no
 * `backup_runs` yet (a database older than schema 26, backed up before its migration).
 */
export function recordBackupRun(file: string, run: BackupRunRecord): boolean {
  const db = new Database(file, { fileMustExist: true });
  try {
    db.pragma(`busy_timeout = ${COPY_BUSY_TIMEOUT_MS}`);
    if (!tableExists(db, 'backup_runs')) return false;
    new BackupRunStore(db).record(run);
    return true;
  } finally {
    db.close();
  }
}
