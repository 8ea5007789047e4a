/**
 * `labeldesk users` on a real file, the first test through the real binary and the rest through
 * the command line's entry in this process: a person made with a password read from a file signs
 * in with it; listing, disabling, unlocking and a reset password take effect; a password given as
 * an argument is refused.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openService } from '../../host/open-service';
import { runLabeldesk, runLabeldeskInProcess } from './run-labeldesk';

let dir: string;
let dbFile: string;
const PASSWORD = 'a long enough password';

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'labeldesk-users-'));
  dbFile = join(dir, 'users.db');
  const service = openService(dbFile);
  service.companies.upsert({ id: 'acme', name: 'Acme Cold Chain', shortCode: 'ACME' });
  service.close();
  writeFileSync(join(dir, 'pw.txt'), PASSWORD + '\n');
  writeFileSync(join(dir, 'pw2.txt'), 'another long password\n');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const labeldesk = (args: string[]) => runLabeldesk(dir, args);
const inProcess = runLabeldeskInProcess;

/** What signing in with the password answers, on the file itself. */
function signInCode(login: string, password: string): string {
  const service = openService(dbFile);
  try {
    service.users.signIn(login, password);
    return 'ok';
  } catch (err) {
    return (err as { code: string }).code;
  } finally {
    service.close();
  }
}

describe('labeldesk users', () => {
  it('creates a person whose password comes from a file, and lists them', async () => {
    const created = await labeldesk(['users', 'create', '--db', dbFile, '--company', 'acme', '--login', 'anna', '--name', 'Anna Berg', '--role', 'admin', '--password-file', join(dir, 'pw.txt')]);
    expect(created.stderr).toBe('');
    expect(created.stdout).toBe('created Anna Berg (anna), admin of Acme Cold Chain (acme)\n');
    expect(signInCode('anna', PASSWORD)).toBe('ok');
    const listed = await labeldesk(['users', 'list', '--db', dbFile]);
    expect(listed.stdout.split('\n')[0]).toMatch(/^LOGIN\s+COMPANY\s+NAME\s+ROLE\s+LOCKED\s+DISABLED\s+CREATED$/);
    expect(listed.stdout).toMatch(/^anna\s+acme\s+Anna Berg\s+admin\s+no\s+no\s+/m);
  });

  it('refuses a password on the command line, a weak one, and a role that does not exist', async () => {
    const asArgument = await inProcess(['users', 'create', '--db', dbFile, '--company', 'acme', '--login', 'ben', '--name', 'Ben', '--role', 'viewer', '--password', PASSWORD]);
    expect(asArgument.code).toBe(2);
    const weakFile = join(dir, 'weak.txt');
    writeFileSync(weakFile, 'short\n');
    const weak = await inProcess(['users', 'create', '--db', dbFile, '--company', 'acme', '--login', 'ben', '--name', 'Ben', '--role', 'viewer', '--password-file', weakFile]);
    expect([weak.code, weak.stderr.trim()]).toEqual([1, 'labeldesk users: the password has at least 10 characters']);
    const role = await inProcess(['users', 'create', '--db', dbFile, '--company', 'acme', '--login', 'ben', '--name', 'Ben', '--role', 'boss', '--password-file', join(dir, 'pw.txt')]);
    expect(role.code).toBe(2);
  });

  it('disables and enables, unlocks a locked account, and resets a password', async () => {
    // The company keeps an administrator who may sign in.
    const last = await inProcess(['users', 'disable', '--db', dbFile, 'anna']);
    expect([last.code, last.stderr.trim()]).toEqual([1, 'labeldesk users: the company keeps at least one administrator']);
    await inProcess(['users', 'create', '--db', dbFile, '--company', 'acme', '--login', 'vera', '--name', 'Vera Sol', '--role', 'viewer', '--password-file', join(dir, 'pw.txt')]);
    expect((await inProcess(['users', 'disable', '--db', dbFile, 'vera'])).stdout).toBe('disabled Vera Sol (vera)\n');
    expect(signInCode('vera', PASSWORD)).toBe('SIGN_IN_FAILED');
    expect((await inProcess(['users', 'enable', '--db', dbFile, 'vera'])).code).toBe(0);
    expect(signInCode('vera', PASSWORD)).toBe('ok');
    for (let i = 0; i < 5; i++) signInCode('anna', 'wrong wrong wrong');
    expect(signInCode('anna', PASSWORD)).toBe('ACCOUNT_LOCKED');
    expect((await inProcess(['users', 'unlock', '--db', dbFile, 'Anna'])).stdout).toBe('unlocked Anna Berg (anna)\n');
    expect(signInCode('anna', PASSWORD)).toBe('ok');
    const reset = await inProcess(['users', 'reset-password', '--db', dbFile, 'anna', '--password-file', join(dir, 'pw2.txt')]);
    expect(reset.stdout).toBe('set a new password for Anna Berg (anna)\n');
    expect(signInCode('anna', PASSWORD)).toBe('SIGN_IN_FAILED');
    expect(signInCode('anna', 'another long password')).toBe('ok');
    const missing = await inProcess(['users', 'unlock', '--db', dbFile, 'nobody']);
    expect([missing.code, missing.stderr.trim()]).toEqual([1, "labeldesk users: there is no user with login 'nobody' (see 'labeldesk users list')"]);
  });
});
