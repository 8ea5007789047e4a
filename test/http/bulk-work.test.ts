/**
 * Bulk work over HTTP on a real service (docs/review-and-audit.md#bulk-work): a selection of
 * reports flagged, archived, acknowledged and decided at once. Without people a key does it;
 * with people each signed action takes one password and writes one signed entry per report. A
 * selection is acted on whole or not at all: when any report is refused, nothing is written and
 * the refusal names each report at fault. Answers fit /openapi.json.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BULK_MAX_REPORTS } from '../../schema/bulk';
import { openApiFit, type FitCheck } from '../support/openapi-fit';
import { api, makeReport, series, startTestService, T0, type TestService } from '../support/service-fixture';

const PASSWORD = 'correct horse battery';
/** Seven readings above 8 °C, ten minutes apart: Critical by the default rules. */
const critical = (id: string) => makeReport(id, { labelReference: `SHP-${id}`, reportedSenseData: { datapoints: series(T0, 600, [9, 10, 11, 12, 11, 10, 9, 5]) } });
const calm = (id: string) => makeReport(id, { labelReference: `SHP-${id}`, reportedSenseData: { datapoints: series(T0, 600, [4, 5, 4, 5]) } });
const BULK = '/local/labelReports/bulk';

let svc: TestService;
let fitsDocument: FitCheck;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  svc = await startTestService([...['k1', 'k2', 'k3', 'p1', 'p2', 'p3'].map(critical), calm('calm')]);
  fitsDocument = await openApiFit(svc.url);
});
afterAll(() => svc.stop());

const asPerson = (login: string, body: unknown) => api(svc, BULK, { key: null, method: 'POST', body, headers: { 'x-api-key': tokens[login] } });
const reviewOf = async (id: string) => (await api(svc, `/local/labelReports/${id}/review`)).body;
const entriesOf = (id: string) => svc.service.reviews.review({ keyId: 't', companyId: 'acme', permissions: new Set(['labelReports:read']) }, id);

const fits = (res: { status: number; body: unknown }) => fitsDocument(BULK, 'post', res);

describe('bulk work without people', () => {
  test('a key flags and archives a selection, each change logged with the reason', async () => {
    const flagged = await api(svc, BULK, { method: 'POST', body: { action: 'flag', reportIds: ['k1', 'k2', 'calm'] } });
    expect(flagged.status).toBe(200);
    fits(flagged);
    expect(flagged.body.reports.map((r: { id: string }) => r.id)).toEqual(['k1', 'k2', 'calm']);
    for (const id of ['k1', 'k2', 'calm']) expect((await api(svc, `/v2/labelReports/${id}`)).body.hasFlag).toBe(true);
    expect((await api(svc, '/v2/labelReports/k3')).body.hasFlag).toBe(false);

    const archived = await api(svc, BULK, { method: 'POST', body: { action: 'archive', reportIds: ['calm'], reason: 'duplicate label' } });
    expect(archived.status).toBe(200);
    expect((await api(svc, '/v2/labelReports/calm')).body.isArchived).toBe(true);
    const change = svc.service.history('calm').at(-1)!;
    expect([change.changes.map((c) => c.field), change.reason]).toEqual([['isArchived'], 'duplicate label']);
    await api(svc, BULK, { method: 'POST', body: { action: 'unarchive', reportIds: ['calm'] } });
  });

  test('one report without an alert refuses the whole acknowledgement, naming it; nothing is written', async () => {
    const res = await api(svc, BULK, { method: 'POST', body: { action: 'acknowledge', reportIds: ['k1', 'calm', 'k2'] } });
    expect([res.status, res.body.code]).toEqual([409, 'NO_ALERT_TO_ACKNOWLEDGE']);
    expect(res.body.message).toBe('1 of 3 selected reports cannot be acted on, so none was: SHP-calm (calm): the report has no alert (level 0) to acknowledge');
    for (const id of ['k1', 'k2']) expect(entriesOf(id).acknowledgement).toBeNull();
  });

  test('a key acknowledges and decides a selection: one entry per report', async () => {
    const ack = await api(svc, BULK, { method: 'POST', body: { action: 'acknowledge', reportIds: ['k1', 'k2'], note: 'seen on the dock' } });
    expect(ack.status).toBe(200);
    fits(ack);
    const decided = await api(svc, BULK, { method: 'POST', body: { action: 'decide', reportIds: ['k1', 'k2'], decision: 'onHold', reason: 'awaiting the stability data' } });
    expect(decided.status).toBe(200);
    for (const id of ['k1', 'k2']) {
      const review = await reviewOf(id);
      expect([review.acknowledgement.note, review.decision.decision, review.decision.reason]).toEqual(['seen on the dock', 'onHold', 'awaiting the stability data']);
    }
    const ids = decided.body.reports.map((r: { entryId: string }) => r.entryId);
    expect(new Set(ids).size).toBe(2);
  });

  test('a selection that is not a selection is refused by name', async () => {
    const cases: [unknown, number, string][] = [
      [{ action: 'flag', reportIds: [] }, 400, 'select at least one report'],
      [{ action: 'flag', reportIds: ['k1', 'k1'] }, 400, 'named twice'],
      [{ action: 'flag', reportIds: Array.from({ length: BULK_MAX_REPORTS + 1 }, (_, i) => `r${i}`) }, 400, `at most ${BULK_MAX_REPORTS}`],
      [{ action: 'shred', reportIds: ['k1'] }, 400, 'action'],
      [{ action: 'flag', reportIds: ['k1', 'nope'] }, 404, 'nope'],
    ];
    for (const [body, status, words] of cases) {
      const res = await api(svc, BULK, { method: 'POST', body });
      expect([res.status, res.body.message], JSON.stringify(body).slice(0, 80)).toEqual([status, expect.stringContaining(words)]);
    }
    expect((await api(svc, BULK, { key: 'acmeRead', method: 'POST', body: { action: 'flag', reportIds: ['k3'] } })).status).toBe(403);
    expect((await api(svc, '/v2/labelReports/k3')).body.hasFlag).toBe(false);
  });
});

