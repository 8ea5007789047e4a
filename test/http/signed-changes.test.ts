/**
 * Signed verdict changes over HTTP on a real service (docs/review-and-audit.md#signed-verdict-changes):
 * before people exist a key lowers an alert as before; from the first person on, a plain PATCH
 * that lowers an alert is refused (a tool's key with TOOL_CANNOT_LOWER_ALERT, a person with
 * SIGNED_CHANGE_REQUIRED) and nothing changes; the change is asked for, approved by a person who
 * may release with their password, never by the person who asked under four eyes, applied once,
 * and logged naming both; a request made stale by a later change is refused. Answers fit /openapi.json.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { api, makeReport, series, startTestService, T0, type TestService } from '../support/service-fixture';
import { openApiFit, type FitCheck } from '../support/openapi-fit';

const PASSWORD = 'correct horse battery';
/** Seven readings above 8 °C, ten minutes apart: 70 minutes out of limits, Critical by the default rules. */
const critical = (id: string) => makeReport(id, { reportedSenseData: { datapoints: series(T0, 600, [9, 10, 11, 12, 11, 10, 9, 5]) } });
const RAISE_MAX = { limits: { maxTemperature: 15 } };

let svc: TestService;
let fits: FitCheck;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  svc = await startTestService(['before', 'c1', 'c2', 'c3', 'c4'].map(critical));
  fits = await openApiFit(svc.url);
});
afterAll(() => svc.stop());

async function call(path: string, init: { token?: string; method?: string; body?: unknown; reason?: string } = {}) {
  const headers: Record<string, string> = {};
  if (init.token) headers['x-api-key'] = init.token;
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  if (init.reason !== undefined) headers['x-change-reason'] = encodeURIComponent(init.reason);
  const res = await fetch(svc.url + path, { method: init.method ?? 'GET', headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) });
  const text = await res.text();
  return { status: res.status, body: text === '' ? undefined : JSON.parse(text) };
}

const alertOf = async (id: string) => (await api(svc, `/v2/labelReports/${id}`)).body.alert.level as number;

