/**
 * /local/insights over loopback HTTP on a real SQLite file: the refusals, in the list's order and
 * with its bodies, and figures that follow every write at once (PATCH, import, activation and a
 * tap, a decision), as they are read from the tables the write path keeps.
 */
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openService } from '../../host/open-service';
import { facetsSchema, groupsSchema, type Facets, type Groups } from '../../schema/insights';
import type { Permission } from '../../schema/report';
import { api, COMPANIES, makeActivation, makeReport, series, startTestService, T0, type KeyName, type TestService } from '../support/service-fixture';

let svc: TestService;
let intakeKey: string;

beforeAll(async () => {
  svc = await startTestService([
    makeReport('a1', { mode: 'airFreight', customFields: [{ customFieldId: 'carrier', value: 'DHL' }] }),
    makeReport('a2', { mode: 'airFreight', status: 'completed', customFields: [{ customFieldId: 'carrier', value: 'UPS' }] }),
    makeReport('r1', { mode: 'roadTransport', created: '2026-03-29T00:30:00.000Z' }),
    makeReport('n1', { companyId: 'nordic', mode: 'seaFreight' }),
    makeReport('n2', { companyId: 'nordic', mode: 'seaFreight', access: [{ companyId: 'acme', role: 'viewer' }] }),
  ]);
  const permissions: Permission[] = ['labelReports:create', 'labelReports:read'];
  intakeKey = svc.service.apiKeys.create('acme', permissions, 'intake').key;
});
afterAll(() => svc.stop());

const facets = async (query = '', key: KeyName = 'acme') => {
  const res = await api(svc, `/local/insights/facets${query ? `?${query}` : ''}`, { key });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as Facets;
};
const counts = (f: Facets, key: string) => Object.fromEntries(f.facets[key].map((v) => [String(v.value), v.count]));
const refusal = async (path: string, key: KeyName | null = 'acme') => {
  const res = await api(svc, path, { key });
  return { status: res.status, code: res.body.code as string, message: res.body.message as string };
};

describe('refusals', () => {
  test('no key or a revoked one is a 401, a key without labelReports:read a 403, before the query is read', async () => {
    for (const path of ['/local/insights/facets', '/local/insights/groups']) {
      expect(await refusal(`${path}?filter=nope[eq]1`, null)).toMatchObject({ status: 401, code: 'API_KEY_MISSING' });
      expect((await refusal(`${path}?filter=nope[eq]1`, 'revoked')).status).toBe(401);
      expect(await refusal(`${path}?filter=nope[eq]1&zone=Mars`, 'acmeUpdateOnly')).toMatchObject({ status: 403, code: 'PERMISSION_DENIED' });
    }
  });

  test('the filter and customFields are refused as the list refuses them, with the same bodies', async () => {
    for (const query of ['filter=nope[eq]1', 'filter=status[eq]sleeping', 'customFields=bad id[eq]1', 'filter=created[gte]2026-02-30']) {
      const list = await refusal(`/v2/labelReports?${query}`);
      expect(list.status).toBe(400);
      expect(await refusal(`/local/insights/facets?${query}`)).toEqual(list);
      expect(await refusal(`/local/insights/groups?${query}&by=nope`)).toEqual(list);
    }
  });

  test('unknown and repeated parameters are refused, naming the ones each route knows', async () => {
    const unknown = await refusal('/local/insights/facets?order=created[asc]');
    expect(unknown).toMatchObject({ status: 400, code: 'UNKNOWN_PARAMETER' });
    expect(unknown.message).toContain('filter, customFields, keys');
    expect(await refusal('/local/insights/groups?by=mode&by=type')).toMatchObject({ status: 400, code: 'DUPLICATE_PARAMETER' });
    expect((await refusal('/local/insights/groups?keys=mode')).message).toContain('filter, customFields, by, zone');
  });

  test('an unknown facet key, group-by key or zone is a 400 naming it', async () => {
    const key = await refusal('/local/insights/facets?keys=status,colour');
    expect(key).toMatchObject({ status: 400, code: 'INVALID_KEYS' });
    expect(key.message).toMatch(/unknown facet key 'colour'; known are status, .*customFields\.<custom field id>/);
    expect(await refusal('/local/insights/facets?keys=customFields.bad%20id')).toMatchObject({ status: 400, code: 'INVALID_KEYS' });
    const by = await refusal('/local/insights/groups?by=created.year');
    expect(by).toMatchObject({ status: 400, code: 'INVALID_BY' });
    expect(by.message).toContain("'created.year'");
    const zone = await refusal('/local/insights/groups?by=created.week&zone=Mars/Olympus');
    expect(zone).toMatchObject({ status: 400, code: 'INVALID_ZONE' });
    expect(zone.message).toContain("zone 'Mars/Olympus' is not an IANA time zone name");
  });

  test('a refused filter answers before a refused key or zone, as the list reads its filter first', async () => {
    expect((await refusal('/local/insights/groups?filter=nope[eq]1&zone=Mars')).code).toBe('INVALID_FILTER');
    expect((await refusal('/local/insights/facets?customFields=x[zz]1&keys=colour')).code).toBe('INVALID_CUSTOM_FIELDS');
  });
});

