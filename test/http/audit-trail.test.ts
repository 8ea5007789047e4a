/**
 * The audit trail over a real server: the PATCH's reason in the x-change-reason header (the
 * body keeps its shape), refused without one for the desktop's session key, the preview of what
 * a change does to the alert, the decision withdrawn, and the history's CSV download.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { reportHistorySchema, reviewSchema } from '../../schema/review';
import { openApiFit } from '../support/openapi-fit';
import { api, makeReport, startTestService, type TestService } from '../support/service-fixture';

let svc: TestService;
let session: string;

beforeAll(async () => {
  svc = await startTestService([makeReport('r-a', { access: [{ companyId: 'nordic', role: 'editor' }] })]);
  session = svc.service.apiKeys.createSessionKey('acme', ['labelReports:read', 'labelReports:update']);
});
afterAll(() => svc.stop());

const RAISED = { limits: { minTemperature: 0, maxTemperature: 15 } };

async function raw(path: string, init: { method?: string; key: string; body?: unknown; headers?: Record<string, string> }) {
  const res = await fetch(svc.url + path, {
    method: init.method ?? 'GET',
    headers: { 'x-api-key': init.key, 'content-type': 'application/json', ...init.headers },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return { status: res.status, text: await res.text(), headers: res.headers };
}

test('the preview tells what a change would do to the alert, and changes nothing', async () => {
  const res = await api(svc, '/local/labelReports/r-a/preview', { method: 'POST', body: RAISED });
  expect(res.status).toBe(200);
  expect(res.body).toEqual({ alertBefore: { level: 1, timestamp: expect.any(Number) }, alertAfter: { level: 0, timestamp: 0 } });
  expect((await api(svc, '/v2/labelReports/r-a')).body.alert.level).toBe(1);
  // The PATCH's checks: an editor may not change limits, an unknown report is 404, a bad body 400, no key 401.
  expect((await api(svc, '/local/labelReports/r-a/preview', { method: 'POST', body: RAISED, key: 'nordic' })).status).toBe(403);
  expect((await api(svc, '/local/labelReports/nope/preview', { method: 'POST', body: RAISED })).status).toBe(404);
  expect((await api(svc, '/local/labelReports/r-a/preview', { method: 'POST', body: { limits: 'warm' } })).status).toBe(400);
  expect((await api(svc, '/local/labelReports/r-a/preview', { method: 'POST', body: RAISED, key: null })).status).toBe(401);
  expect((await api(svc, '/local/labelReports/r-a/preview', { method: 'POST', body: RAISED, key: 'acmeRead' })).status).toBe(403);
});

test('the desktop must give a reason; with one, the decision is withdrawn and the history shows both', async () => {
  expect((await api(svc, '/local/labelReports/r-a/decision', { method: 'PUT', body: { decision: 'rejected', reason: 'too warm' } })).status).toBe(200);
  const refused = await raw('/v2/labelReports/r-a', { method: 'PATCH', key: session, body: RAISED });
  expect(refused.status).toBe(400);
  expect(JSON.parse(refused.text)).toMatchObject({ code: 'REASON_REQUIRED' });

  const reason = 'Stabilitätsdaten erlauben 15 °C';
  const saved = await raw('/v2/labelReports/r-a', { method: 'PATCH', key: session, body: RAISED, headers: { 'x-change-reason': encodeURIComponent(reason) } });
  expect(saved.status).toBe(200);
  expect(JSON.parse(saved.text).alert.level).toBe(0);

  const review = reviewSchema.parse((await api(svc, '/local/labelReports/r-a/review')).body);
  expect(review.decision).toBeNull();
  expect(review.withdrawal?.text).toBe(`decision withdrawn: alert changed from Moderate to None by LabelDesk desktop app, reason ${reason}`);
  const entries = reportHistorySchema.parse((await api(svc, '/local/labelReports/r-a/history')).body).entries;
  expect(entries.find((e) => e.type === 'change' && e.kind === 'update')).toMatchObject({ reason });
  expect(entries.find((e) => e.type === 'withdrawal')).toMatchObject({ previous: 'rejected', alert: { level: 0 } });

  // A tool's key that gives none is logged as such.
  expect((await api(svc, '/v2/labelReports/r-a', { method: 'PATCH', body: { status: 'completed' } })).status).toBe(200);
  const after = reportHistorySchema.parse((await api(svc, '/local/labelReports/r-a/history')).body).entries;
  expect(after[0]).toMatchObject({ type: 'change', reason: 'no reason given (tool)' });
});

test('the history downloads as CSV, the company’s own entries with their hashes', async () => {
  const res = await raw('/local/labelReports/r-a/history.csv', { key: svc.keys.acme });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
  expect(res.headers.get('content-disposition')).toBe('attachment; filename="label-report-r-a-history.csv"');
  expect(res.text.replace(/^\uFEFF/, '').startsWith('table,reportId,entry,at,kind,')).toBe(true);
  expect(res.text).toContain('Stabilitätsdaten erlauben 15 °C');
  expect(res.text).toMatch(/report_reviews,r-a,\d+,[^,]+,withdrawal,acme,/);
  expect((await raw('/local/labelReports/nope/history.csv', { key: svc.keys.acme })).status).toBe(404);
  expect((await raw('/local/labelReports/r-a/history.csv', { key: svc.keys.other })).status).toBe(404);
  const nordic = await raw('/local/labelReports/r-a/history.csv', { key: svc.keys.nordic });
  expect(nordic.text).not.toContain('too warm');
});

test('the trail across reports answers pages that fit the document, its CSV, and refuses a bad parameter by name', async () => {
  const fits = await openApiFit(svc.url);
  await api(svc, '/local/labelReports/r-a/comments', { method: 'POST', body: { text: 'checked the pallet' } });
  const page = await api(svc, '/local/audit?kind=comment,change&pageSize=1');
  expect(page.status).toBe(200);
  fits('/local/audit', 'get', page);
  expect(page.body.entries).toHaveLength(1);
  expect(page.body.entries[0]).toMatchObject({ table: 'review', kind: 'comment', text: 'checked the pallet', reportId: 'r-a' });
  const next = await api(svc, `/local/audit?kind=comment,change&pageSize=1&cursor=${page.body.next}`);
  expect(next.body.entries[0].kind).toBe('change');

  const csv = await raw('/local/audit.csv?kind=comment', { key: svc.keys.acme });
  expect([csv.status, csv.headers.get('content-type')]).toEqual([200, 'text/csv; charset=utf-8; header=present']);
  expect(csv.text).toContain('checked the pallet');

  const bad = await api(svc, '/local/audit?kind=gossip');
  expect([bad.status, bad.body.code, bad.body.message]).toEqual([400, 'INVALID_PARAMETER', "kind 'gossip' is not one of change, comment, acknowledgement, decision, withdrawal"]);
  expect((await api(svc, '/local/audit?color=red')).status).toBe(400);
  expect((await api(svc, '/local/audit', { key: null })).status).toBe(401);
});
