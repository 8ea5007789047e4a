/**
 * Where the desktop app keeps a secret between starts (the remote instance's API key, the SMTP
 * relay's password): a small file in the user's data folder holding only what Electron's
 * safeStorage made of it (DPAPI on Windows, the Keychain on macOS, libsecret or KWallet on
 * Linux). The secret itself is never written: where the operating system offers no key store
 * (Linux's "basic_text" fallback encrypts with a fixed, public password), nothing is written and
 * the secret lives only as long as the running service.
 *
 * No Electron import: main.ts passes safeStorage in, so the vault runs under Node in tests.
 */
import { randomBytes } from 'node:crypto';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import type { RemoteKeySaved } from '../contract/ipc';

/** The part of Electron's safeStorage the vault uses. */
export interface SafeStorageLike {
  isAsyncEncryptionAvailable(): Promise<boolean>;
  encryptStringAsync(plainText: string): Promise<Buffer>;
  decryptStringAsync(encrypted: Buffer): Promise<{ shouldReEncrypt: boolean; result: string }>;
  /** Linux only. */
  getSelectedStorageBackend?(): string;
}

/** One kind of secret: its file, its words, and what it may be. */
export interface SecretKind {
  fileName: string;
  /** The file's `format`, so one kind's file is never read as another's. */
  format: string;
  /** The secret in words: 'remote key'. */
  name: string;
  /** It in one word: 'key'. */
  noun: string;
  /** What a warning at start calls it: 'remote sync key'. */
  startName: string;
  /** Why a value cannot be taken, in words, or null when it can. */
  problem(value: unknown): string | null;
}

/** Said when a secret was handed over but could not be kept. */
export function noKeyStoreMessage(kind: Pick<SecretKind, 'noun'>): string {
  return (
    `This computer offers no protected key store to LabelDesk, so the ${kind.noun} was not saved: it is used until LabelDesk closes ` +
    'and must be entered again at the next start.'
  );
}

/** Far above any real key or password; keeps a pasted document out of the key store. */
export const MAX_SECRET_LENGTH = 1024;

const VERSION = 1;

export type LoadedSecret = { value: string } | { value: null; problem: string | null };

/** The file's text for an encrypted secret. */
export function encodeSecretFile(kind: SecretKind, encrypted: Buffer): string {
  return `${JSON.stringify({ format: kind.format, version: VERSION, encrypted: encrypted.toString('base64') })}\n`;
}

/** The encrypted secret a file holds; throws, naming the problem, for anything else. */
export function decodeSecretFile(kind: SecretKind, text: string): Buffer {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error(`the ${kind.name} file is not JSON`);
  }
  const v = value as { format?: unknown; version?: unknown; encrypted?: unknown } | null;
  if (typeof v !== 'object' || v === null || v.format !== kind.format) throw new Error(`the ${kind.name} file is not a LabelDesk ${kind.name} file`);
  if (v.version !== VERSION) throw new Error(`the ${kind.name} file has version ${String(v.version)}; this LabelDesk reads version ${VERSION}`);
  if (typeof v.encrypted !== 'string' || v.encrypted === '' || !/^[A-Za-z0-9+/]+={0,2}$/.test(v.encrypted)) {
    throw new Error(`the ${kind.name} file holds no encrypted ${kind.noun}`);
  }
  return Buffer.from(v.encrypted, 'base64');
}

export class SecretVault {
  constructor(
    private readonly file: string,
    private readonly storage: SafeStorageLike,
    readonly kind: SecretKind,
    private readonly platform: NodeJS.Platform = process.platform,
  ) {}

  /** Whether a secret can be kept protected on this computer. */
  async canProtect(): Promise<boolean> {
    if (this.platform === 'linux' && this.storage.getSelectedStorageBackend?.() === 'basic_text') return false;
    return this.storage.isAsyncEncryptionAvailable();
  }

