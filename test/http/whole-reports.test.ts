/**
 * The list's LabelDesk extension, `wholeReports=BYTES` (docs/sync.md#pull): the page with its
 * reports whole beside it, each exactly what retrieve answers, in the page's order, as many as
 * fit in the bytes asked for (one that does not is left out, a smaller one after it still
 * comes); without the parameter the page is the interface's alone; a bad value is refused.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { api, makeReport, series, startTestService, T0, type TestService } from '../support/service-fixture';

let svc: TestService;
const BIG = 'r-02';

beforeAll(async () => {
  svc = await startTestService([
    makeReport('r-00'),
    makeReport('r-01', { companyId: 'nordic', access: [{ companyId: 'acme', role: 'viewer' }] }),
    makeReport(BIG, { reportedSenseData: { datapoints: series(T0, 600, Array.from({ length: 2000 }, (_, i) => 4 + (i % 7) / 2)) } }),
    makeReport('r-03', { customFields: [{ customFieldId: 'po', value: 'PO-1' }] }),
    makeReport('r-hidden', { companyId: 'nordic' }),
  ]);
});
afterAll(async () => {
  await svc?.stop();
});

async function retrieved(id: string): Promise<unknown> {
  const answer = await api(svc, `/v2/labelReports/${id}`);
  expect(answer.status).toBe(200);
  return answer.body;
}

describe('GET /v2/labelReports with wholeReports', () => {
  test('adds the page’s reports as retrieve answers each, in the page’s order, and only those the key sees', async () => {
    const answer = await api(svc, '/v2/labelReports?output=minimal&order=id[asc]&wholeReports=67108864');
    expect(answer.status).toBe(200);
    const ids = answer.body.data.map((r: { id: string }) => r.id);
    expect(ids).toEqual(['r-00', 'r-01', BIG, 'r-03']);
    expect(answer.body.totalDocuments).toBe(4);
    expect(answer.body.wholeReports).toEqual(await Promise.all(ids.map(retrieved)));
  });

  test('leaves out a report that does not fit in the bytes asked for, and still sends the smaller ones after it', async () => {
    const sizes = await Promise.all(['r-00', 'r-01', BIG, 'r-03'].map(async (id) => JSON.stringify(await retrieved(id)).length));
    expect(sizes[2]).toBeGreaterThan(10 * Math.max(sizes[0], sizes[1], sizes[3]));
    // Room for the three small ones and their commas, not for the big one.
    const bytes = sizes[0] + sizes[1] + sizes[3] + 2;
    const answer = await api(svc, `/v2/labelReports?output=minimal&order=id[asc]&wholeReports=${bytes}`);
    expect(answer.status).toBe(200);
    expect(answer.body.data).toHaveLength(4);
    expect(answer.body.wholeReports.map((r: { id: string }) => r.id)).toEqual(['r-00', 'r-01', 'r-03']);
  });

  test('a page without the parameter, or of output=normal with it, keeps the interface’s shape, with wholeReports only when asked', async () => {
    const plain = await api(svc, '/v2/labelReports?output=minimal&order=id[asc]');
    expect(Object.keys(plain.body)).toEqual(['data', 'totalDocuments']);
    const normal = await api(svc, '/v2/labelReports?order=id[asc]&pageSize=2&wholeReports=67108864');
    expect(Object.keys(normal.body)).toEqual(['data', 'totalDocuments', 'wholeReports']);
    expect(normal.body.wholeReports).toEqual([await retrieved('r-00'), await retrieved('r-01')]);
  });

  test('a value that is no whole number of bytes is refused, naming the parameter', async () => {
    for (const value of ['0', '-1', 'lots', '1.5']) {
      const answer = await api(svc, `/v2/labelReports?wholeReports=${value}`);
      expect(answer.status, value).toBe(400);
      expect(answer.body).toMatchObject({ code: 'INVALID_PAGE', message: expect.stringContaining('wholeReports') });
    }
  });
});
