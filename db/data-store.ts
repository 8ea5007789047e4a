/**
 * The one typed interface to the SQLite file: every store on one connection, and the one way to
 * run a transaction. Nothing outside db/ sees the connection.
 */
import { AccessStore } from './access-store';
import { AlarmStore } from './alarm-store';
import { AuditChain } from './audit-chain';
import { AuditWalk } from './audit-walk';
import { AuditCheckpointStore, checkpointFileOf } from './audit-checkpoints';
import { BackupRunStore } from './backup';
import { ChangeLogStore } from './change-log-store';
import { ChangeRequestStore } from './change-request-store';
import { CompanyStore } from './company-store';
import { openDatabase, type Db, type OpenOptions } from './database';
import { DatabaseDamagedError, databaseFault } from './faults';
import { closeLeavingFiles } from './open-check';
import { ImportStaging } from './import-staging';
import { InsightsStore } from './insights-store';
import { KeyStore } from './key-store';
import { UserStore } from './user-store';
import { WalCheckpointer, type CheckpointerOptions } from './wal-checkpointer';
import { registerSqlFunctions } from './query/sql-functions';
import { ReportStore } from './report-store';
import { ReviewStore } from './review-store';
import { ReviewStateStore } from './review-state';
import { ShipmentStore } from './shipment-store';
import { SessionStore } from './session-store';
import { SyncStore } from './sync-store';
import { WebhookStore } from './webhook-store';

/** Another connection holds the write lock (an import switching in, another LabelDesk): nothing was written. */
export class DatabaseBusyError extends Error {
  constructor(cause: unknown) {
    super('the database is busy with another writer', { cause });
    this.name = 'DatabaseBusyError';
  }
}

/** A transaction that stays open across awaits (an import's staging, an export). */
export interface OpenTransaction {
  commit(): void;
  /** Safe to call after a failed commit or twice. */
  rollback(): void;
}

export interface DataStoreOptions extends Pick<OpenOptions, 'busyTimeoutMs' | 'openBusyTimeoutMs' | 'transientInMemory'> {
  /** Told of each report read whole, by id (tests count the reads of a request). */
  onReportLoad?: (id: string) => void;
}

export class DataStore {
  readonly companies: CompanyStore;
  readonly keys: KeyStore;
  readonly reports: ReportStore;
  readonly changes: ChangeLogStore;
  /** The hash chains of the change log and the review entries. */
  readonly audit: AuditChain;
  /** The trail across reports, newest first, in bounded walks. */
  readonly auditWalk: AuditWalk;
  /** The signed checkpoints of those chains, in the database and in the file beside it. */
  readonly checkpoints: AuditCheckpointStore;
  /** Write transactions open on this connection (nested ones count too). */
  private writing = 0;
  /** Set while a worker makes the checkpoints (checkpointOffThread). */
  private checkpointer: WalCheckpointer | null = null;
  readonly webhooks: WebhookStore;
  readonly reviews: ReviewStore;
  readonly reviewStates: ReviewStateStore;
  readonly shipments: ShipmentStore;
  readonly sync: SyncStore;
  readonly insights: InsightsStore;
  readonly users: UserStore;
  /** The sessions of people signed in, by their token's hash. */
  readonly sessions: SessionStore;
  /** Who viewed, printed or exported which report, one hash chain. */
  readonly access: AccessStore;
  readonly alarms: AlarmStore;
  /** The requests of signed verdict changes. */
  readonly changeRequests: ChangeRequestStore;
  /** The backups taken of this database and what their verification found. */
  readonly backups: BackupRunStore;

  private constructor(
    private readonly db: Db,
    /** The database file, for a second connection to the same data. */
    readonly file: string,
    options: DataStoreOptions,
  ) {
    registerSqlFunctions(db);
    this.companies = new CompanyStore(db);
    this.keys = new KeyStore(db);
    this.reports = new ReportStore(db, () => this.writing === 0, options.onReportLoad);
    this.audit = new AuditChain(db);
    this.auditWalk = new AuditWalk(db);
    this.checkpoints = new AuditCheckpointStore(db, checkpointFileOf(file));
    this.changes = new ChangeLogStore(db, this.audit);
    this.webhooks = new WebhookStore(db);
    this.reviews = new ReviewStore(db, this.audit);
    this.reviewStates = new ReviewStateStore(db);
    this.shipments = new ShipmentStore(db);
    this.sync = new SyncStore(db);
    this.insights = new InsightsStore(db);
    this.users = new UserStore(db);
    this.sessions = new SessionStore(db);
    this.access = new AccessStore(db);
    this.alarms = new AlarmStore(db);
    this.changeRequests = new ChangeRequestStore(db);
    this.backups = new BackupRunStore(db);
  }

