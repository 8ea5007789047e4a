import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { labelReportSchema } from '../../schema/report';
import { api, makeReport, series, startTestService, T0, type TestService } from '../support/service-fixture';

let svc: TestService;

beforeAll(async () => {
  svc = await startTestService([
    makeReport('r1', {
      access: [
        { companyId: 'fresh', role: 'viewer' },
        { companyId: 'nordic', role: 'editor' },
      ],
      label: {
        uid: 'uid-r1',
        sequenceCode: 'SEQ-r1',
        type: 'TempSense T1',
        name: 'Label r1',
        firmwareVersionInfo: { firmwareVersion: '2.4.1', firmwareApiVersion: '3' },
        batteryLifeDays: 100,
      },
      reportedSenseData: {
        datapoints: [...series(T0, 600, [4, 5, 9]), { timestamp: T0 - 600, temperature: 3 }],
        numberOfDatapointsAvailable: 10,
      },
      subCompany: { id: 'sub-1', name: 'Depot North' },
      user: { id: 'u1', name: 'Dana' },
    }),
    makeReport('r-other', { companyId: 'other' }),
  ]);
});
afterAll(() => svc.stop());

describe('authentication', () => {
  test('the x-api-key header, key and apiKey query parameters are the same input', async () => {
    const key = svc.keys.acme;
    expect((await api(svc, '/v2/labelReports/r1')).status).toBe(200);
    expect((await api(svc, `/v2/labelReports/r1?key=${key}`, { key: null })).status).toBe(200);
    expect((await api(svc, `/v2/labelReports/r1?apiKey=${key}`, { key: null })).status).toBe(200);
    expect((await api(svc, `/v2/labelReports?apiKey=${key}&key=${key}`)).status).toBe(200);
  });

  test('no key → 401 API_KEY_MISSING', async () => {
    const res = await api(svc, '/v2/labelReports', { key: null });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({
      statusCode: 401,
      error: 'Unauthorized',
      code: 'API_KEY_MISSING',
      message: expect.stringContaining('x-api-key'),
    });
  });

  test('an unknown or revoked key → 401 API_KEY_INVALID', async () => {
    for (const res of [
      await api(svc, '/v2/labelReports', { key: null, headers: { 'x-api-key': 'ldk_not-a-key' } }),
      await api(svc, '/v2/labelReports', { key: 'revoked' }),
    ]) {
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('API_KEY_INVALID');
    }
  });

  test('an empty key parameter is no key', async () => {
    expect((await api(svc, '/v2/labelReports/r1?key=')).status).toBe(200);
    const res = await api(svc, '/v2/labelReports/r1?apiKey=', { key: null });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('API_KEY_MISSING');
  });

  test('a malformed URL answers 400 with the error body', async () => {
    const res = await api(svc, '/v2/labelReports/%E0%A4%A');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request', code: 'INVALID_URL' });
  });

  test('two different keys in one request → 401', async () => {
    const res = await api(svc, `/v2/labelReports?key=${svc.keys.nordic}`);
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('API_KEY_CONFLICT');
  });

  test('a key without the read permission → 403', async () => {
    const res = await api(svc, '/v2/labelReports/r1', { key: 'acmeUpdateOnly' });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('PERMISSION_DENIED');
    expect(res.body.message).toContain('labelReports:read');
  });
});

