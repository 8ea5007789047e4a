/** Messages between the Electron main process (or a test) and the service process. */

export interface ReadyMessage {
  type: 'ready';
  url: string;
  sessionKey: string | null;
  companyId: string | null;
  /** Why sessionKey is null. */
  message: string | null;
}
export interface ErrorMessage {
  type: 'error';
  message: string;
}
export type ServiceMessage = ReadyMessage | ErrorMessage;

export interface ShutdownMessage {
  type: 'shutdown';
}
/**
 * The remote sync key, as the desktop's main process keeps it with safeStorage: handed over at
 * start and whenever it changes; null forgets it. The service holds it in memory only.
 */
export interface SyncKeyMessage {
  type: 'sync-key';
  remoteKey: string | null;
}
/** The SMTP relay's password, kept and handed over like the sync key; null forgets it. */
export interface SmtpPasswordMessage {
  type: 'smtp-password';
  password: string | null;
}
/**
 * The private key (PKCS#8 PEM) that signs the audit trail's checkpoints, as the main process keeps
 * it with safeStorage; null: the computer offers no key store, so the service uses the key file
 * beside the database (host/audit-key.ts).
 */
export interface AuditKeyMessage {
  type: 'audit-key';
  privateKey: string | null;
}
export type ParentMessage = ShutdownMessage | SyncKeyMessage | SmtpPasswordMessage | AuditKeyMessage;

export function isServiceMessage(value: unknown): value is ServiceMessage {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  if (v.type === 'ready') return typeof v.url === 'string' && (typeof v.sessionKey === 'string' || v.sessionKey === null);
  return v.type === 'error' && typeof v.message === 'string';
}

export function isShutdownMessage(value: unknown): value is ShutdownMessage {
  return typeof value === 'object' && value !== null && (value as { type?: unknown }).type === 'shutdown';
}

export function isSyncKeyMessage(value: unknown): value is SyncKeyMessage {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return v.type === 'sync-key' && (v.remoteKey === null || (typeof v.remoteKey === 'string' && v.remoteKey !== ''));
}

export function isSmtpPasswordMessage(value: unknown): value is SmtpPasswordMessage {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return v.type === 'smtp-password' && (v.password === null || (typeof v.password === 'string' && v.password !== ''));
}

export function isAuditKeyMessage(value: unknown): value is AuditKeyMessage {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return v.type === 'audit-key' && (v.privateKey === null || (typeof v.privateKey === 'string' && v.privateKey !== ''));
}

export interface ServiceArgs {
  dbFile: string;
  port?: number;
  strictPort: boolean;
  staticDir?: string;
  companyId?: string;
  demoIfEmpty: boolean;
  version?: string;
  /** The audit key comes from the parent (the desktop's key store), not from a key file: `--audit-key-from-parent`. */
  auditKeyFromParent?: boolean;
}

/**
 * Reads `--db FILE [--port N] [--strict-port] [--static-dir DIR] [--company ID] [--demo]
 * [--app-version V]` from anywhere in argv (Electron's utility process and Node's fork lay out
 * argv differently; unknown words are ignored).
 */
export function parseServiceArgs(argv: readonly string[]): ServiceArgs {
  const value = (flag: string): string | undefined => {
    let found: string | undefined;
    argv.forEach((arg, i) => {
      if (arg === flag && i + 1 < argv.length) found = argv[i + 1];
      else if (arg.startsWith(flag + '=')) found = arg.slice(flag.length + 1);
    });
    return found;
  };
  const dbFile = value('--db');
  if (!dbFile) throw new Error('the service process needs --db <file>');
  const portText = value('--port');
  let port: number | undefined;
  if (portText !== undefined) {
    port = Number(portText);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be 0 to 65535, not '${portText}'`);
  }
  return {
    dbFile,
    port,
    strictPort: argv.includes('--strict-port'),
    staticDir: value('--static-dir'),
    companyId: value('--company'),
    demoIfEmpty: argv.includes('--demo'),
    version: value('--app-version'),
    ...(argv.includes('--audit-key-from-parent') ? { auditKeyFromParent: true } : {}),
  };
}

export function serviceArgv(args: ServiceArgs): string[] {
  const out = ['--db', args.dbFile];
  if (args.port !== undefined) out.push('--port', String(args.port));
  if (args.strictPort) out.push('--strict-port');
  if (args.staticDir !== undefined) out.push('--static-dir', args.staticDir);
  if (args.companyId !== undefined) out.push('--company', args.companyId);
  if (args.demoIfEmpty) out.push('--demo');
  if (args.version !== undefined) out.push('--app-version', args.version);
  if (args.auditKeyFromParent) out.push('--audit-key-from-parent');
  return out;
}
