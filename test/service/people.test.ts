/**
 * People at the desk on a real SQLite file, with the service's clock in the test's hand: roles,
 * sign-in and its lockout, disabling, the lock after inactivity, granting no more than one holds,
 * and signatures (the password entered again, the acknowledgement before a decision, four eyes),
 * each entry naming the person.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Caller } from '../../service/api-keys';
import { MAX_FAILED_SIGN_INS } from '../../service/users';
import { hashPassword, verifyPassword } from '../../service/passwords';
import type { Service } from '../../host/open-service';
import { column, serviceFile } from '../support/service-files';
import { COMPANIES, makeReport, T0 } from '../support/service-fixture';

let dir: string;
let service: Service & { file: string };
let clock = new Date('2026-11-20T10:00:00.000Z').getTime();
const advance = (minutes: number) => (clock += minutes * 60_000);
const PASSWORD = 'correct horse battery';
let tool: Caller;

/** A refusal's code and kind, or 'ok'. */
function refusal(work: () => unknown): string {
  try {
    work();
    return 'ok';
  } catch (err) {
    const { code, kind } = err as { code?: string; kind?: string };
    return `${kind} ${code}`;
  }
}

const CRITICAL = { alertsConfig: { rules: [{ level: 2 as const, kind: 'singleEvent' as const, seconds: 1200 }] } };

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'labeldesk-people-'));
  service = serviceFile(dir, { now: () => new Date(clock) });
  for (const c of COMPANIES) service.companies.upsert(c);
  for (const id of ['r-warm', 'r-crit', 'r-crit2', 'r-edit']) service.putReport(makeReport(id, id.startsWith('r-crit') ? CRITICAL : {}), { kind: 'import' });
  service.putReport(makeReport('r-nordic', { companyId: 'nordic' }), { kind: 'import' });
  tool = service.apiKeys.authenticate(service.apiKeys.createSessionKey('acme', ['labelReports:read', 'labelReports:update', 'labelReports:create', 'webhooks:manage', 'apiKeys:manage', 'sync:manage']));
});
afterAll(() => {
  service.close();
  rmSync(dir, { recursive: true, force: true });
});

const signIn = (login: string, password = PASSWORD) => {
  const session = service.users.signIn(login, password);
  return { ...session, caller: service.apiKeys.authenticate(session.token) };
};

