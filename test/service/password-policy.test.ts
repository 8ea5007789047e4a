/**
 * A company's password policy on a real SQLite file, with the service's clock in the test's hand:
 * the least length, no reuse of the last N passwords (kept as scrypt hashes), the expiry, and the
 * change forced at the first sign-in and after an administrator's reset, each rule's default and
 * each one switched.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Caller } from '../../service/api-keys';
import type { Service } from '../../host/open-service';
import { column, serviceFile } from '../support/service-files';
import { COMPANIES } from '../support/service-fixture';

let dir: string;
let service: Service & { file: string };
let clock = new Date('2026-11-20T10:00:00.000Z').getTime();
const DAY = 86_400_000;
const PASSWORD = 'correct horse battery';
let anna: Caller;

function refusal(work: () => unknown): string {
  try {
    work();
    return 'ok';
  } catch (err) {
    const { code, message } = err as { code?: string; message: string };
    return `${code}: ${message}`;
  }
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'labeldesk-policy-'));
  service = serviceFile(dir, { now: () => new Date(clock) });
  for (const c of COMPANIES) service.companies.upsert(c);
  const key = service.apiKeys.authenticate(service.apiKeys.createSessionKey('acme', ['labelReports:read', 'labelReports:update', 'labelReports:create', 'webhooks:manage', 'apiKeys:manage', 'sync:manage']));
  // The first administrator, made by a key in the app's form: her own password, no change due.
  service.users.create(key, 'acme', { login: 'anna', name: 'Anna Berg', role: 'admin', password: PASSWORD });
  const session = service.users.signIn('anna', PASSWORD);
  expect(session.passwordChangeDue).toBeNull();
  anna = service.apiKeys.authenticate(session.token);
});
afterAll(() => {
  service.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the password policy', () => {
  it('has its documented defaults', () => {
    expect(service.users.settings(anna)).toEqual({
      lockAfterMinutes: 15,
      fourEyes: false,
      passwordExpiryDays: 90,
      passwordHistory: 5,
      passwordMinLength: 10,
      changeAtFirstSignIn: true,
      changeAfterReset: true,
      sessionIdleHours: 8,
      sessionMaxHours: 12,
    });
  });

  it('refuses settings out of range, naming the field', () => {
    expect(refusal(() => service.users.saveSettings(anna, 'acme', { passwordMinLength: 6 }))).toBe('INVALID_BODY: passwordMinLength is a whole number of characters from 8 to 128');
    expect(refusal(() => service.users.saveSettings(anna, 'acme', { passwordHistory: 25 }))).toBe('INVALID_BODY: passwordHistory is a whole number of passwords (0: no rule) from 0 to 24');
    expect(refusal(() => service.users.saveSettings(anna, 'acme', { sessionMaxHours: 1, lockAfterMinutes: 90 }))).toMatch(/^INVALID_BODY: a session lasts at least as long as the lock/);
    expect(service.users.settings(anna).lockAfterMinutes).toBe(15);
  });

  it('a person an administrator made changes the password at the first sign-in', () => {
    service.users.create(anna, 'acme', { login: 'ben', name: 'Ben Holt', role: 'reviewer', password: PASSWORD });
    const ben = service.users.signIn('ben', PASSWORD);
    expect(ben.passwordChangeDue).toBe('firstSignIn');
    expect(service.apiKeys.authenticate(ben.token).passwordChangeDue).toBe('firstSignIn');
    expect(refusal(() => service.users.changePassword(ben.token, 'not the password', 'ben chose his own'))).toBe('PASSWORD_WRONG: the password is wrong');
    expect(refusal(() => service.users.changePassword(ben.token, PASSWORD, PASSWORD))).toMatch(/^PASSWORD_REUSED: the password is one of the last 5/);
    const changed = service.users.changePassword(ben.token, PASSWORD, 'ben chose his own');
    expect(changed.passwordChangeDue).toBeNull();
    expect(service.apiKeys.authenticate(ben.token).passwordChangeDue).toBeUndefined();
    expect(service.users.signIn('ben', 'ben chose his own').passwordChangeDue).toBeNull();

    service.users.saveSettings(anna, 'acme', { changeAtFirstSignIn: false });
    service.users.create(anna, 'acme', { login: 'cleo', name: 'Cleo Park', role: 'viewer', password: PASSWORD });
    expect(service.users.signIn('cleo', PASSWORD).passwordChangeDue).toBeNull();
    service.users.saveSettings(anna, 'acme', { changeAtFirstSignIn: true });
  });

  it('takes the company’s least length', () => {
    service.users.saveSettings(anna, 'acme', { passwordMinLength: 16 });
    expect(refusal(() => service.users.create(anna, 'acme', { login: 'dan', name: 'Dan', role: 'viewer', password: 'fifteen chars!!' }))).toBe('WEAK_PASSWORD: the password has at least 16 characters');
    const ben = service.users.signIn('ben', 'ben chose his own');
    expect(refusal(() => service.users.changePassword(ben.token, 'ben chose his own', 'short but 12'))).toBe('WEAK_PASSWORD: the password has at least 16 characters');
    service.users.saveSettings(anna, 'acme', { passwordMinLength: 10 });
  });

  it('refuses the last N passwords, kept as scrypt hashes, and allows an older one', () => {
    service.users.saveSettings(anna, 'acme', { passwordHistory: 3 });
    const ben = service.users.signIn('ben', 'ben chose his own');
    const [a, b, c, d] = ['first of bens', 'second of bens', 'third of bens', 'fourth of bens'];
    service.users.changePassword(ben.token, 'ben chose his own', a);
    service.users.changePassword(ben.token, a, b);
    service.users.changePassword(ben.token, b, c);
    // c is current, b and a the two before: the last 3.
    expect(refusal(() => service.users.changePassword(ben.token, c, a))).toBe('PASSWORD_REUSED: the password is one of the last 3 of this person: choose one not used before');
    service.users.changePassword(ben.token, c, d);
    expect(refusal(() => service.users.changePassword(ben.token, d, a))).toBe('ok');
    const kept = column(service.file, "SELECT hash FROM password_history h JOIN users u ON u.id = h.user_id WHERE u.login = 'ben'") as string[];
    expect(kept.length).toBeGreaterThanOrEqual(3);
    for (const hash of kept) expect(hash).toMatch(/^scrypt\$/);
    service.users.saveSettings(anna, 'acme', { passwordHistory: 5 });
  });

  it('a password older than passwordExpiryDays must be changed; 0 means never', () => {
    clock += 91 * DAY;
    const anna2 = service.users.signIn('anna', PASSWORD);
    expect(anna2.passwordChangeDue).toBe('expired');
    service.users.saveSettings(null, 'acme', { passwordExpiryDays: 0 });
    expect(service.users.signIn('anna', PASSWORD).passwordChangeDue).toBeNull();
    service.users.saveSettings(null, 'acme', { passwordExpiryDays: 90 });
    const changed = service.users.changePassword(anna2.token, PASSWORD, 'anna after ninety days');
    expect(changed.passwordChangeDue).toBeNull();
    anna = service.apiKeys.authenticate(changed.token);
  });

  it('an administrator’s reset ends the person’s sessions and forces a change, unless the policy says not', () => {
    const ben = service.users.signIn('ben', 'first of bens');
    const info = service.users.resetPassword(anna, ben.person.id, 'a temporary password');
    expect(info.passwordChangeDue).toBe('reset');
    expect(refusal(() => service.apiKeys.authenticate(ben.token))).toBe('SESSION_ENDED: the session has ended: sign in again');
    const after = service.users.signIn('ben', 'a temporary password');
    expect(after.passwordChangeDue).toBe('reset');
    service.users.changePassword(after.token, 'a temporary password', 'ben after the reset');
    expect(service.users.events(anna, ben.person.id).map((e) => e.kind).slice(-3)).toEqual(['passwordReset', 'signedIn', 'passwordChanged']);

    service.users.saveSettings(anna, 'acme', { changeAfterReset: false });
    service.users.resetPassword(anna, ben.person.id, 'another temporary one');
    expect(service.users.signIn('ben', 'another temporary one').passwordChangeDue).toBeNull();
  });
});
