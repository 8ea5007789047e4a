/**
 * Where the desktop app keeps the remote instance's API key between starts: a small file in the
 * user's data folder holding only what Electron's safeStorage made of the key (DPAPI on Windows,
 * the Keychain on macOS, libsecret or KWallet on Linux). The key itself is never written: where
 * the operating system offers no key store (Linux's "basic_text" fallback encrypts with a fixed,
 * public password), nothing is written and the key lives only as long as the running service.
 *
 * No Electron import: main.ts passes safeStorage in, so the vault runs under Node in tests.
 */
import { randomBytes } from 'node:crypto';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';

/** The part of Electron's safeStorage the vault uses. */
export interface SafeStorageLike {
  isAsyncEncryptionAvailable(): Promise<boolean>;
  encryptStringAsync(plainText: string): Promise<Buffer>;
  decryptStringAsync(encrypted: Buffer): Promise<{ shouldReEncrypt: boolean; result: string }>;
  /** Linux only. */
  getSelectedStorageBackend?(): string;
}

export const KEY_FILE_NAME = 'remote-key.json';
const FORMAT = 'labeldesk-remote-key';
const VERSION = 1;
/** Far above any real API key; keeps a pasted document out of the key store. */
export const MAX_REMOTE_KEY_LENGTH = 1024;

export const NO_KEY_STORE_MESSAGE =
  'This computer offers no protected key store to LabelDesk, so the key was not saved: it is used until LabelDesk closes ' +
  'and must be entered again at the next start.';

/** The file's text for an encrypted key. */
export function encodeKeyFile(encrypted: Buffer): string {
  return `${JSON.stringify({ format: FORMAT, version: VERSION, encrypted: encrypted.toString('base64') })}\n`;
}

/** The encrypted key a file holds; throws, naming the problem, for anything else. */
export function decodeKeyFile(text: string): Buffer {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error('the remote key file is not JSON');
  }
  const v = value as { format?: unknown; version?: unknown; encrypted?: unknown } | null;
  if (typeof v !== 'object' || v === null || v.format !== FORMAT) throw new Error('the remote key file is not a LabelDesk remote key file');
  if (v.version !== VERSION) throw new Error(`the remote key file has version ${String(v.version)}; this LabelDesk reads version ${VERSION}`);
  if (typeof v.encrypted !== 'string' || v.encrypted === '' || !/^[A-Za-z0-9+/]+={0,2}$/.test(v.encrypted)) {
    throw new Error('the remote key file holds no encrypted key');
  }
  return Buffer.from(v.encrypted, 'base64');
}

/** Why a key cannot be taken, in words, or null when it can. */
export function remoteKeyProblem(key: unknown): string | null {
  if (typeof key !== 'string') return 'the remote key must be text';
  if (key.trim() === '') return 'the remote key is empty';
  if (key.length > MAX_REMOTE_KEY_LENGTH) return `the remote key is longer than ${MAX_REMOTE_KEY_LENGTH} characters`;
  if (/[\s\u0000-\u001f\u007f]/.test(key)) return 'the remote key contains spaces or control characters';
  return null;
}

export type LoadedKey = { key: string } | { key: null; problem: string | null };

export class RemoteKeyVault {
  constructor(
    private readonly file: string,
    private readonly storage: SafeStorageLike,
    private readonly platform: NodeJS.Platform = process.platform,
  ) {}

  /** Whether a key can be kept protected on this computer. */
  async canProtect(): Promise<boolean> {
    if (this.platform === 'linux' && this.storage.getSelectedStorageBackend?.() === 'basic_text') return false;
    return this.storage.isAsyncEncryptionAvailable();
  }

  /**
   * The kept key, or null with the reason when a file is there but cannot be read (another
   * user's key store, a damaged file): the person enters the key again, nothing else fails.
   */
  async load(): Promise<LoadedKey> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { key: null, problem: null };
      return { key: null, problem: `the remote key file could not be read: ${(err as Error).message}` };
    }
    try {
      if (!(await this.canProtect())) return { key: null, problem: 'the key store that protected the remote key is not available' };
      const { result, shouldReEncrypt } = await this.storage.decryptStringAsync(decodeKeyFile(text));
      const problem = remoteKeyProblem(result);
      if (problem) return { key: null, problem };
      if (shouldReEncrypt) await this.write(result);
      return { key: result };
    } catch (err) {
      return { key: null, problem: `the remote key could not be decrypted: ${(err as Error).message}` };
    }
  }

  /** Keeps the key (encrypted), or forgets it for null. Throws NO_KEY_STORE_MESSAGE where it cannot protect it. */
  async save(key: string | null): Promise<void> {
    if (key === null) {
      await rm(this.file, { force: true });
      return;
    }
    const problem = remoteKeyProblem(key);
    if (problem) throw new Error(problem);
    if (!(await this.canProtect())) {
      // An older key must not come back at the next start in place of the one just given.
      await rm(this.file, { force: true });
      throw new Error(NO_KEY_STORE_MESSAGE);
    }
    await this.write(key);
  }

  async has(): Promise<boolean> {
    return (await this.load()).key !== null;
  }

  /** A whole file or none: written beside the old one, readable by this user only, then renamed over it. */
  private async write(key: string): Promise<void> {
    const text = encodeKeyFile(await this.storage.encryptStringAsync(key));
    const temp = `${this.file}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await writeFile(temp, text, { mode: 0o600 });
      await rename(temp, this.file);
    } finally {
      await rm(temp, { force: true });
    }
  }
}
