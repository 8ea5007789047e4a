/**
 * GET /openapi.json: a valid OpenAPI 3.1 document of every route, and real answers of a real
 * service, successes and refusals, fit the schema the document declares for their route and
 * status.
 */
import { request as httpRequest } from 'node:http';
import { Validator } from '@seriousme/openapi-schema-validator';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import type { RouteChecks } from '../../http/route-checks';
import { serviceApp } from '../../host/service-app';
import { LIST_PARAMETERS } from '../../query/list-query';
import { api, makeActivation, makeReport, startTestService, type KeyName, type TestService } from '../support/service-fixture';

let svc: TestService;
// A JSON document, walked by path.
let doc: any;
const ajv = new Ajv2020({ allErrors: true, strict: false });
const DOC_ID = 'https://labeldesk.test/openapi.json';

beforeAll(async () => {
  svc = await startTestService([
    makeReport('r1', {
      access: [{ companyId: 'fresh', role: 'viewer' }],
      customFields: [{ customFieldId: 'po', value: 'PO-1' }],
      user: { id: 'u-acme-1', name: 'Sanne de Vries', email: 'sanne.devries@acme.example', team: 'QA' },
      labelPreset: { id: 'preset-vaccines', name: 'Vaccines 2…8 °C' },
    }),
    makeReport('r2', { subCompany: { id: 'sub-1', name: 'Depot' }, user: { id: 'u1' } }),
    makeReport('r-other', { companyId: 'other' }),
  ]);
  const res = await fetch(`${svc.url}/openapi.json`);
  expect(res.status).toBe(200);
  doc = await res.json();
  ajv.addSchema(doc, DOC_ID);
});
afterAll(() => svc.stop());

