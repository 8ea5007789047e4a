import { afterAll, beforeAll, expect, test } from 'vitest';
import packageJson from '../../package.json' with { type: 'json' };
import { api, startTestService, type TestService } from '../support/service-fixture';

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService([]);
});
afterAll(() => svc.stop());

test('/local/info tells local tools where the service is', async () => {
  const res = await api(svc, '/local/info', { key: 'acmeRead' });
  expect(res.body).toEqual({ baseUrl: svc.url, port: svc.port, version: packageJson.version });
});

test('/local/session tells the UI who the key is', async () => {
  const res = await api(svc, '/local/session', { key: 'nordic' });
  expect(res.body).toEqual({
    keyId: expect.any(String),
    companyId: 'nordic',
    companyName: 'Nordic Pharma Logistics',
    permissions: ['labelReports:read', 'labelReports:update', 'apiKeys:manage'],
    hasPeople: false,
  });
  expect((await api(svc, '/local/session', { key: null })).status).toBe(401);
  // The id is the one the keys list shows, so the UI can mark the key it is signed in with.
  const keys = await api(svc, '/local/apiKeys', { key: 'nordic' });
  expect((keys.body as { id: string }[]).map((k) => k.id)).toContain((res.body as { keyId: string }).keyId);
});

test('keys: created once with its secret, listed without it, revoked for good', async () => {
  const created = await api(svc, '/local/apiKeys', {
    method: 'POST',
    body: { name: 'scanner script', permissions: ['labelReports:read'] },
  });
  expect(created.status).toBe(201);
  expect(created.body.key).toMatch(/^ldk_/);
  const headers = { 'x-api-key': created.body.key };
  expect((await api(svc, '/v2/labelReports', { key: null, headers })).status).toBe(200);

  const listed = await api(svc, '/local/apiKeys');
  const entry = listed.body.find((k: { id: string }) => k.id === created.body.id);
  expect(entry).toMatchObject({ name: 'scanner script', companyId: 'acme', permissions: ['labelReports:read'], revoked: null });
  expect(JSON.stringify(listed.body)).not.toContain(created.body.key);
  // Another company's keys are neither listed nor revocable.
  const other = await api(svc, '/local/apiKeys', { key: 'nordic' });
  expect(other.body.some((k: { id: string }) => k.id === created.body.id)).toBe(false);
  expect((await api(svc, `/local/apiKeys/${created.body.id}`, { method: 'DELETE', key: 'nordic' })).status).toBe(404);

  expect((await api(svc, `/local/apiKeys/${created.body.id}`, { method: 'DELETE' })).status).toBe(204);
  expect((await api(svc, '/v2/labelReports', { key: null, headers })).status).toBe(401);
  expect((await api(svc, `/local/apiKeys/${created.body.id}`, { method: 'DELETE' })).status).toBe(404);
});

test('keys: managing them needs apiKeys:manage, and a body that names the problem', async () => {
  expect((await api(svc, '/local/apiKeys', { key: 'acmeRead' })).status).toBe(403);
  const bad = await api(svc, '/local/apiKeys', { method: 'POST', body: { name: 'x', permissions: ['everything'] } });
  expect(bad.status).toBe(400);
  expect(bad.body.message).toContain('permissions');
});
