/**
 * Activation and taps over loopback HTTP, on a real SQLite file: what they answer, what they
 * store, who may, and that a refused request changes nothing.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { SET_ON_ACTIVATION } from '../../schema/intake';
import type { Permission } from '../../schema/report';
import { api, makeActivation, makeReport, series, startTestService, T0, type TestService } from '../support/service-fixture';

let svc: TestService;
/** Keys with the create permission, by company; `acme` of the fixture lacks it. */
const intake: Record<'acme' | 'nordic' | 'fresh', string> = { acme: '', nordic: '', fresh: '' };

beforeAll(async () => {
  svc = await startTestService([
    makeReport('r-shared', {
      access: [
        { companyId: 'nordic', role: 'editor' },
        { companyId: 'fresh', role: 'viewer' },
      ],
    }),
    makeReport('r-other', { companyId: 'other' }),
  ]);
  const permissions: Permission[] = ['labelReports:create', 'labelReports:read'];
  for (const company of ['acme', 'nordic', 'fresh'] as const) {
    intake[company] = svc.service.apiKeys.create(company, permissions, `${company} intake`).key;
  }
});
afterAll(() => svc.stop());

/** A label as it is activated: limits 2..8 °C, a reading every 600 s from T0. */
const LABEL = { ...makeActivation(), labelReference: 'SHP-NEW', customFields: [{ customFieldId: 'po', value: 'PO-7' }] };

type As = 'acme' | 'nordic' | 'fresh' | 'acmeWithoutCreate';
const headers = (as: As) => ({ 'x-api-key': as === 'acmeWithoutCreate' ? svc.keys.acme : intake[as] });
const activate = (body: unknown, as: As = 'acme') => api(svc, '/v2/labelReports', { method: 'POST', body, key: null, headers: headers(as) });
const tap = (id: string, body: unknown, as: As = 'acme') =>
  api(svc, `/v2/labelReports/${id}/taps`, { method: 'POST', body, key: null, headers: headers(as) });
const retrieve = (id: string) => api(svc, `/v2/labelReports/${encodeURIComponent(id)}`);

/** A new report to tap, of acme. */
async function activated(extra: Record<string, unknown> = {}): Promise<string> {
  const res = await activate({ ...LABEL, ...extra });
  expect(res.status).toBe(201);
  return res.body.id;
}

describe('POST /v2/labelReports', () => {
  test('activates a label: an active, untapped report of the key’s company, retrievable and listed', async () => {
    const res = await activate(LABEL);
    expect(res.status).toBe(201);
    const report = res.body;
    expect(report.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(report).toMatchObject({
      company: { id: 'acme', name: 'Acme Cold Chain' },
      label: { uid: 'uid-template', sequenceCode: 'SEQ-template' },
      status: 'active',
      labelReference: 'SHP-NEW',
      numberOfTaps: 0,
      alert: { level: -1, timestamp: 0 },
      reportedSenseData: { datapoints: [] },
      trimmedSenseData: null,
      customFields: [{ customFieldId: 'po', value: 'PO-7' }],
      access: [{ companyId: 'acme', labelReportId: report.id, role: 'owner' }],
    });
    expect(report.calculatedSenseData).toMatchObject({ datapoints: [], numberOfDatapointsRead: 0 });
    expect(report.updated).toBe(report.created);
    expect(Object.keys(report)).toEqual(Object.keys((await retrieve('r-shared')).body));

    expect((await retrieve(report.id)).body).toEqual(report);
    const listed = await api(svc, `/v2/labelReports?filter=id[eq]${report.id}&output=minimal`);
    expect(listed.body.data).toMatchObject([{ id: report.id, status: 'active', numberOfTaps: 0, alert: { level: -1 } }]);
    expect((await api(svc, `/v2/labelReports/${report.id}`, { key: 'nordic' })).status).toBe(404);
  });

  test('takes the id it is given, and answers 409 for an id already taken, by anyone', async () => {
    const first = await activate({ ...LABEL, id: 'act-given' });
    expect(first.status).toBe(201);
    expect(first.body.id).toBe('act-given');
    for (const id of ['act-given', 'r-other']) {
      const again = await activate({ ...LABEL, id, labelReference: 'SECOND' });
      expect(again.status).toBe(409);
      expect(again.body.code).toBe('REPORT_EXISTS');
      expect(again.body.message).toContain(`'${id}'`);
    }
    expect((await retrieve('act-given')).body).toEqual(first.body);
    expect(svc.service.history('act-given')).toHaveLength(1);
  });

  test('a key without labelReports:create is refused and nothing is written', async () => {
    const res = await activate({ ...LABEL, id: 'act-refused' }, 'acmeWithoutCreate');
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'PERMISSION_DENIED', message: expect.stringContaining('labelReports:create') });
    expect((await retrieve('act-refused')).status).toBe(404);
    expect(svc.service.history('act-refused')).toEqual([]);
  });

  test('each field activation sets is refused by name, and nothing is written', async () => {
    const given: Record<(typeof SET_ON_ACTIVATION)[number], unknown> = {
      created: '2026-01-01T00:00:00.000Z',
      updated: '2026-01-01T00:00:00.000Z',
      companyId: 'acme',
      access: [],
      companyState: [],
      status: 'active',
      trim: null,
      numberOfTaps: 0,
      reportedSenseData: { datapoints: [] },
    };
    for (const [field, value] of Object.entries(given)) {
      const res = await activate({ ...LABEL, id: 'act-set-by-service', [field]: value });
      expect(res.status, field).toBe(400);
      expect(res.body).toMatchObject({ code: 'INVALID_BODY', message: `$: '${field}' cannot be sent: activation sets it` });
    }
    const several = await activate({ ...LABEL, id: 'act-set-by-service', status: 'active', trim: null, colour: 'blue' });
    expect(several.body.message).toBe("$: 'status', 'trim' cannot be sent: activation sets them; unknown field 'colour'");
    expect((await retrieve('act-set-by-service')).status).toBe(404);
  });

  test('the rest of the body is checked as a bundle report is', async () => {
    const cases: [unknown, string][] = [
      [{ ...LABEL, senseConfig: { ...LABEL.senseConfig, limits: { minTemperature: 9, maxTemperature: 8 } } }, '$.senseConfig.limits: minTemperature is above maxTemperature'],
      [{ ...LABEL, customFields: [LABEL.customFields[0], LABEL.customFields[0]] }, "$.customFields[1].customFieldId: custom field 'po' is set twice"],
      [{ ...LABEL, mode: 'teleport' }, '$.mode'],
      [{ ...LABEL, label: undefined }, '$.label'],
      [[LABEL], 'the body must be a JSON object'],
    ];
    for (const [body, message] of cases) {
      const res = await activate(body);
      expect(res.status).toBe(400);
      expect(res.body.message).toContain(message);
    }
  });
});

