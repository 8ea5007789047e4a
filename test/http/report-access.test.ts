/**
 * Who saw a report, over a real server on a real file (docs/review-and-audit.md#who-saw-a-report):
 * a person views, prints and exports the readings, the history and a list as CSV, a tool's key
 * retrieves; the report's access list names each, newest first, to an administrator only, and
 * each company sees its own entries; pages of the list and the panel's other reads record
 * nothing; a view while the database is busy is answered and recorded after. Answers fit /openapi.json.
 */
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { reportAccessSchema } from '../../schema/report-access';
import { api, makeReport, startTestService, type TestService } from '../support/service-fixture';
import { openApiFit, type FitCheck } from '../support/openapi-fit';
import { READINGS_CSV_COLUMNS } from '../../service/report-csv';

const PASSWORD = 'correct horse battery';
let svc: TestService;
let fits: FitCheck;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  svc = await startTestService([makeReport('r1', { access: [{ companyId: 'nordic', role: 'viewer' }] }), makeReport('r2'), makeReport('r-other', { companyId: 'other' })]);
  fits = await openApiFit(svc.url);
  // The passwords are the test's own: no change asked at the first sign-in.
  svc.service.users.saveSettings(null, 'acme', { changeAtFirstSignIn: false });
  const full = svc.service.apiKeys.create('acme', ['labelReports:read', 'labelReports:update', 'labelReports:create', 'webhooks:manage', 'apiKeys:manage', 'sync:manage'], 'setup');
  for (const [login, name, role] of [['anna', 'Anna Berg', 'admin'], ['vera', 'Vera Holm', 'viewer']]) {
    const made = await call('/local/users', { token: tokens.anna ?? full.key, method: 'POST', body: { login, name, role, password: PASSWORD } });
    expect(made.status).toBe(201);
    tokens[login] = (await call('/local/session/sign-in', { method: 'POST', body: { login, password: PASSWORD } })).body.token;
  }
});
afterAll(() => svc.stop());

async function call(path: string, init: { token?: string; method?: string; body?: unknown } = {}) {
  const headers: Record<string, string> = {};
  if (init.token) headers['x-api-key'] = init.token;
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(svc.url + path, { method: init.method ?? 'GET', headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) });
  const text = await res.text();
  let body: any = text;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    // CSV: kept as text
  }
  return { status: res.status, body, headers: res.headers };
}

const stored = () => svc.service.access.verify().checked;

