/** A report id has at most 200 characters, and one that long reaches every route, whatever its characters. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_REPORT_ID_LENGTH } from '../../schema/bundle';
import { api, makeActivation, startTestService, type TestService } from '../support/service-fixture';

let svc: TestService;
let intake: string;
beforeAll(async () => {
  svc = await startTestService([]);
  intake = svc.service.apiKeys.create('acme', ['labelReports:read', 'labelReports:update', 'labelReports:create'], 'intake').key;
});

afterAll(() => svc.stop());

describe('report ids', () => {
  it('the longest id, in characters that take four bytes each, activates, retrieves, changes and takes a tap', async () => {
    const id = '😀'.repeat(MAX_REPORT_ID_LENGTH / 2);
    expect(id.length).toBe(MAX_REPORT_ID_LENGTH);
    const created = await api(svc, '/v2/labelReports', { method: 'POST', body: makeActivation(id), key: null, headers: { 'x-api-key': intake } });
    expect(created.status).toBe(201);
    const path = `/v2/labelReports/${encodeURIComponent(id)}`;
    expect((await api(svc, path, { key: null, headers: { 'x-api-key': intake } })).body.id).toBe(id);
    expect((await api(svc, path, { method: 'PATCH', body: { hasFlag: true }, key: null, headers: { 'x-api-key': intake } })).status).toBe(200);
    const tap = await api(svc, `${path}/taps`, { method: 'POST', body: { datapoints: [{ timestamp: 1_780_000_000, temperature: 4 }] }, key: null, headers: { 'x-api-key': intake } });
    expect(tap.status).toBe(200);
  });

  it('a longer one is refused at activation, naming the limit', async () => {
    const res = await api(svc, '/v2/labelReports', { method: 'POST', body: makeActivation('x'.repeat(MAX_REPORT_ID_LENGTH + 1)), key: null, headers: { 'x-api-key': intake } });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(`at most ${MAX_REPORT_ID_LENGTH} characters`);
  });
});
