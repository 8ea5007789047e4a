/** A person's alarm address given where people are made and changed: POST and PATCH /local/users take an optional `email`. */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PERMISSIONS } from '../../schema/report';
import { alarmRuleBodySchema } from '../../schema/alarms';
import { openTestApp, type TestApp } from '../support/service-fixture';
import { calmReport, ONE_WARM, readingsAfter } from './alarm-fixture';

let t: TestApp;
let full: string;
beforeAll(async () => {
  t = await openTestApp([calmReport('r1')]);
  full = t.service.apiKeys.create('acme', [...PERMISSIONS], 'full').key;
});
afterAll(() => t.stop());

async function call(method: string, url: string, body?: unknown, key = full) {
  const res = await t.app.inject({ method: method as 'POST', url, headers: { 'x-api-key': key, 'content-type': 'application/json' }, payload: JSON.stringify(body) });
  return { status: res.statusCode, body: res.json() };
}

describe('people’s alarm addresses', () => {
  test('an address given at creation and changed by PATCH is where the rule’s e-mail goes; a malformed one is refused', async () => {
    const refused = await call('POST', '/local/users', { login: 'bad', name: 'Bad Mail', role: 'reviewer', password: 'correct horse battery', email: 'nope' });
    expect(refused).toMatchObject({ status: 400, body: { code: 'INVALID_BODY', message: expect.stringContaining('not an e-mail address') } });
    const anna = await call('POST', '/local/users', { login: 'anna', name: 'Anna Berg', role: 'admin', password: 'correct horse battery', email: 'anna@acme.example' });
    expect(anna.status).toBe(201);
    // Once the company has people, its administrator manages them.
    const session = await call('POST', '/local/session/sign-in', { login: 'anna', password: 'correct horse battery' });
    const ben = await call('POST', '/local/users', { login: 'ben', name: 'Ben Holt', role: 'reviewer', password: 'correct horse battery' }, session.body.token);
    expect(ben.status).toBe(201);
    expect((await call('PATCH', `/local/users/${ben.body.id}`, { email: 'ben@acme.example' }, session.body.token)).status).toBe(200);

    const tool = t.service.apiKeys.authenticate(full);
    t.service.alarms.createRule(tool, 'acme', alarmRuleBodySchema.parse({ name: 'People', minLevel: 1, steps: [{ users: [anna.body.id, ben.body.id] }], channels: ['email'] }));
    t.service.intake.tap(tool, 'r1', readingsAfter(4, ONE_WARM));
    expect(t.service.alarms.deliveries(tool, 1, 5).deliveries.map((d) => d.recipients)).toEqual([['anna@acme.example', 'ben@acme.example']]);
  });
});
