/**
 * Every route's answers through Fastify's inject: the app over a real SQLite file, no network.
 * Most of all the order of checks of docs/api.md#errors for combinations of refusals, body ones
 * included: key (401) → key permission (403) → report visibility (404) → validation (415, 400)
 * → role (403).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { makeReport, openTestApp, type KeyName, type TestApp } from '../support/service-fixture';

let t: TestApp;
beforeAll(async () => {
  t = await openTestApp([
    makeReport('r1', {
      access: [
        { companyId: 'nordic', role: 'editor' },
        { companyId: 'fresh', role: 'viewer' },
      ],
    }),
    makeReport('r-other', { companyId: 'other' }),
  ]);
});
afterAll(() => t.stop());

interface Call {
  key?: KeyName | null;
  body?: string;
  contentType?: string;
  headers?: Record<string, string>;
}

async function call(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, init: Call = {}) {
  const headers: Record<string, string> = { ...init.headers };
  if (init.key !== null) headers['x-api-key'] = t.keys[init.key ?? 'acme'];
  if (init.contentType !== undefined) headers['content-type'] = init.contentType;
  const res = await t.app.inject({ method, url, headers, payload: init.body });
  return { status: res.statusCode, body: res.body === '' ? undefined : res.json(), headers: res.headers };
}

/** The status and code of a refusal, the two things a client program reads. */
async function refusal(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, init: Call = {}) {
  const { status, body } = await call(method, url, init);
  return `${status} ${body?.code}`;
}

const json = (value: unknown): Call => ({ body: JSON.stringify(value), contentType: 'application/json' });

describe('GET /v2/labelReports', () => {
  test('answers a page in either output', async () => {
    const normal = await call('GET', '/v2/labelReports');
    expect(normal.status).toBe(200);
    expect(normal.body.totalDocuments).toBe(1);
    expect(normal.body.data[0]).toMatchObject({ id: 'r1', label: { uid: 'uid-r1', sequenceCode: 'SEQ-r1' } });
    const minimal = await call('GET', '/v2/labelReports?output=minimal&pageSize=5', { key: 'nordic' });
    expect(minimal.body.data[0].minimalSenseData.flattenedDatapoints).toHaveLength(8);
    expect(minimal.body.data[0]).not.toHaveProperty('calculatedSenseData');
  });

  test('refusals: key, permission, parameters', async () => {
    expect(await refusal('GET', '/v2/labelReports', { key: null })).toBe('401 API_KEY_MISSING');
    expect(await refusal('GET', '/v2/labelReports', { key: 'revoked' })).toBe('401 API_KEY_INVALID');
    expect(await refusal('GET', '/v2/labelReports', { key: 'acmeUpdateOnly' })).toBe('403 PERMISSION_DENIED');
    expect(await refusal('GET', '/v2/labelReports?pageSize=0')).toBe('400 INVALID_PAGE');
    expect(await refusal('GET', '/v2/labelReports?page=2')).toBe('400 UNKNOWN_PARAMETER');
    expect(await refusal('GET', `/v2/labelReports?key=${t.keys.acme}&key=${t.keys.acme}`, { key: null })).toBe(
      '400 DUPLICATE_PARAMETER',
    );
  });

  test('the key permission comes before a bad parameter', async () => {
    expect(await refusal('GET', '/v2/labelReports?pageSize=0', { key: 'acmeUpdateOnly' })).toBe('403 PERMISSION_DENIED');
  });
});

describe('GET /v2/labelReports/:id', () => {
  test('answers the report as a bare object', async () => {
    const res = await call('GET', `/v2/labelReports/r1?apiKey=${t.keys.fresh}`, { key: null });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.body).toMatchObject({ id: 'r1', hasFlag: false, access: [{ companyId: 'acme', role: 'owner' }, {}, {}] });
  });

  test('refusals in the order of checks', async () => {
    expect(await refusal('GET', '/v2/labelReports/nope?verbose=1', { key: null })).toBe('401 API_KEY_MISSING');
    expect(await refusal('GET', '/v2/labelReports/nope?verbose=1', { key: 'acmeUpdateOnly' })).toBe('403 PERMISSION_DENIED');
    expect(await refusal('GET', '/v2/labelReports/r-other?verbose=1')).toBe('404 REPORT_NOT_FOUND');
    expect(await refusal('GET', '/v2/labelReports/r1?verbose=1')).toBe('400 UNKNOWN_PARAMETER');
    expect(await refusal('GET', `/v2/labelReports/r1?key=${t.keys.acme}&key=${t.keys.acme}`, { key: null })).toBe(
      '400 DUPLICATE_PARAMETER',
    );
  });
});

