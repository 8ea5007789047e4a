/**
 * The private key that signs the audit trail's checkpoints (docs/review-and-audit.md#the-signing-key).
 * Headless (`serve`, `npm start` without Electron, the command line): a key file beside the
 * database, `FILE.audit-key`, made with mode 0600 at the first checkpoint; a key file others may
 * read is refused, in words. On the desktop, the main process keeps the key with safeStorage
 * (main/audit-key-vault.ts) and hands it to the service process at start (HandedAuditKey).
 */
import { createPrivateKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { AuditKeyError, keyFingerprint, type AuditKeySource } from '../service/audit-checkpoints';

/** The key file of a database: beside it, its name and `.audit-key`. */
export function auditKeyFileOf(databaseFile: string): string {
  return `${databaseFile}.audit-key`;
}

/** A new Ed25519 private key as PKCS#8 PEM. */
export function newAuditKeyPem(): string {
  return generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
}

/** The private key a PEM holds; throws AuditKeyError unless it is an Ed25519 private key. */
export function parseAuditKey(pem: string, where: string): KeyObject {
  let key: KeyObject;
  try {
    key = createPrivateKey(pem);
  } catch (err) {
    throw new AuditKeyError(`${where} holds no private key: ${(err as Error).message}`);
  }
  if (key.asymmetricKeyType !== 'ed25519') throw new AuditKeyError(`${where} holds a ${key.asymmetricKeyType ?? 'unknown'} key, not an Ed25519 key`);
  return key;
}

/**
 * Where a database's checkpoints are signed from: the key file beside it, or, for a database
 * that lives in memory only (and so has no beside), a key that lives as long as the process.
 */
export function auditKeyOf(databaseFile: string): AuditKeySource {
  if (databaseFile === '' || databaseFile === ':memory:') {
    const key = parseAuditKey(newAuditKeyPem(), 'the audit key of a database in memory');
    return { signingKey: () => key };
  }
  return new AuditKeyFile(auditKeyFileOf(databaseFile));
}

/** The key file beside the database: made at the first checkpoint, used only while its owner alone may read it. */
export class AuditKeyFile implements AuditKeySource {
  constructor(
    readonly file: string,
    private readonly platform: NodeJS.Platform = process.platform,
  ) {}

  signingKey(expected: string | null): KeyObject {
    let mode: number;
    try {
      mode = statSync(this.file).mode;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw new AuditKeyError(`the audit key ${this.file} cannot be read: ${(err as Error).message}`);
      if (expected !== null) {
        throw new AuditKeyError(
          `there is no audit key at ${this.file}, and this database's checkpoints are signed with the key ${keyFingerprint(expected)}: ` +
            'LabelDesk does not begin another key on its own; put that key back (a desktop database keeps it in the key store of the computer it runs on)',
        );
      }
      return this.create();
    }
    // Windows keeps no such modes; its folders' access lists guard the file.
    if (this.platform !== 'win32' && (mode & 0o077) !== 0) {
      const octal = (mode & 0o777).toString(8).padStart(4, '0');
      throw new AuditKeyError(
        `the audit key ${this.file} has mode ${octal}, so others than its owner may read it: LabelDesk signs only with a key its owner alone can read (chmod 600 "${this.file}")`,
      );
    }
    return parseAuditKey(readFileSync(this.file, 'utf8'), `the audit key ${this.file}`);
  }

  private create(): KeyObject {
    const pem = newAuditKeyPem();
    try {
      // wx: never over a key another process made a moment ago.
      writeFileSync(this.file, pem, { mode: 0o600, flag: 'wx' });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') return this.signingKey(null);
      throw new AuditKeyError(`the audit key ${this.file} cannot be made: ${(err as Error).message}`);
    }
    return parseAuditKey(pem, `the audit key ${this.file}`);
  }
}

/**
 * The desktop's key, handed over by the main process from the operating system's key store: a
 * PEM, or null where the computer offers no key store (the key file beside the database is used
 * then). Until it comes, nothing is signed.
 */
export class HandedAuditKey implements AuditKeySource {
  private source: AuditKeySource | null = null;

  constructor(private readonly databaseFile: string) {}

  set(privateKey: string | null): void {
    if (privateKey === null) {
      this.source = new AuditKeyFile(auditKeyFileOf(this.databaseFile));
      return;
    }
    const key = parseAuditKey(privateKey, 'the audit key the desktop app handed over');
    this.source = { signingKey: () => key };
  }

  signingKey(expected: string | null): KeyObject {
    if (this.source === null) throw new AuditKeyError('the desktop app has not handed over the audit key from the key store yet');
    return this.source.signingKey(expected);
  }
}