describe('POST /v2/labelReports/:id/taps', () => {
  test('merges the readings, counts the tap, recalculates everything and moves updated', async () => {
    const id = await activated();
    const before = (await retrieve(id)).body;

    // In range: tapped, so the alert leaves −1 for 0.
    const first = await tap(id, { datapoints: series(T0, 600, [4, 5, 6]) });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ numberOfTaps: 1, alert: { level: 0, timestamp: 0 } });
    expect(first.body.reportedSenseData.datapoints).toEqual(series(T0, 600, [4, 5, 6]));
    expect(first.body.updated > before.updated).toBe(true);

    // The label's whole memory again: the stored readings keep theirs (5 at T0+600, not 50), a
    // new one out of limits raises the alert.
    const second = await tap(id, {
      datapoints: [...series(T0, 600, [4, 50, 6]), { timestamp: T0 + 1800, temperature: 12 }],
      currentTime: T0 + 2000,
    });
    expect(second.status).toBe(200);
    expect(second.body.numberOfTaps).toBe(2);
    expect(second.body.reportedSenseData).toEqual({ datapoints: series(T0, 600, [4, 5, 6, 12]), currentTime: T0 + 2000 });
    expect(second.body.alert).toEqual({ level: 1, timestamp: T0 + 1800 });
    expect(second.body.calculatedSenseData).toMatchObject({
      numberOfDatapointsRead: 4,
      currentTime: T0 + 2000,
      numberOfViolations: { temperature: 1, all: 1 },
      attainedValues: { minTemperature: 4, maxTemperature: 12 },
    });
    expect(second.body.updated > first.body.updated).toBe(true);
    expect((await retrieve(id)).body).toEqual(second.body);
    const listed = await api(svc, `/v2/labelReports?filter=id[eq]${id}&output=minimal`);
    expect(listed.body.data[0]).toMatchObject({ numberOfTaps: 2, alert: { level: 1 }, minimalSenseData: { flattenedDatapoints: [0, 0, 0, 1] } });

    // A tap is counted even when it brings nothing new; the counters are this tap's own.
    const third = await tap(id, { datapoints: [] });
    expect(third.body.numberOfTaps).toBe(3);
    expect(third.body.reportedSenseData).toEqual({ datapoints: series(T0, 600, [4, 5, 6, 12]) });
    expect(third.body.calculatedSenseData.currentTime).toBe(T0 + 1800);
  });

  test('only the owner may tap: an editor or viewer is refused and nothing changes', async () => {
    const before = await retrieve('r-shared');
    for (const as of ['nordic', 'fresh'] as const) {
      const res = await tap('r-shared', { datapoints: series(T0 + 6000, 600, [4]) }, as);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({
        statusCode: 403,
        error: 'Forbidden',
        code: 'ROLE_FORBIDDEN',
        message: 'Only the label report owner can add a tap',
      });
    }
    expect((await retrieve('r-shared')).body).toEqual(before.body);
    expect(svc.service.history('r-shared')).toHaveLength(1);
  });

  test('an unknown report, or one the company cannot see, is 404', async () => {
    for (const id of ['nope', 'r-other']) {
      const res = await tap(id, { datapoints: [] });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('REPORT_NOT_FOUND');
    }
    expect((await api(svc, '/v2/labelReports/r-other', { key: 'other' })).body.numberOfTaps).toBe(1);
  });

  test('a bad body is refused whole, naming the problem, and nothing changes', async () => {
    const id = await activated();
    await tap(id, { datapoints: series(T0, 600, [4]) });
    const before = (await retrieve(id)).body;
    const good = series(T0 + 600, 600, [5, 6]);
    const cases: [unknown, string][] = [
      [{ datapoints: [...good, { timestamp: T0 + 1800, temperature: 'warm' }] }, '$.datapoints[2].temperature'],
      [{ datapoints: [...good, { timestamp: T0 + 1800, temperature: 5, humidity: 150 }] }, '$.datapoints[2].humidity: a humidity cannot be above 100 %RH'],
      [{ datapoints: [{ timestamp: T0 + 1.5, temperature: 5 }] }, '$.datapoints[0].timestamp'],
      [{ datapoints: good, numberOfTaps: 9 }, 'numberOfTaps'],
      [{ datapoints: good, currentTime: -0.5 }, '$.currentTime'],
      [{}, '$.datapoints'],
      ['[]', 'the body must be a JSON object'],
    ];
    for (const [body, message] of cases) {
      const res = await tap(id, body);
      expect(res.status, message).toBe(400);
      expect(res.body).toMatchObject({ code: 'INVALID_BODY', message: expect.stringContaining(message) });
    }
    expect((await retrieve(id)).body).toEqual(before);
  });
});

