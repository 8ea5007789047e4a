/**
 * A mirror keeps the remote's figures (docs/sync.md#what-the-mirror-holds): against the
 * vendor's cloud, whose datapoints carry no humidity, whose trim is not shown and whose engine
 * may round or count otherwise than docs/figures.md, the desk must show calculatedSenseData,
 * trimmedSenseData, alert and the list's minimalSenseData counters exactly as the remote does.
 *
 * The `it`s before each case check that the case is what it claims (the remote does show what
 * docs/figures.md over the vendor's answer cannot give), so that the case cannot pass by accident.
 * A local edit of limits recalculates at once what the desk can (temperature), keeps what it
 * cannot (humidity), and says so, until the remote's answer to the push replaces it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeReport, series, T0 } from '../support/service-fixture';
import { projectOnto, SyncPair } from '../support/sync-pair';
import { at } from '../support/sync-reports';

/** The desk shows the vendor's figures for `id`, in retrieve and in the minimal list. */
async function expectRemoteFigures(pair: SyncPair, id: string): Promise<void> {
  const [shown, local] = await Promise.all([pair.upstreamReport(id), pair.localReport(id)]);
  expect(local, `${id} is mirrored`).toBeDefined();
  for (const field of ['calculatedSenseData', 'trimmedSenseData', 'alert'] as const) {
    expect(projectOnto(local[field], shown[field]), `${id}: ${field}`).toEqual(shown[field]);
  }
  const list = '/v2/labelReports?output=minimal&order=id[asc]&pageSize=1000';
  const [shownList, localList] = await Promise.all([pair.upstreamApi(list), pair.localApi(list, { key: 'reader' })]);
  const counters = (element: any) => {
    const { flattenedDatapoints: _flags, ...rest } = element.minimalSenseData;
    return { ...rest, alert: element.alert };
  };
  expect(counters(localList.body.data.find((r: any) => r.id === id)), `${id}: minimalSenseData counters`).toEqual(
    counters(shownList.body.data.find((r: any) => r.id === id)),
  );
}

describe('figures docs/figures.md cannot give from what the vendor shows', () => {
  const humid = makeReport('humid', {
    updated: at(1),
    type: 'humiditySense',
    senseConfig: {
      limits: { minTemperature: 2, maxTemperature: 8, minHumidity: 30, maxHumidity: 70 },
      interval: 600,
      configTime: T0 - 600,
      startDelay: 600,
      runningTime: 86_400,
    },
    // Temperatures all inside their limits; humidity out at three readings.
    reportedSenseData: { datapoints: series(T0, 600, [4, 5, 5, 6, 5, 4, 5, 5], [40, 45, 80, 75, 50, 20, 40, 40]) },
  });
  const trimmed = makeReport('trimmed', {
    updated: at(2),
    reportedSenseData: { datapoints: series(T0, 600, [4, 5, 9, 10, 5, 4, 1, 5]) },
    trim: { startTime: T0 + 1200, endTime: T0 + 3000 },
  });
  let pair: SyncPair;
  beforeAll(async () => {
    pair = await SyncPair.start({ reports: [humid, trimmed], remote: 'vendor' });
    await pair.cycleOk();
  });
  afterAll(async () => {
    await pair?.close();
  });

  it('the vendor remote counts humidity excursions its datapoints do not show, and shows a trimmed timeline', async () => {
    const h = await pair.upstreamReport('humid');
    expect(h.calculatedSenseData.numberOfViolations.humidity).toBeGreaterThan(0);
    expect(h.calculatedSenseData.numberOfViolations.temperature).toBe(0);
    expect(h.calculatedSenseData.datapoints.every((p: object) => !('humidity' in p))).toBe(true);
    const t = await pair.upstreamReport('trimmed');
    expect(t.trimmedSenseData).not.toBeNull();
    expect(t.trimmedSenseData.datapoints.length).toBeLessThan(t.calculatedSenseData.datapoints.length);
  });

  // Recomputed from datapoints without humidity, the desk would count no humidity excursion and
  // might give another alert than the remote.
  it('a report with humidity readings and humidity excursions keeps the remote figures', async () => {
    await expectRemoteFigures(pair, 'humid');
  });

  // Recomputed over the trim derived from the trimmed datapoints, the trimmed figures and the
  // list counters drawn from them need not be the remote's.
  it('a trimmed report keeps the remote figures', async () => {
    await expectRemoteFigures(pair, 'trimmed');
    expect(await figuresSource(pair, 'trimmed')).toBe('remote');
  });

  it('a local limit edit shows new temperature figures at once and keeps the humidity ones; the remote’s answer replaces them', async () => {
    const shown = (await pair.upstreamReport('humid')).calculatedSenseData;
    const edited = await pair.localEdit('humid', { limits: { maxTemperature: 4.5 } });
    const local = edited.calculatedSenseData;
    // 5, 5, 6, 5, 5, 5 of the eight readings are above 4.5 °C now.
    expect(local.numberOfViolations.temperature).toBeGreaterThan(0);
    expect(local.durationOfViolations.temperature).toBeGreaterThan(0);
    expect(local.numberOfViolations.humidity).toBe(shown.numberOfViolations.humidity);
    expect(local.durationOfViolations.humidity).toBe(shown.durationOfViolations.humidity);
    expect(local.durationOfViolations.all).toBeGreaterThanOrEqual(Math.max(local.durationOfViolations.temperature, shown.durationOfViolations.humidity));
    expect(edited.alert.level).toBeGreaterThanOrEqual((await pair.upstreamReport('humid')).alert.level);
    expect(await figuresSource(pair, 'humid')).toBe('local-edit');

    await pair.settle();
    const after = await pair.upstreamReport('humid');
    expect(after.senseConfig.limits.maxTemperature).toBe(4.5);
    expect(after.calculatedSenseData.numberOfViolations.temperature).toBeGreaterThan(0);
    await expectRemoteFigures(pair, 'humid');
    expect(await figuresSource(pair, 'humid')).toBe('remote');
  });
});

