/**
 * The remote instance's API key, kept between starts of the desktop app by the secret vault
 * (secret-vault.ts: safeStorage, never plain text): its file, its words, and what a key may be.
 */
import { decodeSecretFile, encodeSecretFile, MAX_SECRET_LENGTH, noKeyStoreMessage, SecretVault, type SafeStorageLike, type SecretKind } from './secret-vault';

export type { SafeStorageLike } from './secret-vault';

export const KEY_FILE_NAME = 'remote-key.json';
/** Far above any real API key; keeps a pasted document out of the key store. */
export const MAX_REMOTE_KEY_LENGTH = MAX_SECRET_LENGTH;

/** Why a key cannot be taken, in words, or null when it can. */
export function remoteKeyProblem(key: unknown): string | null {
  if (typeof key !== 'string') return 'the remote key must be text';
  if (key.trim() === '') return 'the remote key is empty';
  if (key.length > MAX_REMOTE_KEY_LENGTH) return `the remote key is longer than ${MAX_REMOTE_KEY_LENGTH} characters`;
  if (/[\s\u0000-\u001f\u007f]/.test(key)) return 'the remote key contains spaces or control characters';
  return null;
}

export const REMOTE_KEY: SecretKind = {
  fileName: KEY_FILE_NAME,
  format: 'labeldesk-remote-key',
  name: 'remote key',
  noun: 'key',
  startName: 'remote sync key',
  problem: remoteKeyProblem,
};

export const NO_KEY_STORE_MESSAGE = noKeyStoreMessage(REMOTE_KEY);

/** The file's text for an encrypted key. */
export function encodeKeyFile(encrypted: Buffer): string {
  return encodeSecretFile(REMOTE_KEY, encrypted);
}

/** The encrypted key a file holds; throws, naming the problem, for anything else. */
export function decodeKeyFile(text: string): Buffer {
  return decodeSecretFile(REMOTE_KEY, text);
}

export type LoadedKey = { key: string } | { key: null; problem: string | null };

export class RemoteKeyVault extends SecretVault {
  constructor(file: string, storage: SafeStorageLike, platform: NodeJS.Platform = process.platform) {
    super(file, storage, REMOTE_KEY, platform);
  }

  /**
   * The kept key, or null with the reason when a file is there but cannot be read (another
   * user's key store, a damaged file): the person enters the key again, nothing else fails.
   */
  async load(): Promise<LoadedKey> {
    const loaded = await this.loadSecret();
    return loaded.value !== null ? { key: loaded.value } : { key: null, problem: loaded.problem };
  }
}