  /** Opens (creating when missing) and migrates the file; a DatabaseBusyError while another connection holds it. */
  static open(file: string, options: DataStoreOptions = {}): DataStore {
    const store = new DataStore(busyAsError(() => openDatabase(file, options), file), file, options);
    try {
      // Entries from before the hash chains join them once, at the first open after the migration.
      store.write(() => store.audit.backfillOnce());
    } catch (err) {
      // A damaged file is left as it was found, its log and index beside it (open-check.ts).
      if (err instanceof DatabaseDamagedError) closeLeavingFiles(store.db, file);
      else store.close();
      throw err;
    }
    return store;
  }

  /**
   * A second connection to the file that only reads: what a read worker holds (service/read-pool.ts).
   * It neither migrates nor writes; under WAL it reads beside the writer, each read transaction
   * seeing every commit made before it began.
   */
  static openReader(file: string, options: Pick<DataStoreOptions, 'busyTimeoutMs'> = {}): DataStore {
    return new DataStore(busyAsError(() => openDatabase(file, { readonly: true, busyTimeoutMs: options.busyTimeoutMs }), file), file, {});
  }

  /** `fn` in one read transaction, so everything it reads describes one moment. Nests. */
  read<T>(fn: () => T): T {
    return busyAsError(() => this.db.transaction(fn)(), this.file);
  }

  /**
   * `fn` in one write transaction: all of it or none of it. IMMEDIATE takes the write lock
   * before the first read, so no other writer slips in between a read and the write it decides.
   * Inside another transaction it becomes a savepoint of that one.
   */
  write<T>(fn: () => T): T {
    this.writing++;
    try {
      const result = busyAsError(() => this.db.transaction(fn).immediate(), this.file);
      if (!this.db.inTransaction) this.checkpointer?.committed();
      return result;
    } finally {
      this.writing--;
    }
  }

  /**
   * Moves the write-ahead log's checkpoints off this connection's thread, to a worker of their
   * own (the running service does; a command that writes once and ends does not). Null where no
   * worker can start: this connection then keeps checkpointing as SQLite does by default.
   */
  async checkpointOffThread(options?: CheckpointerOptions): Promise<WalCheckpointer | null> {
    this.checkpointer ??= await WalCheckpointer.start(this.db, options);
    return this.checkpointer;
  }

  get inTransaction(): boolean {
    return this.db.inTransaction;
  }

  /**
   * A deferred transaction for work that awaits in between; the caller commits or rolls back.
   * It takes the database's write lock only if it writes to the database: one that reads, or
   * writes only this connection's temporary tables, never keeps other writers waiting.
   */
  begin(): OpenTransaction {
    const db = this.db;
    if (db.inTransaction) throw new Error('a transaction is already open on this connection');
    db.exec('BEGIN');
    return {
      commit: () => {
        try {
          db.exec('COMMIT');
        } catch (err) {
          throw databaseFault(err, this.file) ?? err;
        }
        this.checkpointer?.committed();
      },
      rollback: () => {
        if (db.inTransaction) db.exec('ROLLBACK');
      },
    };
  }

  /**
   * Runs `fn` with a larger page cache for the database and for this connection's temporary
   * tables, then with the sizes before. A bulk write (an import) touches the same pages again
   * and again: with SQLite's default of 2 MiB most of them would be read back from disk, and
   * spilled to the WAL over and over inside its one transaction. The cache is a fixed size, so
   * memory stays the same for any size of bundle.
   */
  async withLargeCache<T>(fn: () => Promise<T>): Promise<T> {
    const before = { main: this.db.pragma('main.cache_size', { simple: true }), temp: this.db.pragma('temp.cache_size', { simple: true }) };
    this.db.pragma(`main.cache_size = ${-BULK_CACHE_KIB.main}`);
    this.db.pragma(`temp.cache_size = ${-BULK_CACHE_KIB.temp}`);
    try {
      return await fn();
    } finally {
      if (this.db.open) {
        this.db.pragma(`main.cache_size = ${Number(before.main)}`);
        this.db.pragma(`temp.cache_size = ${Number(before.temp)}`);
      }
    }
  }