/** Whose figures the desk says the report shows. */
async function figuresSource(pair: SyncPair, id: string): Promise<string> {
  const answer = await pair.localApi(`/local/sync/reports/${id}`, { key: 'reader' });
  expect(answer.status).toBe(200);
  return answer.body.figures;
}

describe('a remote whose engine rounds and alerts otherwise than docs/figures.md', () => {
  // docs/figures.md gives level 1 here (one rule: level 1 after 600 s out of range); the vendor says 2,
  // and rounds the mean kinetic temperature to one decimal.
  const report = makeReport('vendor-engine', {
    updated: at(1),
    alertsConfig: { rules: [{ level: 1, kind: 'cumulative', seconds: 600 }] },
    reportedSenseData: { datapoints: series(T0, 600, [4, 5, 9, 10, 5, 4.3, 1, 5.7]) },
  });
  const round = (value: number) => Math.round(value * 10) / 10;
  const vendorEngine = (r: any) => ({
    ...r,
    alert: { ...r.alert, level: 2 },
    calculatedSenseData: {
      ...r.calculatedSenseData,
      analysedValues: {
        temperature: { ...r.calculatedSenseData.analysedValues.temperature, meanKineticTemperature: round(r.calculatedSenseData.analysedValues.temperature.meanKineticTemperature) },
      },
    },
  });
  let pair: SyncPair;
  beforeAll(async () => {
    pair = await SyncPair.start({ reports: [report], remote: 'vendor', vendor: { figures: vendorEngine } });
    await pair.cycleOk();
  });
  afterAll(async () => {
    await pair?.close();
  });

  it('the vendor remote shows level 2 and a rounded MKT where docs/figures.md gives level 1 and an unrounded one', async () => {
    const own = await pair.remoteReport('vendor-engine');
    expect(own.alert.level).toBe(1);
    const mkt = own.calculatedSenseData.analysedValues.temperature.meanKineticTemperature;
    expect(round(mkt)).not.toBe(mkt);
    const shown = await pair.upstreamReport('vendor-engine');
    expect(shown.alert.level).toBe(2);
    expect(shown.calculatedSenseData.analysedValues.temperature.meanKineticTemperature).toBe(round(mkt));
  });

  // Section 2 would give level 1 and the unrounded MKT.
  it('the desk shows the remote figures, not its own', async () => {
    await expectRemoteFigures(pair, 'vendor-engine');
  });

  it('a local limits edit is pushed, and the desk asks for the report when the PATCH answer lacks its figures', async () => {
    await pair.localEdit('vendor-engine', { limits: { maxTemperature: 9.5 } });
    pair.proxy.clearLog();
    await pair.settle();
    expect(pair.proxy.requests.map((r) => `${r.method} ${r.path}`)).toContain('GET /v2/labelReports/vendor-engine');
    expect((await pair.remoteReport('vendor-engine')).senseConfig.limits.maxTemperature).toBe(9.5);
    expect((await pair.upstreamReport('vendor-engine')).alert.level).toBe(2);
  });

  // When the push is answered, the remote's figures replace the desk's recalculation.
  it('after the push, the desk shows the remote figures of the edited report', async () => {
    await expectRemoteFigures(pair, 'vendor-engine');
    expect(await figuresSource(pair, 'vendor-engine')).toBe('remote');
  });
});
