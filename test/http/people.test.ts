/**
 * People over HTTP on a real service: signing in, the token sent as a key, who /local/session
 * says is signed in, the lock after inactivity (401 SESSION_LOCKED, the service's clock moved;
 * reads do not count as activity, writes and the page's activity signal do) and unlocking, the users routes' refusals in the order of docs/api.md#errors, signatures with a
 * wrong then a right password, and answers that fit /openapi.json.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { api, makeReport, startTestService, type TestService } from '../support/service-fixture';
import { openApiFit, type FitCheck } from '../support/openapi-fit';

let svc: TestService;
let clock = new Date('2026-11-20T10:00:00.000Z').getTime();
const PASSWORD = 'correct horse battery';
let fits: FitCheck;

beforeAll(async () => {
  svc = await startTestService([makeReport('r1'), makeReport('r-other', { companyId: 'other' })], { now: () => new Date(clock) });
  fits = await openApiFit(svc.url);
});
afterAll(() => svc.stop());

/** A request with the given token (or key name) as x-api-key. */
async function call(path: string, init: { token?: string | null; method?: string; body?: unknown } = {}) {
  const headers: Record<string, string> = {};
  if (init.token) headers['x-api-key'] = init.token;
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(svc.url + path, { method: init.method ?? 'GET', headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) });
  const text = await res.text();
  return { status: res.status, body: text === '' ? undefined : JSON.parse(text) };
}

const signIn = (login: string, password = PASSWORD) => call('/local/session/sign-in', { method: 'POST', body: { login, password } });