describe('signed verdict changes', () => {
  test('without people a key lowers an alert as before', async () => {
    expect(await alertOf('before')).toBe(2);
    const res = await api(svc, '/v2/labelReports/before', { method: 'PATCH', body: RAISE_MAX });
    expect(res.status).toBe(200);
    expect(res.body.alert.level).toBe(0);
    const asked = await api(svc, '/local/labelReports/c1/changeRequests', { method: 'POST', body: { patch: RAISE_MAX, reason: 'stable' } });
    expect([asked.status, asked.body.code]).toEqual([409, 'NOBODY_SIGNS']);
  });

  test('people are made: an administrator, a reviewer and an approver', async () => {
    // The passwords are the test's own: no change asked at the first sign-in.
    svc.service.users.saveSettings(null, 'acme', { changeAtFirstSignIn: false });
    const full = svc.service.apiKeys.create('acme', ['labelReports:read', 'labelReports:update', 'labelReports:create', 'webhooks:manage', 'apiKeys:manage', 'sync:manage'], 'setup');
    for (const [login, name, role] of [['anna', 'Anna Berg', 'admin'], ['rita', 'Rita Lund', 'reviewer'], ['paul', 'Paul Ek', 'approver']]) {
      // The key makes the first administrator; from then on administrators make people.
      const made = await call('/local/users', { token: tokens.anna ?? full.key, method: 'POST', body: { login, name, role, password: PASSWORD } });
      expect(made.status).toBe(201);
      const signedIn = await call('/local/session/sign-in', { method: 'POST', body: { login, password: PASSWORD } });
      tokens[login] = signedIn.body.token;
    }
  });

  test('a tool’s key cannot lower an alert where people sign, on /v2 or /local; nothing changes', async () => {
    for (const path of ['/v2/labelReports/c1', '/local/labelReports/c1']) {
      const res = await api(svc, path, { method: 'PATCH', body: RAISE_MAX, headers: { 'x-change-reason': 'stable' } });
      expect([res.status, res.body.code]).toEqual([403, 'TOOL_CANNOT_LOWER_ALERT']);
      expect(res.body.message).toContain('POST /local/labelReports/c1/changeRequests');
    }
    expect(await alertOf('c1')).toBe(2);
    // A change that leaves the alert alone still goes through.
    expect((await api(svc, '/v2/labelReports/c1', { method: 'PATCH', body: { hasFlag: true } })).status).toBe(200);
  });

  test('a person’s PATCH that lowers an alert is refused, pointing to the signed flow; the preview says so', async () => {
    const res = await call('/v2/labelReports/c1', { token: tokens.anna, method: 'PATCH', body: RAISE_MAX, reason: 'Product stable to 15 C' });
    expect([res.status, res.body.code]).toEqual([403, 'SIGNED_CHANGE_REQUIRED']);
    expect(res.body.message).toMatch(/from Critical to None.*“Approved change of limits”.*changeRequests/);
    const preview = await call('/local/labelReports/c1/preview', { token: tokens.rita, method: 'POST', body: RAISE_MAX });
    expect(preview.body.signature).toEqual({ cause: 'lowersAlert', meaning: 'Approved change of limits', fourEyes: false, callerMaySign: false });
    fits('/local/labelReports/{id}/preview', 'post', preview);
    const paulPreview = await call('/local/labelReports/c1/preview', { token: tokens.paul, method: 'POST', body: RAISE_MAX });
    expect(paulPreview.body.signature.callerMaySign).toBe(true);
    expect(await alertOf('c1')).toBe(2);
  });

  test('with four eyes off, an approver signs the change at once; a wrong password signs nothing', async () => {
    const body = { patch: RAISE_MAX, reason: 'Stability data allow 15 C', signature: { password: 'not it at all', zone: 'Europe/Berlin' } };
    const wrong = await call('/local/labelReports/c2/changeRequests', { token: tokens.paul, method: 'POST', body });
    expect([wrong.status, wrong.body.code]).toEqual([403, 'SIGNATURE_PASSWORD_WRONG']);
    expect((await call('/local/labelReports/c2/changeRequests', { token: tokens.paul })).body).toEqual([]);
    const signed = await call('/local/labelReports/c2/changeRequests', { token: tokens.paul, method: 'POST', body: { ...body, signature: { password: PASSWORD, zone: 'Europe/Berlin' } } });
    expect(signed.status).toBe(201);
    fits('/local/labelReports/{id}/changeRequests', 'post', signed);
    expect(signed.body).toMatchObject({ state: 'approved', meaning: 'Approved change of limits', alertBefore: 2, alertAfter: 0, zone: 'Europe/Berlin', closedBy: { login: 'paul' } });
    expect(await alertOf('c2')).toBe(0);
  });

  test('a reviewer asks; a reviewer cannot approve; under four eyes the asker cannot either; another approver can, once', async () => {
    expect((await call('/local/settings', { token: tokens.anna, method: 'PUT', body: { fourEyes: true } })).status).toBe(200);
    const asked = await call('/local/labelReports/c1/changeRequests', { token: tokens.rita, method: 'POST', body: { patch: RAISE_MAX, reason: 'Product stable to 15 C' } });
    expect(asked.status).toBe(201);
    expect(asked.body).toMatchObject({ state: 'pending', reason: 'Product stable to 15 C', requestedBy: { person: { login: 'rita' } }, alertBefore: 2, alertAfter: 0 });
    expect(await alertOf('c1')).toBe(2);
    const approval = `/local/labelReports/c1/changeRequests/${asked.body.id}/approval`;
    const byReviewer = await call(approval, { token: tokens.rita, method: 'POST', body: { password: PASSWORD } });
    expect([byReviewer.status, byReviewer.body.code]).toEqual([403, 'ROLE_FORBIDDEN']);
    const pending = await call('/local/changeRequests', { token: tokens.paul });
    fits('/local/changeRequests', 'get', pending);
    expect(pending.body.map((r: { id: string }) => r.id)).toEqual([asked.body.id]);

    // Paul asks for c3 and may not sign his own request with four eyes on.
    const own = await call('/local/labelReports/c3/changeRequests', { token: tokens.paul, method: 'POST', body: { patch: RAISE_MAX, reason: 'mine', signature: { password: PASSWORD } } });
    expect([own.status, own.body.code]).toEqual([409, 'FOUR_EYES']);
    expect(await alertOf('c3')).toBe(2);

    const approved = await call(approval, { token: tokens.paul, method: 'POST', body: { password: PASSWORD, zone: 'Europe/Stockholm' } });
    expect(approved.status).toBe(200);
    fits('/local/labelReports/{id}/changeRequests/{requestId}/approval', 'post', approved);
    expect(approved.body).toMatchObject({ state: 'approved', closedBy: { login: 'paul', name: 'Paul Ek' }, zone: 'Europe/Stockholm' });
    expect(await alertOf('c1')).toBe(0);
    const again = await call(approval, { token: tokens.anna, method: 'POST', body: { password: PASSWORD } });
    expect([again.status, again.body.code]).toEqual([409, 'CHANGE_REQUEST_CLOSED']);

    const history = await call('/local/labelReports/c1/history', { token: tokens.anna });
    fits('/local/labelReports/{id}/history', 'get', history);
    const change = history.body.entries.find((e: { type: string; seq?: number }) => e.type === 'change' && e.seq === approved.body.changeSeq);
    expect(change).toMatchObject({
      reason: 'Product stable to 15 C',
      signature: { meaning: 'Approved change of limits', zone: 'Europe/Stockholm', signer: { login: 'paul' }, requester: { person: { login: 'rita' } }, requestId: Number(asked.body.id) },
      actor: { person: { name: 'Paul Ek' } },
    });
    expect(change.changes).toContainEqual({ field: 'alert.level', old: 2, new: 0 });
    expect(svc.service.audit.verify().problems).toEqual([]);
  });

  test('a tool may ask; the request is declined, and a request made stale is refused', async () => {
    const asked = await api(svc, '/local/labelReports/c3/changeRequests', { method: 'POST', body: { patch: RAISE_MAX, reason: 'script says stable' } });
    expect(asked.status).toBe(201);
    expect(asked.body.requestedBy).toMatchObject({ person: null, keyName: expect.any(String) });
    const declined = await call(`/local/labelReports/c3/changeRequests/${asked.body.id}/decline`, { token: tokens.paul, method: 'POST', body: { note: 'no data' } });
    expect(declined.body).toMatchObject({ state: 'declined', note: 'no data', closedBy: { login: 'paul' } });

    const stale = await call('/local/labelReports/c4/changeRequests', { token: tokens.rita, method: 'POST', body: { patch: { limits: { maxTemperature: 15, minTemperature: 0 } }, reason: 'wide' } });
    // A change of the limits since (the alert stays Critical, so a plain PATCH makes it).
    expect((await call('/v2/labelReports/c4', { token: tokens.anna, method: 'PATCH', body: { limits: { minTemperature: 1 } }, reason: 'tighter' })).status).toBe(200);
    const refused = await call(`/local/labelReports/c4/changeRequests/${stale.body.id}/approval`, { token: tokens.paul, method: 'POST', body: { password: PASSWORD } });
    expect([refused.status, refused.body.code]).toEqual([409, 'CHANGE_REQUEST_STALE']);
    expect(await alertOf('c4')).toBe(2);
    const unknown = await call('/local/labelReports/c4/changeRequests/999/approval', { token: tokens.paul, method: 'POST', body: { password: PASSWORD } });
    expect([unknown.status, unknown.body.code]).toEqual([404, 'CHANGE_REQUEST_NOT_FOUND']);
    const notNeeded = await call('/local/labelReports/c4/changeRequests', { token: tokens.rita, method: 'POST', body: { patch: { limits: { minTemperature: 0 } }, reason: 'x' } });
    expect([notNeeded.status, notNeeded.body.code]).toEqual([409, 'SIGNATURE_NOT_NEEDED']);
  });
});