describe('what the key’s company sees', () => {
  test('counts only the reports the company has access to, with its own flags', async () => {
    expect(counts(await facets('keys=mode,company.id'), 'mode')).toEqual({ airFreight: 2, roadTransport: 1, seaFreight: 1 });
    expect(counts(await facets('keys=company.id'), 'company.id')).toEqual({ acme: 3, nordic: 1 });
    expect(counts(await facets('keys=mode', 'nordic'), 'mode')).toEqual({ seaFreight: 2 });
    const company = (await facets('keys=company.id')).facets['company.id'].find((v) => v.value === 'nordic');
    expect(company).toMatchObject({ label: COMPANIES.find((c) => c.id === 'nordic')!.name, filter: 'company.id[eq]nordic' });
  });

  test('time buckets are days of the zone named, said in the answer', async () => {
    const utc = (await api(svc, '/local/insights/groups?by=created.day&filter=mode[eq]roadTransport')).body as Groups;
    expect(utc).toMatchObject({ zone: 'UTC', by: 'created.day', groups: [{ value: '2026-03-29', from: '2026-03-29T00:00:00.000Z', to: '2026-03-30T00:00:00.000Z' }] });
    // 00:30 UTC is 01:30 in Berlin, the night its clocks went forward: that day had 23 hours.
    const berlin = (await api(svc, '/local/insights/groups?by=created.day&zone=Europe/Berlin&filter=mode[eq]roadTransport')).body as Groups;
    expect(berlin).toMatchObject({ zone: 'Europe/Berlin', groups: [{ value: '2026-03-29', from: '2026-03-28T23:00:00.000Z', to: '2026-03-29T22:00:00.000Z' }] });
    const newYork = (await api(svc, '/local/insights/groups?by=created.month&zone=America/New_York&filter=mode[eq]roadTransport')).body as Groups;
    expect(newYork.groups).toMatchObject([{ value: '2026-03', from: '2026-03-01T05:00:00.000Z', to: '2026-04-01T04:00:00.000Z', count: 1 }]);
  });
});