describe('who saw a report', () => {
  test('a person views, prints and exports; a tool’s key retrieves; each is one entry', async () => {
    const vera = tokens.vera;
    const before = stored();
    expect((await call('/v2/labelReports/r1', { token: vera })).status).toBe(200);
    expect(stored()).toBe(before + 1);
    const printed = await call('/local/labelReports/r1/printed', { token: vera, method: 'POST' });
    expect(printed.status).toBe(204);
    expect((await call('/local/labelReports/r1/printed', { token: vera, method: 'POST', body: { format: 'pdf' } })).status).toBe(204);
    const readings = await call('/local/labelReports/r1/readings.csv', { token: vera });
    expect([readings.status, String(readings.body).replace(/^\uFEFF/, '').split('\r\n')[0]]).toEqual([200, READINGS_CSV_COLUMNS.join(',')]);
    expect((await call('/local/labelReports/r1/history.csv', { token: vera })).status).toBe(200);
    const list = await call('/local/labelReports.csv?filter=status[eq]active&order=created[desc]', { token: vera });
    expect(list.status).toBe(200);
    expect((await api(svc, '/v2/labelReports/r1', { key: 'acmeRead' })).status).toBe(200);
    expect(stored()).toBe(before + 7);
  });

  test('pages of the list and the panel’s other reads record nothing; neither does a refusal', async () => {
    const before = stored();
    for (const path of ['/v2/labelReports', '/local/labelReports?review=awaitingReview', '/local/labelReports/r1/alerts', '/local/labelReports/r1/review', '/local/labelReports/r1/history']) {
      expect((await call(path, { token: tokens.vera })).status, path).toBe(200);
    }
    expect((await api(svc, '/v2/labelReports/r-other', { key: 'acme' })).status).toBe(404);
    expect((await api(svc, '/local/labelReports/r-other/printed', { key: 'acme', method: 'POST' })).status).toBe(404);
    const bad = await api(svc, '/local/labelReports/r1/printed', { key: 'acme', method: 'POST', body: { format: 'fax' } });
    expect([bad.status, bad.body.code]).toEqual([400, 'INVALID_BODY']);
    expect(stored()).toBe(before);
  });

  test('the administrator sees every entry of the company, newest first, naming who and what', async () => {
    const res = await call('/local/labelReports/r1/access', { token: tokens.anna });
    expect(res.status).toBe(200);
    fits('/local/labelReports/{id}/access', 'get', res);
    const list = reportAccessSchema.parse(res.body);
    const what = list.entries.map((e) => [e.kind, e.format, e.actor, e.person?.login ?? e.apiKeyName]);
    // The list's CSV names no one report: it is not among r1's.
    expect(what).toEqual([
      ['view', 'json', 'apiKey', 'acmeRead'],
      ['export', 'historyCsv', 'person', 'vera'],
      ['export', 'readingsCsv', 'person', 'vera'],
      ['export', 'pdf', 'person', 'vera'],
      ['print', 'print', 'person', 'vera'],
      ['view', 'json', 'person', 'vera'],
    ]);
    expect(list.total).toBe(6);
    expect(list.entries[5].person).toEqual({ id: expect.any(String), login: 'vera', name: 'Vera Holm' });
    expect(list.entries[0].apiKeyId).toEqual(expect.any(String));
    expect(new Date(list.entries[0].at).getTime()).toBeGreaterThanOrEqual(new Date(list.entries[5].at).getTime());
  });

  test('the list CSV is one entry with its query and how many reports it held', () => {
    const rows = [...svc.service.access.csv()].slice(1);
    const listCsv = rows.filter((line) => line.includes(',listCsv,'));
    expect(listCsv).toHaveLength(1);
    // r1 and r2 are acme's, both active.
    expect(listCsv[0]).toContain('"{""query"":{""filter"":""status[eq]active"",""order"":""created[desc]""},""reports"":2}"');
  });

  test('another company sees its own entries only', async () => {
    expect((await api(svc, '/v2/labelReports/r1', { key: 'nordic' })).status).toBe(200);
    const nordic = reportAccessSchema.parse((await api(svc, '/local/labelReports/r1/access', { key: 'nordic' })).body);
    expect(nordic.entries.map((e) => e.apiKeyName)).toEqual(['nordic']);
    const acme = reportAccessSchema.parse((await call('/local/labelReports/r1/access', { token: tokens.anna })).body);
    expect(acme.total).toBe(6);
  });

  test('only administrators see it: a viewer, a read-only key and an unseen report are refused', async () => {
    const viewer = await call('/local/labelReports/r1/access', { token: tokens.vera });
    expect([viewer.status, viewer.body.code]).toEqual([403, 'PERMISSION_DENIED']);
    expect((await api(svc, '/local/labelReports/r1/access', { key: 'acmeRead' })).status).toBe(403);
    expect((await api(svc, '/local/labelReports/r-other/access', { key: 'acme' })).status).toBe(404);
    expect((await api(svc, '/local/labelReports/nope/access', { key: 'acme' })).status).toBe(404);
    expect((await api(svc, '/local/labelReports/r1/access', { key: null })).status).toBe(401);
  });

  test('a view while another connection holds the write lock is answered at once; its entry follows when the lock is free', async () => {
    const before = stored();
    const holder = new Database(svc.dbFile);
    holder.exec('BEGIN IMMEDIATE');
    try {
      expect((await call('/v2/labelReports/r2', { token: tokens.vera })).status).toBe(200);
      expect(svc.service.access.waitingCount).toBe(1);
      expect((await call('/v2/labelReports/r1', { token: tokens.vera })).status).toBe(200);
      expect(svc.service.access.waitingCount).toBe(2);
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
    await svc.service.access.drained();
    expect(stored()).toBe(before + 2);
    const rows = [...svc.service.access.csv()].slice(-2);
    // In the order of the views, r2 first.
    expect(rows.map((line) => line.split(',')[2])).toEqual(['r2', 'r1']);
  });

  test('the access chain is sound', () => {
    expect(svc.service.access.verify().problem).toBeNull();
  });
});
