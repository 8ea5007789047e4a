/**
 * Prepares the database (opens, migrates, seeds demo data when asked and empty), builds the app
 * and listens: the service as one handle, the same for `serve`, `npm start` and the desktop.
 */
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { DEFAULT_DEMO } from '../demo';
import type { DemoSummary } from '../service/demo-seeder';
import { waitForDatabase } from '../db/busy';
import { DatabaseBusyError } from '../db/data-store';
import { backupsNamed, openService, type Service, type ServiceOptions } from './open-service';
import { DatabaseDamagedError } from '../db/faults';
import { backupBefore, backupSettingsFrom, type BackupRun } from '../service/backups';
import type { BackupSchedule, BackupScheduleOptions } from '../jobs/backup-schedule';
import { serviceApp } from './service-app';
import { GracefulStop, LISTEN_BACKLOG, type StopOptions } from '../http/graceful-stop';
import type { ServerLimits } from '../http/node-server';
import { MAX_CONDITIONS_LENGTH } from '../query/list-query';
import type { DeliveryOptions, DeliveryWorker } from '../webhooks/delivery-worker';
import type { AlarmQueue, AlarmQueueOptions } from '../alarms/alarm-queue';
import type { SyncController, SyncControllerOptions } from '../sync/controller';
import { CheckpointSchedule, systemClock, type AuditKeySource, type CheckpointScheduleOptions } from '../service/audit-checkpoints';

export const DEFAULT_STATIC_DIR = fileURLToPath(new URL('../dist/renderer', import.meta.url));

/** The port the desktop and `serve` take when it is free, so bookmarks and local tools keep working. */
export const DEFAULT_PORT = 4317;

/**
 * The largest valid request must fit in the request line and headers. `filter` and
 * `customFields` each take up to MAX_CONDITIONS_LENGTH (4 096) characters, and a character of 4
 * UTF-8 bytes is 12 URL characters percent-encoded (🧊 is %F0%9F%A7%8A): 2 × 4 096 × 12 = 98 304
 * bytes. 8 KiB more covers the rest: the path, the parameter names, order, the page parameters, a
 * key, and the usual headers. 106 496 bytes in all (Node's default of 16 KiB refused a filter of
 * 3 000 × ä); anything larger is a 431.
 */
export const MAX_HEADER_SIZE = 2 * MAX_CONDITIONS_LENGTH * 12 + 8 * 1024;

export const DEFAULT_LIMITS: ServerLimits = {
  requestTimeoutMs: 30_000,
  headersTimeoutMs: 10_000,
  // Well under the usual limit of 1 024 file descriptors, which the database files and Node share.
  maxConnections: 256,
  maxHeaderSize: MAX_HEADER_SIZE,
};

export interface StartOptions {
  dbFile: string;
  /** Fill a fresh database (no company, no report) with the default demo data before listening. */
  demoIfEmpty?: boolean;
  host?: string;
  port?: number;
  /** When `port` is taken, take a free one instead of failing. */
  anyPortIfTaken?: boolean;
  staticDir?: string;
  version?: string;
  logger?: boolean;
  /** How long a write waits for a database another process is writing to, before its 503. */
  busyWaitMs?: number;
  /**
   * How long the start waits for a database another process holds so that nobody can open it
   * (an import switching in under the rollback journal), and whom it tells that it waits.
   */
  openWaitMs?: number;
  onWaitingForDatabase?: () => void;
  logError?: (line: string) => void;
  /** Overrides of DEFAULT_LIMITS, as a test needs short timeouts or a small cap. */
  limits?: Partial<ServerLimits>;
  /** Overrides of the webhook delivery worker's settings (a test's short timeout, a stubbed DNS). */
  webhookDelivery?: DeliveryOptions;
  /** Overrides of the alarm queue's settings; `smtpPassword` is the relay's password, held in memory. */
  alarmDelivery?: AlarmQueueOptions & { smtpPassword?: string | null };
  /**
   * Sync with a remote (docs/sync.md), off the request path once the service listens: with
   * `remote`, from the start (`serve --remote`); else from the settings in the database when a
   * key is given (the desktop).
   */
  sync?: SyncControllerOptions;
  /** The service's clock (a test moves it past the lock after inactivity). */
  now?: () => Date;
  /** The read workers' settings (service/read-pool.ts): a test's small pool, short wait or dying worker. */
  readers?: ServiceOptions['readers'];
  /** The backup settings, over those of the environment (LABELDESK_BACKUP_*). */
  backup?: ServiceOptions['backup'];
  /** Overrides of the backup schedule's settings (a test's clock, a listener). */
  backupSchedule?: BackupScheduleOptions;
  /** What signs the audit checkpoints (the desktop's key store); default the key file beside the database. */
  auditKey?: AuditKeySource;
  /** The checkpoint schedule's settings: a test's clock, another period. */
  auditCheckpoints?: CheckpointScheduleOptions;
}

/**
 * SQLite's own wait for a lock blocks the thread, and with it every request: the service waits
 * that long at most, then waits without blocking (db/busy.ts).
 */
const SERVICE_BUSY_TIMEOUT_MS = 20;

/** The longest an import's switch-in holds a file alone (160 s at a million reports), with room to spare. */
export const OPEN_WAIT_MS = 10 * 60_000;

/** What a start that waits for the database says, once. */
export const WAITING_FOR_DATABASE = 'the database is busy: another process (an import switching in) holds it alone; LabelDesk starts once it is done';

