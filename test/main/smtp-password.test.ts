/**
 * The SMTP relay's password kept by the desktop app like the sync key: encrypted by the key
 * store (here AES-256-GCM standing in for Electron's safeStorage, which needs a running
 * Electron), never in plain text, handed to the service process at start and on change, where
 * it is held in memory only: the database never holds it.
 */
import { fork } from 'node:child_process';
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path, { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { isSmtpPasswordMessage, type ServiceMessage, type SmtpPasswordMessage } from '../../host/service-protocol';
import { openService } from '../../host/open-service';
import { KEY_FILE_NAME, RemoteKeyVault } from '../../main/remote-key-vault';
import { SecretHandoff, noKeyStoreMessage, type SafeStorageLike } from '../../main/secret-vault';
import { SMTP_PASSWORD, SMTP_PASSWORD_FILE_NAME, smtpPasswordProblem, smtpPasswordVault } from '../../main/smtp-password-vault';
import { seedDatabase } from '../host/seed';

const PASSWORD = 'correct horse battery staple';

class TestKeyStore implements SafeStorageLike {
  readonly secret = randomBytes(32);
  available = true;
  backend = 'gnome_libsecret';

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
    return this.backend;
  }
}

let dir: string;
let file: string;
let store: TestKeyStore;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'labeldesk-smtp-password-'));
  file = join(dir, SMTP_PASSWORD_FILE_NAME);
  store = new TestKeyStore();
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('the SMTP relay password vault', () => {
  test('keeps the password encrypted, readable by this user only, and gives it back', async () => {
    const vault = smtpPasswordVault(file, store, 'linux');
    expect(await vault.loadSecret()).toEqual({ value: null, problem: null });
    await vault.save(PASSWORD);
    const bytes = readFileSync(file).toString('latin1');
    expect(bytes).not.toContain(PASSWORD);
    expect(bytes).not.toContain(Buffer.from(PASSWORD).toString('base64').slice(0, 16));
    expect(JSON.parse(bytes)).toMatchObject({ format: 'labeldesk-smtp-password', version: 1 });
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual([SMTP_PASSWORD_FILE_NAME]);
    expect(await smtpPasswordVault(file, store, 'linux').loadSecret()).toEqual({ value: PASSWORD });
    await vault.save(null);
    expect(readdirSync(dir)).toEqual([]);
  });

  test('where the key store only obfuscates, nothing is written, in words of the password', async () => {
    store.backend = 'basic_text';
    await expect(smtpPasswordVault(file, store, 'linux').save(PASSWORD)).rejects.toThrow(noKeyStoreMessage(SMTP_PASSWORD));
    expect(noKeyStoreMessage(SMTP_PASSWORD)).toMatch(/^This computer offers no protected key store to LabelDesk, so the password was not saved/);
    expect(readdirSync(dir)).toEqual([]);
  });

  test('one kind’s file is not read as another’s', async () => {
    await new RemoteKeyVault(file, store, 'linux').save('ldk_remote_key');
    expect(await smtpPasswordVault(file, store, 'linux').loadSecret()).toEqual({
      value: null,
      problem: 'the SMTP relay password could not be decrypted: the SMTP relay password file is not a LabelDesk SMTP relay password file',
    });
    writeFileSync(file, JSON.stringify({ format: 'labeldesk-smtp-password', version: 1 }));
    expect(await smtpPasswordVault(file, store, 'linux').loadSecret()).toMatchObject({ problem: expect.stringMatching(/holds no encrypted password$/) });
    expect(KEY_FILE_NAME).not.toBe(SMTP_PASSWORD_FILE_NAME);
  });

  test('a password may hold spaces, not control characters', () => {
    expect(smtpPasswordProblem(PASSWORD)).toBeNull();
    expect(smtpPasswordProblem('')).toBe('the SMTP relay password is empty');
    expect(smtpPasswordProblem(7)).toBe('the SMTP relay password must be text');
    expect(smtpPasswordProblem('a\nb')).toBe('the SMTP relay password contains control characters');
    expect(smtpPasswordProblem('p'.repeat(1025))).toMatch(/longer than 1024/);
  });

  test('the handoff sends the kept password at start, a new one at once, and null forgets it', async () => {
    const sent: (string | null)[] = [];
    const warnings: string[] = [];
    const handoff = () => new SecretHandoff({ vault: smtpPasswordVault(file, store, 'linux'), sendToService: (p) => sent.push(p), warn: (m) => warnings.push(m) });
    const first = handoff();
    await first.start();
    expect(sent).toEqual([]);
    expect(await first.save(PASSWORD)).toEqual({ saved: true });
    expect(await first.has()).toBe(true);
    await handoff().start();
    expect(sent).toEqual([PASSWORD, PASSWORD]);
    await expect(first.save('bad\u0000')).rejects.toThrow('control characters');
    expect(await first.save(null)).toEqual({ saved: true });
    expect(sent).toEqual([PASSWORD, PASSWORD, null]);

    writeFileSync(file, 'not json');
    await handoff().start();
    expect(warnings).toEqual(['LabelDesk: no SMTP relay password at start: the SMTP relay password could not be decrypted: the SMTP relay password file is not JSON']);
  });

  test('the message to the service process takes a password or null, nothing else', () => {
    expect(isSmtpPasswordMessage({ type: 'smtp-password', password: PASSWORD })).toBe(true);
    expect(isSmtpPasswordMessage({ type: 'smtp-password', password: null })).toBe(true);
    expect(isSmtpPasswordMessage({ type: 'smtp-password', password: '' })).toBe(false);
    expect(isSmtpPasswordMessage({ type: 'smtp-password' })).toBe(false);
    expect(isSmtpPasswordMessage({ type: 'sync-key', remoteKey: 'k' })).toBe(false);
  });
});

describe('the service process', () => {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

  test('holds the password the main process hands over in memory, never in the database', async () => {
    const dbFile = join(dir, 'labeldesk.sqlite');
    await seedDatabase(dbFile);
    const seeded = openService(dbFile);
    seeded.alarms.saveSmtp(null, { host: '127.0.0.1', port: 2525, security: 'starttls', user: 'alarms', from: 'alarms@acme.example', appUrl: null });
    seeded.close();

    const child = fork(join(root, 'host/service-process.ts'), ['--db', dbFile, '--port', '0'], { execArgv: ['--import', 'tsx'], cwd: root, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
    const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    // Sent before the service is up: it is handed over once it is.
    child.send({ type: 'smtp-password', password: PASSWORD } satisfies SmtpPasswordMessage);
    const ready = await new Promise<ServiceMessage>((resolve) => child.once('message', (m) => resolve(m as ServiceMessage)));
    if (ready.type !== 'ready' || ready.sessionKey === null) throw new Error(`not ready: ${JSON.stringify(ready)}`);
    const smtp = async () => (await fetch(`${ready.url}/local/alarms/smtp`, { headers: { 'x-api-key': ready.sessionKey! } })).json() as Promise<{ hasPassword: boolean }>;
    try {
      expect(await smtp()).toMatchObject({ user: 'alarms', hasPassword: true });
      child.send({ type: 'smtp-password', password: null } satisfies SmtpPasswordMessage);
      for (;;) {
        if (!(await smtp()).hasPassword) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    } finally {
      child.send({ type: 'shutdown' });
      expect(await exit).toBe(0);
    }
    for (const name of readdirSync(dir).filter((n) => n.startsWith('labeldesk.sqlite'))) {
      expect(readFileSync(join(dir, name)).includes(Buffer.from(PASSWORD))).toBe(false);
    }
  });
});
