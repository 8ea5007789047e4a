/**
 * A report's history over a real server: each kind of change with its old and new values and
 * who made it (key id and name, or the import), the review entries in the same timeline, newest
 * first, and only what the caller's company may see.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { reportHistorySchema, type HistoryEntry } from '../../schema/review';
import { api, makeReport, startTestService, T0, type KeyName, type TestService } from '../support/service-fixture';

let svc: TestService;
let tapKey: string;
let keyIds: Record<string, string>;

beforeAll(async () => {
  svc = await startTestService([
    makeReport('r-h', {
      access: [
        { companyId: 'nordic', role: 'editor' },
        { companyId: 'fresh', role: 'viewer' },
      ],
      customFields: [{ customFieldId: 'po', value: 'PO-1' }],
    }),
  ]);
  tapKey = svc.service.apiKeys.create('acme', ['labelReports:create', 'labelReports:read'], 'Dock reader 3').key;
  keyIds = Object.fromEntries(svc.service.apiKeys.list().map((k) => [k.name ?? '', k.id]));
});
afterAll(() => svc.stop());

const patch = (body: unknown, key: KeyName = 'acme') => api(svc, '/v2/labelReports/r-h', { method: 'PATCH', body, key });
async function history(key: KeyName = 'acme'): Promise<HistoryEntry[]> {
  const res = await api(svc, '/local/labelReports/r-h/history', { key });
  expect(res.status).toBe(200);
  return reportHistorySchema.parse(res.body).entries;
}
const changeOf = (entries: HistoryEntry[], field: string) =>
  entries.flatMap((e) => (e.type === 'change' ? e.changes.filter((c) => c.field === field).map((c) => ({ ...c, entry: e })) : []));

test('each kind of change appears with its old and new value and who made it', async () => {
  expect((await patch({ labelReference: 'SHP-2026-000042' })).status).toBe(200);
  expect((await patch({ status: 'completed' })).status).toBe(200);
  expect((await patch({ limits: { maxTemperature: 9.5 } })).status).toBe(200);
  expect((await patch({ trim: { startTime: T0, endTime: T0 + 3000 } })).status).toBe(200);
  expect((await patch({ customFields: [{ customFieldId: 'po', value: 'PO-2' }, { customFieldId: 'pallets', value: 12 }] })).status).toBe(200);
  expect((await patch({ customFields: [{ customFieldId: 'po', value: null }] })).status).toBe(200);
  expect((await patch({ hasFlag: true, isArchived: true })).status).toBe(200);
  expect((await patch({ labelReference: 'SHP-NORDIC' }, 'nordic')).status).toBe(200);
  expect((await patch({ hasFlag: true }, 'fresh')).status).toBe(200);

  const entries = await history();
  const acmeKey = { kind: 'apiKey', keyId: keyIds.acme, keyName: 'acme', companyId: 'acme', companyName: 'Acme Cold Chain' };
  const expectChange = (field: string, old: unknown, now: unknown, actor: object = acmeKey) =>
    expect(changeOf(entries, field)).toContainEqual({ field, old, new: now, entry: expect.objectContaining({ type: 'change', kind: 'update', actor }) });

  expectChange('labelReference', 'REF-r-h', 'SHP-2026-000042');
  expectChange('labelReference', 'SHP-2026-000042', 'SHP-NORDIC', {
    kind: 'apiKey', keyId: keyIds.nordic, keyName: 'nordic', companyId: 'nordic', companyName: 'Nordic Pharma Logistics',
  });
  expectChange('status', 'active', 'completed');
  expectChange('limits.maxTemperature', 8, 9.5);
  // The recalculation a limit causes is part of the same entry.
  expect(changeOf(entries, 'limits.maxTemperature')[0].entry.changes.map((c) => c.field)).toContain('alert.timestamp');
  expectChange('trim', null, { startTime: T0, endTime: T0 + 3000 });
  expectChange('customFields.po', 'PO-1', 'PO-2');
  expectChange('customFields.pallets', null, 12);
  expectChange('customFields.po', 'PO-2', null);
  expectChange('hasFlag', false, true);
  expectChange('isArchived', false, true);

  // The report's arrival, by the import.
  expect(entries.at(-1)).toMatchObject({
    type: 'change',
    kind: 'create',
    changes: [],
    actor: { kind: 'import', keyId: null, keyName: null, companyId: null, companyName: null },
  });
  // Newest first.
  const times = entries.map((e) => e.at);
  expect(times).toEqual([...times].sort().reverse());
});

test('a tap shows the readings and taps that came, under the reading key’s name', async () => {
  const res = await api(svc, '/v2/labelReports/r-h/taps', {
    method: 'POST',
    key: null,
    headers: { 'x-api-key': tapKey },
    body: { datapoints: [{ timestamp: T0 + 8 * 600, temperature: 4.2 }], currentTime: T0 + 8 * 600 + 30 },
  });
  expect(res.status).toBe(200);
  const [newest] = await history();
  expect(newest).toMatchObject({ type: 'change', kind: 'update', actor: { keyName: 'Dock reader 3', companyName: 'Acme Cold Chain' } });
  const fields = newest.type === 'change' ? Object.fromEntries(newest.changes.map((c) => [c.field, [c.old, c.new]])) : {};
  expect(fields.numberOfTaps).toEqual([1, 2]);
  expect(fields['reportedSenseData.datapoints']).toEqual([
    { count: 8, sha256: expect.stringMatching(/^[0-9a-f]{16}$/) },
    { count: 9, sha256: expect.stringMatching(/^[0-9a-f]{16}$/) },
  ]);
});

test('review entries join the timeline, typed, each decision with the one it replaced', async () => {
  const post = (url: string, method: string, body: unknown, key: KeyName = 'acme') => api(svc, `/local/labelReports/r-h/${url}`, { method, body, key });
  expect((await post('comments', 'POST', { text: 'Arrived at 06:10, pallet warm on top' })).status).toBe(201);
  expect((await post('acknowledgement', 'PUT', { note: 'Seen; checking with the carrier' })).status).toBe(200);
  expect((await post('decision', 'PUT', { decision: 'onHold', reason: 'Waiting for the carrier log' })).status).toBe(200);
  expect((await post('decision', 'PUT', { decision: 'released', reason: 'Stability data covers 9.5 °C for 2 h' })).status).toBe(200);
  expect((await post('comments', 'POST', { text: 'nordic note' }, 'nordic')).status).toBe(201);

  const entries = await history();
  const review = entries.filter((e) => e.type !== 'change');
  const by = { kind: 'apiKey', keyId: keyIds.acme, keyName: 'acme', companyId: 'acme', companyName: 'Acme Cold Chain' };
  expect(review).toEqual([
    { type: 'decision', id: expect.any(String), decision: 'released', previous: 'onHold', reason: 'Stability data covers 9.5 °C for 2 h', at: expect.any(String), actor: by },
    { type: 'decision', id: expect.any(String), decision: 'onHold', previous: null, reason: 'Waiting for the carrier log', at: expect.any(String), actor: by },
    { type: 'acknowledgement', id: expect.any(String), note: 'Seen; checking with the carrier', alert: { level: 1, timestamp: expect.any(Number) }, at: expect.any(String), actor: by },
    { type: 'comment', id: expect.any(String), text: 'Arrived at 06:10, pallet warm on top', at: expect.any(String), actor: by },
  ]);
  // The review entries are newer than every change.
  expect(entries.findIndex((e) => e.type === 'change')).toBe(4);
});

test('each company sees its own flag and archive changes and its own review, not the others’', async () => {
  const acme = await history('acme');
  const fresh = await history('fresh');
  // fresh flagged it; acme does not see that change at all, nor an entry left empty by hiding it.
  expect(acme.some((e) => e.type === 'change' && e.actor.companyId === 'fresh')).toBe(false);
  expect(changeOf(fresh, 'hasFlag')).toEqual([expect.objectContaining({ old: false, new: true, entry: expect.objectContaining({ actor: expect.objectContaining({ keyName: 'fresh' }) }) })]);
  expect(changeOf(fresh, 'isArchived')).toEqual([]);
  // Review entries are per company.
  expect(fresh.filter((e) => e.type !== 'change')).toEqual([]);
  expect((await history('nordic')).filter((e) => e.type !== 'change').map((e) => e.type === 'comment' && e.text)).toEqual(['nordic note']);
  // What is shared stays shared: acme sees nordic's reference change.
  expect(changeOf(fresh, 'labelReference').map((c) => c.new)).toEqual(['SHP-NORDIC', 'SHP-2026-000042']);
});

test('a report the company cannot see has no history for it', async () => {
  const other = svc.service.apiKeys.create('other', ['labelReports:read'], 'other reader').key;
  const res = await api(svc, '/local/labelReports/r-h/history', { key: null, headers: { 'x-api-key': other } });
  expect(res.status).toBe(404);
});