describe('bulk work with people', () => {
  test('people are made: an administrator, a reviewer and an approver; four eyes on', async () => {
    svc.service.users.saveSettings(null, 'acme', { changeAtFirstSignIn: false, fourEyes: true });
    for (const [login, name, role] of [['anna', 'Anna Berg', 'admin'], ['rita', 'Rita Lund', 'reviewer'], ['paul', 'Paul Ek', 'approver']] as const) {
      svc.service.users.create(null, 'acme', { login, name, role, password: PASSWORD });
      const signedIn = await api(svc, '/local/session/sign-in', { key: null, method: 'POST', body: { login, password: PASSWORD } });
      tokens[login] = signedIn.body.token;
    }
  });

  test('a tool’s key no longer acknowledges', async () => {
    const res = await api(svc, BULK, { method: 'POST', body: { action: 'acknowledge', reportIds: ['p1'] } });
    expect([res.status, res.body.code]).toEqual([403, 'SIGNATURE_NEEDS_PERSON']);
  });

  test('a wrong password signs nothing; the right one signs each report once', async () => {
    const wrong = await asPerson('rita', { action: 'acknowledge', reportIds: ['p1', 'p2', 'p3'], password: 'not it' });
    expect(wrong.status).toBe(403);
    for (const id of ['p1', 'p2', 'p3']) expect(entriesOf(id).acknowledgement).toBeNull();

    const res = await asPerson('rita', { action: 'acknowledge', reportIds: ['p1', 'p2', 'p3'], password: PASSWORD, zone: 'Europe/Berlin' });
    expect(res.status).toBe(200);
    fits(res);
    for (const id of ['p1', 'p2', 'p3']) {
      const ack = (await reviewOf(id)).acknowledgement;
      expect([ack.by.person.login, ack.meaning, ack.zone]).toEqual(['rita', 'Reviewed', 'Europe/Berlin']);
    }
  });

  test('the role and four eyes hold for each report of the selection', async () => {
    const reviewer = await asPerson('rita', { action: 'decide', reportIds: ['p1', 'p2'], decision: 'released', reason: 'in spec', password: PASSWORD });
    expect(reviewer.status).toBe(403);
    // Anna acknowledges p3 again: under four eyes she may not release it, while p1 and p2 she may.
    expect((await asPerson('anna', { action: 'acknowledge', reportIds: ['p3'], password: PASSWORD })).status).toBe(200);
    const mixed = await asPerson('anna', { action: 'decide', reportIds: ['p1', 'p2', 'p3'], decision: 'released', reason: 'in spec', password: PASSWORD });
    expect([mixed.status, mixed.body.code]).toEqual([409, 'FOUR_EYES']);
    expect(mixed.body.message).toMatch(/^1 of 3 selected reports cannot be acted on, so none was: SHP-p3 \(p3\): /);
    for (const id of ['p1', 'p2', 'p3']) expect(entriesOf(id).decision).toBeNull();

    const released = await asPerson('paul', { action: 'decide', reportIds: ['p1', 'p2', 'p3'], decision: 'released', reason: 'in spec', password: PASSWORD });
    expect(released.status).toBe(200);
    for (const id of ['p1', 'p2', 'p3']) {
      const decision = (await reviewOf(id)).decision;
      expect([decision.decision, decision.by.person.login, decision.meaning]).toEqual(['released', 'paul', 'Approved for release']);
    }
  });
});
