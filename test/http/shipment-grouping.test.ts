/**
 * Shipments grouped by a custom field over a real server on 127.0.0.1: the company's setting
 * (read, set, refused), the list made again by the field's value (case and spaces aside, a
 * value used again after the gap, a report without the field or with a value that is no text
 * or whole number apart), writes that move a report between shipments, a report's own
 * shipment, another company's grouping untouched, and the switch back to label references,
 * each with its exact count.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { shipmentGroupingSchema, shipmentListSchema, shipmentOfReportSchema } from '../../schema/shipment';
import { api, makeReport, startTestService, type TestService } from '../support/service-fixture';

const day = (d: string) => `${d}T08:00:00.000Z`;
const field = (value: unknown) => [{ customFieldId: 'shipment', value }] as never;
const REPORTS = [
  makeReport('r1', { labelReference: 'PO-1', created: day('2026-06-01'), customFields: field('Truck A') }),
  makeReport('r2', { labelReference: 'PO-2', created: day('2026-06-02'), customFields: field(' truck a') }),
  makeReport('r3', { labelReference: 'PO-1', created: day('2026-06-03'), customFields: field('Truck B') }),
  makeReport('r4', { labelReference: 'PO-3', created: day('2026-06-04') }),
  makeReport('r5', { labelReference: 'PO-3', created: day('2026-06-05'), customFields: field(42) }),
  makeReport('r6', { labelReference: 'PO-4', created: day('2026-06-06'), customFields: field(['Truck A', 'Truck B']) }),
  makeReport('r7', { labelReference: 'PO-5', created: day('2026-12-20'), customFields: field('TRUCK A') }),
  makeReport('o1', { labelReference: 'PO-1', companyId: 'other', created: day('2026-06-01'), customFields: field('Truck A') }),
];

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService(REPORTS);
});
afterAll(() => svc.stop());

const list = async (query = '?order=created[asc]', key: 'acme' | 'other' = 'acme') => {
  const page = shipmentListSchema.parse((await api(svc, `/local/shipments${query}`, { key })).body);
  return { ids: page.data.map((s) => `${s.id} ${s.labels}`), total: page.totalDocuments, references: page.data.map((s) => s.reference) };
};
const group = (body: unknown, key: 'acme' | 'acmeRead' = 'acme') => api(svc, '/local/shipments/grouping', { method: 'PUT', body, key });
const shipmentOf = async (id: string) => shipmentOfReportSchema.parse((await api(svc, `/local/labelReports/${id}/shipment`)).body).shipment?.id ?? null;

const BY_REFERENCE = ['PO-1@2026-06-01 2', 'PO-2@2026-06-02 1', 'PO-3@2026-06-04 2', 'PO-4@2026-06-06 1', 'PO-5@2026-12-20 1'];

test('by label reference until the company chooses a field; refusals name the problem', async () => {
  expect(shipmentGroupingSchema.parse((await api(svc, '/local/shipments/grouping')).body)).toEqual({ field: null });
  expect(await list()).toMatchObject({ ids: BY_REFERENCE, total: 5 });
  const reader = await group({ field: 'shipment' }, 'acmeRead');
  expect(reader.status).toBe(403);
  const bad = await group({ field: 'ship ment' });
  expect([bad.status, bad.body.code]).toEqual([400, 'INVALID_BODY']);
  expect(bad.body.message).toContain('customFieldId');
  expect((await group({})).status).toBe(400);
  expect((await group({ field: 'shipment', extra: 1 })).status).toBe(400);
  expect(await list()).toMatchObject({ ids: BY_REFERENCE, total: 5 });
});

test('grouped by the field: its value without case or spaces, cut after the gap, with exact counts; other companies keep theirs', async () => {
  const set = await group({ field: 'shipment' });
  expect([set.status, set.body]).toEqual([200, { field: 'shipment' }]);
  expect(shipmentGroupingSchema.parse((await api(svc, '/local/shipments/grouping')).body)).toEqual({ field: 'shipment' });
  const grouped = await list();
  expect(grouped).toEqual({
    ids: ['TRUCKA@2026-06-01 2', 'TRUCKB@2026-06-03 1', '42@2026-06-05 1', 'TRUCKA@2026-12-20 1'],
    total: 4,
    references: ['Truck A', 'Truck B', '42', 'TRUCK A'],
  });
  expect((await list('?labelsMin=2')).total).toBe(1);
  expect((await list('?state=awaitingReview')).total + (await list('?state=awaitingAcknowledgement')).total).toBe(4);
  expect((await list('?order=labels[desc]&pageSize=1')).ids).toEqual(['TRUCKA@2026-06-01 2']);
  const detail = await api(svc, `/local/shipments/${encodeURIComponent('TRUCKA@2026-06-01')}`);
  expect(detail.status).toBe(200);
  expect(detail.body.labelsOf.map((l: { reportId: string }) => l.reportId)).toEqual(['r1', 'r2']);
  expect(await list('', 'other')).toMatchObject({ ids: ['PO-1@2026-06-01 1'], total: 1 });
  expect(await shipmentOf('r2')).toBe('TRUCKA@2026-06-01');
  expect(await shipmentOf('r4')).toBeNull();
  expect(await shipmentOf('r6')).toBeNull();
  expect((await api(svc, '/local/labelReports/o1/shipment')).status).toBe(404);
});

test('a write of the field moves its report at once; its label reference no longer does', async () => {
  expect((await api(svc, '/v2/labelReports/r4', { method: 'PATCH', body: { customFields: [{ customFieldId: 'shipment', value: 'truck b' }] } })).status).toBe(200);
  expect((await api(svc, '/v2/labelReports/r1', { method: 'PATCH', body: { labelReference: 'PO-9' } })).status).toBe(200);
  expect(await list()).toMatchObject({ ids: ['TRUCKA@2026-06-01 2', 'TRUCKB@2026-06-03 2', '42@2026-06-05 1', 'TRUCKA@2026-12-20 1'], total: 4 });
  expect(await shipmentOf('r4')).toBe('TRUCKB@2026-06-03');
  expect((await api(svc, '/v2/labelReports/r2', { method: 'PATCH', body: { customFields: [{ customFieldId: 'shipment', value: null }] } })).status).toBe(200);
  expect(await list()).toMatchObject({ ids: ['TRUCKA@2026-06-01 1', 'TRUCKB@2026-06-03 2', '42@2026-06-05 1', 'TRUCKA@2026-12-20 1'], total: 4 });
  expect(await shipmentOf('r2')).toBeNull();
});

test('switched back to label references, the shipments are the references again, the writes made meanwhile included', async () => {
  expect((await group({ field: null })).body).toEqual({ field: null });
  expect(await list()).toMatchObject({
    ids: ['PO-2@2026-06-02 1', 'PO-1@2026-06-03 1', 'PO-3@2026-06-04 2', 'PO-4@2026-06-06 1', 'PO-9@2026-06-01 1', 'PO-5@2026-12-20 1'].sort(byCreation),
    total: 6,
  });
  expect(await shipmentOf('r1')).toBe('PO-9@2026-06-01');
  expect((await list('?alert=-1,0,1,2')).total).toBe(6);
});

/** The list's order, first creation ascending, from the ids of these reports (a day apart, none the same day). */
function byCreation(a: string, b: string): number {
  return a.split('@')[1] < b.split('@')[1] ? -1 : 1;
}
