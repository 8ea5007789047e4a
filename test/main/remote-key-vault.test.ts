/**
 * The remote sync key kept between starts of the desktop app: encrypted by the operating
 * system's key store, never in plain text, handed to the service at start and on change. The
 * key store here is AES-256-GCM under a key of its own, standing in for Electron's safeStorage
 * (which needs a running Electron); the files are real files in a temp folder.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { SAVE_REMOTE_KEY_CHANNEL } from '../../contract/ipc';
import { requireTrustedSender } from '../../main/ipc-guard';
import { RemoteKeyHandoff } from '../../main/remote-key-handoff';
import {
  decodeKeyFile,
  encodeKeyFile,
  KEY_FILE_NAME,
  NO_KEY_STORE_MESSAGE,
  remoteKeyProblem,
  RemoteKeyVault,
  type SafeStorageLike,
} from '../../main/remote-key-vault';

const KEY = 'ldk_remote_0123456789abcdefABCDEF';

/** An operating system key store: one secret per user; `rotated` marks data made under an older one. */
class TestKeyStore implements SafeStorageLike {
  readonly secret = randomBytes(32);
  available = true;
  backend = 'gnome_libsecret';
  /** Ciphertexts the store wants re-encrypted (as after a rotation of its key). */
  readonly rotated = new Set<string>();

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
    const result = Buffer.concat([decipher.update(encrypted.subarray(28)), decipher.final()]).toString('utf8');
    return { result, shouldReEncrypt: this.rotated.has(encrypted.toString('base64')) };
  }
  getSelectedStorageBackend() {
    return this.backend;
  }
}

let dir: string;
let file: string;
let store: TestKeyStore;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'labeldesk-key-'));
  file = join(dir, KEY_FILE_NAME);
  store = new TestKeyStore();
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function fileBytes(): string {
  return readFileSync(file).toString('latin1');
}

describe('the remote key vault', () => {
  test('keeps the key encrypted, readable by this user only, and gives it back', async () => {
    const vault = new RemoteKeyVault(file, store, 'linux');
    expect(await vault.load()).toEqual({ key: null, problem: null });
    expect(await vault.has()).toBe(false);
    await vault.save(KEY);
    const bytes = fileBytes();
    expect(bytes).not.toContain(KEY);
    expect(bytes).not.toContain(Buffer.from(KEY).toString('base64').slice(0, 16));
    expect(bytes).not.toContain(Buffer.from(KEY).toString('hex').slice(0, 16));
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600);
    // No temp file left beside it.
    expect(readdirSync(dir)).toEqual([KEY_FILE_NAME]);
    expect(await new RemoteKeyVault(file, store, 'linux').load()).toEqual({ key: KEY });
    expect(await vault.has()).toBe(true);
  });

  test('a new key replaces the old one; null forgets it', async () => {
    const vault = new RemoteKeyVault(file, store, 'darwin');
    await vault.save(KEY);
    await vault.save('ldk_second_key');
    expect(await vault.load()).toEqual({ key: 'ldk_second_key' });
    await vault.save(null);
    expect(readdirSync(dir)).toEqual([]);
    expect(await vault.load()).toEqual({ key: null, problem: null });
    await vault.save(null); // forgetting twice is no error
  });

  test('where the key store is missing or only obfuscates, nothing is written', async () => {
    store.backend = 'basic_text';
    await expect(new RemoteKeyVault(file, store, 'linux').save(KEY)).rejects.toThrow(NO_KEY_STORE_MESSAGE);
    expect(readdirSync(dir)).toEqual([]);
    // basic_text is a Linux backend name only; elsewhere availability decides.
    await new RemoteKeyVault(file, store, 'win32').save(KEY);
    expect(await new RemoteKeyVault(file, store, 'win32').load()).toEqual({ key: KEY });
    rmSync(file);

    // A key given when the store has gone replaces the kept one all the same: the old one is not kept.
    store.backend = 'gnome_libsecret';
    await new RemoteKeyVault(file, store, 'linux').save(KEY);
    store.backend = 'basic_text';
    await expect(new RemoteKeyVault(file, store, 'linux').save('ldk_newer_key')).rejects.toThrow(NO_KEY_STORE_MESSAGE);
    expect(readdirSync(dir)).toEqual([]);

    store.backend = 'kwallet6';
    store.available = false;
    await expect(new RemoteKeyVault(file, store, 'linux').save(KEY)).rejects.toThrow(NO_KEY_STORE_MESSAGE);
    expect(readdirSync(dir)).toEqual([]);
  });

  test('a file it cannot use is reported, not thrown: damaged, another version, another key store', async () => {
    const vault = new RemoteKeyVault(file, store, 'linux');
    writeFileSync(file, 'not json');
    expect(await vault.load()).toEqual({ key: null, problem: 'the remote key could not be decrypted: the remote key file is not JSON' });
    writeFileSync(file, JSON.stringify({ format: 'labeldesk-remote-key', version: 2, encrypted: 'AAAA' }));
    expect(await vault.load()).toMatchObject({ key: null, problem: expect.stringMatching(/has version 2; this LabelDesk reads version 1/) });

    await vault.save(KEY);
    // Another user's (or another computer's) key store cannot open it.
    const elsewhere = new RemoteKeyVault(file, new TestKeyStore(), 'linux');
    expect(await elsewhere.load()).toMatchObject({ key: null, problem: expect.stringMatching(/^the remote key could not be decrypted/) });
    expect(await elsewhere.has()).toBe(false);

    store.available = false;
    expect(await vault.load()).toEqual({ key: null, problem: 'the key store that protected the remote key is not available' });
  });

  test('a key the store asks to re-encrypt is written again and still read back', async () => {
    const vault = new RemoteKeyVault(file, store, 'linux');
    await vault.save(KEY);
    const before = fileBytes();
    store.rotated.add(decodeKeyFile(before).toString('base64'));
    expect(await vault.load()).toEqual({ key: KEY });
    expect(fileBytes()).not.toBe(before);
    expect(await vault.load()).toEqual({ key: KEY });
  });

  test('the file codec round-trips and names what is wrong', () => {
    const bytes = randomBytes(40);
    expect(decodeKeyFile(encodeKeyFile(bytes)).equals(bytes)).toBe(true);
    expect(() => decodeKeyFile('[]')).toThrow('not a LabelDesk remote key file');
    expect(() => decodeKeyFile('null')).toThrow('not a LabelDesk remote key file');
    expect(() => decodeKeyFile(JSON.stringify({ format: 'labeldesk-remote-key', version: 1 }))).toThrow('holds no encrypted key');
    expect(() => decodeKeyFile(JSON.stringify({ format: 'labeldesk-remote-key', version: 1, encrypted: 'not base64!' }))).toThrow('holds no encrypted key');
  });

  test('only a plausible key is taken', () => {
    expect(remoteKeyProblem(KEY)).toBeNull();
    expect(remoteKeyProblem(42)).toBe('the remote key must be text');
    expect(remoteKeyProblem('  ')).toBe('the remote key is empty');
    expect(remoteKeyProblem('ldk key')).toMatch(/spaces or control characters/);
    expect(remoteKeyProblem('ldk\nkey')).toMatch(/spaces or control characters/);
    expect(remoteKeyProblem('k'.repeat(1025))).toMatch(/longer than 1024/);
  });
});