/** The schema the document declares for an answer of this route and status. */
function declared(method: string, path: string, status: number): ValidateFunction | null {
  const response = doc.paths[path]?.[method.toLowerCase()]?.responses?.[status];
  if (!response) throw new Error(`${method} ${path} declares no ${status} answer`);
  if (!response.content) return null;
  const pointer = ['paths', path, method.toLowerCase(), 'responses', String(status), 'content', 'application/json', 'schema']
    .map((part) => encodeURIComponent(part.replace(/~/g, '~0').replace(/\//g, '~1')))
    .join('/');
  return ajv.getSchema(`${DOC_ID}#/${pointer}`) ?? ajv.compile({ $ref: `${DOC_ID}#/${pointer}` });
}

function expectFits(method: string, path: string, res: { status: number; body: unknown }): void {
  const validate = declared(method, path, res.status);
  if (validate === null) {
    expect(res.body).toBeUndefined();
    return;
  }
  expect(validate(res.body), `${method} ${path} ${res.status}: ${ajv.errorsText(validate.errors)}`).toBe(true);
}

describe('the document', () => {
  test('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  test('every component is a valid JSON Schema 2020-12', () => {
    for (const [name, schema] of Object.entries(doc.components.schemas)) {
      expect(ajv.validateSchema(schema as object), `${name}: ${ajv.errorsText(ajv.errors)}`).toBe(true);
    }
  });

  test('describes every route the service answers, and only those', () => {
    const operations = Object.fromEntries(Object.entries(doc.paths).map(([path, item]) => [path, Object.keys(item as object).sort()]));
    expect(operations).toEqual({
      '/openapi.json': ['get'],
      '/v2/labelReports': ['get', 'post'],
      '/v2/labelReports/{id}': ['get', 'patch'],
      '/v2/labelReports/{id}/taps': ['post'],
      '/local/info': ['get'],
      '/local/insights/facets': ['get'],
      '/local/insights/groups': ['get'],
      '/local/insights/screen': ['get'],
      '/local/shipments': ['get'],
      '/local/shipments/grouping': ['get', 'put'],
      '/local/labelReports/{id}/shipment': ['get'],
      '/local/shipments/{id}': ['get'],
      '/local/shipments/{id}/readings': ['get'],
      '/local/shipments/{id}/facts': ['get', 'put'],
      '/local/shipments/{id}/decision': ['put'],
      '/local/session': ['get'],
      '/local/apiKeys': ['get', 'post'],
      '/local/apiKeys/{id}': ['delete'],
      '/local/session/sign-in': ['post'],
      '/local/session/unlock': ['post'],
      '/local/session/password': ['post'],
      '/local/session/activity': ['post'],
      '/local/session/sign-out': ['post'],
      '/local/users': ['get', 'post'],
      '/local/users/{id}': ['patch'],
      '/local/users/{id}/unlock': ['post'],
      '/local/users/{id}/password': ['post'],
      '/local/users/{id}/events': ['get'],
      '/local/settings': ['get', 'put'],
      '/v2/webhooks': ['get', 'post'],
      '/v2/webhooks/{id}': ['delete', 'get', 'patch'],
      '/v2/webhooks/{id}/rotate-secret': ['post'],
      '/v2/webhooks/{id}/test': ['post'],
      '/v2/webhooks/{id}/deliveries': ['get'],
      '/v2/webhooks/{id}/deliveries/{messageId}/redeliver': ['post'],
      '/local/labelReports/{id}/alerts': ['get'],
      '/local/labelReports/{id}/changeRequests': ['get', 'post'],
      '/local/labelReports/{id}/changeRequests/{requestId}/approval': ['post'],
      '/local/labelReports/{id}/changeRequests/{requestId}/decline': ['post'],
      '/local/changeRequests': ['get'],
      '/local/labelReports/{id}/review': ['get'],
      '/local/labelReports/{id}/comments': ['post'],
      '/local/labelReports/{id}/acknowledgement': ['put'],
      '/local/labelReports/{id}/decision': ['put'],
      '/local/labelReports/{id}/history': ['get'],
      '/local/labelReports/{id}/history.csv': ['get'],
      '/local/labelReports/{id}/printed': ['post'],
      '/local/labelReports/{id}/certificate': ['post'],
      '/local/labelReports/{id}/access': ['get'],
      '/local/labelReports/bulk': ['post'],
      '/local/audit': ['get'],
      '/local/audit.csv': ['get'],
      '/local/labelReports/{id}': ['patch'],
      '/local/labelReports/{id}/preview': ['post'],
      '/local/labelReports/{id}/readings.csv': ['get'],
      '/local/labelReports': ['get'],
      '/local/labelReports.csv': ['get'],
      '/local/customFields': ['get'],
      '/local/companies': ['get'],
      '/local/sync': ['get', 'post'],
      '/local/sync/conflicts': ['get'],
      '/local/sync/conflicts/{id}': ['post'],
      '/local/sync/dead-letters': ['get'],
      '/local/sync/dead-letters/{id}': ['post'],
      '/local/sync/outbox': ['get'],
      '/local/sync/refused': ['get'],
      '/local/sync/reports/{id}': ['get'],
      '/local/sync/settings': ['get', 'put'],
      '/local/sync/test': ['post'],
      '/local/alarms': ['get'],
      '/local/alarms/{id}': ['get'],
      '/local/alarms/rules': ['get', 'post'],
      '/local/alarms/rules/{id}': ['delete', 'put'],
      '/local/alarms/rules/{id}/test': ['post'],
      '/local/alarms/settings': ['get', 'put'],
      '/local/alarms/smtp': ['get', 'put'],
      '/local/alarms/smtp/test': ['post'],
      '/local/alarms/deliveries': ['get'],
      '/local/alarms/people/{login}/email': ['put'],
      '/local/backups': ['get', 'post'],
    });
  });

  test('a new API route without a description is refused when it is registered', async () => {
    const app = serviceApp(svc.service).app;
    expect(() => app.get('/v2/labelReports/:id/extra', async () => ({}))).toThrow(/config\.openapi/);
    expect(() => app.get('/elsewhere', async () => ({}))).not.toThrow();
    await app.close();
  });

  test('declares each refusal a route can answer, per docs/api.md#errors', () => {
    const statuses = (path: string, method: string) =>
      Object.keys(doc.paths[path][method].responses).map(Number).filter((s) => s >= 400);
    expect(statuses('/v2/labelReports', 'get')).toEqual([400, 401, 403, 500]);
    expect(statuses('/v2/labelReports/{id}', 'get')).toEqual([400, 401, 403, 404, 500]);
    expect(statuses('/v2/labelReports/{id}', 'patch')).toEqual([400, 401, 403, 404, 413, 415, 500]);
    expect(statuses('/v2/labelReports', 'post')).toEqual([400, 401, 403, 409, 413, 415, 500]);
    expect(statuses('/v2/labelReports/{id}/taps', 'post')).toEqual([400, 401, 403, 404, 413, 415, 500]);
    expect(statuses('/local/apiKeys', 'post')).toEqual([400, 401, 403, 413, 415, 500]);
    expect(statuses('/local/apiKeys/{id}', 'delete')).toEqual([400, 401, 403, 404, 413, 415, 500]);
    expect(statuses('/openapi.json', 'get')).toEqual([403, 500]);
    expect(statuses('/v2/webhooks', 'get')).toEqual([400, 401, 403, 500]);
    expect(statuses('/v2/webhooks/{id}/test', 'post')).toEqual([400, 401, 403, 404, 409, 413, 415, 500]);
    expect(statuses('/v2/webhooks/{id}/deliveries', 'get')).toEqual([400, 401, 403, 404, 500]);
  });

  test('lists the list parameters with their rules', () => {
    const parameters = doc.paths['/v2/labelReports'].get.parameters;
    expect(parameters.map((p: { name: string }) => p.name)).toEqual([...LIST_PARAMETERS, 'wholeReports']);
    for (const p of parameters) expect(p).toMatchObject({ in: 'query', required: false, description: expect.any(String) });
    const byName = Object.fromEntries(parameters.map((p: { name: string; schema: unknown }) => [p.name, p.schema]));
    expect(byName.output).toEqual({ type: 'string', enum: ['normal', 'minimal'] });
    // Integers, so a typed client sends pageSize: 20; the bounds are parsePage's.
    for (const name of ['pageNumber', 'pageSize']) {
      expect(byName[name]).toEqual({ type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER });
    }
    const deliveries = doc.paths['/v2/webhooks/{id}/deliveries'].get.parameters.filter((p: { in: string }) => p.in === 'query');
    for (const p of deliveries) expect(p.schema).toEqual({ type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER });
  });

  test('the page bounds it declares are where the service stops accepting, and it answers its own error past them', async () => {
    const status = async (query: string) => (await api(svc, `/v2/labelReports?${query}`)).status;
    expect(await status('pageSize=1')).toBe(200);
    expect(await status(`pageNumber=${Number.MAX_SAFE_INTEGER}`)).toBe(200);
    for (const query of ['pageSize=0', `pageNumber=${Number.MAX_SAFE_INTEGER + 1}`, 'pageSize=1.5', 'pageSize=-1']) {
      expect(await status(query), query).toBe(400);
    }
    const refused = await api(svc, '/v2/labelReports?pageSize=abc');
    expect(refused.body).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      code: 'INVALID_PAGE',
      message: `pageSize 'abc' is not a whole number from 1 to ${Number.MAX_SAFE_INTEGER}`,
    });
    expectFits('GET', '/v2/labelReports', refused);
  });

  test('says where the service listens, and who to ask', async () => {
    expect(doc.servers).toEqual([{ url: svc.url, description: 'This service' }]);
    expect(doc.info.license).toEqual({ name: expect.stringContaining('UNLICENSED'), identifier: 'LicenseRef-Proprietary' });
    expect(doc.info.contact.email).toMatch(/@/);
    // Not listening (inject), it has no port to name: the server is wherever the document came from.
    const app = serviceApp(svc.service).app;
    const injected = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
    await app.close();
    expect(injected.servers).toEqual([{ url: '/', description: expect.any(String) }]);
  });

  test('every operation has one of the document’s tags, a summary and a description', () => {
    const tags = doc.tags.map((t: { name: string; description: string }) => {
      expect(t.description).toMatch(/\S/);
      return t.name;
    });
    expect(tags).toEqual(['Label reports', 'Review', 'Webhooks', 'Sync', 'Keys', 'People', 'Alarms', 'Shipments', 'Local', 'Backups']);
    const used = new Set<string>();
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      for (const [method, operation] of Object.entries<any>(item)) {
        expect(operation.tags, `${method} ${path}`).toHaveLength(1);
        expect(tags, `${method} ${path}`).toContain(operation.tags[0]);
        expect(operation.summary, `${method} ${path}`).toMatch(/\S/);
        expect(operation.description, `${method} ${path}`).toMatch(/\S/);
        used.add(operation.tags[0]);
      }
    }
    expect([...used].sort()).toEqual([...tags].sort());
    expect(doc.paths['/v2/labelReports/{id}'].patch.tags).toEqual(['Label reports']);
    expect(doc.paths['/local/sync/conflicts/{id}'].post.tags).toEqual(['Sync']);
  });

  test('a described route outside every group is refused when it is registered', async () => {
    const app = serviceApp(svc.service).app;
    const openapi = { operationId: 'somethingNew', summary: 'x', description: 'y', responses: { 200: { description: 'z' } } };
    expect(() => app.get('/local/somethingNew', { config: { openapi } }, async () => ({}))).toThrow(/somethingNew needs a tag/);
    await app.close();
  });

  test('a documented query parameter the route’s checks would refuse is refused when it is registered', async () => {
    const app = serviceApp(svc.service).app;
    const openapi = { operationId: 'listWebhooks', summary: 'x', query: { since: z.string() }, responses: { 200: { description: 'z' } } };
    const checks: RouteChecks = { permission: null, query: ['until'] };
    expect(() => app.get('/local/queried', { config: { openapi, checks } }, async () => ({}))).toThrow(
      'GET /local/queried: documents query parameters its checks refuse: since',
    );
    expect(() => app.get('/local/unchecked', { config: { openapi, checks: { ...checks, query: 'unchecked' as const } } }, async () => ({}))).not.toThrow();
    await app.close();
  });

  test('the checks a route declares add the refusals they imply', () => {
    // GET /v2/webhooks/{id} lists no refusal of its own: its query is checked (400), the webhook must be visible (404).
    expect(Object.keys(doc.paths['/v2/webhooks/{id}'].get.responses)).toEqual(['200', '400', '401', '403', '404', '500']);
    // Unchecked query, nothing addressed by id: no 400, no 404.
    expect(Object.keys(doc.paths['/local/session'].get.responses)).toEqual(['200', '401', '403', '500']);
  });

  test('user and labelPreset name the members the service’s reports carry, and stay open', () => {
    const report = doc.components.schemas.LabelReport.properties;
    const objectOf = (schema: { anyOf: { type: string }[] }) => schema.anyOf.find((s) => s.type === 'object') as any;
    expect(report.user.anyOf).toContainEqual({ type: 'null' });
    expect(Object.keys(objectOf(report.user).properties)).toEqual(['id', 'name', 'email']);
    expect(Object.keys(objectOf(report.labelPreset).properties)).toEqual(['id', 'name']);
    for (const schema of [objectOf(report.user), objectOf(report.labelPreset)]) {
      expect(schema.required).toBeUndefined();
      expect(schema.additionalProperties).toEqual({});
    }
  });

  test('each page of the list says which output answers it', () => {
    expect(doc.components.schemas.LabelReportPage.description).toMatch(/output=normal/);
    expect(doc.components.schemas.MinimalLabelReportPage.description).toMatch(/output=minimal/);
  });

  test('the PATCH body is the patch schema, unknown fields refused', () => {
    const body = doc.paths['/v2/labelReports/{id}'].patch.requestBody;
    expect(body.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/LabelReportPatch' });
    const patch = doc.components.schemas.LabelReportPatch;
    expect(Object.keys(patch.properties)).toEqual(['limits', 'labelReference', 'status', 'hasFlag', 'isArchived', 'customFields', 'trim']);
    expect(patch.additionalProperties).toBe(false);
  });

  test('names the three ways to send the key, and needs none for itself', () => {
    expect(doc.components.securitySchemes).toEqual({
      apiKeyHeader: { type: 'apiKey', in: 'header', name: 'x-api-key' },
      keyParameter: { type: 'apiKey', in: 'query', name: 'key' },
      apiKeyParameter: { type: 'apiKey', in: 'query', name: 'apiKey' },
    });
    expect(doc.security).toEqual([{ apiKeyHeader: [] }, { keyParameter: [] }, { apiKeyParameter: [] }]);
    expect(doc.paths['/openapi.json'].get.security).toEqual([]);
    expect(doc.paths['/v2/labelReports'].get.security).toBeUndefined();
  });

  test('stays behind the loopback Host guard', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port: svc.port, path: '/openapi.json', headers: { host: 'evil.example' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(403);
  });
});