describe('freshness: every write shows at once', () => {
  test('a PATCH moves a report between facet values and flags count for the company that set them', async () => {
    expect(counts(await facets('keys=status'), 'status')).toEqual({ active: 3, completed: 1 });
    expect((await api(svc, '/v2/labelReports/a1', { method: 'PATCH', body: { status: 'completed', hasFlag: true } })).status).toBe(200);
    expect(counts(await facets('keys=status'), 'status')).toEqual({ active: 2, completed: 2 });
    expect(counts(await facets('keys=hasFlag'), 'hasFlag')).toEqual({ true: 1, false: 3 });
    expect(counts(await facets('keys=hasFlag', 'nordic'), 'hasFlag')).toEqual({ false: 2 });
  });

  test('a decision moves the report in the decision facet and the groups', async () => {
    expect(counts(await facets('keys=decision'), 'decision')).toEqual({ null: 4 });
    const decide = (decision: string) => api(svc, '/local/labelReports/a2/decision', { method: 'PUT', body: { decision, reason: 'checked' } });
    expect((await decide('onHold')).status).toBe(200);
    expect((await decide('released')).status).toBe(200);
    expect(counts(await facets('keys=decision'), 'decision')).toEqual({ null: 3, released: 1 });
    const groups = (await api(svc, '/local/insights/groups?by=mode')).body as Groups;
    expect(groups.groups.find((g) => g.value === 'airFreight')!.decisions).toEqual({ released: 1, rejected: 0, onHold: 0, none: 1 });
  });

  test('an import replaces the figures of the reports it brings', async () => {
    const bundle = { version: 1, companies: COMPANIES, labelReports: [makeReport('i1', { mode: 'railFreight', customFields: [{ customFieldId: 'carrier', value: 'DHL' }] })] };
    // As `labeldesk import` does beside a running service: its own connection to the same file.
    const command = openService(svc.dbFile);
    try {
      expect((await command.importBundle(Readable.from([Buffer.from(JSON.stringify(bundle))]))).ok).toBe(true);
    } finally {
      command.close();
    }
    expect(counts(await facets('keys=mode'), 'mode')).toMatchObject({ railFreight: 1 });
    expect(counts(await facets('keys=customFields.carrier'), 'customFields.carrier')).toEqual({ DHL: 2, UPS: 1, null: 2 });
  });

  test('an activation and a tap change counts and excursion figures at once', async () => {
    const headers = { 'x-api-key': intakeKey };
    const id = '3f1c9a70-5b2e-4d1a-9c47-0e8a2b6d5f13';
    const activated = await api(svc, '/v2/labelReports', { method: 'POST', key: null, headers, body: { ...makeActivation(id), mode: 'stationary' } });
    expect(activated.status).toBe(201);
    const before = (await api(svc, '/local/insights/groups?by=mode&filter=mode[eq]stationary')).body as Groups;
    expect(before.groups).toMatchObject([{ value: 'stationary', count: 1, reportsWithExcursions: 0, alertLevels: { '-1': 1 } }]);
    const tapped = await api(svc, `/v2/labelReports/${id}/taps`, {
      method: 'POST',
      key: null,
      headers,
      body: { datapoints: series(T0, 600, [4, 9.5, 10, 4]), currentTime: T0 + 2400 },
    });
    expect(tapped.status).toBe(200);
    const after = (await api(svc, '/local/insights/groups?by=mode&filter=mode[eq]stationary')).body as Groups;
    expect(after.groups).toMatchObject([{ count: 1, reportsWithExcursions: 1, excursions: 1, secondsOutOfRange: 1200, alertLevels: { '-1': 0 } }]);
  });
});

