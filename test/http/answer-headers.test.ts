/**
 * Every answer tells browsers not to guess its type (X-Content-Type-Options: nosniff): API
 * JSON, refusals from the service and from Fastify, the OpenAPI document and the static UI.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startService, type RunningService } from '../../host/start-service';
import { makeReport, startTestService, type TestService } from '../support/service-fixture';

let svc: TestService;
let ui: RunningService;
beforeAll(async () => {
  svc = await startTestService([makeReport('r1')]);
  const uiDir = join(svc.dir, 'ui');
  mkdirSync(uiDir);
  writeFileSync(join(uiDir, 'index.html'), '<!doctype html><title>LabelDesk</title>');
  writeFileSync(join(uiDir, 'app.js'), 'console.log(1);');
  ui = await startService({ dbFile: join(svc.dir, 'ui.sqlite'), staticDir: uiDir });
});
afterAll(async () => {
  await ui.close();
  await svc.stop();
});

test.each([
  ['a list', '/v2/labelReports', 200],
  ['a report', '/v2/labelReports/r1', 200],
  ['the OpenAPI document', '/openapi.json', 200],
  ['a local extra', '/local/info', 200],
  ['an unknown report', '/v2/labelReports/nope', 404],
  ['an unknown route', '/nowhere', 404],
  ['an invalid filter', '/v2/labelReports?filter=foo[eq]1', 400],
  ['a malformed URL', '/v2/labelReports/%E0%A4%A', 400],
])('%s answers with nosniff', async (_what, path, status) => {
  const res = await fetch(svc.url + path, { headers: { 'x-api-key': svc.keys.acme } });
  expect(res.status).toBe(status);
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
});

test('refusals before the key check and the PATCH refusals answer with nosniff', async () => {
  const noKey = await fetch(`${svc.url}/v2/labelReports`);
  expect(noKey.status).toBe(401);
  const wrongType = await fetch(`${svc.url}/v2/labelReports/r1`, {
    method: 'PATCH',
    headers: { 'x-api-key': svc.keys.acme, 'content-type': 'text/plain' },
    body: 'x',
  });
  expect(wrongType.status).toBe(415);
  const foreignHost = await fetch(`${svc.url}/v2/labelReports`, { headers: { origin: 'http://evil.example' } });
  expect(foreignHost.status).toBe(403);
  for (const res of [noKey, wrongType, foreignHost]) expect(res.headers.get('x-content-type-options')).toBe('nosniff');
});

test.each(['/', '/index.html', '/app.js'])('the static UI file %s answers with nosniff', async (path) => {
  const res = await fetch(ui.url + path);
  expect(res.status).toBe(200);
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
});