describe('loopback protections', () => {
  const raw = (headers: Record<string, string>) =>
    new Promise<number>((resolve, reject) => {
      const url = new URL(svc.url);
      const req = httpRequest(
        { host: url.hostname, port: url.port, path: '/v2/labelReports', headers: { 'x-api-key': svc.keys.acme, ...headers } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end();
    });

  test('a foreign Host header is refused (DNS rebinding)', async () => {
    expect(await raw({ host: 'evil.example:80' })).toBe(403);
    expect(await raw({ host: `attacker.test:${svc.port}` })).toBe(403);
  });

  test.each(['127.0.0.1', 'localhost', '[::1]'])('Host %s with the service port is accepted', async (host) => {
    expect(await raw({ host: `${host}:${svc.port}` })).toBe(200);
  });

  test('a foreign Origin is refused, the service own origin accepted', async () => {
    expect(await raw({ origin: 'https://evil.example' })).toBe(403);
    expect(await raw({ origin: 'null' })).toBe(403);
    expect(await raw({ origin: `http://localhost:${svc.port}` })).toBe(200);
  });
});

describe('retrieve', () => {
  test('answers the full report as a bare object, in the documented key order', async () => {
    const res = await api(svc, '/v2/labelReports/r1');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual([
      'id', 'created', 'updated', 'company', 'subCompany', 'user', 'label', 'mode', 'type', 'status',
      'labelReference', 'senseConfig', 'alertsConfig', 'labelPreset', 'hasFlag', 'isArchived',
      'numberOfTaps', 'dataIsIncomplete', 'reportedSenseData', 'calculatedSenseData', 'trimmedSenseData',
      'alert', 'customFields', 'access',
    ]);
    expect(labelReportSchema.strict().safeParse(res.body).success).toBe(true);
    expect(res.body.company).toEqual({ id: 'acme', name: 'Acme Cold Chain', shortCode: 'ACME' });
    expect(res.body.subCompany).toEqual({ id: 'sub-1', name: 'Depot North' });
    expect(res.body.user).toEqual({ id: 'u1', name: 'Dana' });
  });

  test('reported data keeps the order it came in; calculated data is sorted', async () => {
    const { body } = await api(svc, '/v2/labelReports/r1');
    expect(body.reportedSenseData.datapoints.map((d: { timestamp: number }) => d.timestamp)).toEqual([
      T0, T0 + 600, T0 + 1200, T0 - 600,
    ]);
    expect(body.reportedSenseData.numberOfDatapointsAvailable).toBe(10);
    expect(body.calculatedSenseData.datapoints.map((d: { timestamp: number }) => d.timestamp)).toEqual([
      T0 - 600, T0, T0 + 600, T0 + 1200,
    ]);
    expect(body.calculatedSenseData.numberOfDatapointsAvailable).toBe(10);
    expect(body.calculatedSenseData.numberOfDatapointsRead).toBe(4);
  });

  test('access lists the owner first', async () => {
    const { body } = await api(svc, '/v2/labelReports/r1', { key: 'fresh' });
    expect(body.access.map((a: { companyId: string; role: string }) => [a.companyId, a.role])).toEqual([
      ['acme', 'owner'],
      ['nordic', 'editor'],
      ['fresh', 'viewer'],
    ]);
    for (const a of body.access) expect(a.labelReportId).toBe('r1');
  });

  test('estimatedBatteryDaysLeft counts down from the configuration time', async () => {
    const { body } = await api(svc, '/v2/labelReports/r1');
    const now = Date.now() / 1000;
    const expected = Math.max(0, Math.floor(100 - (now - (T0 - 600)) / 86400));
    expect(body.label.estimatedBatteryDaysLeft).toBe(expected);
  });

  test('a report of another company is 404, exactly like an unknown id', async () => {
    const other = await api(svc, '/v2/labelReports/r-other');
    const unknown = await api(svc, '/v2/labelReports/does-not-exist');
    expect(other.status).toBe(404);
    expect(unknown.status).toBe(404);
    expect(other.body.code).toBe(unknown.body.code);
  });

  test('ids are looked up as text, whatever they contain', async () => {
    for (const id of ["x' OR '1'='1", '%00', '..%2F..%2Fetc', 'a'.repeat(400)]) {
      const res = await api(svc, `/v2/labelReports/${encodeURIComponent(id)}`);
      expect(res.status).toBe(404);
    }
  });

  test('an unknown query parameter on retrieve → 400, after visibility', async () => {
    const res = await api(svc, '/v2/labelReports/r1?verbose=1');
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('verbose');
    expect((await api(svc, '/v2/labelReports/r-other?verbose=1')).status).toBe(404);
  });

  test('unknown routes answer the JSON error shape', async () => {
    const res = await api(svc, '/v2/labelReportz');
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('ROUTE_NOT_FOUND');
  });
});
