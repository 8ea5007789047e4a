/**
 * CSV over a real server: a report's readings (whole or trimmed) and every report a list query
 * matches, far beyond one page; plus the alerts explained, the custom fields in use and the
 * companies by name.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { alertExplanationSchema, companyNameListSchema, customFieldUsageListSchema } from '../../schema/review';
import { api, makeReport, series, startTestService, T0, type KeyName, type TestService } from '../support/service-fixture';
import { parseCsv } from '../support/csv';

let svc: TestService;
const MANY = 230;

beforeAll(async () => {
  const reports = Array.from({ length: MANY }, (_, i) =>
    makeReport(`bulk-${String(i).padStart(3, '0')}`, {
      labelReference: i % 3 === 0 ? `SHP-${i}, "fragile"` : `PO-${i}`,
      status: i % 2 === 0 ? 'active' : 'completed',
      ...(i % 5 === 0 && { access: [{ companyId: 'nordic', role: 'viewer' as const }] }),
      customFields: [
        { customFieldId: 'carrier', value: i % 2 === 0 ? 'DHL' : 'DSV' },
        ...(i < 10 ? [{ customFieldId: 'pallets', value: i % 4 === 0 ? 'ten' : i }] : []),
        ...(i < 3 ? [{ customFieldId: 'tags', value: ['pharma', 2] }] : []),
        // An empty list holds no value: such a report does not count as using the field.
        ...(i >= 3 && i < 6 ? [{ customFieldId: 'tags', value: [] }] : []),
        ...(i === 7 ? [{ customFieldId: 'notes', value: [] }] : []),
      ],
    }),
  );
  svc = await startTestService([
    ...reports,
    makeReport('r-humid', {
      type: 'humiditySense',
      senseConfig: { limits: { minTemperature: 2, maxTemperature: 8, minHumidity: 30, maxHumidity: 70 }, interval: 600, configTime: T0 - 600, startDelay: 600, runningTime: 86_400 },
      reportedSenseData: { datapoints: series(T0, 600, [4, 5, 9, 5], [50, 75, 72, 20]) },
      trim: { startTime: T0 + 600, endTime: T0 + 1200 },
      alertsConfig: { rules: [{ level: 2, kind: 'singleEvent', seconds: 1200 }] },
    }),
    makeReport('r-fresh', { companyId: 'fresh', access: [{ companyId: 'other', role: 'viewer' }] }),
  ]);
});
afterAll(() => svc.stop());

async function csv(path: string, key: KeyName = 'acme') {
  const res = await fetch(svc.url + path, { headers: { 'x-api-key': svc.keys[key] } });
  const bytes = Buffer.from(await res.arrayBuffer());
  const text = bytes.toString('utf8');
  return { status: res.status, headers: res.headers, bom: text.startsWith('\uFEFF'), rows: res.ok ? parseCsv(text.replace(/^\uFEFF/, '')) : [], text };
}

describe('GET /local/labelReports.csv', () => {
  test('every match, not one page, in the query’s order, with the table’s columns', async () => {
    const res = await csv('/local/labelReports.csv?filter=status[eq]active&order=id[desc]&pageSize=5');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8; header=present');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="label-reports.csv"');
    expect(res.bom).toBe(true);
    const [header, ...lines] = res.rows;
    expect(header).toEqual([
      'id', 'reference', 'labelUid', 'labelName', 'status', 'alertLevel', 'alert', 'created', 'updated', 'flag', 'archived', 'ownerCompany',
      'decision', 'decisionSignedBy', 'decisionSignedAt', 'excursions', 'excursionSeconds', 'degreeHours',
    ]);
    const page = await api(svc, '/v2/labelReports?filter=status[eq]active&output=minimal&pageSize=1');
    expect(lines).toHaveLength(page.body.totalDocuments);
    expect(lines.length).toBeGreaterThan(100);
    const ids = lines.map((l) => l[0]);
    expect(ids).toEqual([...ids].sort().reverse());
    const line = lines.find((l) => l[0] === 'bulk-226')!;
    expect(line.slice(0, 12)).toEqual(['bulk-226', 'PO-226', 'uid-bulk-226', 'Label bulk-226', 'active', '1', 'Moderate', '2026-06-01T08:00:00.000Z', '2026-06-01T08:00:00.000Z', 'false', 'false', 'Acme Cold Chain']);
    // No decision yet; the whole run's excursions as the report has them.
    const report = (await api(svc, '/v2/labelReports/bulk-226')).body;
    const figures = report.calculatedSenseData;
    expect(line.slice(12)).toEqual(['', '', '', String(figures.numberOfViolations.all), String(figures.durationOfViolations.all), String(figures.analysedValues.temperature.degreeHour)]);
    // A reference with a comma and quotes survives the trip.
    expect(lines.find((l) => l[0] === 'bulk-012')![1]).toBe('SHP-12, "fragile"');
  });

  test('the company’s decision standing, who signed it and when', async () => {
    expect((await api(svc, '/local/labelReports/bulk-226/decision', { method: 'PUT', body: { decision: 'onHold', reason: 'checking the log' } })).status).toBe(200);
    const decided = (await api(svc, '/local/labelReports/bulk-226/review')).body.decision;
    const lines = (await csv('/local/labelReports.csv?filter=status[eq]active')).rows;
    const line = lines.find((l) => l[0] === 'bulk-226')!;
    expect(line.slice(12, 15)).toEqual(['onHold', decided.by.keyName ? `key ${decided.by.keyName} (a tool)` : 'a tool', decided.at]);
    // Another company sees its own decision: none.
    const nordic = (await csv('/local/labelReports.csv', 'nordic')).rows.find((l) => l[0] === 'bulk-225');
    if (nordic) expect(nordic.slice(12, 15)).toEqual(['', '', '']);
  });

  test('custom field conditions and the caller company’s view: its flag, the owner by name', async () => {
    await api(svc, '/v2/labelReports/bulk-005', { method: 'PATCH', body: { hasFlag: true }, key: 'nordic' });
    const res = await csv('/local/labelReports.csv?customFields=carrier[eq]DSV', 'nordic');
    const lines = res.rows.slice(1);
    // nordic sees every fifth report; of those, the odd ones are DSV's.
    expect(lines.map((l) => l[0])).toEqual(Array.from({ length: MANY }, (_, i) => i).filter((i) => i % 10 === 5).map((i) => `bulk-${String(i).padStart(3, '0')}`));
    expect(lines.find((l) => l[0] === 'bulk-005')!.slice(9, 12)).toEqual(['true', 'false', 'Acme Cold Chain']);
  });

  test('refuses what the list refuses, before any text', async () => {
    const bad = await api(svc, '/local/labelReports.csv?filter=colour[eq]red');
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('INVALID_FILTER');
    const readOnly = await csv('/local/labelReports.csv', 'acmeUpdateOnly');
    expect(readOnly.status).toBe(403);
  });
});

describe('GET /local/labelReports/:id/readings.csv', () => {
  test('every reading, the trim marked, each judged against the limits it names', async () => {
    const res = await csv('/local/labelReports/r-humid/readings.csv');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="label-report-r-humid-readings.csv"');
    const reference = (await api(svc, '/v2/labelReports/r-humid')).body.labelReference as string;
    // Each reading with its verdict against the limits (2–8 °C, 30–70 %RH), the reference, units and limits.
    const about = [reference, '°C', '%RH', '2', '8', '30', '70'];
    expect(res.rows).toEqual([
      ['timestamp', 'temperature', 'humidity', 'inTrimmedRange', 'verdict', 'reference', 'temperatureUnit', 'humidityUnit', 'minTemperature', 'maxTemperature', 'minHumidity', 'maxHumidity'],
      ['2026-05-28T20:26:40Z', '4', '50', 'false', 'in', ...about],
      ['2026-05-28T20:36:40Z', '5', '75', 'true', 'out', ...about],
      ['2026-05-28T20:46:40Z', '9', '72', 'true', 'out', ...about],
      ['2026-05-28T20:56:40Z', '5', '20', 'false', 'out', ...about],
    ]);
  });

  test('range=trimmed keeps the trim’s readings; without a trim it is refused in words', async () => {
    const res = await csv('/local/labelReports/r-humid/readings.csv?range=trimmed');
    expect(res.rows.slice(1).map((r) => r[0])).toEqual(['2026-05-28T20:36:40Z', '2026-05-28T20:46:40Z']);
    const none = await api(svc, '/local/labelReports/bulk-000/readings.csv?range=trimmed');
    expect(none.status).toBe(400);
    expect(none.body.message).toBe("range 'trimmed': the report has no trim; ask for range=full");
    const wrong = await api(svc, '/local/labelReports/bulk-000/readings.csv?range=all');
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe("range 'all' is not one of full, trimmed");
    const unknown = await api(svc, '/local/labelReports/bulk-000/readings.csv?from=1');
    expect(unknown.status).toBe(400);
    expect(unknown.body.code).toBe('UNKNOWN_PARAMETER');
  });
});

describe('GET /local/labelReports/:id/alerts', () => {
  test('on the trimmed range, with humidity, its own rules and the sentence', async () => {
    const res = await api(svc, '/local/labelReports/r-humid/alerts');
    expect(res.status).toBe(200);
    const explained = alertExplanationSchema.parse(res.body);
    expect(explained).toMatchObject({
      range: 'trimmed',
      datapoints: 2,
      alert: { level: 2, timestamp: T0 + 1200 },
      timeAbove: { temperature: 600, humidity: 1200 },
      timeBelow: { temperature: 0, humidity: 0 },
      defaultRules: false,
      rules: [{ level: 2, kind: 'singleEvent', seconds: 1200, fired: true, firedAt: T0 + 1200 }],
    });
    expect(explained.excursions.map((e) => [e.limitName, e.start, e.end, e.peak])).toEqual([
      ['maxHumidity', T0 + 600, T0 + 1200, 75],
      ['maxTemperature', T0 + 1200, T0 + 1200, 9],
    ]);
    expect(explained.explanation).toBe(
      'Critical since 2026-05-28 20:46:40 UTC by the rule "Critical alert once readings stay out of limits for 20 min without a break (2 readings at the 10 min interval in a row)": readings were out of limits for 20 min in the trimmed range.',
    );
  });
});

describe('plain words for the list', () => {
  test('custom fields in use among the reports the company sees, with their kind and count', async () => {
    const acme = customFieldUsageListSchema.parse((await api(svc, '/local/customFields')).body);
    expect(acme).toEqual([
      { customFieldId: 'carrier', kind: 'text', count: MANY },
      { customFieldId: 'pallets', kind: 'mixed', count: 10 },
      { customFieldId: 'tags', kind: 'mixed', count: 3 },
    ]);
    const nordic = customFieldUsageListSchema.parse((await api(svc, '/local/customFields', { key: 'nordic' })).body);
    // nordic sees bulk-000 and bulk-005 among those with pallets: 'ten' and 5.
    expect(nordic.find((f) => f.customFieldId === 'pallets')).toEqual({ customFieldId: 'pallets', kind: 'mixed', count: 2 });
    expect((await api(svc, '/local/customFields', { key: 'other' })).body).toEqual([]);
  });

  test('companies by name: the caller’s own and those sharing its reports, never the rest', async () => {
    expect(companyNameListSchema.parse((await api(svc, '/local/companies')).body)).toEqual([
      { id: 'acme', name: 'Acme Cold Chain' },
      { id: 'nordic', name: 'Nordic Pharma Logistics' },
    ]);
    expect((await api(svc, '/local/companies', { key: 'fresh' })).body).toEqual([
      { id: 'fresh', name: 'FreshFoods Retail' },
      { id: 'other', name: 'Other Company' },
    ]);
    expect((await api(svc, '/local/companies', { key: 'acmeUpdateOnly' })).status).toBe(403);
    expect((await api(svc, '/local/companies?x=1')).status).toBe(400);
  });
});
