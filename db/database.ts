/**
 * Opening the SQLite file: pragmas and numbered migrations. One connection writes; every
 * write goes through a transaction so a killed process leaves either all of it or none.
 */
import Database from 'better-sqlite3';
import { DatabaseDamagedError, databaseFault } from './faults';
import { checkBeforeOpen, closeLeavingFiles } from './open-check';
import initial from './migrations/001-initial';
import changeLog from './migrations/002-change-log';
import webhooks from './migrations/003-webhooks';
import review from './migrations/004-review';
import sync from './migrations/005-sync';
import listing from './migrations/006-listing';
import rareValueIndexes from './migrations/007-rare-value-indexes';
import companyStateByReport from './migrations/008-company-state-by-report';
import sortIndexes from './migrations/009-sort-indexes';
import syncOutboxLeases from './migrations/010-sync-outbox-leases';
import syncRefused from './migrations/011-sync-refused';
import syncMirrorFigures from './migrations/012-sync-mirror-figures';
import peopleAndAudit from './migrations/013-people-and-audit';
import alarms from './migrations/014-alarms';
import listingCounts from './migrations/015-listing-counts';
import reviewCurrent from './migrations/016-review-current';
import listingWritesWhatChanged from './migrations/017-listing-writes-what-changed';
import figureOrderIndexes from './migrations/018-figure-order-indexes';
import customFieldCounts from './migrations/019-custom-field-counts';
import customFieldCountsByKey from './migrations/020-custom-field-counts-by-key';
import keyOrderIndexes from './migrations/021-key-order-indexes';
import groupFigures from './migrations/022-group-figures';
import groupFiguresOncePerWrite from './migrations/023-group-figures-once-per-write';
import searchWalksDefaultOrder from './migrations/024-search-walks-default-order';
import customFieldPairCounts from './migrations/025-custom-field-pair-counts';
import backupRuns from './migrations/026-backup-runs';
import auditCheckpoints from './migrations/027-audit-checkpoints';
import customFieldPairsOfNarrowReports from './migrations/028-custom-field-pairs-of-narrow-reports';
import stateWrittenOnce from './migrations/029-state-written-once';
import shipments from './migrations/030-shipments';
import sessionsPasswordsAndAccess from './migrations/031-sessions-passwords-and-access';
import signedChanges from './migrations/032-signed-changes';
import shipmentListing from './migrations/033-shipment-listing';
import shipmentCounts from './migrations/034-shipment-counts';
import shipmentGrouping from './migrations/035-shipment-grouping';

export type Db = Database.Database;

/** Index i holds the SQL that takes the schema from version i to i + 1. Append only. */
export const MIGRATIONS: readonly string[] = [initial, changeLog, webhooks, review, sync, listing, rareValueIndexes, companyStateByReport, sortIndexes, syncOutboxLeases, syncRefused, syncMirrorFigures, peopleAndAudit, alarms, listingCounts, reviewCurrent, listingWritesWhatChanged, figureOrderIndexes, customFieldCounts, customFieldCountsByKey, keyOrderIndexes, groupFigures, groupFiguresOncePerWrite, searchWalksDefaultOrder, customFieldPairCounts, backupRuns, auditCheckpoints, customFieldPairsOfNarrowReports, stateWrittenOnce, shipments, sessionsPasswordsAndAccess, signedChanges, shipmentListing, shipmentCounts, shipmentGrouping];
export const SCHEMA_VERSION = MIGRATIONS.length;

export interface OpenOptions {
  readonly?: boolean;
  /**
   * How long a statement waits for another connection's write lock before SQLITE_BUSY. The wait
   * blocks the thread: a server keeps it short and waits without blocking instead.
   */
  busyTimeoutMs?: number;
  /**
   * Statement journals and SQLite's transient tables in memory rather than in files: for the
   * running service's connection, which never stages an import. A write whose triggers change
   * more than 64 KiB of pages (a tap: about 36 pages) otherwise spills its statement journal to a
   * file made, written and deleted in that one write, a third of a tap's CPU time. Sorts are not
   * affected (SQLite's sorter spills to files whatever this says); an import's staging tables
   * would be, so an import refuses a connection opened this way.
   */
  transientInMemory?: boolean;
  /**
   * How long opening waits for another connection's lock, blocking the thread: by default as
   * long as a command would (OPEN_BUSY_TIMEOUT_MS). A caller that waits for a busy file itself,
   * without blocking (the service's start), gives less.
   */
  openBusyTimeoutMs?: number;
}

/** How long a connection waits for another's lock: while opening, and after unless told otherwise. */
const OPEN_BUSY_TIMEOUT_MS = 5000;

/** The pragma that makes a connection wait `ms` (by default OPEN_BUSY_TIMEOUT_MS) for another's lock. */
const busyTimeout = (ms = OPEN_BUSY_TIMEOUT_MS) => `busy_timeout = ${Math.max(0, Math.floor(ms))}`;

/**
 * Opens `file` once it passes the checks of open-check.ts; a damaged file, a full disk or a folder
 * that cannot be written throws the error of db/faults.ts that says so.
 */
export function openDatabase(file: string, options: OpenOptions = {}): Db {
  checkBeforeOpen(file);
  let db: Db;
  try {
    db = new Database(file, { readonly: options.readonly ?? false });
  } catch (err) {
    throw databaseFault(err, file) ?? err;
  }
  try {
    // Opening waits as long as a command would: another connection closing (a service stopped a
    // moment ago, its last checkpoint) holds the file for a while. The caller's wait applies after.
    db.pragma(busyTimeout(options.openBusyTimeoutMs));
    if (!options.readonly) {
      // WAL keeps readers off the writer's back; NORMAL sync in WAL mode survives a killed
      // process (only an OS crash or power loss can lose the last commits).
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      db.pragma('foreign_keys = ON');
      if (options.transientInMemory) db.pragma('temp_store = MEMORY');
      migrate(db);
      // Query plans follow the statistics; a database filled by an import has none until
      // analysed. A bounded sample keeps this quick at any size.
      db.pragma('analysis_limit = 1000');
      db.pragma('optimize = 0x10002');
    }
    db.pragma(busyTimeout(options.busyTimeoutMs));
    return db;
  } catch (err) {
    const fault = databaseFault(err, file);
    if (fault instanceof DatabaseDamagedError) closeLeavingFiles(db, file);
    else db.close();
    throw fault ?? err;
  }
}

/** Takes the schema to `target` (the newest by default; tests stop earlier to upgrade with data). */
export function migrate(db: Db, target = SCHEMA_VERSION): void {
  const current = schemaVersion(db);
  if (current > SCHEMA_VERSION) {
    throw new Error(
      `the database has schema version ${current}, newer than this LabelDesk understands (${SCHEMA_VERSION}); use a newer LabelDesk`,
    );
  }
  for (let version = current; version < target; version++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[version]);
      db.pragma(`user_version = ${version + 1}`);
    })();
  }
}

export function schemaVersion(db: Db): number {
  return db.pragma('user_version', { simple: true }) as number;
}