describe('people over HTTP', () => {
  let admin: string;

  test('the first administrator is made with an admin-capable key; /local/session then says people sign', async () => {
    expect((await api(svc, '/local/session', { key: 'acme' })).body.hasPeople).toBe(false);
    // The fixture's acme key lacks labelReports:create, webhooks:manage and sync:manage: no admin from it.
    const tooMuch = await api(svc, '/local/users', { key: 'acme', method: 'POST', body: { login: 'anna', name: 'Anna Berg', role: 'admin', password: PASSWORD } });
    expect([tooMuch.status, tooMuch.body.code]).toEqual([403, 'GRANT_EXCEEDS_CALLER']);
    const full = svc.service.apiKeys.create('acme', ['labelReports:read', 'labelReports:update', 'labelReports:create', 'webhooks:manage', 'apiKeys:manage', 'sync:manage'], 'setup');
    const created = await call('/local/users', { token: full.key, method: 'POST', body: { login: 'anna', name: 'Anna Berg', role: 'admin', password: PASSWORD } });
    expect(created.status).toBe(201);
    fits('/local/users', 'post', created);
    expect((await api(svc, '/local/session', { key: 'acme' })).body.hasPeople).toBe(true);
  });

  test('sign-in answers a token that works as a key; /local/session names the person', async () => {
    const wrong = await signIn('anna', 'not the password');
    expect([wrong.status, wrong.body.code]).toEqual([401, 'SIGN_IN_FAILED']);
    expect(wrong.body.message).toMatch(/After 5 failed attempts in a row the account locks until an administrator unlocks it/);
    expect((await signIn('nobody-here')).body.message).toBe(wrong.body.message);
    const res = await signIn('ANNA');
    expect(res.status).toBe(200);
    fits('/local/session/sign-in', 'post', res);
    admin = res.body.token;
    const session = await call('/local/session', { token: admin });
    expect(session.body).toMatchObject({ companyId: 'acme', person: { login: 'anna', name: 'Anna Berg', role: 'admin' }, hasPeople: true });
    fits('/local/session', 'get', session);
  });

  test('users routes: no key 401, a viewer 403, a bad body 400, another company’s user 404', async () => {
    const vera = await call('/local/users', { token: admin, method: 'POST', body: { login: 'vera', name: 'Vera Sol', role: 'viewer', password: PASSWORD } });
    // An administrator chose Vera's password: her session does nothing but change it first.
    const first = await signIn('vera');
    expect(first.body.passwordChangeDue).toBe('firstSignIn');
    const veraToken = first.body.token;
    const held = await call('/v2/labelReports/r1', { token: veraToken });
    expect([held.status, held.body.code, held.body.message]).toEqual([403, 'PASSWORD_CHANGE_REQUIRED', expect.stringContaining('an administrator chose this password')]);
    expect((await call('/local/session', { token: veraToken })).body).toMatchObject({ person: { login: 'vera' }, passwordChangeDue: 'firstSignIn' });
    // The rules the new password must meet are read before it is typed; they are not changed.
    expect((await call('/local/settings', { token: veraToken })).body).toMatchObject({ passwordMinLength: 10, passwordHistory: 5 });
    const tryPut = await call('/local/settings', { token: veraToken, method: 'PUT', body: { passwordMinLength: 8 } });
    expect([tryPut.status, tryPut.body.code]).toEqual([403, 'PASSWORD_CHANGE_REQUIRED']);
    const changed = await call('/local/session/password', { token: veraToken, method: 'POST', body: { currentPassword: PASSWORD, newPassword: 'vera chose this one' } });
    expect(changed.status).toBe(200);
    fits('/local/session/password', 'post', changed);
    expect(changed.body).toMatchObject({ token: veraToken, passwordChangeDue: null });
    expect((await call('/v2/labelReports/r1', { token: veraToken })).status).toBe(200);
    expect((await call('/local/users', { token: null })).body.code).toBe('API_KEY_MISSING');
    const denied = await call('/local/users', { token: veraToken, method: 'POST', body: { nonsense: true } });
    expect([denied.status, denied.body.code]).toEqual([403, 'PERMISSION_DENIED']);
    const bad = await call('/local/users', { token: admin, method: 'POST', body: { login: 'x' } });
    expect([bad.status, bad.body.code]).toEqual([400, 'INVALID_BODY']);
    const otherKey = await api(svc, '/local/users', { key: 'other' });
    expect(otherKey.status).toBe(200);
    expect(otherKey.body).toEqual([]);
    const notHers = await api(svc, `/local/users/${vera.body.id}/unlock`, { key: 'other', method: 'POST' });
    expect([notHers.status, notHers.body.code]).toEqual([404, 'USER_NOT_FOUND']);
    const list = await call('/local/users', { token: admin });
    fits('/local/users', 'get', list);
    expect(list.body.map((u: { login: string }) => u.login)).toEqual(['anna', 'vera']);
    const events = await call(`/local/users/${vera.body.id}/events`, { token: admin });
    fits('/local/users/{id}/events', 'get', events);
    expect(events.body.map((e: { kind: string }) => e.kind)).toEqual(['created', 'signedIn', 'passwordChanged']);
  });

  test('a signature with a wrong password writes nothing; the right one signs', async () => {
    const wrong = await call('/local/labelReports/r1/acknowledgement', { token: admin, method: 'PUT', body: { password: 'nope nope', zone: 'Europe/Berlin' } });
    expect([wrong.status, wrong.body.code]).toEqual([403, 'SIGNATURE_PASSWORD_WRONG']);
    expect((await call('/local/labelReports/r1/review', { token: admin })).body.acknowledgement).toBeNull();
    const decideFirst = await call('/local/labelReports/r1/decision', { token: admin, method: 'PUT', body: { decision: 'released', reason: 'ok', password: PASSWORD } });
    expect([decideFirst.status, decideFirst.body.code]).toEqual([409, 'ACKNOWLEDGEMENT_REQUIRED']);
    const ack = await call('/local/labelReports/r1/acknowledgement', { token: admin, method: 'PUT', body: { password: PASSWORD, zone: 'Europe/Berlin' } });
    expect(ack.status).toBe(200);
    expect(ack.body).toMatchObject({ meaning: 'Reviewed', zone: 'Europe/Berlin', by: { person: { login: 'anna', name: 'Anna Berg' } } });
    const keyTries = await api(svc, '/local/labelReports/r1/acknowledgement', { key: 'acme', method: 'PUT', body: {} });
    expect([keyTries.status, keyTries.body.code]).toEqual([403, 'SIGNATURE_NEEDS_PERSON']);
    const history = await call('/local/labelReports/r1/history', { token: admin });
    fits('/local/labelReports/{id}/history', 'get', history);
  });

  test('a key grants no more than it holds', async () => {
    const veraless = await api(svc, '/local/apiKeys', { key: 'acme', method: 'POST', body: { name: 'more', permissions: ['sync:manage'] } });
    expect([veraless.status, veraless.body.code]).toEqual([403, 'GRANT_EXCEEDS_CALLER']);
  });

  test('an idle session locks (401 SESSION_LOCKED); the password unlocks the same session; sign-out ends it', async () => {
    const settings = await call('/local/settings', { token: admin, method: 'PUT', body: { lockAfterMinutes: 2 } });
    expect(settings.body).toMatchObject({ lockAfterMinutes: 2, fourEyes: false });
    clock += 3 * 60_000;
    const locked = await call('/local/session', { token: admin });
    expect([locked.status, locked.body.code]).toEqual([401, 'SESSION_LOCKED']);
    const wrong = await call('/local/session/unlock', { token: admin, method: 'POST', body: { password: 'nope nope' } });
    expect([wrong.status, wrong.body.code]).toEqual([401, 'PASSWORD_WRONG']);
    const unlocked = await call('/local/session/unlock', { token: admin, method: 'POST', body: { password: PASSWORD } });
    expect(unlocked.status).toBe(200);
    expect(unlocked.body.token).toBe(admin);
    expect((await call('/local/session', { token: admin })).status).toBe(200);

    // An open page's reads, one a minute, do not keep an empty desk open…
    for (let minute = 1; minute <= 3; minute++) {
      clock += 60_000;
      const read = await call('/v2/labelReports/r1', { token: admin });
      expect(read.status, `minute ${minute}`).toBe(minute <= 2 ? 200 : 401);
    }
    expect((await call('/local/session/unlock', { token: admin, method: 'POST', body: { password: PASSWORD } })).status).toBe(200);
    // …while the person's own doing does: the page's activity signal, and writes.
    for (let minute = 1; minute <= 5; minute++) {
      clock += 90_000;
      const acted = minute % 2 === 0
        ? await call('/local/session/activity', { token: admin, method: 'POST' })
        : await call('/local/settings', { token: admin, method: 'PUT', body: { lockAfterMinutes: 2 } });
      expect(acted.status, `step ${minute}`).toBe(minute % 2 === 0 ? 204 : 200);
    }
    clock += 3 * 60_000;
    const idle = await call('/local/session/activity', { token: admin, method: 'POST' });
    expect([idle.status, idle.body.code]).toEqual([401, 'SESSION_LOCKED']);
    expect((await call('/local/session/unlock', { token: admin, method: 'POST', body: { password: PASSWORD } })).status).toBe(200);
    expect((await call('/local/session/activity', { token: 'lds_not-a-session', method: 'POST' })).body.code).toBe('SESSION_ENDED');

    expect((await call('/local/session/sign-out', { token: admin, method: 'POST' })).status).toBe(204);
    expect((await call('/local/session', { token: admin })).body.code).toBe('SESSION_ENDED');
  });
});
