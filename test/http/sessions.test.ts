/**
 * Sessions kept in the database, on a real service over HTTP with its clock in the test's hand:
 * a session survives the service stopped and started again on the same file, the file holds only
 * the token's SHA-256, and a session ends at once when its person is disabled, when it expires
 * (idle too long, or too long after its sign-in) and, for the other sessions, when its person
 * changes the password.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startService, type RunningService } from '../../host/start-service';
import { column } from '../support/service-files';
import { makeReport, startTestService, type TestService } from '../support/service-fixture';

const PASSWORD = 'correct horse battery';
const HOUR = 3_600_000;
let clock = new Date('2026-11-20T08:00:00.000Z').getTime();
const now = () => new Date(clock);
let first: TestService;
let svc: RunningService;

beforeAll(async () => {
  first = await startTestService([makeReport('r1')], { now });
  // Made by the command line, whose word on the password is no person's own: changed at the first sign-in.
  first.service.users.create(null, 'acme', { login: 'anna', name: 'Anna Berg', role: 'admin', password: PASSWORD });
  svc = first;
});
afterAll(async () => {
  if (svc !== first) await svc.close();
  await first.stop();
});

async function call(path: string, token: string | null, init: { method?: string; body?: unknown } = {}) {
  const headers: Record<string, string> = {};
  if (token) headers['x-api-key'] = token;
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(svc.url + path, { method: init.method ?? 'GET', headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) });
  const text = await res.text();
  return { status: res.status, body: text === '' ? undefined : JSON.parse(text) };
}
const signIn = async (login: string, password = PASSWORD) => (await call('/local/session/sign-in', null, { method: 'POST', body: { login, password } })).body;
const refusal = (res: { status: number; body: { code: string } }) => [res.status, res.body.code];

describe('sessions', () => {
  let anna: string;

  test('a signed-in session survives the service stopped and started again on the same file, which holds only its hash', async () => {
    const session = await signIn('anna');
    expect(session.passwordChangeDue).toBe('firstSignIn');
    expect(session.expires).toBe(new Date(clock + 12 * HOUR).toISOString());
    anna = session.token;
    expect((await call('/local/session/password', anna, { method: 'POST', body: { currentPassword: PASSWORD, newPassword: 'anna chose this' } })).status).toBe(200);

    await first.close();
    svc = await startService({ dbFile: first.dbFile, staticDir: join(first.dir, 'no-ui'), now });
    const after = await call('/local/session', anna);
    expect(after.status).toBe(200);
    expect(after.body).toMatchObject({ person: { login: 'anna' }, companyId: 'acme' });
    expect(after.body.passwordChangeDue).toBeUndefined();
    expect((await call('/v2/labelReports/r1', anna)).status).toBe(200);

    const stored = column(first.dbFile, 'SELECT token_hash FROM user_sessions');
    expect(stored).toEqual([createHash('sha256').update(anna).digest('hex')]);
    expect(column(first.dbFile, "SELECT count(*) FROM user_sessions WHERE token_hash LIKE 'lds_%'")).toEqual([0]);
  });

  test('a disabled person’s session is refused at once', async () => {
    const ben = await call('/local/users', anna, { method: 'POST', body: { login: 'ben', name: 'Ben Holt', role: 'reviewer', password: PASSWORD } });
    const session = await signIn('ben');
    const changed = await call('/local/session/password', session.token, { method: 'POST', body: { currentPassword: PASSWORD, newPassword: 'ben chose this one' } });
    expect(changed.status).toBe(200);
    expect((await call('/v2/labelReports/r1', session.token)).status).toBe(200);
    expect((await call(`/local/users/${ben.body.id}`, anna, { method: 'PATCH', body: { disabled: true } })).status).toBe(200);
    expect(refusal(await call('/v2/labelReports/r1', session.token))).toEqual([401, 'SESSION_ENDED']);
    expect(column(first.dbFile, 'SELECT count(*) FROM user_sessions WHERE user_id = ?', ben.body.id)).toEqual([0]);
  });

  test('a session idle longer than sessionIdleHours expires, even across the lock', async () => {
    const session = (await signIn('anna', 'anna chose this')).token;
    clock += 8 * HOUR + 60_000;
    const expired = await call('/local/session', session);
    expect(refusal(expired)).toEqual([401, 'SESSION_EXPIRED']);
    expect(expired.body.message).toBe('the session expired after 8 hours without activity: sign in again');
    // Ended for good: unlocking it with the password does not bring it back.
    expect(refusal(await call('/local/session/unlock', session, { method: 'POST', body: { password: 'anna chose this' } }))).toEqual([401, 'SESSION_ENDED']);
    // The first session, idle as long, has expired too.
    expect(refusal(await call('/local/session', anna))).toEqual([401, 'SESSION_EXPIRED']);
  });

  test('a session in use ends sessionMaxHours after its sign-in', async () => {
    const session = (await signIn('anna', 'anna chose this')).token;
    // Active every ten minutes, so it never locks after inactivity.
    for (let step = 1; step <= 72; step++) {
      clock += 10 * 60_000;
      expect((await call('/local/session/activity', session, { method: 'POST' })).status, `after ${step * 10} minutes`).toBe(204);
    }
    clock += 1;
    const ended = await call('/local/session/activity', session, { method: 'POST' });
    expect(refusal(ended)).toEqual([401, 'SESSION_EXPIRED']);
    expect(ended.body.message).toBe('the session expired 12 hours after its sign-in: sign in again');
  });

  test('a password change ends the person’s other sessions and keeps the one it was made in', async () => {
    const desk = (await signIn('anna', 'anna chose this')).token;
    const laptop = (await signIn('anna', 'anna chose this')).token;
    const changed = await call('/local/session/password', desk, { method: 'POST', body: { currentPassword: 'anna chose this', newPassword: 'anna chose another' } });
    expect(changed.body).toMatchObject({ token: desk, passwordChangeDue: null });
    expect((await call('/local/session', desk)).status).toBe(200);
    expect(refusal(await call('/local/session', laptop))).toEqual([401, 'SESSION_ENDED']);
    expect((await call('/local/session/sign-out', desk, { method: 'POST' })).status).toBe(204);
    expect(refusal(await call('/local/session', desk))).toEqual([401, 'SESSION_ENDED']);
  });
});
