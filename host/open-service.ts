/**
 * The composition root: the service on one SQLite file, composed in this one place. The rules
 * (service/), with the outboxes listening to the one writer inside its transactions, the mirror
 * of a remote (sync/) and webhook delivery (webhooks/): what the HTTP layer, the command line
 * and the desktop host use. The database stays inside.
 */
import { monotonicFor, withMonotonic, type Monotonic } from '../service/clock';
import { AlarmQueue, type AlarmQueueOptions } from '../alarms/alarm-queue';
import { DataStore } from '../db/data-store';
import type { CheckpointerOptions, WalCheckpointer } from '../db/wal-checkpointer';
import { AlarmService } from '../service/alarms';
import { Backups, backupSettingsFrom, type BackupSettings } from '../service/backups';
import { BackupSchedule, type BackupScheduleOptions } from '../jobs/backup-schedule';
import type { ReportRead } from '../service/label-reports';
import { ReportWriter } from '../service/report-writer';
import { ReadPool, type ReadPoolOptions } from '../service/read-pool';
import { InThreadReads, type Reads } from '../service/reads';
import { composeRules, type ServiceRules } from '../service/rules';
import { SyncMirror } from '../sync/mirror';
import { SyncOutbox } from '../sync/outbox';
import { DeliveryWorker, type DeliveryOptions } from '../webhooks/delivery-worker';
import { RetrySchedule } from '../webhooks/retry-schedule';
import { AuditKeyError, type AuditKeySource } from '../service/audit-checkpoints';
import { auditKeyOf } from './audit-key';
import { DatabaseDamagedError } from '../db/faults';

export interface Service extends ServiceRules {
  /** The mirror of a remote instance (docs/sync.md#what-the-mirror-holds): what the sync worker reads and writes. */
  sync: SyncMirror;
  /** Starts delivering the webhook outbox of this database (the running service does; commands do not). */
  deliverWebhooks(options?: DeliveryOptions): DeliveryWorker;
  /** Alarm rules, alarms and who was told, settings and the SMTP relay (its password in memory). */
  alarms: AlarmService;
  /** Starts sending alarm e-mails, escalations and digests (the running service does; commands do not). */
  deliverAlarms(options?: AlarmQueueOptions): AlarmQueue;
  /** Moves the database's checkpoints to a thread of their own (the running service does; commands do not). */
  checkpointOffThread(options?: CheckpointerOptions): Promise<WalCheckpointer | null>;
  /** Backups of this database: taken now, listed with their verification, the schedule's state. */
  backups: Backups;
  /** Starts the backup schedule (the running service does; commands do not). */
  scheduleBackups(options?: BackupScheduleOptions): BackupSchedule;
  /** List pages and retrieve, off the event loop on the read workers (service/read-pool.ts). */
  reads: Reads;
}

export interface ServiceOptions {
  now?: () => Date;
  /**
   * The monotonic clock durations are measured on (service/clock.ts); by default the system's,
   * or `now` itself when a test gives `now` alone.
   */
  monotonic?: Monotonic;
  /** See OpenOptions.busyTimeoutMs: a server keeps it short and waits for a busy database itself. */
  busyTimeoutMs?: number;
  /** See OpenOptions.openBusyTimeoutMs. */
  openBusyTimeoutMs?: number;
  /** See OpenOptions.transientInMemory: the running service's connection, which never imports. */
  transientInMemory?: boolean;
  /** Told of each list and retrieve read from the database (tests count them). */
  onRead?: (read: ReportRead) => void;
  /** Told of each report read whole, by id (tests count the reads of a write). */
  onReportLoad?: (id: string) => void;
  /** What signs the audit checkpoints; default the key file beside the database (host/audit-key.ts). */
  auditKey?: AuditKeySource;
  /** The backup settings, over those of the environment (LABELDESK_BACKUP_*). */
  backup?: Partial<BackupSettings> & { pagesPerStep?: number };
  /**
   * The read workers' settings (service/read-pool.ts), or 'inThread': the reads on this thread's
   * connection, as a database in memory always has them (tests whose servers should not pay for
   * starting a worker, commands that read once).
   */
  readers?: ReadPoolOptions | 'inThread';
}

