/**
 * The routes' declared checks (http/route-checks.ts): every route behind the key declares them,
 * one that does not stops the app at startup, and the one hook checks them in the order of
 * docs/api.md#errors, a refusal at each step hiding every later one. Through `inject`, over a real
 * SQLite file.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance, type FastifyRequest, type RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { requireApiKey } from '../../http/auth';
import { judgeBodiesLate } from '../../http/body';
import { registerErrorHandling } from '../../http/errors';
import { queryParametersOf, registerRouteChecks, type RouteChecks } from '../../http/route-checks';
import { openService } from '../../host/open-service';
import { serviceApp } from '../../host/service-app';
import { makeReport, openTestApp, type TestApp } from '../support/service-fixture';

let t: TestApp;
let webhookKey: string;
beforeAll(async () => {
  t = await openTestApp([makeReport('r1'), makeReport('r-other', { companyId: 'other' })]);
  webhookKey = t.service.apiKeys.create('acme', ['webhooks:manage'], 'webhooks').key;
});
afterAll(() => t.stop());

describe('every route declares its checks', () => {
  test('each /v2 and /local route of the app has config.checks', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'labeldesk-checks-'));
    const service = openService(join(dir, 'labeldesk.sqlite'));
    const app = serviceApp(service).app;
    const routes: RouteOptions[] = [];
    // Added before ready(): the API's routes are registered when the app gets ready.
    app.addHook('onRoute', (route) => void routes.push(route));
    try {
      await app.ready();
      const api = routes.filter((route) => route.url.startsWith('/v2/') || route.url.startsWith('/local/'));
      expect(api.length).toBeGreaterThan(30);
      const undeclared = api.filter((route) => !route.config?.checks).map((route) => `${String(route.method)} ${route.url}`);
      // Signing in, unlocking, the activity signal and signing out come before any key, outside the key's scope: the only ones.
      expect(undeclared).toEqual(['POST /local/session/sign-in', 'POST /local/session/unlock', 'POST /local/session/password', 'POST /local/session/activity', 'POST /local/session/sign-out']);
      // Outside the key's scope nothing is declared: the document and the UI need no key.
      expect(routes.find((route) => route.url === '/openapi.json')?.config?.checks).toBeUndefined();
    } finally {
      await app.close();
      service.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  const startWith = async (url: string, checks: RouteChecks | undefined) => {
    const app = Fastify();
    app.register(async (scope) => {
      registerRouteChecks(scope, t.service);
      scope.get(url, { config: checks && { checks } }, async () => ({}));
    });
    try {
      await app.ready();
    } finally {
      await app.close();
    }
  };

  test('a route without a declaration, or with one that cannot be checked, is a startup error', async () => {
    await expect(startWith('/local/undeclared', undefined)).rejects.toThrow(
      'GET /local/undeclared declares no config.checks: the permission, visibility and query parameters it needs',
    );
    await expect(startWith('/local/reports/:reportId', { permission: 'labelReports:read', visible: 'report', query: [] })).rejects.toThrow(
      'GET /local/reports/:reportId: visible needs an :id in the URL',
    );
    await expect(startWith('/local/reports/:id', { permission: 'sync:manage', visible: 'report', query: [] })).rejects.toThrow(
      'GET /local/reports/:id: no report visibility check under permission sync:manage',
    );
    await expect(startWith('/local/reports/:id', { permission: null, visible: 'report', query: [] })).rejects.toThrow(
      'GET /local/reports/:id: no report visibility check under permission null',
    );
    await expect(startWith('/local/hooks/:id', { permission: 'labelReports:read', visible: 'webhook', query: [] })).rejects.toThrow(
      'no webhook visibility check under permission labelReports:read',
    );
    await expect(startWith('/local/reports/:id', { permission: 'labelReports:read', visible: 'report', query: ['a'] })).resolves.toBeUndefined();
  });
});

describe('the hook checks in the order of docs/api.md#errors', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = Fastify();
    registerErrorHandling(app, () => {});
    app.register(async (scope) => {
      requireApiKey(scope, t.service.apiKeys);
      registerRouteChecks(scope, t.service);
      judgeBodiesLate(scope);
      // What the handler is handed: the judged body and the declared parameters.
      const echo = async (request: FastifyRequest) => {
        const query = request.routeOptions.config.checks?.query === 'unchecked' ? null : Object.fromEntries(queryParametersOf(request));
        return { body: request.body ?? null, query };
      };
      scope.post('/local/probe/:id', { config: { checks: { permission: 'labelReports:update', visible: 'report', body: true, query: ['b', 'a'] } } }, echo);
      scope.get('/local/probe/:id/one', { config: { checks: { permission: 'labelReports:read', visible: 'report', query: ['only'] } } }, echo);
      scope.get('/local/probe', { config: { checks: { permission: null, query: [] } } }, echo);
      scope.get('/local/probe/anything', { config: { checks: { permission: null, query: 'unchecked' } } }, echo);
      scope.get('/local/hooks/:id', { config: { checks: { permission: 'webhooks:manage', visible: 'webhook', query: [] } } }, echo);
    });
    await app.ready();
  });
  afterAll(() => app.close());

  interface Call {
    key?: string | null;
    query?: string;
    body?: string;
    contentType?: string;
  }
  const call = async (method: 'GET' | 'POST', path: string, init: Call = {}) => {
    const headers: Record<string, string> = {};
    if (init.key !== null) headers['x-api-key'] = init.key ?? t.keys.acme;
    if (init.contentType) headers['content-type'] = init.contentType;
    const res = await app.inject({ method, url: `${path}${init.query ?? ''}`, headers, payload: init.body });
    return { status: res.statusCode, body: res.json() };
  };
  const outcome = async (method: 'GET' | 'POST', path: string, init: Call = {}) => {
    const { status, body } = await call(method, path, init);
    return `${status} ${body.code ?? 'ok'}`;
  };

  test('each refusal hides every later one', async () => {
    // Every fault at once; each step mends one, and the next check answers.
    const faults: Call = { query: '?c=1', body: '<not-json/>', contentType: 'application/xml' };
    expect(await outcome('POST', '/local/probe/r-other', { ...faults, key: null })).toBe('401 API_KEY_MISSING');
    expect(await outcome('POST', '/local/probe/r-other', { ...faults, key: t.keys.acmeRead })).toBe('403 PERMISSION_DENIED');
    expect(await outcome('POST', '/local/probe/r-other', faults)).toBe('404 REPORT_NOT_FOUND');
    expect(await outcome('POST', '/local/probe/r1', faults)).toBe('415 UNSUPPORTED_MEDIA_TYPE');
    expect(await outcome('POST', '/local/probe/r1', { ...faults, contentType: 'application/json' })).toBe('400 INVALID_JSON');
    expect(await outcome('POST', '/local/probe/r1', { ...faults, contentType: 'application/json', body: '{"x":1}' })).toBe('400 UNKNOWN_PARAMETER');
    expect(await call('POST', '/local/probe/r1', { contentType: 'application/json', body: '{"x":1}', query: '?a=1' })).toEqual({
      status: 200,
      body: { body: { x: 1 }, query: { a: '1' } },
    });
  });

  test('a permission granted is not visibility: another company’s report stays unseen', async () => {
    expect(await outcome('GET', '/local/probe/r-other/one', { key: t.keys.other })).toBe('200 ok');
    expect(await outcome('GET', '/local/probe/r1/one', { key: t.keys.other })).toBe('404 REPORT_NOT_FOUND');
    expect(await outcome('GET', '/local/probe/r1/one', { key: t.keys.acmeUpdateOnly })).toBe('403 PERMISSION_DENIED');
    expect(await outcome('GET', '/local/hooks/wh-unknown', { key: webhookKey })).toBe('404 WEBHOOK_NOT_FOUND');
    expect(await outcome('GET', '/local/hooks/wh-unknown')).toBe('403 PERMISSION_DENIED');
  });

  test('the body is whatever JSON came, or nothing', async () => {
    expect((await call('POST', '/local/probe/r1')).body).toEqual({ body: null, query: {} });
    expect((await call('POST', '/local/probe/r1', { contentType: 'application/json', body: '[1,2]' })).body.body).toEqual([1, 2]);
  });

  test('query parameters: the declared ones beside the key’s, each once, the unknown named with the known', async () => {
    expect(await call('GET', '/local/probe/r1/one', { query: '?only=x' })).toEqual({ status: 200, body: { body: null, query: { only: 'x' } } });
    // The key's own parameters are accepted and not handed on.
    expect((await call('GET', '/local/probe/r1/one', { key: null, query: `?only=x&apiKey=${t.keys.acme}` })).body.query).toEqual({ only: 'x' });
    const refused = async (path: string, query: string) => (await call('GET', path, { query })).body;
    expect(await refused('/local/probe/r1/one', '?other=1')).toMatchObject({
      code: 'UNKNOWN_PARAMETER',
      message: "unknown query parameter 'other'; known is only",
    });
    expect(await refused('/local/probe', '?other=1')).toMatchObject({ code: 'UNKNOWN_PARAMETER', message: "unknown query parameter 'other'" });
    expect((await call('POST', '/local/probe/r1', { query: '?z=1' })).body).toMatchObject({
      code: 'UNKNOWN_PARAMETER',
      message: "unknown query parameter 'z'; known are b, a",
    });
    expect(await refused('/local/probe/r1/one', '?only=1&only=2')).toMatchObject({ code: 'DUPLICATE_PARAMETER' });
    expect(await refused('/local/probe/r1/one', `?key=${t.keys.acme}&key=${t.keys.acme}`)).toMatchObject({ code: 'DUPLICATE_PARAMETER' });
    // Unchecked: a route that reads no parameters and refuses none.
    expect(await call('GET', '/local/probe/anything', { query: '?whatever=1&again=2&again=3' })).toEqual({ status: 200, body: { body: null, query: null } });
  });
});
