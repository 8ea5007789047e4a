/** /local/alarms over HTTP: the usual order of refusals and error bodies, the answers, and the OpenAPI document. */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openTestApp, type TestApp } from '../support/service-fixture';
import { ALL, calmReport, ONE_WARM, readingsAfter } from './alarm-fixture';

let t: TestApp;
let manager: string;
beforeAll(async () => {
  t = await openTestApp([calmReport('r1'), calmReport('r2', { mode: 'airFreight' })]);
  manager = t.service.apiKeys.create('acme', ALL, 'alarm manager').key;
});
afterAll(() => t.stop());

async function call(method: string, url: string, key: string | null, body?: unknown) {
  const res = await t.app.inject({
    method: method as 'GET',
    url,
    headers: { ...(key ? { 'x-api-key': key } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    payload: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.statusCode, body: res.body === '' ? undefined : res.json() };
}

const RULE = { name: 'Air freight', minLevel: 1, filter: 'mode[eq]airFreight', steps: [{ emails: ['qa@acme.example'] }], channels: ['email', 'desktop'] };

describe('/local/alarms', () => {
  test('refusals: no key 401, a key without the permission 403, a body that breaks the rules 400', async () => {
    expect(await call('GET', '/local/alarms', null)).toMatchObject({ status: 401, body: { statusCode: 401, code: expect.any(String) } });
    expect(await call('POST', '/local/alarms/rules', t.keys.acmeRead, RULE)).toMatchObject({
      status: 403,
      body: { code: 'PERMISSION_DENIED', message: 'the API key lacks the webhooks:manage permission' },
    });
    const badFilter = await call('POST', '/local/alarms/rules', manager, { ...RULE, filter: 'nope[eq]1' });
    expect(badFilter).toMatchObject({ status: 400, body: { code: 'INVALID_FILTER', message: expect.stringContaining('nope') } });
    const noChannel = await call('POST', '/local/alarms/rules', manager, { ...RULE, channels: [] });
    expect(noChannel).toMatchObject({ status: 400, body: { code: 'INVALID_BODY', message: expect.stringContaining('name at least one channel') } });
    const stranger = await call('POST', '/local/alarms/rules', manager, { ...RULE, steps: [{ users: ['nobody'] }] });
    expect(stranger).toMatchObject({ status: 400, body: { message: "no person of the company with the id 'nobody'" } });
    expect(await call('GET', '/local/alarms?state=sleeping', t.keys.acme)).toMatchObject({ status: 400, body: { code: 'INVALID_PARAMETER' } });
    expect(await call('GET', '/local/alarms?colour=red', t.keys.acme)).toMatchObject({ status: 400 });
    expect(await call('GET', '/local/alarms/alm_unknown', t.keys.acme)).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
    expect(await call('GET', '/local/alarms/smtp', manager)).toMatchObject({ status: 404, body: { message: 'no SMTP relay is set' } });
  });

  test('a rule’s test notification: needs webhooks:manage, a rule of the company and a relay', async () => {
    const created = (await call('POST', '/local/alarms/rules', manager, RULE)).body;
    const test = `/local/alarms/rules/${created.id}/test`;
    expect(await call('POST', test, t.keys.acmeRead)).toMatchObject({ status: 403, body: { code: 'PERMISSION_DENIED' } });
    const nordicManager = t.service.apiKeys.create('nordic', ALL, 'nordic alarm manager').key;
    expect(await call('POST', test, nordicManager)).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
    expect(await call('POST', test, manager)).toMatchObject({ status: 404, body: { message: expect.stringContaining('no SMTP relay is set') } });
    const desktopOnly = (await call('POST', '/local/alarms/rules', manager, { ...RULE, channels: ['desktop'] })).body;
    expect(await call('POST', `/local/alarms/rules/${desktopOnly.id}/test`, manager)).toEqual({ status: 200, body: { mails: [], desktopOnly: [] } });
    for (const id of [created.id, desktopOnly.id]) expect((await call('DELETE', `/local/alarms/rules/${id}`, manager)).status).toBe(204);
  });

  test('a rule, the alarm it raises, its state filter, and another company sees none of it', async () => {
    const created = await call('POST', '/local/alarms/rules', manager, RULE);
    expect(created).toMatchObject({ status: 201, body: { ...RULE, id: expect.stringMatching(/^rule_/), escalateAfterMinutes: null, enabled: true, customFields: '' } });
    expect((await call('GET', '/local/alarms/rules', t.keys.acme)).body).toEqual([created.body]);

    const acme = t.service.apiKeys.authenticate(manager);
    t.service.intake.tap({ ...acme, permissions: new Set([...acme.permissions, 'labelReports:create']) }, 'r2', readingsAfter(4, ONE_WARM));
    t.service.intake.tap({ ...acme, permissions: new Set([...acme.permissions, 'labelReports:create']) }, 'r1', readingsAfter(4, ONE_WARM));
    const list = await call('GET', '/local/alarms?state=open', t.keys.acme);
    expect(list).toMatchObject({ status: 200, body: { totalDocuments: 1, unacknowledged: 1, alarms: [{ reportId: 'r2', level: 1, state: 'open', ruleName: 'Air freight' }] } });
    const one = await call('GET', `/local/alarms/${list.body.alarms[0].id}`, t.keys.acme);
    expect(one.body).toEqual(list.body.alarms[0]);
    expect((await call('GET', '/local/alarms?state=acknowledged', t.keys.acme)).body.totalDocuments).toBe(0);
    expect((await call('GET', `/local/alarms/${one.body.id}`, t.keys.nordic)).status).toBe(404);
    expect((await call('GET', '/local/alarms', t.keys.nordic)).body).toEqual({ alarms: [], totalDocuments: 0, unacknowledged: 0 });
    expect((await call('GET', '/local/alarms/deliveries', manager)).body).toMatchObject({ totalDocuments: 1, deliveries: [{ status: 'pending', recipients: ['qa@acme.example'] }] });

    const changed = await call('PUT', `/local/alarms/rules/${created.body.id}`, manager, { ...RULE, enabled: false });
    expect(changed).toMatchObject({ status: 200, body: { enabled: false } });
    expect((await call('DELETE', `/local/alarms/rules/${created.body.id}`, manager)).status).toBe(204);
    expect((await call('DELETE', `/local/alarms/rules/${created.body.id}`, manager)).status).toBe(404);
    // The alarm stays in the record after its rule.
    expect((await call('GET', '/local/alarms', t.keys.acme)).body.totalDocuments).toBe(1);
  });

  test('settings and the relay: the password is held, never answered', async () => {
    const settings = { zone: 'Europe/Berlin', quietHours: { from: '22:00', to: '06:00' }, digest: { at: '07:30', to: ['lead@acme.example'] } };
    expect(await call('PUT', '/local/alarms/settings', manager, settings)).toMatchObject({ status: 200, body: settings });
    expect((await call('GET', '/local/alarms/settings', t.keys.acme)).body).toEqual(settings);
    expect(await call('PUT', '/local/alarms/settings', manager, { ...settings, zone: 'Mars/Olympus' })).toMatchObject({ status: 400, body: { message: "zone: 'Mars/Olympus' is not an IANA time zone" } });
    expect(await call('PUT', '/local/alarms/settings', manager, { ...settings, quietHours: { from: '25:00', to: '06:00' } })).toMatchObject({ status: 400 });

    const relay = { host: 'smtp.acme.example', port: 587, security: 'starttls', user: 'alarms', password: 's3cret', from: 'alarms@acme.example' };
    const saved = await call('PUT', '/local/alarms/smtp', manager, relay);
    expect(saved).toEqual({ status: 200, body: { host: 'smtp.acme.example', port: 587, security: 'starttls', user: 'alarms', from: 'alarms@acme.example', appUrl: null, hasPassword: true } });
    expect(JSON.stringify((await call('GET', '/local/alarms/smtp', manager)).body)).not.toContain('s3cret');
    expect(await call('PUT', '/local/alarms/smtp', manager, { ...relay, security: 'ssl' })).toMatchObject({ status: 400 });

    expect(await call('PUT', '/local/alarms/people/nobody/email', manager, { email: 'x@acme.example' })).toMatchObject({ status: 404 });
    expect(await call('PUT', '/local/alarms/people/nobody/email', manager, { email: 'not-an-address' })).toMatchObject({ status: 400 });
  });

  test('the OpenAPI document describes every alarm route', async () => {
    const doc = (await call('GET', '/openapi.json', null)).body;
    expect(Object.keys(doc.paths).filter((p: string) => p.startsWith('/local/alarms')).sort()).toEqual(
      [
        '/local/alarms',
        '/local/alarms/deliveries',
        '/local/alarms/people/{login}/email',
        '/local/alarms/rules',
        '/local/alarms/rules/{id}',
        '/local/alarms/rules/{id}/test',
        '/local/alarms/settings',
        '/local/alarms/smtp',
        '/local/alarms/smtp/test',
        '/local/alarms/{id}',
      ].sort(),
    );
    expect(doc.tags.map((tag: { name: string }) => tag.name)).toContain('Alarms');
  });
});