describe('the review list’s conditions', () => {
  test('review is refused as the review list refuses it, after filter and customFields and before keys, by and zone', async () => {
    for (const review of ['sleeping', 'decision.released,decision.rejected', 'awaitingReview,awaitingReview']) {
      const list = await refusal(`/local/labelReports?review=${review}`);
      expect(list).toMatchObject({ status: 400, code: 'INVALID_REVIEW' });
      expect(await refusal(`/local/insights/facets?review=${review}&keys=colour`)).toEqual(list);
      expect(await refusal(`/local/insights/groups?review=${review}&by=nope&zone=Mars`)).toEqual(list);
    }
    expect((await refusal('/local/insights/groups?filter=nope[eq]1&review=sleeping')).code).toBe('INVALID_FILTER');
  });

  test('facets and groups count what the review list lists, and a decision value carries its review condition', async () => {
    const decide = (id: string, decision: string) => api(svc, `/local/labelReports/${id}/decision`, { method: 'PUT', body: { decision, reason: 'checked' } });
    expect((await decide('r1', 'rejected')).status).toBe(200);
    for (const review of ['decision.rejected', 'decision.none', 'awaitingReview', 'awaitingAcknowledgement']) {
      const list = (await api(svc, `/local/labelReports?review=${review}&pageSize=1`)).body.totalDocuments as number;
      const f = await facets(`review=${review}&keys=mode,status,decision`);
      expect(f.totalDocuments, review).toBe(list);
      for (const key of ['mode', 'status', 'decision']) expect(f.facets[key].reduce((n, v) => n + v.count, 0), `${review} ${key}`).toBe(list);
      const groups = (await api(svc, `/local/insights/groups?review=${review}&by=mode`)).body as Groups;
      expect(groups.total).toBe(list);
      expect(groups.groups.reduce((n, g) => n + g.count, 0)).toBe(list);
    }
    const rejected = await facets('review=decision.rejected&keys=mode,decision');
    expect(counts(rejected, 'mode')).toEqual({ roadTransport: 1 });
    // The request holds the decision already: its value needs no condition more.
    expect(rejected.facets.decision).toEqual([{ value: 'rejected', count: 1 }]);
    const all = await facets('keys=decision');
    expect(all.facets.decision.find((v) => v.value === 'rejected')).toMatchObject({ count: 1, review: 'decision.rejected' });
    expect(all.facets.decision.find((v) => v.value === null)).toMatchObject({ review: 'decision.none' });
  });

  test('the ranges of a figure are groups in order, each with the filter that lists exactly them', async () => {
    const groups = (await api(svc, '/local/insights/groups?by=bins.secondsOutOfRange')).body as Groups;
    expect(groups.by).toBe('bins.secondsOutOfRange');
    expect(groups.groups.reduce((n, g) => n + g.count, 0)).toBe(groups.total);
    for (const g of groups.groups) {
      expect(g.filter).toBeDefined();
      const list = (await api(svc, `/v2/labelReports?filter=${encodeURIComponent(g.filter!)}&pageSize=1`)).body.totalDocuments;
      expect(g.count, String(g.value)).toBe(list);
    }
    const mkt = (await api(svc, '/local/insights/groups?by=bins.mkt')).body as Groups;
    const labels = mkt.groups.map((g) => g.value);
    const order = ['below 2 °C', '2–8 °C', '8–15 °C', '15–25 °C', '25 °C and above', null];
    expect([...labels].sort((a, b) => order.indexOf(a as string | null) - order.indexOf(b as string | null))).toEqual(labels);
  });
});

describe('the OpenAPI document', () => {
  test('describes both routes with their parameters, and the answers fit their shapes', async () => {
    const doc = (await api(svc, '/openapi.json', { key: null })).body;
    const names = (path: string) => doc.paths[path].get.parameters.filter((p: { in: string }) => p.in === 'query').map((p: { name: string }) => p.name);
    expect(names('/local/insights/facets')).toEqual(expect.arrayContaining(['filter', 'customFields', 'keys', 'review']));
    expect(names('/local/insights/groups')).toEqual(expect.arrayContaining(['filter', 'customFields', 'by', 'zone', 'review']));
    expect(doc.components.schemas).toHaveProperty('InsightFacets');
    expect(doc.components.schemas).toHaveProperty('InsightGroups');
    facetsSchema.parse(await facets('keys=status,decision,customFields.carrier'));
    for (const by of ['mode', 'company.id', 'customFields.carrier', 'startTime.week', 'bins.mkt']) {
      groupsSchema.parse((await api(svc, `/local/insights/groups?by=${by}`)).body);
    }
  });
});

