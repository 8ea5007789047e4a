/**
 * The vendor-shaped remote that sync scenarios run against: it answers the three /v2
 * operations of the interface (docs/api.md) with exactly the fields the interface names, forwards the
 * caller's key and body, hides every other route, applies a test's figures, and fails instead of
 * hanging on a target that answers too much or never.
 */
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type KeyName, type TestService } from '../support/service-fixture';
import { variedReports } from '../support/sync-reports';
import { NOT_SHOWN_FIELDS, notShownMode, VendorRemote, type VendorRemoteOptions } from '../support/vendor-remote';

const SENSE_KEYS = [
  'datapoints',
  'numberOfDatapointsAvailable',
  'numberOfDatapointsRead',
  'numberOfMeasurementsOccurred',
  'attainedValues',
  'startTime',
  'elapsedTime',
  'elapsedTimeFromConfig',
  'preciseElapsedTime',
  'preciseElapsedTimeFromConfig',
  'preciseInterval',
  'currentTime',
  'startDelay',
  'numberOfViolations',
  'durationOfViolations',
  'analysedValues',
].sort();

let remote: TestService;
const vendors: VendorRemote[] = [];
beforeAll(async () => {
  remote = await startTestService(variedReports().reports);
});
afterAll(async () => {
  for (const vendor of vendors) await vendor.close();
  await remote?.stop();
});

async function vendor(options: VendorRemoteOptions = {}, target = remote.url): Promise<VendorRemote> {
  const started = await VendorRemote.start(target, options);
  vendors.push(started);
  return started;
}

async function call(base: string, path: string, init: { method?: string; body?: unknown; key?: KeyName | null } = {}) {
  const headers: Record<string, string> = {};
  if (init.key !== null) headers['x-api-key'] = remote.keys[init.key ?? 'acme'];
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(base + path, { method: init.method ?? 'GET', headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) });
  const text = await res.text();
  return { status: res.status, body: text === '' ? undefined : JSON.parse(text) };
}

function expectSenseData(data: any, where: string): void {
  expect(Object.keys(data).sort(), where).toEqual(SENSE_KEYS);
  expect(data.datapoints.length, where).toBeGreaterThan(0);
  for (const point of data.datapoints) expect(Object.keys(point), where).toEqual(['timestamp', 'temperature']);
  expect(Object.keys(data.attainedValues), where).toEqual(['minTemperature', 'maxTemperature']);
  expect(Object.keys(data.numberOfViolations), where).toEqual(['temperature', 'humidity', 'all']);
  expect(Object.keys(data.durationOfViolations), where).toEqual(['temperature', 'humidity', 'all']);
  expect(Object.keys(data.analysedValues), where).toEqual(['temperature']);
  expect(Object.keys(data.analysedValues.temperature), where).toEqual(['average', 'degreeHour', 'meanKineticTemperature']);
}

