/**
 * The desktop's audit signing key: made at the first start and kept by the key store (here
 * AES-256-GCM standing in for Electron's safeStorage, which needs a running Electron), the same
 * key at every later start, never in plain text; handed to the service process, which signs the
 * audit trail's checkpoints with it and writes no key file beside the database.
 */
import { fork } from 'node:child_process';
import { createCipheriv, createDecipheriv, createPrivateKey, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path, { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, expect, test } from 'vitest';
import type { AuditKeyMessage, ServiceMessage } from '../../host/service-protocol';
import { isAuditKeyMessage, parseServiceArgs, serviceArgv } from '../../host/service-protocol';
import { AUDIT_KEY_FILE_NAME, auditKeyAtStart, auditKeyProblem, auditKeyVault } from '../../main/audit-key-vault';
import type { SafeStorageLike } from '../../main/secret-vault';
import { publicKeyPem } from '../../service/audit-checkpoints';
import { column } from '../support/service-files';
import { openService } from '../../host/open-service';
import { COMPANIES, makeReport } from '../support/service-fixture';

class TestKeyStore implements SafeStorageLike {
  readonly secret = randomBytes(32);
  available = true;
  async isAsyncEncryptionAvailable() {
    return this.available;
  }
  async encryptStringAsync(plainText: string) {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.secret, iv);
    const body = Buffer.concat([cipher.update(plainText, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]);
  }
  async decryptStringAsync(encrypted: Buffer) {
    const decipher = createDecipheriv('aes-256-gcm', this.secret, encrypted.subarray(0, 12));
    decipher.setAuthTag(encrypted.subarray(12, 28));
    return { result: Buffer.concat([decipher.update(encrypted.subarray(28)), decipher.final()]).toString('utf8'), shouldReEncrypt: false };
  }
  getSelectedStorageBackend() {
    return 'gnome_libsecret';
  }
}

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'labeldesk-audit-key-vault-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

test('makes the key at the first start, keeps it encrypted and gives the same one at the next', async () => {
  const store = new TestKeyStore();
  const file = join(dir, AUDIT_KEY_FILE_NAME);
  const warnings: string[] = [];
  const first = await auditKeyAtStart(auditKeyVault(file, store, 'linux'), (w) => warnings.push(w));
  expect(typeof first).toBe('string');
  expect(createPrivateKey(first as string).asymmetricKeyType).toBe('ed25519');
  expect(statSync(file).mode & 0o777).toBe(0o600);
  expect(readFileSync(file, 'utf8')).not.toContain('PRIVATE KEY');
  expect(await auditKeyAtStart(auditKeyVault(file, store, 'linux'), (w) => warnings.push(w))).toBe(first);
  expect(warnings).toEqual([]);

  // Another user's key store: told, and no new key in its place.
  const other = new TestKeyStore();
  expect(await auditKeyAtStart(auditKeyVault(file, other, 'linux'), (w) => warnings.push(w))).toBeUndefined();
  expect(warnings[0]).toMatch(/^LabelDesk: no audit signing key at start: the audit signing key could not be decrypted: /);
  expect(await auditKeyAtStart(auditKeyVault(file, store, 'linux'), () => {})).toBe(first);
});

test('where the computer offers no key store, the key file beside the database signs (null), and nothing is kept', async () => {
  const store = new TestKeyStore();
  store.available = false;
  const file = join(dir, AUDIT_KEY_FILE_NAME);
  const warnings: string[] = [];
  expect(await auditKeyAtStart(auditKeyVault(file, store, 'linux'), (w) => warnings.push(w))).toBeNull();
  expect(existsSync(file)).toBe(false);
  expect(warnings).toEqual(['LabelDesk: this computer offers no protected key store: the audit trail is signed with the key file beside the database']);
});

test('the message and the flag take a PEM key or null, nothing else', () => {
  expect(auditKeyProblem('ldk_abc')).toBe('the audit signing key is no PKCS#8 PEM private key');
  expect(isAuditKeyMessage({ type: 'audit-key', privateKey: null })).toBe(true);
  expect(isAuditKeyMessage({ type: 'audit-key', privateKey: '' })).toBe(false);
  expect(isAuditKeyMessage({ type: 'audit-key' })).toBe(false);
  const args = parseServiceArgs(serviceArgv({ dbFile: 'x.db', strictPort: false, demoIfEmpty: false, auditKeyFromParent: true }));
  expect(args.auditKeyFromParent).toBe(true);
  expect(parseServiceArgs(['--db', 'x.db']).auditKeyFromParent).toBeUndefined();
});

test('the service process signs with the key the main process hands over, and writes no key file', async () => {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
  const desk = join(dir, 'desk.sqlite');
  const seeded = openService(desk);
  for (const c of COMPANIES) seeded.companies.upsert(c);
  seeded.putReport(makeReport('a1'), { kind: 'import' });
  seeded.close();
  const store = new TestKeyStore();
  const privateKey = (await auditKeyAtStart(auditKeyVault(join(dir, AUDIT_KEY_FILE_NAME), store, 'linux'), () => {})) as string;

  const child = fork(join(root, 'host/service-process.ts'), ['--db', desk, '--port', '0', '--audit-key-from-parent'], {
    execArgv: ['--import', 'tsx'],
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  // Sent before the service is up: it is handed over once it is.
  child.send({ type: 'audit-key', privateKey } satisfies AuditKeyMessage);
  const ready = await new Promise<ServiceMessage>((resolve) => child.once('message', (m) => resolve(m as ServiceMessage)));
  expect(ready.type).toBe('ready');
  child.send({ type: 'shutdown' });
  expect(await exit).toBe(0);

  expect(column(desk, 'SELECT public_key FROM audit_key')).toEqual([publicKeyPem(createPrivateKey(privateKey))]);
  expect(column(desk, 'SELECT count(*) FROM audit_checkpoints')).toEqual([1]);
  expect(existsSync(`${desk}.audit-key`)).toBe(false);
  expect(readFileSync(`${desk}.checkpoints.jsonl`, 'utf8').trim().split('\n')).toHaveLength(1);
});