describe('PATCH /v2/labelReports/:id', () => {
  const patch = (url: string, init: Call) => refusal('PATCH', url, init);

  test('changes what the role allows and answers the report', async () => {
    const res = await call('PATCH', '/v2/labelReports/r1', { ...json({ labelReference: 'SHP-9' }), key: 'nordic' });
    expect(res.status).toBe(200);
    expect(res.body.labelReference).toBe('SHP-9');
    expect(await patch('/v2/labelReports/r1', { ...json({ limits: { maxTemperature: 9 } }), key: 'nordic' })).toBe(
      '403 ROLE_FORBIDDEN',
    );
    expect(await patch('/v2/labelReports/r1', { ...json({ status: 'completed' }), key: 'fresh' })).toBe('403 ROLE_FORBIDDEN');
  });

  test('a wrong content type answers after the key permission and the visibility', async () => {
    const text = { body: '{"hasFlag":true}', contentType: 'text/plain' };
    expect(await patch('/v2/labelReports/r1', { ...text, key: 'acmeRead' })).toBe('403 PERMISSION_DENIED');
    expect(await patch('/v2/labelReports/r-other', text)).toBe('404 REPORT_NOT_FOUND');
    expect(await patch('/v2/labelReports/nope', { body: '{}' })).toBe('404 REPORT_NOT_FOUND'); // no content type at all
    expect(await patch('/v2/labelReports/r1', text)).toBe('415 UNSUPPORTED_MEDIA_TYPE');
  });

  test('a malformed or empty JSON body answers after the key permission and the visibility', async () => {
    const malformed = { body: '{"hasFlag":', contentType: 'application/json' };
    const empty = { body: '', contentType: 'application/json' };
    expect(await patch('/v2/labelReports/r1', { ...malformed, key: 'acmeRead' })).toBe('403 PERMISSION_DENIED');
    expect(await patch('/v2/labelReports/r-other', malformed)).toBe('404 REPORT_NOT_FOUND');
    expect(await patch('/v2/labelReports/r-other', empty)).toBe('404 REPORT_NOT_FOUND');
    expect(await patch('/v2/labelReports/r1', malformed)).toBe('400 INVALID_JSON');
    expect(await patch('/v2/labelReports/r1', empty)).toBe('400 INVALID_BODY');
  });

  test('among the validation answers: content type, then JSON, then parameters, then fields', async () => {
    const url = '/v2/labelReports/r1?verbose=1';
    expect(await patch(url, { body: '{}', contentType: 'text/plain' })).toBe('415 UNSUPPORTED_MEDIA_TYPE');
    expect(await patch(url, { body: '{', contentType: 'application/json' })).toBe('400 INVALID_JSON');
    expect(await patch(url, json({ colour: 'blue' }))).toBe('400 UNKNOWN_PARAMETER');
    expect(await patch('/v2/labelReports/r1', json({ colour: 'blue' }))).toBe('400 INVALID_BODY');
  });

  test('validation answers before the role', async () => {
    expect(await patch('/v2/labelReports/r1', { body: '{"status":"completed"}', contentType: 'text/plain', key: 'fresh' })).toBe(
      '415 UNSUPPORTED_MEDIA_TYPE',
    );
    expect(await patch('/v2/labelReports/r1', { ...json({ limits: { maxTemperature: 'warm' } }), key: 'nordic' })).toBe(
      '400 INVALID_BODY',
    );
  });

  test('a body over 1 MiB is refused before anything else but the key', async () => {
    const huge = { ...json({ labelReference: 'x'.repeat(1024 * 1024) }) };
    expect(await patch('/v2/labelReports/r-other', { ...huge, key: 'acmeRead' })).toBe('413 BODY_TOO_LARGE');
    expect(await patch('/v2/labelReports/r1', { ...huge, key: null })).toBe('401 API_KEY_MISSING');
  });

  test('a content-type header that is no media type at all is refused by Fastify up front', async () => {
    expect(await patch('/v2/labelReports/r-other', { body: '{}', contentType: 'json', key: 'acmeRead' })).toBe(
      '415 UNSUPPORTED_MEDIA_TYPE',
    );
  });

  test('refused patches change nothing', async () => {
    const before = await call('GET', '/v2/labelReports/r1');
    for (const init of [
      { body: '{"labelReference":"nope"}', contentType: 'text/plain' },
      { ...json({ labelReference: 'nope', limits: { minTemperature: 50 } }) },
      { ...json({ labelReference: 'nope', hasFlag: true }), key: 'acmeRead' as const },
    ]) {
      expect((await call('PATCH', '/v2/labelReports/r1', init)).status).toBeGreaterThanOrEqual(400);
    }
    expect((await call('GET', '/v2/labelReports/r1')).body).toEqual(before.body);
  });
});