describe('real answers fit the declared schemas', () => {
  const get = (path: string, key: KeyName | null = 'acme') => api(svc, path, { key });

  test('list, normal and minimal, and a page past the end', async () => {
    for (const query of ['', '?output=minimal', '?pageNumber=9', '?output=minimal&filter=id[eq]none']) {
      const res = await get(`/v2/labelReports${query}`);
      expect(res.status).toBe(200);
      expectFits('GET', '/v2/labelReports', res);
    }
  });

  test('retrieve and PATCH', async () => {
    const retrieved = await get('/v2/labelReports/r2');
    expect(retrieved.status).toBe(200);
    expectFits('GET', '/v2/labelReports/{id}', retrieved);
    const described = await get('/v2/labelReports/r1');
    expect(described.body.user).toMatchObject({ name: 'Sanne de Vries', team: 'QA' });
    expect(described.body.labelPreset).toEqual({ id: 'preset-vaccines', name: 'Vaccines 2…8 °C' });
    expectFits('GET', '/v2/labelReports/{id}', described);
    const patched = await api(svc, '/v2/labelReports/r1', {
      method: 'PATCH',
      body: { hasFlag: true, trim: { startTime: 0, endTime: 4_000_000_000 }, customFields: [{ customFieldId: 'n', value: [1, 'a'] }] },
    });
    expect(patched.status).toBe(200);
    expectFits('PATCH', '/v2/labelReports/{id}', patched);
  });

  test('activation and a tap', async () => {
    const key = svc.service.apiKeys.create('acme', ['labelReports:create'], 'intake').key;
    const post = (path: string, body: unknown) => api(svc, path, { method: 'POST', body, key: null, headers: { 'x-api-key': key } });
    const label = makeActivation();
    const activated = await post('/v2/labelReports', label);
    expect(activated.status).toBe(201);
    expectFits('POST', '/v2/labelReports', activated);
    const tapped = await post(`/v2/labelReports/${activated.body.id}/taps`, { datapoints: [{ timestamp: 1_780_000_000, temperature: 4, humidity: 50 }] });
    expect(tapped.status).toBe(200);
    expectFits('POST', '/v2/labelReports/{id}/taps', tapped);
    const taken = await post('/v2/labelReports', { ...label, id: activated.body.id });
    expect(taken.status).toBe(409);
    expectFits('POST', '/v2/labelReports', taken);
  });

  test('webhooks: registration, a test event, the deliveries log, and their refusals', async () => {
    const key = svc.service.apiKeys.create('acme', ['webhooks:manage'], 'hooks').key;
    const call = (method: string, path: string, body?: unknown) => api(svc, path, { method, body, key: null, headers: { 'x-api-key': key } });
    const created = await call('POST', '/v2/webhooks', { url: 'http://127.0.0.1:9/hook', events: ['labelReport.tapped'], description: 'doc' });
    expect(created.status).toBe(201);
    expectFits('POST', '/v2/webhooks', created);
    const id = created.body.id as string;
    expectFits('GET', '/v2/webhooks', await call('GET', '/v2/webhooks'));
    expectFits('GET', '/v2/webhooks/{id}', await call('GET', `/v2/webhooks/${id}`));
    expectFits('PATCH', '/v2/webhooks/{id}', await call('PATCH', `/v2/webhooks/${id}`, { description: 'changed' }));
    expectFits('POST', '/v2/webhooks/{id}/rotate-secret', await call('POST', `/v2/webhooks/${id}/rotate-secret`));
    const accepted = await call('POST', `/v2/webhooks/${id}/test`);
    expect(accepted.status).toBe(202);
    expectFits('POST', '/v2/webhooks/{id}/test', accepted);
    const log = await call('GET', `/v2/webhooks/${id}/deliveries`);
    expect(log.body.totalDocuments).toBeGreaterThan(0);
    expectFits('GET', '/v2/webhooks/{id}/deliveries', log);
    const redeliver = '/v2/webhooks/{id}/deliveries/{messageId}/redeliver';
    expectFits('POST', redeliver, await call('POST', `/v2/webhooks/${id}/deliveries/${accepted.body.messageId}/redeliver`));
    expectFits('POST', redeliver, await call('POST', `/v2/webhooks/${id}/deliveries/msg_none/redeliver`));
    expectFits('GET', '/v2/webhooks', await api(svc, '/v2/webhooks'));
    expectFits('PATCH', '/v2/webhooks/{id}', await call('PATCH', `/v2/webhooks/${id}`, { enabled: false }));
    const disabled = await call('POST', `/v2/webhooks/${id}/test`);
    expect(disabled.status).toBe(409);
    expectFits('POST', '/v2/webhooks/{id}/test', disabled);
    const removed = await call('DELETE', `/v2/webhooks/${id}`);
    expect(removed.status).toBe(204);
    expectFits('DELETE', '/v2/webhooks/{id}', removed);
    expectFits('GET', '/v2/webhooks/{id}', await call('GET', `/v2/webhooks/${id}`));
  });

  test('/local and the document itself', async () => {
    expectFits('GET', '/local/info', await get('/local/info'));
    expectFits('GET', '/local/labelReports', await get('/local/labelReports?review=decision.none'));
    expectFits('GET', '/local/labelReports', await get('/local/labelReports?output=minimal&review=awaitingReview'));
    expectFits('GET', '/local/session', await get('/local/session'));
    expectFits('GET', '/local/apiKeys', await get('/local/apiKeys'));
    const created = await api(svc, '/local/apiKeys', { method: 'POST', body: { name: 'doc', permissions: ['labelReports:read'] } });
    expect(created.status).toBe(201);
    expectFits('POST', '/local/apiKeys', created);
    const revoked = await api(svc, `/local/apiKeys/${created.body.id}`, { method: 'DELETE' });
    expect(revoked.status).toBe(204);
    expectFits('DELETE', '/local/apiKeys/{id}', revoked);
    expectFits('GET', '/openapi.json', await get('/openapi.json', null));
  });

  test('refusals: 400, 401, 403, 404, 413, 415', async () => {
    const cases: [string, string, Promise<{ status: number; body: unknown }>, number][] = [
      ['GET', '/v2/labelReports', get('/v2/labelReports?filter=foo[eq]1'), 400],
      ['GET', '/v2/labelReports', get('/v2/labelReports', null), 401],
      ['GET', '/v2/labelReports', get('/v2/labelReports', 'acmeUpdateOnly'), 403],
      ['GET', '/v2/labelReports/{id}', get('/v2/labelReports/r-other'), 404],
      ['GET', '/v2/labelReports/{id}', get('/v2/labelReports/r1?verbose=1'), 400],
      ['PATCH', '/v2/labelReports/{id}', api(svc, '/v2/labelReports/r1', { method: 'PATCH', body: { colour: 1 } }), 400],
      ['PATCH', '/v2/labelReports/{id}', api(svc, '/v2/labelReports/r1', { method: 'PATCH', body: { status: 'completed' }, key: 'fresh' }), 403],
      ['PATCH', '/v2/labelReports/{id}', api(svc, '/v2/labelReports/r1', { method: 'PATCH', body: 'x'.repeat(1024 * 1024 + 1) }), 413],
      ['PATCH', '/v2/labelReports/{id}', api(svc, '/v2/labelReports/r1', { method: 'PATCH', body: '{}', headers: { 'content-type': 'text/plain' } }), 415],
      ['GET', '/local/session', get('/local/session', 'revoked'), 401],
      ['GET', '/local/labelReports', get('/local/labelReports?review=maybe'), 400],
      ['DELETE', '/local/apiKeys/{id}', api(svc, '/local/apiKeys/nope', { method: 'DELETE' }), 404],
      ['POST', '/local/apiKeys', api(svc, '/local/apiKeys', { method: 'POST', body: { name: 'x', permissions: [] } }), 400],
    ];
    for (const [method, path, pending, status] of cases) {
      const res = await pending;
      expect(res.status, `${method} ${path}`).toBe(status);
      expectFits(method, path, res);
    }
  });

  test('the schemas are strict enough to catch a wrong answer', async () => {
    const notFound = await get('/v2/labelReports/r-other');
    expect(declared('GET', '/v2/labelReports/{id}', 400)!(notFound.body)).toBe(false);
    const minimal = (await get('/v2/labelReports?output=minimal')).body;
    expect(declared('GET', '/v2/labelReports/{id}', 200)!(minimal)).toBe(false);
    minimal.data[0].extra = 1;
    expect(declared('GET', '/v2/labelReports', 200)!(minimal)).toBe(false);
    expect(() => declared('GET', '/local/info', 404)).toThrow(/declares no 404/);
    const report = (await get('/v2/labelReports/r1')).body;
    expect(declared('GET', '/v2/labelReports/{id}', 200)!({ ...report, user: { ...report.user, name: 5 } })).toBe(false);
    expect(declared('GET', '/v2/labelReports/{id}', 200)!({ ...report, labelPreset: 'Vaccines' })).toBe(false);
  });
});
