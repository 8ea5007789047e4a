/**
 * The service as the desktop app runs it: on the stable port 4317 when free, as the desktop
 * user's company, with a session key that lives only as long as this process. Plain Node: the
 * Electron utility process, the headless start and tests all use it.
 */
import { DEFAULT_PORT, startService, WAITING_FOR_DATABASE, type RunningService } from './start-service';
import { PERMISSIONS, type Permission } from '../schema/report';
import type { DemoSummary } from '../service/demo-seeder';
import type { AuditKeySource } from '../service/audit-checkpoints';

/** The desk user may do everything the app offers: read, edit, take in labels, webhooks, keys. */
export const SESSION_PERMISSIONS: readonly Permission[] = PERMISSIONS;

export const NO_COMPANY_MESSAGE =
  'The database has no company yet, so there is no session key. Import label reports with the labeldesk ' +
  'command, or start LabelDesk on an empty database with demo data.';

export interface DesktopServiceOptions {
  dbFile: string;
  /** The port to try first (default 4317); when taken, a free port is used unless strictPort. */
  port?: number;
  strictPort?: boolean;
  host?: string;
  /** The company the window acts as; default: the company that owns the most reports. */
  companyId?: string;
  /** Fill an empty database (no companies, no reports) with demo data. */
  demoIfEmpty?: boolean;
  /** Folder of the built UI (default: dist/renderer of this checkout). */
  staticDir?: string;
  version?: string;
  logger?: boolean;
  /** What signs the audit checkpoints (the key the main process handed over); default the key file beside the database. */
  auditKey?: AuditKeySource;
}

export interface DesktopService {
  url: string;
  port: number;
  /** A key for this process only, or null when there is no company (see message). */
  sessionKey: string | null;
  companyId: string | null;
  /** The demo data this start put into the empty database, or null. */
  demo: DemoSummary | null;
  /** Why sessionKey is null; null when there is a key. */
  message: string | null;
  running: RunningService;
  /** Stops accepting, lets in-flight requests finish, then closes the database. */
  close(): Promise<void>;
}

export async function startDesktopService(options: DesktopServiceOptions): Promise<DesktopService> {
  const running = await listen(options);
  try {
    const companyId = options.companyId ?? running.service.homeCompany();
    if (companyId !== null && !running.service.companies.find(companyId)) {
      throw new Error(`there is no company '${companyId}' in ${options.dbFile}`);
    }
    const sessionKey = companyId === null ? null : running.service.apiKeys.createSessionKey(companyId, SESSION_PERMISSIONS);
    return {
      url: running.url,
      port: running.port,
      sessionKey,
      companyId,
      demo: running.demo,
      message: sessionKey === null ? NO_COMPANY_MESSAGE : null,
      running,
      close: () => running.close(),
    };
  } catch (err) {
    await running.close();
    throw err;
  }
}

function listen(options: DesktopServiceOptions): Promise<RunningService> {
  return startService({
    dbFile: options.dbFile,
    host: options.host ?? '127.0.0.1',
    port: options.port ?? DEFAULT_PORT,
    anyPortIfTaken: !options.strictPort,
    staticDir: options.staticDir,
    version: options.version,
    logger: options.logger,
    auditKey: options.auditKey,
    // A desktop told which company to act as is not a fresh install to fill.
    demoIfEmpty: options.companyId === undefined && options.demoIfEmpty === true,
    onWaitingForDatabase: () => console.error(`LabelDesk: ${WAITING_FOR_DATABASE}`),
  });
}