export function openService(dbFile: string, options: ServiceOptions = {}): Service {
  // Every part gets the wall clock with its monotonic clock (service/clock.ts).
  const now = withMonotonic(options.now ?? (() => new Date()), monotonicFor(options.now, options.monotonic));
  const data = withBackupsNamed(dbFile, options.backup?.dir, () =>
    DataStore.open(dbFile, {
      busyTimeoutMs: options.busyTimeoutMs,
      openBusyTimeoutMs: options.openBusyTimeoutMs,
      transientInMemory: options.transientInMemory,
      onReportLoad: options.onReportLoad,
    }),
  );
  const writer = new ReportWriter(data, now);
  const { rules, webhookOutbox } = composeRules(data, writer, now, options.onRead);
  rules.audit.checkpoints.useKeys(options.auditKey ?? auditKeyOf(dbFile));
  // Local edits of mirrored reports are queued for the push in the transaction of the edit.
  const syncOutbox = new SyncOutbox(data, now);
  writer.onChange((change) => syncOutbox.recordChange(change));
  // An alert that rises raises its alarms in the transaction of its change.
  const alarms = new AlarmService(data, now);
  writer.onChange(alarms.listener());
  writer.onCreateMany(alarms.manyListener());
  alarms.announceWebhooksWith(() => webhookOutbox.notify());
  const { pagesPerStep, ...backupSettings } = options.backup ?? {};
  let backups: Backups;
  try {
    // Each backup holds a checkpoint of the trail it holds; a desk without an audit key backs up without one.
    const signCheckpoint = () => {
      try {
        rules.audit.checkpoint();
      } catch (err) {
        if (!(err instanceof AuditKeyError)) throw err;
      }
    };
    backups = new Backups(data, { ...backupSettingsFrom(dbFile), ...backupSettings }, now, pagesPerStep, signCheckpoint);
  } catch (err) {
    data.close();
    throw err;
  }
  // A database in memory is this connection's alone: no worker can open it.
  const inMemory = dbFile === ':memory:' || dbFile === '';
  const reads: Reads =
    inMemory || options.readers === 'inThread'
      ? new InThreadReads(rules)
      : new ReadPool(dbFile, { busyTimeoutMs: options.busyTimeoutMs, onRead: options.onRead, now, ...options.readers });
  return {
    ...rules,
    reads,
    // The readers close first: the writer's connection, the last to close, copies what is left of the log.
    close: () => {
      reads.close();
      rules.close();
    },
    sync: new SyncMirror(data, writer, syncOutbox, webhookOutbox, now),
    deliverWebhooks: (delivery) => {
      const worker = new DeliveryWorker(data, { now, ...delivery });
      webhookOutbox.onDue(() => worker.wake());
      return worker.start();
    },
    alarms,
    deliverAlarms: (options) => {
      const queue = new AlarmQueue(data, alarms, { now, schedule: RetrySchedule.fromEnvironment(), ...options });
      alarms.onDue(() => queue.wake());
      return queue.start();
    },
    checkpointOffThread: (checkpoints) => data.checkpointOffThread(checkpoints),
    backups,
    scheduleBackups: (schedule) => new BackupSchedule(backups, { now, ...schedule }).start(),
  };
}


/**
 * `open()`, whose refusal of a damaged file names the folder of its backups too (`dir`, else
 * where the environment's settings put them), so the message says where to restore from.
 */
function withBackupsNamed<T>(dbFile: string, dir: string | undefined, open: () => T): T {
  try {
    return open();
  } catch (err) {
    throw backupsNamed(err, dbFile, dir);
  }
}

/** `err`, and when it is the refusal of a damaged file, with the folder of the file's backups named. */
export function backupsNamed(err: unknown, dbFile: string, dir?: string): unknown {
  if (!(err instanceof DatabaseDamagedError) || err.backupDir) return err;
  let backupDir = dir;
  try {
    backupDir ??= backupSettingsFrom(dbFile).dir;
  } catch {
    // Settings that do not parse are refused at the start in their own words; here the damage comes first.
  }
  return backupDir ? err.withBackupDir(backupDir) : err;
}