describe('passwords', () => {
  it('are stored as scrypt with their parameters and salt, and verify only the right one', () => {
    const stored = hashPassword(PASSWORD);
    expect(stored).toMatch(/^scrypt\$16384\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect(hashPassword(PASSWORD)).not.toBe(stored);
    expect(verifyPassword(PASSWORD, stored)).toBe(true);
    expect(verifyPassword(PASSWORD + ' ', stored)).toBe(false);
  });
});

describe('the first administrator, and who manages people', () => {
  it('a company without people: a key keeps acknowledging and deciding, unsigned', () => {
    expect(service.users.hasPeople('acme')).toBe(false);
    const ack = service.reviews.acknowledge(tool, 'r-warm', {});
    expect(ack.meaning).toBeUndefined();
    expect(ack.by.person).toBeUndefined();
  });

  it('an admin-capable key makes the first administrator; a key grants no more than it holds', () => {
    const readOnly = service.apiKeys.authenticate(service.apiKeys.createSessionKey('acme', ['labelReports:read', 'labelReports:update', 'apiKeys:manage']));
    expect(refusal(() => service.users.create(readOnly, 'acme', { login: 'boss', name: 'Boss', role: 'admin', password: PASSWORD }))).toBe('roleForbidden GRANT_EXCEEDS_CALLER');
    expect(refusal(() => service.users.create(tool, 'nordic', { login: 'boss', name: 'Boss', role: 'admin', password: PASSWORD }))).toBe('roleForbidden OTHER_COMPANY');
    expect(refusal(() => service.users.create(tool, 'acme', { login: 'boss', name: 'Boss', role: 'admin', password: 'short' }))).toBe('invalidInput WEAK_PASSWORD');
    const admin = service.users.create(tool, 'acme', { login: 'anna', name: 'Anna Berg', role: 'admin', password: PASSWORD });
    expect(admin).toMatchObject({ login: 'anna', role: 'admin', locked: false, disabled: false });
    expect(service.users.hasPeople('acme')).toBe(true);
    // From now on only an administrator who signed in manages people.
    expect(refusal(() => service.users.create(tool, 'acme', { login: 'x1', name: 'X', role: 'viewer', password: PASSWORD }))).toBe('roleForbidden ADMIN_ONLY');
    expect(service.users.events(null, admin.id).map((e) => [e.kind, e.byKeyId])).toEqual([['created', 'session']]);
  });

  it('an administrator creates people of every role; others manage nobody', () => {
    const anna = signIn('anna').caller;
    expect(anna.person).toMatchObject({ login: 'anna', name: 'Anna Berg', role: 'admin' });
    for (const [login, name, role] of [
      ['ben', 'Ben Ode', 'reviewer'],
      ['cleo', 'Cleo Lind', 'approver'],
      ['dan', 'Dan Vik', 'approver'],
      ['vera', 'Vera Sol', 'viewer'],
    ] as const) service.users.create(anna, 'acme', { login, name, role, password: PASSWORD });
    expect(refusal(() => service.users.create(anna, 'acme', { login: 'BEN', name: 'B', role: 'viewer', password: PASSWORD }))).toBe('invalidInput LOGIN_TAKEN');
    const ben = signIn('ben').caller;
    expect(refusal(() => service.users.list(ben))).toBe('roleForbidden ADMIN_ONLY');
    expect(refusal(() => service.apiKeys.createFor(ben, ['labelReports:read'], 'mine'))).toBe('roleForbidden ADMIN_ONLY');
    expect(refusal(() => service.apiKeys.createFor(anna, ['labelReports:read'], 'ok'))).toBe('ok');
    const narrowKey = service.apiKeys.authenticate(service.apiKeys.createSessionKey('acme', ['apiKeys:manage']));
    expect(refusal(() => service.apiKeys.createFor(narrowKey, ['labelReports:read'], 'more'))).toBe('roleForbidden GRANT_EXCEEDS_CALLER');
    expect(service.users.list(anna).map((u) => u.login)).toEqual(['anna', 'ben', 'cleo', 'dan', 'vera']);
    // The last administrator stays one.
    expect(refusal(() => service.users.update(anna, anna.person!.id, { role: 'viewer' }))).toBe('roleForbidden LAST_ADMIN');
  });
});

describe('roles', () => {
  it('map onto permissions: a viewer reads and comments, but neither edits nor signs', () => {
    const vera = signIn('vera').caller;
    expect([...vera.permissions].sort()).toEqual(['labelReports:read', 'labelReports:update']);
    expect(service.reviews.comment(vera, 'r-edit', { text: 'looks warm' }).author.person).toMatchObject({ login: 'vera', name: 'Vera Sol' });
    expect(refusal(() => service.reports.update(vera, 'r-edit', { labelReference: 'NO' }))).toBe('roleForbidden ROLE_FORBIDDEN');
    expect(refusal(() => service.reviews.acknowledge(vera, 'r-edit', { password: PASSWORD }))).toBe('roleForbidden ROLE_FORBIDDEN');
  });

  it('a reviewer edits, and the change log names the person', () => {
    const ben = signIn('ben').caller;
    service.reports.update(ben, 'r-edit', { labelReference: 'SHP-BEN' });
    const change = service.reportHistory.history(ben, 'r-edit').entries.find((e) => e.type === 'change' && e.kind === 'update');
    expect(change?.actor.person).toEqual({ id: ben.person!.id, login: 'ben', name: 'Ben Ode' });
    expect(column(service.file, "SELECT user_name FROM change_log WHERE label_report_id = 'r-edit' AND kind = 'update'")).toEqual(['Ben Ode']);
  });

  it('a reviewer cannot release; an approver can', () => {
    const ben = signIn('ben').caller;
    service.reviews.acknowledge(ben, 'r-edit', { password: PASSWORD, zone: 'Europe/Oslo' });
    expect(refusal(() => service.reviews.decide(ben, 'r-edit', { decision: 'released', reason: 'fine', password: PASSWORD }))).toBe('roleForbidden ROLE_FORBIDDEN');
    expect(refusal(() => service.reviews.decide(ben, 'r-edit', { decision: 'onHold', reason: 'wait', password: PASSWORD }))).toBe('ok');
    const cleo = signIn('cleo').caller;
    expect(refusal(() => service.reviews.decide(cleo, 'r-edit', { decision: 'released', reason: 'fine', password: PASSWORD }))).toBe('ok');
  });
});

describe('signatures', () => {
  it('a key cannot sign once the company has people', () => {
    expect(refusal(() => service.reviews.acknowledge(tool, 'r-warm', {}))).toBe('roleForbidden SIGNATURE_NEEDS_PERSON');
    expect(refusal(() => service.reviews.decide(tool, 'r-warm', { decision: 'released', reason: 'x' }))).toBe('roleForbidden SIGNATURE_NEEDS_PERSON');
  });

  it('a wrong password signs nothing; the right one signs with meaning, printed name, login, time and zone', () => {
    const ben = signIn('ben').caller;
    const before = service.reviews.review(ben, 'r-warm');
    expect(refusal(() => service.reviews.acknowledge(ben, 'r-warm', { password: 'wrong password!' }))).toBe('roleForbidden SIGNATURE_PASSWORD_WRONG');
    expect(refusal(() => service.reviews.acknowledge(ben, 'r-warm', {}))).toBe('invalidInput SIGNATURE_PASSWORD_MISSING');
    expect(refusal(() => service.reviews.acknowledge(ben, 'r-warm', { password: PASSWORD, zone: 'Mars/Olympus' }))).toBe('invalidInput INVALID_BODY');
    expect(service.reviews.review(ben, 'r-warm')).toEqual(before);
    const ack = service.reviews.acknowledge(ben, 'r-warm', { password: PASSWORD, zone: 'Europe/Oslo', note: 'seen' });
    expect(ack).toMatchObject({ meaning: 'Reviewed', zone: 'Europe/Oslo', at: new Date(clock).toISOString(), by: { keyId: '', keyName: null, person: { login: 'ben', name: 'Ben Ode' } } });
    expect(column(service.file, 'SELECT api_key_id IS NULL FROM report_reviews WHERE id = ?', Number(ack.id))).toEqual([1]);
    const history = service.reportHistory.history(ben, 'r-warm').entries;
    expect(history[0]).toMatchObject({ type: 'acknowledgement', meaning: 'Reviewed', zone: 'Europe/Oslo', actor: { person: { login: 'ben', name: 'Ben Ode' } } });
    // The older entry a key wrote keeps naming its key.
    expect(history.find((e) => e.type === 'acknowledgement' && e.actor.person === undefined)?.actor.keyName).toBe('LabelDesk desktop app');
  });

  it('each decision has its meaning', () => {
    const cleo = signIn('cleo').caller;
    const meanings = (['onHold', 'rejected', 'released'] as const).map((decision) => {
      const signed = service.reviews.decide(cleo, 'r-warm', { decision, reason: 'because', password: PASSWORD, zone: 'America/New_York' });
      return [signed.meaning, signed.zone];
    });
    expect(meanings).toEqual([
      ['On hold', 'America/New_York'],
      ['Rejected', 'America/New_York'],
      ['Approved for release', 'America/New_York'],
    ]);
  });

  it('a decision on a report with an alert needs its current alert acknowledged first', () => {
    const cleo = signIn('cleo').caller;
    expect(refusal(() => service.reviews.decide(cleo, 'r-crit', { decision: 'released', reason: 'x', password: PASSWORD }))).toBe('conflict ACKNOWLEDGEMENT_REQUIRED');
    service.reviews.acknowledge(cleo, 'r-crit', { password: PASSWORD });
    expect(refusal(() => service.reviews.decide(cleo, 'r-crit', { decision: 'released', reason: 'x', password: PASSWORD }))).toBe('ok');
  });

  it('four eyes: a Critical report is released by someone other than who acknowledged it', () => {
    const anna = signIn('anna').caller;
    service.users.saveSettings(anna, 'acme', { fourEyes: true });
    const cleo = signIn('cleo').caller;
    const dan = signIn('dan').caller;
    service.reviews.acknowledge(cleo, 'r-crit2', { password: PASSWORD });
    expect(refusal(() => service.reviews.decide(cleo, 'r-crit2', { decision: 'released', reason: 'x', password: PASSWORD }))).toBe('conflict FOUR_EYES');
    // Holding or rejecting needs no second person.
    expect(refusal(() => service.reviews.decide(cleo, 'r-crit2', { decision: 'onHold', reason: 'x', password: PASSWORD }))).toBe('ok');
    expect(refusal(() => service.reviews.decide(dan, 'r-crit2', { decision: 'released', reason: 'x', password: PASSWORD }))).toBe('ok');
    service.users.saveSettings(anna, 'acme', { fourEyes: false });
  });
});

describe('sign-in, lockout, disabling', () => {
  it(`locks an account after ${MAX_FAILED_SIGN_INS} failures in a row until an admin unlocks it`, () => {
    const anna = signIn('anna').caller;
    const dan = service.users.list(anna).find((u) => u.login === 'dan')!;
    for (let i = 1; i < MAX_FAILED_SIGN_INS; i++) expect(refusal(() => service.users.signIn('dan', 'nope nope nope'))).toBe('unauthenticated SIGN_IN_FAILED');
    // A success in between starts the count again.
    signIn('dan');
    for (let i = 1; i <= MAX_FAILED_SIGN_INS; i++) expect(refusal(() => service.users.signIn('dan', 'nope nope nope'))).toBe('unauthenticated SIGN_IN_FAILED');
    expect(refusal(() => service.users.signIn('dan', PASSWORD))).toBe('unauthenticated ACCOUNT_LOCKED');
    expect(service.users.list(anna).find((u) => u.login === 'dan')?.locked).toBe(true);
    service.users.unlock(anna, dan.id);
    expect(refusal(() => signIn('dan'))).toBe('ok');
    const kinds = service.users.events(anna, dan.id).map((e) => e.kind);
    expect(kinds.filter((k) => k === 'signInFailed')).toHaveLength(2 * MAX_FAILED_SIGN_INS - 1 + 1);
    expect(kinds).toContain('locked');
    expect(service.users.events(anna, dan.id).find((e) => e.kind === 'unlocked')?.byUserId).toBe(anna.person!.id);
  });

  it('a stranger’s login locks the same way, so the lock tells nothing about which logins exist', () => {
    for (let i = 1; i <= MAX_FAILED_SIGN_INS; i++) expect(refusal(() => service.users.signIn('nobody', 'x'))).toBe('unauthenticated SIGN_IN_FAILED');
    expect(refusal(() => service.users.signIn('nobody', 'x'))).toBe('unauthenticated ACCOUNT_LOCKED');
  });

  it('wrong signature passwords count as failed sign-ins: the fifth locks the account and ends the session', () => {
    const vera = signIn('vera');
    const anna = signIn('anna').caller;
    const veraId = vera.person.id;
    service.users.update(anna, veraId, { role: 'reviewer' });
    const caller = service.apiKeys.authenticate(vera.token);
    for (let i = 1; i < MAX_FAILED_SIGN_INS; i++) expect(refusal(() => service.reviews.acknowledge(caller, 'r-warm', { password: 'bad bad bad' }))).toBe('roleForbidden SIGNATURE_PASSWORD_WRONG');
    expect(refusal(() => service.reviews.acknowledge(caller, 'r-warm', { password: 'bad bad bad' }))).toBe('unauthenticated ACCOUNT_LOCKED');
    expect(refusal(() => service.apiKeys.authenticate(vera.token))).toBe('unauthenticated SESSION_ENDED');
    service.users.unlock(anna, veraId);
    service.users.update(anna, veraId, { role: 'viewer' });
  });

  it('a disabled user cannot sign in, and their session ends', () => {
    const ben = signIn('ben');
    const anna = signIn('anna').caller;
    service.users.setDisabled(anna, ben.person.id, true);
    expect(refusal(() => service.apiKeys.authenticate(ben.token))).toBe('unauthenticated SESSION_ENDED');
    expect(refusal(() => service.users.signIn('ben', PASSWORD))).toBe('unauthenticated SIGN_IN_FAILED');
    service.users.setDisabled(anna, ben.person.id, false);
    expect(refusal(() => signIn('ben'))).toBe('ok');
    expect(service.users.events(anna, ben.person.id).map((e) => e.kind)).toEqual(expect.arrayContaining(['disabled', 'enabled']));
  });

  it('a role change counts from the next request', () => {
    const ben = signIn('ben');
    const anna = signIn('anna').caller;
    service.users.update(anna, ben.person.id, { role: 'approver' });
    expect(service.apiKeys.authenticate(ben.token).person?.role).toBe('approver');
    service.users.update(anna, ben.person.id, { role: 'reviewer' });
    expect(service.users.events(anna, ben.person.id).filter((e) => e.kind === 'roleChanged').map((e) => e.detail)).toEqual(['reviewer → approver', 'approver → reviewer']);
  });
});

describe('the lock after inactivity', () => {
  it('locks a session idle longer than the company allows; the same password unlocks it and keeps it', () => {
    const anna = signIn('anna').caller;
    service.users.saveSettings(anna, 'acme', { lockAfterMinutes: 5 });
    const cleo = signIn('cleo');
    expect(cleo.lockAfterMinutes).toBe(5);
    advance(4);
    expect(refusal(() => service.apiKeys.authenticate(cleo.token))).toBe('ok');
    advance(5.5);
    expect(refusal(() => service.apiKeys.authenticate(cleo.token))).toBe('unauthenticated SESSION_LOCKED');
    expect(refusal(() => service.users.unlockSession(cleo.token, 'not it at all'))).toBe('unauthenticated PASSWORD_WRONG');
    expect(refusal(() => service.apiKeys.authenticate(cleo.token))).toBe('unauthenticated SESSION_LOCKED');
    const unlocked = service.users.unlockSession(cleo.token, PASSWORD);
    expect(unlocked.token).toBe(cleo.token);
    expect(service.apiKeys.authenticate(cleo.token).person?.login).toBe('cleo');
    service.users.signOut(cleo.token);
    expect(refusal(() => service.apiKeys.authenticate(cleo.token))).toBe('unauthenticated SESSION_ENDED');
    service.users.saveSettings(anna, 'acme', { lockAfterMinutes: 15 });
  });
});