  /**
   * `fn`, a write of many pages (an import's switch-in), under SQLite's rollback journal rather
   * than the write-ahead log, when no other connection has the file open; else as any write.
   * Through the log, every page is written twice (to the log, then copied into the file by the
   * checkpoint at commit), a page written again goes to the log again, and each read looks the
   * page up in the log first. The rollback journal keeps only the pages the write changes that
   * existed before it: into a new site, almost nothing. It is as safe: after a crash, the next
   * connection to open the file finds the journal and rolls the write back. While it lasts,
   * another connection that opens the file finds it busy (through the log it could read the
   * state before): that is why it is only taken when nobody has the file open. The log is back
   * once it ends, committed or not.
   */
  withRollbackJournal<T>(fn: () => T): T {
    const synchronous = this.db.pragma('synchronous', { simple: true }) as number;
    if (!this.leaveWriteAheadLog()) return fn();
    try {
      return fn();
    } finally {
      this.backToWriteAheadLog(synchronous);
    }
  }

  /** Whether this connection now writes with the rollback journal; false while another connection has the file open. */
  private leaveWriteAheadLog(): boolean {
    if (this.db.memory || this.db.readonly || this.db.inTransaction) return false;
    const timeout = this.db.pragma('busy_timeout', { simple: true }) as number;
    // Leaving the log needs the file alone: another connection open makes it busy at once, and
    // waiting would only delay the write it holds the file for.
    this.db.pragma('busy_timeout = 0');
    try {
      if (this.db.pragma('journal_mode = DELETE', { simple: true }) !== 'delete') return false;
    } catch (err) {
      if (isBusy(err)) return false;
      throw err;
    } finally {
      this.db.pragma(`busy_timeout = ${timeout}`);
    }
    // NORMAL syncs the rollback journal too seldom to survive a power loss at the wrong moment;
    // FULL costs one more sync of the journal in a write this size.
    this.db.pragma('synchronous = FULL');
    return true;
  }

  private backToWriteAheadLog(synchronous: number): void {
    this.db.pragma(`synchronous = ${synchronous}`);
    try {
      this.db.pragma('journal_mode = WAL');
    } catch (err) {
      // Another connection that opened the file meanwhile put it back in WAL mode itself (every
      // connection does as it opens), and this one follows the file's mode at its next write.
      if (!isBusy(err)) throw err;
    }
  }

  /**
   * After a large write (an import, a page of a mirror): refresh the statistics the query
   * planner reads. Another connection writing meanwhile leaves them for the next time: they
   * are an aid to plans, not data, and the write before is committed already.
   */
  optimize(): void {
    try {
      this.db.pragma('optimize');
    } catch (err) {
      if (!isBusy(err)) throw err;
    }
  }

  /** Scratch tables for one import, in this connection's temporary database. */
  importStaging(): ImportStaging {
    // Staged in memory, a bundle of a million reports would take gigabytes.
    if (this.db.pragma('temp_store', { simple: true }) === 2) throw new Error('an import stages its bundle in temporary files: open the database without transientInMemory');
    return new ImportStaging(this.db);
  }

  /** A fresh install: no company and no label report. */
  isEmpty(): boolean {
    return this.read(() => this.companies.isEmpty() && this.reports.isEmpty());
  }

  get isOpen(): boolean {
    return this.db.open;
  }

  close(): void {
    // The worker's connection first: this one, the last to close, copies what is left of the log.
    this.checkpointer?.stopBeforeClose();
    if (this.db.open) this.db.close();
  }
}

/** The page cache of a bulk write, in KiB: the database's, and the staging tables'. */
const BULK_CACHE_KIB = { main: 64 * 1024, temp: 16 * 1024 };

/**
 * SQLITE_BUSY as a DatabaseBusyError: callers can wait and try again, since nothing was written.
 * And SQLite's codes of a full disk or a damaged file as the errors of db/faults.ts that say them.
 */
function busyAsError<T>(run: () => T, file: string): T {
  try {
    return run();
  } catch (err) {
    if (isBusy(err)) throw new DatabaseBusyError(err);
    throw databaseFault(err, file) ?? err;
  }
}

/** SQLITE_BUSY and its extended codes: another connection holds the lock this one needs. */
function isBusy(err: unknown): boolean {
  return String((err as { code?: unknown }).code).startsWith('SQLITE_BUSY');
}
