/**
 * /local/sync over HTTP between two real services on loopback: off until a remote is set; the
 * settings take the key into memory and never show it; a connection test saves nothing; a
 * cycle on request; a conflict seen and resolved through the routes; reading with any key,
 * acting only with sync:manage, bodies judged after the permission.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { syncConflictSchema, syncSettingsSchema, syncStatusSchema, type SyncStatus } from '../../schema/sync';
import { api, makeReport, startTestService, type TestService } from '../support/service-fixture';

let remote: TestService;
let local: TestService;
let manager: string;
let reader: string;

beforeAll(async () => {
  remote = await startTestService([makeReport('h1'), makeReport('h2')]);
  local = await startTestService([]);
  manager = local.service.apiKeys.create('acme', ['labelReports:read', 'labelReports:update', 'sync:manage'], 'desk').key;
  reader = local.service.apiKeys.create('acme', ['labelReports:read'], 'reader').key;
});
afterAll(async () => {
  await local?.stop();
  await remote?.stop();
});

async function call(key: string, path: string, init: { method?: string; body?: unknown } = {}) {
  const res = await fetch(local.url + path, {
    method: init.method ?? 'GET',
    headers: { 'x-api-key': key, ...(init.body !== undefined && { 'content-type': 'application/json' }) },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await res.text();
  return { status: res.status, body: text === '' ? undefined : JSON.parse(text) };
}

/** Asks for the status until it says what is awaited: the worker's cycles are its own events. */
async function statusUntil(predicate: (status: SyncStatus) => boolean): Promise<SyncStatus> {
  for (;;) {
    const status = syncStatusSchema.parse((await call(reader, '/local/sync')).body);
    if (predicate(status)) return status;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

it('is off until a remote is set, and only a key with sync:manage may act', async () => {
  expect(await call(reader, '/local/sync')).toMatchObject({ status: 200, body: { configured: false, state: 'off', remoteUrl: null, pending: 0 } });
  expect(await call(reader, '/local/sync/settings')).toEqual({ status: 200, body: { remoteUrl: null, companyId: null, hasKey: false } });
  expect(await call(reader, '/local/sync/conflicts')).toEqual({ status: 200, body: [] });
  expect(await call(reader, '/local/sync/dead-letters')).toEqual({ status: 200, body: [] });
  expect(await call(reader, '/local/sync/outbox')).toEqual({ status: 200, body: [] });
  for (const [method, path, body] of [
    ['POST', '/local/sync', undefined],
    ['PUT', '/local/sync/settings', { remoteUrl: 'not a url' }],
    ['POST', '/local/sync/test', {}],
    ['POST', '/local/sync/conflicts/x', { keep: 'sideways' }],
    ['POST', '/local/sync/dead-letters/x', {}],
  ] as const) {
    expect(await call(reader, path, { method, body })).toMatchObject({ status: 403, body: { code: 'PERMISSION_DENIED' } });
  }
  expect(await call(manager, '/local/sync', { method: 'POST' })).toMatchObject({ status: 409, body: { code: 'SYNC_OFF' } });
  expect(await call(manager, '/local/sync/settings', { method: 'PUT', body: { remoteUrl: 'ftp://x' } })).toMatchObject({ status: 400, body: { code: 'INVALID_BODY' } });
  expect(await call(manager, '/local/sync/conflicts/x', { method: 'POST', body: { keep: 'sideways' } })).toMatchObject({ status: 400 });
  expect(await call(manager, '/local/sync/conflicts/x', { method: 'POST', body: { keep: 'remote' } })).toMatchObject({ status: 404, body: { code: 'CONFLICT_NOT_FOUND' } });
  expect(await call(manager, '/local/sync/dead-letters/x', { method: 'POST', body: { action: 'retry' } })).toMatchObject({ status: 404 });
  expect(await call(reader, '/local/sync?extra=1')).toMatchObject({ status: 400 });
});

it('tests a connection without saving it', async () => {
  const ok = await call(manager, '/local/sync/test', { method: 'POST', body: { remoteUrl: remote.url, remoteKey: remote.keys.acme } });
  expect(ok).toMatchObject({ status: 200, body: { ok: true, companyId: 'acme', companyName: 'Acme Cold Chain' } });
  const wrongCompany = await call(manager, '/local/sync/test', { method: 'POST', body: { remoteUrl: remote.url, remoteKey: remote.keys.acme, companyId: 'nordic' } });
  expect(wrongCompany.body).toMatchObject({ ok: false, companyId: 'acme', message: expect.stringMatching(/belongs to company 'acme'/) });
  const refused = await call(manager, '/local/sync/test', { method: 'POST', body: { remoteUrl: remote.url, remoteKey: 'ldk_wrong' } });
  expect(refused.body).toMatchObject({ ok: false, message: expect.stringMatching(/401/) });
  const noKey = await call(manager, '/local/sync/test', { method: 'POST', body: { remoteUrl: remote.url } });
  expect(noKey.body).toMatchObject({ ok: false, message: expect.stringMatching(/key/) });
  expect((await call(reader, '/local/sync/settings')).body).toEqual({ remoteUrl: null, companyId: null, hasKey: false });
});

it('syncs once the settings name a remote and a key, shows a conflict and resolves it either way, and turns off', async () => {
  const set = await call(manager, '/local/sync/settings', { method: 'PUT', body: { remoteUrl: remote.url, remoteKey: remote.keys.acme } });
  expect(set.status).toBe(200);
  expect(syncSettingsSchema.parse(set.body)).toMatchObject({ remoteUrl: remote.url, hasKey: true });
  expect(JSON.stringify(set.body)).not.toContain(remote.keys.acme);
  await statusUntil((s) => s.lastSuccessAt !== null && s.state === 'idle');
  expect((await call(reader, '/v2/labelReports/h1')).body).toEqual((await api(remote, '/v2/labelReports/h1')).body);
  expect((await call(reader, '/local/sync/settings')).body).toEqual({ remoteUrl: remote.url, companyId: 'acme', hasKey: true });

  // The same field changed on both sides: the remote wins by default, the local value is kept in the conflict.
  for (const id of ['h1', 'h2']) {
    expect((await call(manager, `/v2/labelReports/${id}`, { method: 'PATCH', body: { labelReference: `local ${id}` } })).status).toBe(200);
    expect((await api(remote, `/v2/labelReports/${id}`, { method: 'PATCH', body: { labelReference: `remote ${id}` } })).status).toBe(200);
  }
  expect((await call(reader, '/local/sync/outbox')).body).toEqual([
    { labelReportId: 'h1', fields: ['labelReference'], since: expect.any(String) },
    { labelReportId: 'h2', fields: ['labelReference'], since: expect.any(String) },
  ]);
  expect(await call(manager, '/local/sync', { method: 'POST' })).toEqual({ status: 202, body: undefined });
  await statusUntil((s) => s.conflicts === 2 && s.pending === 0 && s.state === 'idle');
  const conflicts = syncConflictSchema.array().parse((await call(reader, '/local/sync/conflicts')).body);
  expect(conflicts.map(({ labelReportId, field, kind, base, local: mine, remote: theirs }) => ({ labelReportId, field, kind, base, mine, theirs }))).toEqual([
    { labelReportId: 'h1', field: 'labelReference', kind: 'field', base: 'REF-h1', mine: 'local h1', theirs: 'remote h1' },
    { labelReportId: 'h2', field: 'labelReference', kind: 'field', base: 'REF-h2', mine: 'local h2', theirs: 'remote h2' },
  ]);
  expect((await call(reader, '/v2/labelReports/h1')).body.labelReference).toBe('remote h1');

  // Keep mine: sent again; keep theirs: dropped.
  const [h1, h2] = conflicts;
  expect(await call(manager, `/local/sync/conflicts/${h1.id}`, { method: 'POST', body: { keep: 'local' } })).toEqual({ status: 204, body: undefined });
  expect(await call(manager, `/local/sync/conflicts/${h2.id}`, { method: 'POST', body: { keep: 'remote' } })).toEqual({ status: 204, body: undefined });
  expect((await call(reader, '/local/sync/conflicts')).body).toEqual([]);
  await statusUntil((s) => s.pending === 0 && s.state === 'idle');
  expect((await api(remote, '/v2/labelReports/h1')).body.labelReference).toBe('local h1');
  expect((await api(remote, '/v2/labelReports/h2')).body.labelReference).toBe('remote h2');
  expect((await call(reader, '/v2/labelReports/h1')).body).toEqual((await api(remote, '/v2/labelReports/h1')).body);

  expect((await call(manager, '/local/sync/settings', { method: 'PUT', body: { remoteUrl: null } })).body).toEqual({ remoteUrl: null, companyId: null, hasKey: true });
  expect(await call(reader, '/local/sync')).toMatchObject({ body: { configured: false, state: 'off' } });
});
