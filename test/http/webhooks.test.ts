/**
 * /v2/webhooks over loopback HTTP, with the running service's own delivery worker: what each
 * route answers, who may (webhooks:manage; another company's webhook is a 404), the order of
 * the checks, and events from activation and taps reaching the companies that see the report.
 */
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import type { Permission } from '../../schema/report';
import { api, makeActivation, makeReport, startTestService, type TestService } from '../support/service-fixture';
import { QUICK } from '../support/webhook-fixture';
import { Receiver } from '../support/webhook-receiver';

type Company = 'acme' | 'nordic' | 'fresh';
let svc: TestService;
/** Keys with webhooks:manage and labelReports:create, by company; the fixture's keys have neither. */
const hooks = {} as Record<Company, string>;
let receiver: Receiver;

beforeAll(async () => {
  svc = await startTestService([makeReport('r-shared', { access: [{ companyId: 'nordic', role: 'viewer' }] })], { webhookDelivery: QUICK });
  const permissions: Permission[] = ['webhooks:manage', 'labelReports:create', 'labelReports:read'];
  for (const company of ['acme', 'nordic', 'fresh'] as const) hooks[company] = svc.service.apiKeys.create(company, permissions, `${company} hooks`).key;
  receiver = await Receiver.start();
});
afterAll(async () => {
  await svc.stop();
  await receiver.close();
});

const call = (path: string, init: { method?: string; body?: unknown; as?: Company; headers?: Record<string, string> } = {}) =>
  api(svc, path, { method: init.method, body: init.body, key: null, headers: { 'x-api-key': hooks[init.as ?? 'acme'], ...init.headers } });

async function createHook(as: Company, events = ['labelReport.activated', 'labelReport.tapped'], path = `/${as}`) {
  const res = await call('/v2/webhooks', { method: 'POST', body: { url: receiver.url(path), events }, as });
  expect(res.status).toBe(201);
  return res.body as { id: string; secret: string };
}

async function deleteAll(): Promise<void> {
  for (const as of ['acme', 'nordic', 'fresh'] as const) {
    for (const hook of (await call('/v2/webhooks', { as })).body as { id: string }[]) {
      expect((await call(`/v2/webhooks/${hook.id}`, { method: 'DELETE', as })).status).toBe(204);
    }
  }
}
afterEach(deleteAll);

