import fc from 'fast-check';
import { assertProperty } from '../support/property';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { datapointsJson, materialize, reportJson } from '../../service/report-json';
import { datapointsFromColumns, type DatapointColumns } from '../../sense';
import { makeReport, series, startTestService, T0, type TestService } from '../support/service-fixture';

const columns = fc
  .array(
    fc.record({
      timestamp: fc.integer({ min: 0, max: 4_000_000_000 }),
      // Hundredths (what sensors report, written from integers) near and far, and any other double.
      temperature: fc.oneof(
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.constant(-0),
        fc.integer(),
        fc.integer({ min: -100_000, max: 100_000 }).map((s) => s / 100),
        fc.integer().map((s) => s / 100),
      ),
      humidity: fc.option(fc.oneof(fc.double({ min: 0, max: 100, noNaN: true }), fc.integer({ min: 0, max: 10_000 }).map((s) => s / 100)), {
        nil: undefined,
      }),
    }),
    { maxLength: 60 },
  )
  .chain((points) =>
    fc.boolean().map((withHumidity): DatapointColumns => ({
      timestamps: Float64Array.from(points, (p) => p.timestamp),
      temperatures: Float64Array.from(points, (p) => p.temperature),
      humidities: withHumidity ? Float64Array.from(points, (p) => p.humidity ?? Number.NaN) : null,
    })),
  );

test('datapoint lists are written exactly as JSON.stringify writes their objects', () => {
  assertProperty(
    fc.property(columns, (c) => {
      expect(datapointsJson(c)).toBe(JSON.stringify(datapointsFromColumns(c)));
    }),
    { numRuns: 2000 },
  );
});

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService([
    makeReport('plain'),
    makeReport('trimmed-humid', {
      type: 'humiditySense',
      labelReference: 'a "quoted" \\ reference with \u0001datapoints- in it',
      senseConfig: {
        limits: { minTemperature: 2, maxTemperature: 8, maxHumidity: 60 },
        interval: 600,
        configTime: T0 - 600,
        startDelay: 600,
        runningTime: 86_400,
      },
      reportedSenseData: { datapoints: series(T0, 600, [4, 9.25, -0.5, 5], [50, 61.5, 40, 70]) },
      trim: { startTime: T0 + 600, endTime: T0 + 1200 },
    }),
    makeReport('trim-start', { trim: { startTime: T0, endTime: T0 + 1200 } }),
    makeReport('trim-end', { trim: { startTime: T0 + 3000, endTime: T0 + 99_999 } }),
    makeReport('trim-none', { trim: { startTime: T0 + 100, endTime: T0 + 200 } }),
    makeReport('unsorted-trimmed', {
      reportedSenseData: {
        datapoints: [
          { timestamp: T0 + 1200, temperature: 9 },
          { timestamp: T0, temperature: 4, humidity: 30 },
          { timestamp: T0 + 600, temperature: 5 },
          { timestamp: T0, temperature: 7 },
        ],
      },
      trim: { startTime: T0 + 600, endTime: T0 + 1200 },
    }),
  ]);
});
afterAll(() => svc.stop());

test.each(['plain', 'trimmed-humid', 'trim-start', 'trim-end', 'trim-none', 'unsorted-trimmed'])('the report %s as text is the report as objects, stringified', (id) => {
  const caller = svc.service.apiKeys.authenticate(svc.keys.acme);
  const document = svc.service.reports.retrieveDocument(caller, id);
  expect(reportJson(document)).toBe(JSON.stringify(materialize(document)));
  expect(JSON.parse(reportJson(document))).toEqual(svc.service.reports.retrieve(caller, id));
});
