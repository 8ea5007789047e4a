/**
 * The service process: Electron's main starts it with utilityProcess.fork so SQLite work never
 * blocks the window. It starts the desktop service, reports `{ type: 'ready', url, sessionKey }`
 * (or `{ type: 'error', message }`) to its parent and closes on `{ type: 'shutdown' }`: the
 * server stops accepting, in-flight requests finish, the database closes, the process exits 0.
 * `{ type: 'sync-key', remoteKey }` hands it the remote sync key the main process keeps with
 * safeStorage; sync then runs here, beside the service, with the settings in the database.
 * `{ type: 'audit-key', privateKey }` likewise hands it the key that signs the audit trail's
 * checkpoints (with `--audit-key-from-parent`; else the key file beside the database signs).
 *
 * The parent is Electron (process.parentPort) or, in tests, Node's child_process.fork
 * (process.send), so it runs without Electron.
 */
import { startDesktopService, type DesktopService } from './desktop-service';
import { HandedAuditKey } from './audit-key';
import { isAuditKeyMessage, isShutdownMessage, isSmtpPasswordMessage, isSyncKeyMessage, parseServiceArgs, type ServiceMessage } from './service-protocol';

interface ParentPortLike {
  postMessage(message: unknown): void;
  on(event: 'message', listener: (event: { data: unknown }) => void): unknown;
}

interface Channel {
  /** Resolves once the message has left (as far as the transport can tell). */
  post(message: ServiceMessage): Promise<void>;
  onMessage(listener: (message: unknown) => void): void;
  /** Called when the parent goes away (Node fork only; Electron kills utility processes itself). */
  onDisconnect(listener: () => void): void;
}

function parentChannel(): Channel {
  const parentPort = (process as { parentPort?: ParentPortLike }).parentPort;
  if (parentPort) {
    return {
      post: (message) => {
        parentPort.postMessage(message);
        // postMessage has no completion callback: give the message a moment to cross.
        return new Promise((resolve) => setTimeout(resolve, 100));
      },
      onMessage: (listener) => void parentPort.on('message', (event) => listener(event.data)),
      onDisconnect: () => {},
    };
  }
  if (process.send) {
    return {
      post: (message) =>
        new Promise<void>((resolve) => {
          if (!process.send?.(message, undefined, undefined, () => resolve())) resolve();
        }),
      onMessage: (listener) => void process.on('message', listener),
      onDisconnect: (listener) => void process.on('disconnect', listener),
    };
  }
  // Run by hand: log to the console.
  return {
    post: async (message) => void console.log(JSON.stringify(message)),
    onMessage: () => {},
    onDisconnect: () => {},
  };
}

async function run(): Promise<void> {
  const channel = parentChannel();
  let service: DesktopService | undefined;
  let stopping: Promise<void> | undefined;
  let wanted = false;

  const stop = (code: number) => {
    wanted = true;
    if (!service) return; // startup still running: stop once it is up
    stopping ??= service
      .close()
      .then(() => process.exit(code))
      .catch((err: unknown) => {
        console.error('LabelDesk service: closing failed:', err);
        process.exit(1);
      });
  };

  // The key may come before the service is up: the newest one is handed over once it is.
  let syncKey: { remoteKey: string | null } | undefined;
  const handOverKey = () => {
    if (!service || !syncKey || stopping) return;
    service.running.sync.setKey(syncKey.remoteKey).catch((err: unknown) => console.error('LabelDesk service: the sync key could not be set:', err));
  };
  // The relay's password likewise (the alarms' e-mail), into the service's memory only.
  let smtpPassword: { password: string | null } | undefined;
  const handOverPassword = () => {
    if (service && smtpPassword && !stopping) service.running.service.alarms.setSmtpPassword(smtpPassword.password);
  };
  // The audit key likewise: kept in memory; the start's checkpoint waits for it.
  let auditKey: HandedAuditKey | undefined;
  let handedAuditKey: { privateKey: string | null } | undefined;
  const handOverAuditKey = () => {
    if (!service || !auditKey || !handedAuditKey || stopping) return;
    try {
      auditKey.set(handedAuditKey.privateKey);
      service.running.checkpoints.wake();
    } catch (err) {
      console.error('LabelDesk service: the audit key could not be used:', (err as Error).message);
    }
  };
  channel.onMessage((message) => {
    if (isShutdownMessage(message)) stop(0);
    else if (isAuditKeyMessage(message)) {
      handedAuditKey = { privateKey: message.privateKey };
      handOverAuditKey();
    }
    else if (isSyncKeyMessage(message)) {
      syncKey = { remoteKey: message.remoteKey };
      handOverKey();
    } else if (isSmtpPasswordMessage(message)) {
      smtpPassword = { password: message.password };
      handOverPassword();
    }
  });
  channel.onDisconnect(() => stop(0));
  process.on('SIGTERM', () => stop(0));
  process.on('SIGINT', () => stop(0));

  try {
    const args = parseServiceArgs(process.argv);
    if (args.auditKeyFromParent) auditKey = new HandedAuditKey(args.dbFile);
    service = await startDesktopService({
      auditKey,
      dbFile: args.dbFile,
      port: args.port,
      strictPort: args.strictPort,
      staticDir: args.staticDir,
      companyId: args.companyId,
      demoIfEmpty: args.demoIfEmpty,
      version: args.version,
    });
  } catch (err) {
    await channel.post({ type: 'error', message: err instanceof Error ? err.message : String(err) });
    process.exit(1);
  }
  handOverKey();
  handOverPassword();
  handOverAuditKey();
  await channel.post({
    type: 'ready',
    url: service.url,
    sessionKey: service.sessionKey,
    companyId: service.companyId,
    message: service.message,
  });
  if (wanted) stop(0);
}

void run();