describe('/local', () => {
  test('info and session answer any valid key, and no one else', async () => {
    const info = await call('GET', '/local/info', { key: 'acmeRead' });
    expect(info.status).toBe(200);
    expect(Object.keys(info.body)).toEqual(['baseUrl', 'port', 'version']);
    const session = await call('GET', '/local/session', { key: 'fresh' });
    expect(session.body).toEqual({ keyId: expect.any(String), companyId: 'fresh', companyName: 'FreshFoods Retail', permissions: expect.any(Array), hasPeople: false });
    expect(await refusal('GET', '/local/info', { key: null })).toBe('401 API_KEY_MISSING');
    expect(await refusal('GET', '/local/session', { key: 'revoked' })).toBe('401 API_KEY_INVALID');
  });

  test('keys: list, create and revoke with apiKeys:manage', async () => {
    const created = await call('POST', '/local/apiKeys', json({ name: 'inject', permissions: ['labelReports:read'] }));
    expect(created.status).toBe(201);
    expect(created.body.key).toMatch(/^ldk_/);
    const listed = await call('GET', '/local/apiKeys');
    expect(listed.body.map((k: { id: string }) => k.id)).toContain(created.body.id);
    expect((await call('DELETE', `/local/apiKeys/${created.body.id}`)).status).toBe(204);
    expect(await refusal('DELETE', `/local/apiKeys/${created.body.id}`)).toBe('404 KEY_NOT_FOUND');
  });

  test('keys: the permission answers before anything about the body', async () => {
    expect(await refusal('GET', '/local/apiKeys', { key: 'acmeRead' })).toBe('403 PERMISSION_DENIED');
    expect(await refusal('DELETE', '/local/apiKeys/nope', { key: 'acmeRead' })).toBe('403 PERMISSION_DENIED');
    for (const init of [{ body: 'name=x', contentType: 'application/x-www-form-urlencoded' }, { body: '{', contentType: 'application/json' }]) {
      expect(await refusal('POST', '/local/apiKeys', { ...init, key: 'acmeRead' })).toBe('403 PERMISSION_DENIED');
    }
    expect(await refusal('POST', '/local/apiKeys', { body: 'name=x', contentType: 'application/x-www-form-urlencoded' })).toBe(
      '415 UNSUPPORTED_MEDIA_TYPE',
    );
    expect(await refusal('POST', '/local/apiKeys', { body: '{', contentType: 'application/json' })).toBe('400 INVALID_JSON');
    expect(await refusal('POST', '/local/apiKeys', json({ name: ' ', permissions: [] }))).toBe('400 INVALID_BODY');
  });

  test('DELETE still refuses a body it cannot read, before anything else', async () => {
    // It takes no body; Fastify answers about one as before, ahead of the route.
    expect(await refusal('DELETE', '/local/apiKeys/nope', { body: 'x', contentType: 'text/plain', key: 'acmeRead' })).toBe(
      '415 UNSUPPORTED_MEDIA_TYPE',
    );
  });
});

describe('/openapi.json', () => {
  test('answers without a key', async () => {
    const res = await call('GET', '/openapi.json', { key: null });
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
  });
});