describe('registering webhooks', () => {
  test('create shows the secret once; list and get never; PATCH changes the fields given; DELETE removes', async () => {
    const created = await call('/v2/webhooks', {
      method: 'POST',
      body: { url: 'http://192.168.1.20:8080/erp', events: ['labelReport.tapped', 'labelReport.tapped'], description: 'ERP' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      url: 'http://192.168.1.20:8080/erp',
      events: ['labelReport.tapped'],
      description: 'ERP',
      enabled: true,
      created: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      disabledReason: null,
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
    });
    const { secret, ...shown } = created.body;
    const id = shown.id as string;
    expect((await call('/v2/webhooks')).body).toEqual([shown]);
    expect((await call(`/v2/webhooks/${id}`)).body).toEqual(shown);
    expect(JSON.stringify((await call('/v2/webhooks')).body)).not.toContain(secret);

    const patched = await call(`/v2/webhooks/${id}`, { method: 'PATCH', body: { events: ['labelReport.activated'], enabled: false } });
    expect(patched).toMatchObject({ status: 200, body: { ...shown, events: ['labelReport.activated'], enabled: false } });
    expect((await call(`/v2/webhooks/${id}/test`, { method: 'POST' })).body).toMatchObject({ statusCode: 409, code: 'WEBHOOK_DISABLED' });

    const rotated = await call(`/v2/webhooks/${id}/rotate-secret`, { method: 'POST' });
    expect(rotated.status).toBe(200);
    expect(rotated.body).toEqual({ secret: expect.stringMatching(/^whsec_/) });
    expect(rotated.body.secret).not.toBe(secret);

    expect((await call(`/v2/webhooks/${id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await call(`/v2/webhooks/${id}`)).body).toMatchObject({ statusCode: 404, code: 'WEBHOOK_NOT_FOUND' });
    expect((await call('/v2/webhooks')).body).toEqual([]);
  });

  test('bodies are checked field by field, after the permission and the webhook', async () => {
    const post = (body: unknown, headers?: Record<string, string>) => call('/v2/webhooks', { method: 'POST', body, headers });
    const refusals: [unknown, RegExp][] = [
      [{ url: 'http://127.0.0.1/h', events: [] }, /events: name at least one event/],
      [{ url: 'http://127.0.0.1/h', events: ['labelReport.deleted'] }, /events\[0\]/],
      [{ url: 'ftp://127.0.0.1/h', events: ['labelReport.tapped'] }, /url: must be an http or https URL/],
      [{ url: 'http://169.254.169.254/latest', events: ['labelReport.tapped'] }, /169\.254\.169\.254 is a link-local address/],
      [{ url: 'http://[fe80::1]/', events: ['labelReport.tapped'] }, /link-local/],
      [{ url: 'http://127.0.0.1/h', events: ['labelReport.tapped'], secret: 'mine' }, /secret/],
      [[], /the body must be a JSON object/],
    ];
    for (const [body, message] of refusals) {
      const res = await post(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toMatchObject({ code: 'INVALID_BODY', message: expect.stringMatching(message) });
    }
    expect((await post('{"url":', { 'content-type': 'application/json' })).status).toBe(400);
    expect((await post('url=x', { 'content-type': 'application/x-www-form-urlencoded' })).status).toBe(415);
    expect((await call('/v2/webhooks?verbose=1')).body).toMatchObject({ statusCode: 400, code: 'UNKNOWN_PARAMETER' });

    // Without the permission a bad body is a 403; another company's webhook is a 404 before its body is read.
    const withoutPermission = await api(svc, '/v2/webhooks', { method: 'POST', body: [] });
    expect(withoutPermission.body).toMatchObject({ statusCode: 403, code: 'PERMISSION_DENIED', message: expect.stringMatching(/webhooks:manage/) });
    const { id } = await createHook('acme');
    expect((await call(`/v2/webhooks/${id}`, { method: 'PATCH', body: [], as: 'nordic' })).status).toBe(404);
    expect((await call(`/v2/webhooks/${id}`, { method: 'PATCH', body: { enabled: 'yes' } })).body).toMatchObject({ statusCode: 400, message: expect.stringMatching(/enabled/) });
  });

  test('another company’s webhook is unknown to every route; a key without webhooks:manage is refused by every route', async () => {
    const { id } = await createHook('acme');
    const routes: [string, string][] = [
      ['GET', `/v2/webhooks/${id}`],
      ['PATCH', `/v2/webhooks/${id}`],
      ['DELETE', `/v2/webhooks/${id}`],
      ['POST', `/v2/webhooks/${id}/rotate-secret`],
      ['POST', `/v2/webhooks/${id}/test`],
      ['GET', `/v2/webhooks/${id}/deliveries`],
      ['POST', `/v2/webhooks/${id}/deliveries/msg_x/redeliver`],
    ];
    for (const [method, path] of routes) {
      const body = method === 'PATCH' ? { description: 'taken over' } : undefined;
      const foreign = await call(path, { method, body, as: 'nordic' });
      expect(foreign.body, `${method} ${path}`).toMatchObject({ statusCode: 404, code: 'WEBHOOK_NOT_FOUND' });
      const denied = await api(svc, path, { method, body });
      expect(denied.body, `${method} ${path}`).toMatchObject({ statusCode: 403, code: 'PERMISSION_DENIED' });
    }
    expect((await api(svc, '/v2/webhooks')).status).toBe(403);
    expect((await call(`/v2/webhooks/${id}`)).body).toMatchObject({ id, description: '' });
  });
});

describe('events and deliveries over HTTP', () => {
  test('a test event is accepted (202), delivered signed, and logged; the log pages newest first; a message is redelivered', async () => {
    const hook = await createHook('acme', ['labelReport.tapped'], '/acme-test');
    const before = receiver.received.length;
    const accepted = await call(`/v2/webhooks/${hook.id}/test`, { method: 'POST' });
    expect(accepted).toMatchObject({ status: 202, body: { messageId: expect.stringMatching(/^msg_/) } });
    const { messageId } = accepted.body;
    const [request] = (await receiver.waitFor(before + 1)).slice(before);
    expect(request.path).toBe('/acme-test');
    expect(new Webhook(hook.secret).verify(request.body, request.headers as Record<string, string>)).toEqual({
      type: 'webhook.test',
      timestamp: expect.any(String),
      data: { webhookId: hook.id },
    });

    const logOf = (query = '') => call(`/v2/webhooks/${hook.id}/deliveries${query}`);
    await vi.waitFor(async () => expect((await logOf()).body.data[0]?.status).toBe('succeeded'), { timeout: 10_000, interval: 20 });
    expect((await logOf()).body).toEqual({
      data: [
        {
          id: `${messageId}.1`,
          messageId,
          type: 'webhook.test',
          attempt: 1,
          status: 'succeeded',
          responseStatus: 204,
          error: null,
          durationMs: expect.any(Number),
          at: expect.any(String),
          nextAttemptAt: null,
        },
      ],
      totalDocuments: 1,
    });

    expect((await call(`/v2/webhooks/${hook.id}/deliveries/${messageId}/redeliver`, { method: 'POST' })).status).toBe(202);
    const again = (await receiver.waitFor(before + 2))[before + 1];
    expect(again.headers['webhook-id']).toBe(messageId);
    await vi.waitFor(async () => expect((await logOf()).body.totalDocuments).toBe(2), { timeout: 10_000, interval: 20 });
    await vi.waitFor(async () => expect((await logOf()).body.data[0].status).toBe('succeeded'), { timeout: 10_000, interval: 20 });
    const page2 = await logOf('?pageSize=1&pageNumber=2');
    expect(page2.body).toMatchObject({ data: [{ messageId, attempt: 1 }], totalDocuments: 2 });
    expect((await logOf('?pageNumber=3&pageSize=1')).body).toEqual({ data: [], totalDocuments: 2 });
    expect((await logOf('?pageSize=0')).body).toMatchObject({ statusCode: 400, code: 'INVALID_PAGE' });
    expect((await logOf('?order=at[desc]')).body).toMatchObject({ statusCode: 400, code: 'UNKNOWN_PARAMETER' });
    expect((await call(`/v2/webhooks/${hook.id}/deliveries/msg_unknown/redeliver`, { method: 'POST' })).body).toMatchObject({
      statusCode: 404,
      code: 'MESSAGE_NOT_FOUND',
    });
  });

  test('activation and taps reach the subscribed webhooks of every company that sees the report, each with its own view', async () => {
    const acmeHook = await createHook('acme', ['labelReport.activated', 'labelReport.tapped'], '/acme-events');
    const nordicHook = await createHook('nordic', ['labelReport.tapped'], '/nordic-events');
    const freshHook = await createHook('fresh', ['labelReport.activated', 'labelReport.tapped'], '/fresh-events');
    const before = receiver.received.length;

    const activated = await call('/v2/labelReports', { method: 'POST', body: makeActivation('r-new') });
    expect(activated.status).toBe(201);
    const tapped = await call('/v2/labelReports/r-shared/taps', { method: 'POST', body: { datapoints: [{ timestamp: 1_790_000_000, temperature: 5 }] } });
    expect(tapped.status).toBe(200);

    const arrived = (await receiver.waitFor(before + 3)).slice(before);
    const events = arrived.map((r) => {
      const secret = r.path === '/acme-events' ? acmeHook.secret : nordicHook.secret;
      const payload = new Webhook(secret).verify(r.body, r.headers as Record<string, string>) as { type: string; data: { id: string } };
      return [r.path, payload.type, payload.data.id];
    });
    expect(events.sort()).toEqual([
      ['/acme-events', 'labelReport.activated', 'r-new'],
      ['/acme-events', 'labelReport.tapped', 'r-shared'],
      ['/nordic-events', 'labelReport.tapped', 'r-shared'],
    ]);
    const activation = JSON.parse(arrived.find((r) => r.body.includes('labelReport.activated'))!.body);
    expect(activation.data).toEqual(activated.body);
    const nordicView = await api(svc, '/v2/labelReports/r-shared', { key: 'nordic' });
    expect(JSON.parse(arrived.find((r) => r.path === '/nordic-events')!.body).data).toEqual(nordicView.body);
    // Fresh sees neither report: nothing was ever owed to its webhook.
    expect((await call(`/v2/webhooks/${freshHook.id}/deliveries`, { as: 'fresh' })).body).toEqual({ data: [], totalDocuments: 0 });
  });
});