describe('handing the key to the service', () => {
  function handoff(platform: NodeJS.Platform = 'linux') {
    const sent: (string | null)[] = [];
    const warnings: string[] = [];
    const h = new RemoteKeyHandoff({
      vault: new RemoteKeyVault(file, store, platform),
      sendToService: (key) => sent.push(key),
      warn: (m) => warnings.push(m),
    });
    return { h, sent, warnings };
  }

  test('the kept key goes to the service at start; none kept, nothing is sent', async () => {
    const first = handoff();
    await first.h.start();
    expect(first.sent).toEqual([]);
    expect(first.warnings).toEqual([]);
    expect(await first.h.save(KEY)).toEqual({ saved: true });
    expect(first.sent).toEqual([KEY]);
    expect(await first.h.has()).toBe(true);

    const restarted = handoff();
    await restarted.h.start();
    expect(restarted.sent).toEqual([KEY]);
  });

  test('a key the page hands over while the kept one is read is not overwritten by it', async () => {
    await handoff().h.save(KEY);
    const { h, sent } = handoff();
    const starting = h.start();
    await h.save('ldk_newer_key');
    await starting;
    expect(sent).toEqual(['ldk_newer_key']);
  });

  test('without a key store the service still gets the key, and the page learns it was not kept', async () => {
    store.backend = 'basic_text';
    const { h, sent } = handoff();
    expect(await h.save(KEY)).toEqual({ saved: false, reason: NO_KEY_STORE_MESSAGE });
    expect(sent).toEqual([KEY]);
    expect(await h.has()).toBe(false);
  });

  test('null makes the service forget the key and removes the file', async () => {
    const { h, sent } = handoff();
    await h.save(KEY);
    expect(await h.save(null)).toEqual({ saved: true });
    expect(sent).toEqual([KEY, null]);
    expect(readdirSync(dir)).toEqual([]);
  });

  test('a value that is not a key is refused before anything happens', async () => {
    const { h, sent } = handoff();
    await expect(h.save({ key: KEY })).rejects.toThrow('the remote key must be text');
    await expect(h.save('')).rejects.toThrow('the remote key is empty');
    expect(sent).toEqual([]);
    expect(readdirSync(dir)).toEqual([]);
  });

  test('a damaged file at start is a warning, and the service starts without a key', async () => {
    writeFileSync(file, '{}');
    const { h, sent, warnings } = handoff();
    await h.start();
    expect(sent).toEqual([]);
    expect(warnings).toEqual(['LabelDesk: no remote sync key at start: the remote key could not be decrypted: the remote key file is not a LabelDesk remote key file']);
  });

  test('only the service page may hand over a key', () => {
    const origin = 'http://127.0.0.1:4317';
    expect(() => requireTrustedSender({ url: `${origin}/`, parent: null }, origin, SAVE_REMOTE_KEY_CHANNEL)).not.toThrow();
    expect(() => requireTrustedSender({ url: 'https://example.com/', parent: null }, origin, SAVE_REMOTE_KEY_CHANNEL)).toThrow(
      "labeldesk:save-remote-key refused: the sender 'https://example.com/' is not the LabelDesk page",
    );
    expect(() => requireTrustedSender({ url: `${origin}/`, parent: {} }, origin, SAVE_REMOTE_KEY_CHANNEL)).toThrow(/refused/);
    expect(() => requireTrustedSender(null, origin, SAVE_REMOTE_KEY_CHANNEL)).toThrow(/\(gone\) is not the LabelDesk page/);
  });
});
