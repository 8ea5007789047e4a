/**
 * The private key that signs the audit trail's checkpoints, on the desktop: kept between starts
 * by the secret vault (secret-vault.ts: safeStorage, never plain text) in `audit-key.json`, made
 * at the first start, and handed to the service process at each start, as the remote sync key is
 * (docs/review-and-audit.md#the-signing-key). Where the computer offers no key store, the service
 * is told to use the key file beside the database (mode 0600), as headless LabelDesk does.
 */
import { generateKeyPairSync } from 'node:crypto';
import { MAX_SECRET_LENGTH, SecretVault, type SafeStorageLike, type SecretKind } from './secret-vault';

export const AUDIT_KEY_FILE_NAME = 'audit-key.json';

const PEM = /^-----BEGIN PRIVATE KEY-----\r?\n[A-Za-z0-9+/=\r\n]+-----END PRIVATE KEY-----\r?\n?$/;

/** Why a key cannot be taken, in words, or null when it can: a PKCS#8 PEM. */
export function auditKeyProblem(key: unknown): string | null {
  if (typeof key !== 'string') return 'the audit signing key must be text';
  if (key.length > MAX_SECRET_LENGTH) return `the audit signing key is longer than ${MAX_SECRET_LENGTH} characters`;
  if (!PEM.test(key)) return 'the audit signing key is no PKCS#8 PEM private key';
  return null;
}

export const AUDIT_KEY: SecretKind = {
  fileName: AUDIT_KEY_FILE_NAME,
  format: 'labeldesk-audit-key',
  name: 'audit signing key',
  noun: 'key',
  startName: 'audit signing key',
  problem: auditKeyProblem,
};

export function auditKeyVault(file: string, storage: SafeStorageLike, platform: NodeJS.Platform = process.platform): SecretVault {
  return new SecretVault(file, storage, AUDIT_KEY, platform);
}

/**
 * What the service process gets at start: the kept key; a new one, kept, at the first start; null
 * where the computer offers no key store (the key file beside the database signs then); or
 * undefined when a kept key cannot be read (another user's key store, a damaged file): nothing is
 * signed then, and `warn` says why. A key once kept is never replaced here: checkpoints signed by
 * a new key would not be this database's.
 */
export async function auditKeyAtStart(vault: SecretVault, warn: (message: string) => void): Promise<string | null | undefined> {
  const loaded = await vault.loadSecret();
  if (loaded.value !== null) return loaded.value;
  if (loaded.problem !== null) {
    warn(`LabelDesk: no audit signing key at start: ${loaded.problem}; no checkpoint of the audit trail is signed until it can be read`);
    return undefined;
  }
  if (!(await vault.canProtect())) {
    warn('LabelDesk: this computer offers no protected key store: the audit trail is signed with the key file beside the database');
    return null;
  }
  const pem = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
  await vault.save(pem);
  return pem;
}
