/**
 * Shipments over a real server on 127.0.0.1: the grouping (case, spaces, a reference used again
 * after the gap, another company's reports), the list's filters and exact counts, the facts and
 * their log, the release of a whole shipment through the review path with its refusals, and its
 * withdrawal when a label's alert changes later; people sign once, four eyes hold per label.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { shipmentDecisionSchema, shipmentListSchema, shipmentSchema } from '../../schema/shipment';
import { reviewSchema } from '../../schema/review';
import { api, makeReport, series, startTestService, T0, type TestService } from '../support/service-fixture';

const day = (d: string) => `${d}T08:00:00.000Z`;
// Two warm labels and a quiet one, one reference written three ways; the same reference again
// 200 days later; a second reference; another company's report of the same reference.
const REPORTS = [
  makeReport('a1', { labelReference: 'SHP-1', created: day('2026-06-01') }),
  makeReport('a2', { labelReference: 'shp-1 ', created: day('2026-06-02'), reportedSenseData: { datapoints: series(T0 + 1200, 600, [5, 9, 9, 5]) } }),
  makeReport('a3', { labelReference: 'SHP -1', created: day('2026-06-03'), reportedSenseData: { datapoints: series(T0, 600, [4, 5, 6]) } }),
  makeReport('later', { labelReference: 'SHP-1', created: day('2026-12-20'), reportedSenseData: { datapoints: series(T0, 600, [4, 5]) } }),
  makeReport('b1', { labelReference: 'SHP-2', created: day('2026-06-05'), reportedSenseData: { datapoints: series(T0, 600, [4, 5]) } }),
  makeReport('none', { labelReference: '', created: day('2026-06-05') }),
  makeReport('o1', { labelReference: 'SHP-1', companyId: 'other', created: day('2026-06-01') }),
];
const SHP1 = encodeURIComponent('SHP-1@2026-06-01');
const PASSWORD = 'correct horse battery';

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService(REPORTS);
});
afterAll(() => svc.stop());

const list = async (query = '') => shipmentListSchema.parse((await api(svc, `/local/shipments${query}`)).body);
const one = async (key: 'acme' | 'other' = 'acme') => shipmentSchema.parse((await api(svc, `/local/shipments/${SHP1}`, { key })).body);
const decide = (body: unknown, key: 'acme' | 'acmeRead' = 'acme') => api(svc, `/local/shipments/${SHP1}/decision`, { method: 'PUT', body, key });

describe('what a shipment is', () => {
  test('one reference without case or spaces, cut where it was used again after the gap; other companies and empty references apart', async () => {
    const all = await list('?order=created[asc]');
    expect(all.data.map((s) => [s.id, s.labels])).toEqual([
      ['SHP-1@2026-06-01', 3],
      ['SHP-2@2026-06-05', 1],
      ['SHP-1@2026-12-20', 1],
    ]);
    expect(all.totalDocuments).toBe(3);
    expect(all.data[0].reference).toBe('SHP-1');
    expect((await list('?order=created[asc]')).data[0].worstAlert).toBe(1);
    const theirs = shipmentListSchema.parse((await api(svc, '/local/shipments', { key: 'other' })).body);
    expect(theirs.data.map((s) => [s.id, s.labels])).toEqual([['SHP-1@2026-06-01', 1]]);
  });

  test('a label whose reference is changed moves to its new shipment at once', async () => {
    const moved = await api(svc, '/v2/labelReports/b1', { method: 'PATCH', body: { labelReference: ' shp-1' } });
    expect(moved.status).toBe(200);
    // b1 was made on 2026-06-05, within the gap of SHP-1's first three.
    expect((await list()).data.map((s) => [s.id, s.labels]).sort()).toEqual([
      ['SHP-1@2026-06-01', 4],
      ['SHP-1@2026-12-20', 1],
    ]);
    await api(svc, '/v2/labelReports/b1', { method: 'PATCH', body: { labelReference: 'SHP-2' } });
    expect((await list()).totalDocuments).toBe(3);
  });

  test('filters and orders count exactly; refusals name the parameter', async () => {
    expect((await list('?alert=1')).data.map((s) => s.id)).toEqual(['SHP-1@2026-06-01']);
    expect((await list('?alert=0')).totalDocuments).toBe(2);
    expect((await list('?labelsMin=2')).totalDocuments).toBe(1);
    expect((await list('?state=awaitingAcknowledgement')).totalDocuments).toBe(1);
    expect((await list('?order=labels[desc]&pageSize=1')).data.map((s) => s.id)).toEqual(['SHP-1@2026-06-01']);
    expect((await list('?order=labels[desc]&pageSize=1&pageNumber=2')).totalDocuments).toBe(3);
    const bad = await api(svc, '/local/shipments?state=shipped');
    expect([bad.status, bad.body.code]).toEqual([400, 'INVALID_PARAMETER']);
    expect(bad.body.message).toContain("state 'shipped'");
    const unknown = await api(svc, '/local/shipments?colour=red');
    expect(unknown.status).toBe(400);
    expect((await api(svc, '/local/shipments/NOPE@2026-01-01')).status).toBe(404);
    expect((await api(svc, `/local/shipments/${SHP1}`, { key: 'other' })).body.labels).toBe(1);
  });
});

describe('facts', () => {
  test('kept with the reason they were changed for; mode and product filter the list; a read-only key cannot change them', async () => {
    const facts = {
      origin: 'Basel',
      destination: 'Oslo',
      product: 'Vaccine X',
      legs: [
        { mode: 'road', from: 'Basel', to: 'ZRH' },
        { mode: 'air', from: 'ZRH', to: 'OSL' },
      ],
      budget: [{ quantity: 'temperature', direction: 'above', threshold: 8, minutes: 120 }],
      reason: 'Booking 4711',
    };
    const put = await api(svc, `/local/shipments/${SHP1}/facts`, { method: 'PUT', body: facts });
    expect(put.status).toBe(200);
    expect(put.body.product).toBe('Vaccine X');
    const refused = await api(svc, `/local/shipments/${SHP1}/facts`, { method: 'PUT', body: { product: 'Other' }, key: 'acmeRead' });
    expect([refused.status, refused.body.code]).toEqual([403, 'PERMISSION_DENIED']);
    const shipment = await one();
    expect(shipment.factChanges).toHaveLength(1);
    expect(shipment.factChanges[0].reason).toBe('Booking 4711');
    expect(shipment.factChanges[0].changes.map((c) => c.field)).toEqual(['origin', 'destination', 'product', 'legs', 'budget']);
    expect(shipment.legs.map((l) => l.mode)).toEqual(['road', 'air']);
    expect((await list('?mode=air')).data.map((s) => s.id)).toEqual(['SHP-1@2026-06-01']);
    expect((await list('?product=vaccine%20x')).totalDocuments).toBe(1);
    expect((await list('?mode=sea')).totalDocuments).toBe(0);
  });

  test('the budget in words: the labels beyond 8 °C at once count once', async () => {
    const shipment = await one();
    // a1 reads 9, 10 at T0+1200, T0+1800; a2 reads 9, 9 at T0+1800, T0+2400: 30 minutes at least one above 8.
    expect(shipment.budget[0].usedSeconds).toBe(1800);
    expect(shipment.budget[0].words).toBe('30 of 120 minutes above 8 °C used');
    const a1 = shipment.labelsOf.find((l) => l.reportId === 'a1')!;
    expect(a1.timeAbove.temperature).toBe(1200);
    expect(a1.excursions.length).toBeGreaterThan(0);
  });
});

describe('releasing a shipment', () => {
  test('refused while a label’s alert awaits acknowledgement, naming the labels; nothing is written', async () => {
    const refused = await decide({ decision: 'released', reason: 'Within budget' });
    expect([refused.status, refused.body.code]).toEqual([409, 'ACKNOWLEDGEMENT_REQUIRED']);
    expect(refused.body.message).toContain('Label a1');
    expect(refused.body.message).toContain('Label a2');
    expect((await one()).decisions).toEqual([]);
    const readOnly = await decide({ decision: 'released', reason: 'x' }, 'acmeRead');
    expect(readOnly.status).toBe(403);
    const badBody = await decide({ decision: 'shipped', reason: 'x' });
    expect(badBody.status).toBe(400);
  });

  test('one decision writes an entry naming it on each label’s review; the shipment is released', async () => {
    for (const id of ['a1', 'a2']) expect((await api(svc, `/local/labelReports/${id}/acknowledgement`, { method: 'PUT', body: {} })).status).toBe(200);
    const released = await decide({ decision: 'released', reason: 'Within budget' });
    expect(released.status).toBe(200);
    const decision = shipmentDecisionSchema.parse(released.body);
    expect(decision.reports.map((r) => r.reportId)).toEqual(['a1', 'a2', 'a3']);
    for (const id of ['a1', 'a2', 'a3']) {
      const review = reviewSchema.parse((await api(svc, `/local/labelReports/${id}/review`)).body);
      expect(review.decision?.decision).toBe('released');
      expect(review.decision?.reason).toBe(`Within budget (shipment SHP-1, shipment decision ${decision.id})`);
    }
    const shipment = await one();
    expect(shipment.state).toBe('released');
    expect(shipment.decision?.id).toBe(decision.id);
    expect((await list('?state=released')).data.map((s) => s.id)).toEqual(['SHP-1@2026-06-01']);
  });

  test('a label’s alert that changes later withdraws the whole decision; every label awaits review again', async () => {
    const patched = await api(svc, '/v2/labelReports/a3', {
      method: 'PATCH',
      body: { limits: { minTemperature: 2, maxTemperature: 4.5 } },
      headers: { 'x-change-reason': 'Product%20limit%20corrected' },
    });
    expect(patched.status).toBe(200);
    const shipment = await one();
    expect(shipment.decision).toBeNull();
    expect(shipment.decisions[0].withdrawal?.reportId).toBe('a3');
    expect(shipment.decisions[0].withdrawal?.text).toContain('the alert of Label a3 changed from None to');
    for (const id of ['a1', 'a2', 'a3']) {
      const review = reviewSchema.parse((await api(svc, `/local/labelReports/${id}/review`)).body);
      expect(review.decision, id).toBeNull();
      expect(review.withdrawal?.text, id).toMatch(/^decision withdrawn/);
    }
    expect(shipment.state).toBe('awaitingAcknowledgement');
  });
});

describe('people sign a shipment decision once; four eyes hold for each Critical label', () => {
  let people: TestService;
  const ID = encodeURIComponent('CRIT-9@2026-06-01');
  beforeAll(async () => {
    people = await startTestService([
      makeReport('c1', { labelReference: 'CRIT-9', created: day('2026-06-01'), reportedSenseData: { datapoints: series(T0, 600, [4, ...Array(12).fill(12), 4]) } }),
      makeReport('c2', { labelReference: 'CRIT-9', created: day('2026-06-01'), reportedSenseData: { datapoints: series(T0, 600, [4, 5, 6]) } }),
    ]);
    // They sign in with the passwords they were given: no change is asked at the first sign-in.
    people.service.users.saveSettings(null, 'acme', { changeAtFirstSignIn: false });
    for (const [login, role] of [['anna', 'approver'], ['ben', 'approver']] as const) {
      people.service.users.create(null, 'acme', { login, name: login.toUpperCase(), role, password: PASSWORD });
    }
    people.service.users.saveSettings(null, 'acme', { fourEyes: true });
  });
  afterAll(() => people.stop());
  const as = async (login: string) => people.service.users.signIn(login, PASSWORD).token;
  const call = async (token: string, path: string, method = 'GET', body?: unknown) => {
    const res = await fetch(people.url + path, { method, headers: { 'x-api-key': token, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: res.status, body: await res.json() };
  };

  test('a tool’s key cannot; the acknowledger cannot release a Critical label; another approver signs once for all', async () => {
    const anna = await as('anna');
    const ben = await as('ben');
    const byKey = await api(people, `/local/shipments/${ID}/decision`, { method: 'PUT', body: { decision: 'released', reason: 'ok' } });
    expect([byKey.status, byKey.body.code]).toEqual([403, 'SIGNATURE_NEEDS_PERSON']);
    expect((await call(anna, '/local/labelReports/c1/acknowledgement', 'PUT', { password: PASSWORD })).status).toBe(200);
    const own = await call(anna, `/local/shipments/${ID}/decision`, 'PUT', { decision: 'released', reason: 'ok', password: PASSWORD });
    expect([own.status, own.body.code]).toEqual([409, 'FOUR_EYES']);
    const wrong = await call(ben, `/local/shipments/${ID}/decision`, 'PUT', { decision: 'released', reason: 'ok', password: 'not it at all' });
    expect([wrong.status, wrong.body.code]).toEqual([403, 'SIGNATURE_PASSWORD_WRONG']);
    const signed = await call(ben, `/local/shipments/${ID}/decision`, 'PUT', { decision: 'released', reason: 'QA release', password: PASSWORD, zone: 'Europe/Oslo' });
    expect(signed.status).toBe(200);
    expect(signed.body.meaning).toBe('Approved for release');
    expect(signed.body.zone).toBe('Europe/Oslo');
    expect(signed.body.by.person.login).toBe('ben');
    for (const id of ['c1', 'c2']) {
      const review = (await call(ben, `/local/labelReports/${id}/review`)).body;
      expect(review.decision.meaning).toBe('Approved for release');
      expect(review.decision.by.person.login).toBe('ben');
    }
  });
});