describe('the order of checks: key → permission → visibility → body → role', () => {
  const status = async (pending: Promise<{ status: number; body: any }>) => {
    const res = await pending;
    return `${res.status} ${res.body?.code}`;
  };
  const post = (url: string, key: string | null, body: string, contentType = 'application/json') =>
    api(svc, url, { method: 'POST', key: null, body, headers: { ...(key !== null && { 'x-api-key': key }), 'content-type': contentType } });

  test('activation', async () => {
    const url = '/v2/labelReports';
    expect(await status(post(url, null, '{'))).toBe('401 API_KEY_MISSING');
    expect(await status(post(url, svc.keys.acme, '{', 'text/plain'))).toBe('403 PERMISSION_DENIED');
    expect(await status(post(url, intake.acme, '{', 'text/plain'))).toBe('415 UNSUPPORTED_MEDIA_TYPE');
    expect(await status(post(url, intake.acme, '{'))).toBe('400 INVALID_JSON');
    expect(await status(post(`${url}?verbose=1`, intake.acme, JSON.stringify({ ...LABEL, id: 'r-other' })))).toBe('400 UNKNOWN_PARAMETER');
    expect(await status(post(url, intake.acme, JSON.stringify({ ...LABEL, id: 'r-other', status: 'active' })))).toBe('400 INVALID_BODY');
    expect(await status(post(url, intake.acme, JSON.stringify({ ...LABEL, id: 'r-other' })))).toBe('409 REPORT_EXISTS');
  });

  test('taps', async () => {
    const bad = '{"datapoints":[{"timestamp":"then"}]}';
    expect(await status(post('/v2/labelReports/r-other/taps', null, bad, 'text/plain'))).toBe('401 API_KEY_MISSING');
    expect(await status(post('/v2/labelReports/r-other/taps', svc.keys.acme, bad, 'text/plain'))).toBe('403 PERMISSION_DENIED');
    expect(await status(post('/v2/labelReports/r-other/taps', intake.acme, bad, 'text/plain'))).toBe('404 REPORT_NOT_FOUND');
    expect(await status(post('/v2/labelReports/r-shared/taps', intake.fresh, bad, 'text/plain'))).toBe('415 UNSUPPORTED_MEDIA_TYPE');
    expect(await status(post('/v2/labelReports/r-shared/taps', intake.fresh, '{"datapoints":'))).toBe('400 INVALID_JSON');
    expect(await status(post('/v2/labelReports/r-shared/taps?verbose=1', intake.fresh, '{"datapoints":[]}'))).toBe('400 UNKNOWN_PARAMETER');
    expect(await status(post('/v2/labelReports/r-shared/taps', intake.fresh, bad))).toBe('400 INVALID_BODY');
    expect(await status(post('/v2/labelReports/r-shared/taps', intake.fresh, '{"datapoints":[]}'))).toBe('403 ROLE_FORBIDDEN');
  });
});