  /**
   * The kept secret, or null with the reason when a file is there but cannot be read (another
   * user's key store, a damaged file): the person enters it again, nothing else fails.
   */
  async loadSecret(): Promise<LoadedSecret> {
    const { name } = this.kind;
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { value: null, problem: null };
      return { value: null, problem: `the ${name} file could not be read: ${(err as Error).message}` };
    }
    try {
      if (!(await this.canProtect())) return { value: null, problem: `the key store that protected the ${name} is not available` };
      const { result, shouldReEncrypt } = await this.storage.decryptStringAsync(decodeSecretFile(this.kind, text));
      const problem = this.kind.problem(result);
      if (problem) return { value: null, problem };
      if (shouldReEncrypt) await this.write(result);
      return { value: result };
    } catch (err) {
      return { value: null, problem: `the ${name} could not be decrypted: ${(err as Error).message}` };
    }
  }

  /** Keeps the secret (encrypted), or forgets it for null. Throws noKeyStoreMessage where it cannot protect it. */
  async save(value: string | null): Promise<void> {
    if (value === null) {
      await rm(this.file, { force: true });
      return;
    }
    const problem = this.kind.problem(value);
    if (problem) throw new Error(problem);
    if (!(await this.canProtect())) {
      // An older secret must not come back at the next start in place of the one just given.
      await rm(this.file, { force: true });
      throw new Error(noKeyStoreMessage(this.kind));
    }
    await this.write(value);
  }

  async has(): Promise<boolean> {
    return (await this.loadSecret()).value !== null;
  }

  /** A whole file or none: written beside the old one, readable by this user only, then renamed over it. */
  private async write(value: string): Promise<void> {
    const text = encodeSecretFile(this.kind, await this.storage.encryptStringAsync(value));
    const temp = `${this.file}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await writeFile(temp, text, { mode: 0o600 });
      await rename(temp, this.file);
    } finally {
      await rm(temp, { force: true });
    }
  }
}

/** What became of a secret the page handed over: the service has it; `saved` says whether it is kept. */
export type SecretSaved = RemoteKeySaved;

export interface SecretHandoffOptions {
  vault: SecretVault;
  /** Posts the secret (null: none) to the running service process. */
  sendToService(value: string | null): void;
  warn?(message: string): void;
}

/**
 * A secret between the page, the vault and the service process: the service gets the kept one
 * when it starts and every new one as soon as the page hands it over (before it is written, so
 * a key store that fails never stops the service using it), and forgets it when the page says
 * null.
 */
export class SecretHandoff {
  /** Set by the page's first value: a kept one read after it must not overwrite it. */
  private replaced = false;
  /** Whether one is kept, once known: asking the key store again may prompt the person (macOS Keychain). */
  private kept: boolean | null = null;

  constructor(private readonly options: SecretHandoffOptions) {}

  /** At the service's start: hands it the kept secret, if there is one. */
  async start(): Promise<void> {
    const loaded = await this.options.vault.loadSecret();
    if (this.replaced) return;
    this.kept = loaded.value !== null;
    if (loaded.value !== null) this.options.sendToService(loaded.value);
    else if (loaded.problem) this.options.warn?.(`LabelDesk: no ${this.options.vault.kind.startName} at start: ${loaded.problem}`);
  }

  /** The page's new value (or null). Throws for a value the kind refuses; the page checks first. */
  async save(value: unknown): Promise<SecretSaved> {
    if (value !== null) {
      const problem = this.options.vault.kind.problem(value);
      if (problem) throw new Error(problem);
    }
    const secret = value as string | null;
    this.replaced = true;
    this.options.sendToService(secret);
    try {
      await this.options.vault.save(secret);
      this.kept = secret !== null;
      return { saved: true };
    } catch (err) {
      // The previous file is untouched, but the service now uses another value: do not offer the old one as current.
      this.kept = false;
      return { saved: false, reason: (err as Error).message };
    }
  }

  async has(): Promise<boolean> {
    this.kept ??= await this.options.vault.has();
    return this.kept;
  }
}