export interface RunningService {
  url: string;
  port: number;
  app: FastifyInstance;
  service: Service;
  /** Sync with a remote: its state, settings and key. */
  sync: SyncController;
  /** The demo data this start created, or null. */
  demo: DemoSummary | null;
  /** The backup schedule, started once the service listens. */
  backupSchedule: BackupSchedule;
  /** The audit trail's signed checkpoints: at start, hourly while there were changes, at the stop. */
  checkpoints: CheckpointSchedule;
  /**
   * Stops accepting, lets in-flight requests finish (cutting them after the grace period),
   * then closes the database.
   */
  close(options?: StopOptions): Promise<void>;
}

/** The database could not be opened or migrated; nothing listens. */
export class DatabaseOpenError extends Error {
  constructor(readonly file: string, cause: unknown) {
    super((cause as Error).message, { cause });
    this.name = 'DatabaseOpenError';
  }
}

export async function startService(options: StartOptions): Promise<RunningService> {
  let service: Service;
  let beforeMigration: BackupRun | null;
  try {
    beforeMigration = await backupBeforeMigration(options);
    service = await openWhenFree(options);
  } catch (err) {
    throw new DatabaseOpenError(options.dbFile, err);
  }
  if (beforeMigration) service.backups.record(beforeMigration);
  let backupSchedule: BackupSchedule | undefined;
  let delivery: DeliveryWorker | undefined;
  let alarmQueue: AlarmQueue | undefined;
  try {
    const demo = options.demoIfEmpty && service.isEmpty() ? service.createDemoData(DEFAULT_DEMO) : null;
    // Requests never wait on the disk for a checkpoint: a thread of its own makes them.
    await service.checkpointOffThread();
    // Before listening, so that delivery settings that do not parse stop the start.
    const worker = (delivery = service.deliverWebhooks({ logError: options.logError, ...options.webhookDelivery }));
    const { smtpPassword, ...alarmOptions } = options.alarmDelivery ?? {};
    if (smtpPassword !== undefined) service.alarms.setSmtpPassword(smtpPassword);
    const { app, sync } = serviceApp(service, {
      sync: options.sync,
      staticDir: options.staticDir ?? DEFAULT_STATIC_DIR,
      version: options.version,
      logger: options.logger,
      busyWaitMs: options.busyWaitMs,
      logError: options.logError,
      limits: { ...DEFAULT_LIMITS, ...options.limits },
    });
    const graceful = new GracefulStop(app.server);
    const host = options.host ?? '127.0.0.1';
    const wanted = options.port ?? 0;
    try {
      await app.listen({ host, port: wanted, backlog: LISTEN_BACKLOG });
    } catch (err) {
      if (!options.anyPortIfTaken || wanted === 0 || (err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
      await app.listen({ host, port: 0, backlog: LISTEN_BACKLOG });
    }
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const urlHost = host.includes(':') ? `[${host}]` : host;
    const serviceUrl = `http://${urlHost}:${port}`;
    // Once the address is known: a mail's link opens the report here unless the relay's settings name another.
    const alarms = (alarmQueue = service.deliverAlarms({ logError: options.logError, appUrl: () => serviceUrl, ...alarmOptions }));
    sync.start();
    // The first read worker starts now rather than at the first read, which would wait for it.
    if (options.readers === undefined) service.reads.warm();
    const backups = (backupSchedule = service.scheduleBackups({ logError: options.logError, ...options.backupSchedule }));
    const checkpoints = new CheckpointSchedule(service.audit.checkpoints, {
      logError: options.logError,
      clock: systemClock(options.now),
      ...options.auditCheckpoints,
    }).start();
    let closing: Promise<void> | undefined;
    return {
      url: `http://${urlHost}:${port}`,
      port,
      app,
      service,
      sync,
      demo,
      backupSchedule: backups,
      checkpoints,
      close: (closeOptions) =>
        (closing ??= graceful.stop(
          () =>
            app
              .close()
              .then(() => Promise.all([worker.stop(), alarms.stop(), backups.stop(), service.backups.whenIdle()]))
              .then(() => {
                checkpoints.stop();
                service.close();
              }),
          closeOptions,
        )),
    };
  } catch (err) {
    await delivery?.stop(0);
    await alarmQueue?.stop(0);
    await backupSchedule?.stop();
    service.close();
    throw err;
  }
}

/** The service on the file, once no other process holds it alone; told once when it has to wait. */
function openWhenFree(options: StartOptions): Promise<Service> {
  let told = false;
  const open = () => {
    try {
      return openService(options.dbFile, {
        busyTimeoutMs: SERVICE_BUSY_TIMEOUT_MS,
        openBusyTimeoutMs: SERVICE_BUSY_TIMEOUT_MS,
        transientInMemory: true,
        now: options.now,
        readers: options.readers,
        backup: options.backup,
        auditKey: options.auditKey,
      });
    } catch (err) {
      if (err instanceof DatabaseBusyError && !told) {
        told = true;
        options.onWaitingForDatabase?.();
      }
      throw err;
    }
  };
  return waitForDatabase(open, options.openWaitMs ?? OPEN_WAIT_MS);
}

/**
 * A database of an older schema is backed up before the open migrates it (the backup fails: the
 * start fails, nothing migrated). A file another process holds alone (an import switching in)
 * is not looked at: that import backed it up first, and migrates it itself.
 */
async function backupBeforeMigration(options: StartOptions): Promise<BackupRun | null> {
  const { pagesPerStep: _, ...settings } = options.backup ?? {};
  try {
    return await backupBefore('migration', options.dbFile, { ...backupSettingsFrom(options.dbFile), ...settings }, options.now);
  } catch (err) {
    if (err instanceof DatabaseDamagedError) throw backupsNamed(err, options.dbFile, settings.dir);
    if (String((err as { code?: unknown }).code).startsWith('SQLITE_BUSY')) return null;
    throw err;
  }
}
