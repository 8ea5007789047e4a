/**
 * Editable alert rules over a real server: PATCH /local/labelReports/:id takes `alertsConfig`
 * beside the interface's fields (the /v2 PATCH still refuses it), with the reason rule of
 * limits, the owner's role, a preview, the change log's old → new with its reason, the
 * default rules back with null, and a mirrored report's rules left to its remote.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { DataStore } from '../../db/data-store';
import { reportHistorySchema } from '../../schema/review';
import { api, makeReport, startTestService, type TestService } from '../support/service-fixture';

let svc: TestService;
let session: string;

beforeAll(async () => {
  svc = await startTestService([
    makeReport('r-rules', { access: [{ companyId: 'nordic', role: 'editor' }] }),
    makeReport('r-mirrored'),
  ]);
  session = svc.service.apiKeys.createSessionKey('acme', ['labelReports:read', 'labelReports:update']);
});
afterAll(() => svc.stop());

// The report is above its maximum for 20 minutes: Moderate under the default rules.
const CRITICAL_AT_ONCE = { alertsConfig: { rules: [{ level: 2, kind: 'singleEvent', seconds: 0 }] } };
const reason = (text: string) => ({ 'x-change-reason': encodeURIComponent(text) });

test('the interface’s PATCH keeps its fields: alertsConfig there is a bad body', async () => {
  const res = await api(svc, '/v2/labelReports/r-rules', { method: 'PATCH', body: CRITICAL_AT_ONCE });
  expect([res.status, res.body.code]).toEqual([400, 'INVALID_BODY']);
  expect(res.body.message).toMatch(/alertsConfig/);
});

test('the preview says what new rules do to the alert, and changes nothing', async () => {
  const res = await api(svc, '/local/labelReports/r-rules/preview', { method: 'POST', body: CRITICAL_AT_ONCE });
  expect(res.body).toEqual({ alertBefore: { level: 1, timestamp: expect.any(Number) }, alertAfter: { level: 2, timestamp: expect.any(Number) } });
  expect((await api(svc, '/v2/labelReports/r-rules')).body.alertsConfig).toBeNull();
});

test('rules are the owner’s, judged like limits; bad rules are refused in words', async () => {
  const editor = await api(svc, '/local/labelReports/r-rules', { method: 'PATCH', key: 'nordic', body: CRITICAL_AT_ONCE, headers: reason('x') });
  expect([editor.status, editor.body.code]).toEqual([403, 'ROLE_FORBIDDEN']);
  const none = await api(svc, '/local/labelReports/r-rules', { method: 'PATCH', body: { alertsConfig: { rules: [] } }, headers: reason('x') });
  expect([none.status, none.body.code]).toEqual([400, 'INVALID_BODY']);
  expect(none.body.message).toMatch(/at least one rule/);
  const level3 = await api(svc, '/local/labelReports/r-rules', { method: 'PATCH', body: { alertsConfig: { rules: [{ level: 3, kind: 'cumulative', seconds: 0 }] } } });
  expect([level3.status, level3.body.code]).toEqual([400, 'INVALID_BODY']);
  const unknown = await api(svc, '/local/labelReports/nope', { method: 'PATCH', body: CRITICAL_AT_ONCE });
  expect(unknown.status).toBe(404);
  expect((await api(svc, '/v2/labelReports/r-rules')).body.alert.level).toBe(1);
});

test('the desk gives a reason; the rules change the alert, and the change log keeps old → new with it', async () => {
  const refused = await fetch(`${svc.url}/local/labelReports/r-rules`, {
    method: 'PATCH',
    headers: { 'x-api-key': session, 'content-type': 'application/json' },
    body: JSON.stringify(CRITICAL_AT_ONCE),
  });
  expect(refused.status).toBe(400);
  expect((await refused.json()).code).toBe('REASON_REQUIRED');

  const why = 'Customer SOP 12: any excursion of a vaccine is critical';
  const saved = await fetch(`${svc.url}/local/labelReports/r-rules`, {
    method: 'PATCH',
    headers: { 'x-api-key': session, 'content-type': 'application/json', ...reason(why) },
    body: JSON.stringify(CRITICAL_AT_ONCE),
  });
  expect(saved.status).toBe(200);
  const report = await saved.json();
  expect(report.alertsConfig).toEqual(CRITICAL_AT_ONCE.alertsConfig);
  expect(report.alert.level).toBe(2);

  const entries = reportHistorySchema.parse((await api(svc, '/local/labelReports/r-rules/history')).body).entries;
  const change = entries.find((e) => e.type === 'change' && e.kind === 'update');
  expect(change).toMatchObject({ reason: why });
  expect(JSON.stringify(change)).toContain('alertsConfig');

  // null puts the default rules back: Moderate again.
  const back = await api(svc, '/local/labelReports/r-rules', { method: 'PATCH', body: { alertsConfig: null }, headers: reason('back to the defaults') });
  expect(back.status).toBe(200);
  expect([back.body.alertsConfig, back.body.alert.level]).toEqual([null, 1]);
});

test('a mirrored report keeps its remote’s rules: 409, nothing changed', async () => {
  // As a pull marks what it mirrors, on a second connection to the service's file.
  const data = DataStore.open(svc.dbFile);
  try {
    data.write(() => data.sync.setMirrored('r-mirrored', null));
  } finally {
    data.close();
  }
  const res = await api(svc, '/local/labelReports/r-mirrored', { method: 'PATCH', body: CRITICAL_AT_ONCE, headers: reason('x') });
  expect([res.status, res.body.code]).toEqual([409, 'ALERT_RULES_MIRRORED']);
  expect((await api(svc, '/v2/labelReports/r-mirrored')).body.alert.level).toBe(1);
  // Its other fields stay editable through the same route.
  expect((await api(svc, '/local/labelReports/r-mirrored', { method: 'PATCH', body: { hasFlag: true } })).status).toBe(200);
});