describe('unset: the groups no value condition picks', () => {
  const MKT = 'calculatedSenseData.analysedValues.temperature.meanKineticTemperature';
  let own: TestService;
  beforeAll(async () => {
    own = await startTestService([
      makeReport('m1', { customFields: [{ customFieldId: 'carrier', value: 'DHL' }] }),
      makeReport('m2', { customFields: [{ customFieldId: 'carrier', value: [] }, { customFieldId: 'pallets', value: 3 }] }),
      makeReport('m3', { numberOfTaps: 0, reportedSenseData: { datapoints: [] } }),
      makeReport('m4', { numberOfTaps: 0, reportedSenseData: { datapoints: [] }, customFields: [{ customFieldId: 'carrier', value: 'UPS' }] }),
    ]);
  });
  afterAll(() => own.stop());
  const get = async (path: string) => {
    const res = await api(own, path);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  };
  const listedIds = async (query: string) => ((await get(`/local/labelReports?${query}`)).data as { id: string }[]).map((r) => r.id).sort();

  test('a custom field not set and no MKT carry the unset key that lists exactly their reports', async () => {
    const byCarrier = (await get('/local/insights/groups?by=customFields.carrier')) as Groups;
    const notSet = byCarrier.groups.find((g) => g.value === null)!;
    expect(notSet).toMatchObject({ count: 2, unset: 'customFields.carrier' });
    expect(await listedIds(`unset=${notSet.unset}`)).toEqual(['m2', 'm3']);

    const byMkt = (await get('/local/insights/groups?by=bins.mkt')) as Groups;
    const noMkt = byMkt.groups.find((g) => g.value === null)!;
    expect(noMkt).toMatchObject({ count: 2, unset: MKT });
    expect(await listedIds(`unset=${MKT}`)).toEqual(['m3', 'm4']);
    expect(await listedIds(`unset=${MKT},customFields.carrier`)).toEqual(['m3']);
    expect((await get(`/local/labelReports?unset=${MKT}&filter=id[eq]m4`)).totalDocuments).toBe(1);

    const f = (await get('/local/insights/facets?keys=customFields.carrier')) as Facets;
    expect(f.facets['customFields.carrier'].find((v) => v.value === null)).toEqual({ value: null, count: 2, unset: 'customFields.carrier' });
    // Asked already: the value's reports are all the matches, and it says no condition.
    const within = (await get('/local/insights/facets?keys=customFields.carrier&unset=customFields.carrier')) as Facets;
    expect(within).toEqual({ totalDocuments: 2, facets: { 'customFields.carrier': [{ value: null, count: 2 }] } });
    const csv = await api(own, `/local/labelReports.csv?unset=${MKT}`);
    expect(csv.status).toBe(200);
    expect(String(csv.body).trim().split(/\r?\n/)).toHaveLength(3);
  });

  test('the screen answers its parts as the groups do, in one request', async () => {
    const screen = await get(`/local/insights/screen?time=created.month&by=customFields.carrier&zone=Europe/Berlin&unset=${MKT}`);
    for (const [part, by] of [
      [screen.time, 'created.month'],
      [screen.split, 'customFields.carrier'],
      [screen.bins[2], 'bins.mkt'],
    ] as const) {
      expect(part).toEqual(await get(`/local/insights/groups?by=${by}&zone=Europe/Berlin&unset=${MKT}`));
    }
    expect(screen.total).toBe(2);
  });

  test('unset is refused in words where it names nothing it can say, and /v2 does not know it', async () => {
    for (const path of ['/local/labelReports', '/local/insights/facets', '/local/insights/groups', '/local/insights/screen', '/local/labelReports.csv']) {
      for (const unset of ['status', 'customFields.', `${MKT},${MKT}`]) {
        const res = await api(own, `${path}?unset=${unset}`);
        expect(res.status, path).toBe(400);
        expect(res.body.code, path).toBe('INVALID_UNSET');
      }
    }
    const v2 = await api(own, `/v2/labelReports?unset=${MKT}`);
    expect(v2.status).toBe(400);
    expect(v2.body.code).toBe('UNKNOWN_PARAMETER');
    for (const time of ['mode', 'nope', 'created.year', 'created.month.x']) expect((await api(own, `/local/insights/screen?time=${time}`)).body.code).toBe('INVALID_TIME');
  });
});