describe('the vendor-shaped remote', () => {
  it('has only the three /v2 operations: /local routes and any other answer 404 like an unknown route', async () => {
    const v = await vendor();
    for (const [method, path] of [
      ['GET', '/local/session'],
      ['GET', '/local/sync'],
      ['POST', '/v2/labelReports'],
      ['DELETE', '/v2/labelReports/own-plain'],
      ['GET', '/v2/labelReports/own-plain/pdf'],
      ['GET', '/v1/labelReports'],
    ]) {
      const answer = await call(v.url, path, { method });
      expect(answer.status, `${method} ${path}`).toBe(404);
    }
    // The LabelDesk behind it does answer the first.
    expect((await call(remote.url, '/local/session')).status).toBe(200);
  });

  it('retrieve shows the fields of 2.1 and nothing else: no reportedSenseData, no humidity readings', async () => {
    const v = await vendor();
    const full = (await call(remote.url, '/v2/labelReports/own-rich')).body;
    expect(full.reportedSenseData.datapoints[0].humidity).toBeDefined();
    const { status, body } = await call(v.url, '/v2/labelReports/own-rich');
    expect(status).toBe(200);
    expect(Object.keys(body).sort()).toEqual(
      [
        'id', 'created', 'updated', 'company', 'subCompany', 'label', 'mode', 'type', 'status', 'labelReference', 'senseConfig',
        'hasFlag', 'isArchived', 'numberOfTaps', 'dataIsIncomplete', 'calculatedSenseData', 'alert', 'customFields', 'access',
        'user', 'labelPreset', 'alertsConfig', 'trimmedSenseData',
      ].sort(),
    );
    expect(Object.keys(body.label)).toEqual(['uid', 'sequenceCode', 'type', 'name', 'firmwareVersionInfo', 'estimatedBatteryDaysLeft']);
    expect(Object.keys(body.company)).toEqual(['id', 'name', 'shortCode']);
    expect(Object.keys(body.senseConfig)).toEqual(['limits', 'interval', 'configTime', 'startDelay', 'runningTime']);
    expect(body.senseConfig.limits).toEqual({ minTemperature: 2, maxTemperature: 8, minHumidity: 30, maxHumidity: 70 });
    expect(Object.keys(body.alert)).toEqual(['level', 'timestamp']);
    for (const entry of body.access) expect(Object.keys(entry)).toEqual(['id', 'companyId', 'labelReportId', 'role']);
    expectSenseData(body.calculatedSenseData, 'calculatedSenseData');
    expectSenseData(body.trimmedSenseData, 'trimmedSenseData');
    // The figures themselves are the remote's, only reduced.
    expect(body.calculatedSenseData.numberOfViolations).toEqual(full.calculatedSenseData.numberOfViolations);
    expect(body.calculatedSenseData.datapoints).toEqual(full.calculatedSenseData.datapoints.map((p: any) => ({ timestamp: p.timestamp, temperature: p.temperature })));
    expect(body.alert).toEqual(full.alert);
    expect(body.user).toEqual(full.user);
  });

  it('list pages: `normal` elements are the full shape with label reduced to uid and sequenceCode; `minimal` ones the reduced element of 4.1', async () => {
    const v = await vendor();
    const normal = await call(v.url, '/v2/labelReports?output=normal&order=id[asc]');
    expect(normal.status).toBe(200);
    expect(Object.keys(normal.body)).toEqual(['data', 'totalDocuments']);
    expect(normal.body.totalDocuments).toBe(5);
    const rich = normal.body.data.find((r: any) => r.id === 'own-rich');
    expect(Object.keys(rich.label)).toEqual(['uid', 'sequenceCode']);
    expect(rich.reportedSenseData).toBeUndefined();
    expectSenseData(rich.calculatedSenseData, 'list calculatedSenseData');
    expectSenseData(rich.trimmedSenseData, 'list trimmedSenseData');

    const minimal = await call(v.url, '/v2/labelReports?output=minimal&order=id[asc]');
    expect(minimal.body.data.map((r: any) => r.id)).toEqual(normal.body.data.map((r: any) => r.id));
    for (const element of minimal.body.data) {
      expect(Object.keys(element)).toEqual([
        'id', 'created', 'updated', 'company', 'subCompany', 'label', 'mode', 'type', 'status', 'labelReference', 'senseConfig',
        'hasFlag', 'isArchived', 'numberOfTaps', 'minimalSenseData', 'alert',
      ]);
      expect(Object.keys(element.minimalSenseData)).toEqual([
        'flattenedDatapoints', 'numberOfDatapointsAvailable', 'numberOfDatapointsRead', 'numberOfMeasurementsOccurred', 'numberOfViolations',
      ]);
    }
  });

  it('forwards the caller\'s key from the header or the query, and the remote\'s refusals as they are', async () => {
    const v = await vendor();
    expect((await call(v.url, '/v2/labelReports/own-plain', { key: null })).status).toBe(401);
    expect((await call(v.url, `/v2/labelReports/own-plain?key=${remote.keys.acme}`, { key: null })).status).toBe(200);
    // nordic does not see acme's report; acmeRead may not update.
    expect((await call(v.url, '/v2/labelReports/own-plain', { key: 'nordic' })).status).toBe(404);
    const refused = await call(v.url, '/v2/labelReports/own-plain', { method: 'PATCH', body: { labelReference: 'no' }, key: 'acmeRead' });
    expect(refused.status).toBe(403);
    // A viewer's limits change: the role message of the interface reaches the caller.
    const role = await call(v.url, '/v2/labelReports/shared-editor', { method: 'PATCH', body: { limits: { maxTemperature: 9 } } });
    expect(role.status).toBe(403);
    expect(role.body.message).toMatch(/Only the label report owner can update limits/);
  });

  it('a PATCH reaches the remote and answers the full shape, or with `least` only the fields 4.3 names', async () => {
    const full = await vendor();
    const answer = await call(full.url, '/v2/labelReports/own-plain', { method: 'PATCH', body: { labelReference: 'VENDOR-1' } });
    expect(answer.status).toBe(200);
    expect(answer.body.labelReference).toBe('VENDOR-1');
    expect(answer.body.calculatedSenseData.datapoints[0]).toEqual({ timestamp: expect.any(Number), temperature: expect.any(Number) });
    expect(answer.body.reportedSenseData).toBeUndefined();
    expect((await call(remote.url, '/v2/labelReports/own-plain')).body.labelReference).toBe('VENDOR-1');

    const least = await vendor({ patchAnswer: 'least' });
    const small = await call(least.url, '/v2/labelReports/own-plain', { method: 'PATCH', body: { hasFlag: true } });
    expect(small.status).toBe(200);
    expect(Object.keys(small.body)).toEqual(['id', 'created', 'updated', 'labelReference', 'status', 'hasFlag', 'isArchived', 'senseConfig', 'alert', 'access']);
    expect(small.body.hasFlag).toBe(true);
  });

  it('shows the fields whose types are not shown as kept, null or missing, the same way at every answer', async () => {
    for (const mode of ['keep', 'null', 'missing'] as const) {
      const v = await vendor({ notShown: mode });
      const { body } = await call(v.url, '/v2/labelReports/own-rich');
      for (const field of NOT_SHOWN_FIELDS) {
        if (mode === 'missing') expect(field in body, field).toBe(false);
        else expect(body[field], field).toEqual(mode === 'null' ? null : expect.objectContaining({}));
      }
    }
    const mixed = await vendor({ notShown: 'mixed' });
    const ids = (await call(remote.url, '/v2/labelReports?output=minimal')).body.data.map((r: any) => r.id) as string[];
    const chosen = new Set<string>();
    for (const id of ids) {
      const [retrieved, listed] = [(await call(mixed.url, `/v2/labelReports/${id}`)).body, (await call(mixed.url, '/v2/labelReports')).body.data.find((r: any) => r.id === id)];
      for (const field of NOT_SHOWN_FIELDS) {
        const mode = notShownMode('mixed', id, field);
        chosen.add(mode);
        for (const shown of [retrieved, listed]) {
          if (mode === 'missing') expect(field in shown, `${id} ${field}`).toBe(false);
          if (mode === 'null') expect(shown[field], `${id} ${field}`).toBeNull();
          if (mode === 'keep') expect(field in shown, `${id} ${field}`).toBe(true);
        }
      }
    }
    expect([...chosen].sort()).toEqual(['keep', 'missing', 'null']);
    // Per field: one kept, one null, one missing.
    const perField = await vendor({ notShown: { user: 'null', labelPreset: 'missing' } });
    const rich = (await call(perField.url, '/v2/labelReports/own-rich')).body;
    expect(rich.user).toBeNull();
    expect('labelPreset' in rich).toBe(false);
    expect(rich.alertsConfig).toEqual({ rules: [{ level: 1, kind: 'cumulative', seconds: 600 }] });
  });

  it('`figures` gives the remote its own figures in retrieve, both list outputs and PATCH answers', async () => {
    const v = await vendor({
      figures: (report) => ({
        ...report,
        alert: { ...report.alert, level: 2 },
        calculatedSenseData: { ...report.calculatedSenseData, numberOfViolations: { temperature: 7, humidity: 3, all: 9 } },
      }),
    });
    expect((await call(v.url, '/v2/labelReports/own-plain')).body.alert.level).toBe(2);
    const normal = (await call(v.url, '/v2/labelReports?output=normal')).body.data;
    for (const r of normal) expect(r.calculatedSenseData.numberOfViolations, r.id).toEqual({ temperature: 7, humidity: 3, all: 9 });
    const minimal = (await call(v.url, '/v2/labelReports?output=minimal&pageSize=2&order=id[desc]')).body;
    expect(minimal.data).toHaveLength(2);
    expect(minimal.totalDocuments).toBe(5);
    for (const r of minimal.data) {
      expect(r.alert.level, r.id).toBe(2);
      // own-rich is trimmed: its counters are the trimmed figures', which the hook left alone.
      if (r.id !== 'own-rich') expect(r.minimalSenseData.numberOfViolations, r.id).toEqual({ temperature: 7, humidity: 3, all: 9 });
    }
    const patched = await call(v.url, '/v2/labelReports/own-plain', { method: 'PATCH', body: { isArchived: false } });
    expect(patched.body.alert.level).toBe(2);
  });

  it('answers 502 instead of hanging when the target answers too much or never', async () => {
    const small = await vendor({ maxAnswerBytes: 1000 });
    const big = await call(small.url, '/v2/labelReports');
    expect(big.status).toBe(502);
    expect(big.body.message).toMatch(/over 1000 bytes/);

    // A target that takes requests and never answers.
    const sockets = new Set<Socket>();
    const silent = http.createServer(() => undefined);
    silent.on('connection', (socket: Socket) => sockets.add(socket));
    silent.listen(0, '127.0.0.1');
    await once(silent, 'listening');
    try {
      const v = await vendor({ answerTimeoutMs: 100 }, `http://127.0.0.1:${(silent.address() as AddressInfo).port}`);
      const answer = await call(v.url, '/v2/labelReports/own-plain');
      expect(answer.status).toBe(502);
      expect(answer.body.message).toMatch(/no answer/);
    } finally {
      for (const socket of sockets) socket.destroy();
      silent.close();
    }
  });
});
