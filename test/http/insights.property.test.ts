/**
 * Every facet count and group figure of /local/insights is what the list answers for the same
 * filter plus that value's or group's conditions: counts are its totalDocuments, sums the sums
 * over the listed reports' figures, decisions the listed reports' reviews. Random reports
 * (owners, shares, flags, custom fields, created across DST changes, decisions), random filters
 * with and without the review list's `review` conditions, random group-bys (keys, custom fields,
 * time buckets, the ranges of a figure) and zones. The Insights screen's one request
 * (/local/insights/screen) answers each of its parts as the groups do. A group or value without
 * a list condition on values (a custom field not set, no MKT, not started) carries the `unset`
 * key that makes the list answer exactly its reports.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { BundleReport } from '../../schema/bundle';
import type { Facets, Group, Groups, InsightsScreenFigures } from '../../schema/insights';
import { MODES, REPORT_TYPES, type LabelReport } from '../../schema/report';
import { assertAsyncProperty } from '../support/property';
import { api, makeReport, series, startTestService, T0, type TestService } from '../support/service-fixture';

const OWNERS = ['acme', 'acme', 'acme', 'nordic', 'other'] as const;
const DECIDE = ['released', 'rejected', 'onHold'] as const;
const FROM = Date.UTC(2025, 9, 20);
const MKT = 'calculatedSenseData.analysedValues.temperature.meanKineticTemperature';
const SPAN = 200 * 86_400_000;

const reportArb = fc.record({
  owner: fc.constantFrom(...OWNERS),
  share: fc.constantFrom('none', 'nordic-editor', 'fresh-viewer', 'acme-editor', 'acme-viewer'),
  mode: fc.constantFrom(...MODES.slice(0, 3)),
  type: fc.constantFrom(...REPORT_TYPES.slice(0, 2)),
  status: fc.constantFrom('active', 'completed'),
  createdOffset: fc.integer({ min: 0, max: SPAN }),
  startShift: fc.integer({ min: -40, max: 40 }),
  temps: fc.array(fc.integer({ min: -40, max: 140 }).map((t) => t / 10), { minLength: 0, maxLength: 12 }),
  flag: fc.constantFrom(null, true, false),
  archived: fc.boolean(),
  carrier: fc.constantFrom(undefined, 'DHL', 'UPS', 'A,B', '10', '10.0'),
  pallets: fc.constantFrom(undefined, 1, 10, 2.5),
  tags: fc.constantFrom(undefined, ['frozen', 1], ['pharma'], [10, 'frozen'], []),
  decisions: fc.array(fc.constantFrom(...DECIDE), { maxLength: 2 }),
});

type Drawn = typeof reportArb extends fc.Arbitrary<infer T> ? T : never;

function bundleOf(drawn: Drawn[]): BundleReport[] {
  return drawn.map((d, i) => {
    const id = `r${String(i).padStart(3, '0')}`;
    const configTime = T0 + d.startShift * 86_400 * 3 - 600;
    const access =
      d.share === 'none'
        ? []
        : d.owner === 'acme'
          ? d.share.startsWith('acme') ? [] : [{ companyId: d.share.split('-')[0], role: d.share.split('-')[1] as 'editor' | 'viewer' }]
          : d.share.startsWith('acme') ? [{ companyId: 'acme', role: d.share.split('-')[1] as 'editor' | 'viewer' }] : [];
    return makeReport(id, {
      created: new Date(FROM + d.createdOffset).toISOString(),
      companyId: d.owner,
      mode: d.mode,
      type: d.type,
      status: d.status,
      numberOfTaps: d.temps.length === 0 ? 0 : 1,
      senseConfig: { limits: { minTemperature: 2, maxTemperature: 8 }, interval: 600, configTime, startDelay: 600, runningTime: 86_400 },
      reportedSenseData: { datapoints: series(configTime + 600, 600, d.temps) },
      access,
      companyState: d.flag === null ? [] : [{ companyId: 'acme', hasFlag: d.flag, isArchived: d.archived }],
      customFields: [
        ...(d.carrier === undefined ? [] : [{ customFieldId: 'carrier', value: d.carrier }]),
        ...(d.pallets === undefined ? [] : [{ customFieldId: 'pallets', value: d.pallets }]),
        ...(d.tags === undefined ? [] : [{ customFieldId: 'tags', value: [...d.tags] }]),
      ],
    });
  });
}

const filterArb = fc.record({
  filter: fc.subarray(['status[eq]active', 'mode[neq]airFreight', 'alert.level[gte]1', 'created[gte]2026-01-01', 'hasFlag[eq]false', 'company.id[eq]acme'], { maxLength: 2 }),
  customFields: fc.subarray(['pallets[gte]2', 'carrier[neq]DHL'], { maxLength: 1 }),
  // The review list's conditions, as the browser's review and decision filters send them.
  review: fc.constantFrom('', '', 'awaitingReview', 'awaitingAcknowledgement', 'decision.released', 'decision.none', 'awaitingAcknowledgement,decision.onHold'),
  // The /local list's `unset`, as the range chips of the browser send it.
  unset: fc.constantFrom('', '', '', 'customFields.carrier', MKT, 'calculatedSenseData.startTime', `customFields.tags,${MKT}`),
});

const FACET_KEYS = ['status', 'alert.level', 'mode', 'type', 'company.id', 'hasFlag', 'isArchived', 'decision', 'customFields.carrier', 'customFields.pallets', 'customFields.tags'] as const;

const BYS = [
  'mode',
  'company.id',
  'alert.level',
  'hasFlag',
  'customFields.carrier',
  'customFields.tags',
  'created.day',
  'created.week',
  'created.month',
  'startTime.week',
  'startTime.month',
  'bins.secondsOutOfRange',
  'bins.degreeHours',
  'bins.mkt',
];
const SPLITS = ['mode', 'company.id', 'type', 'customFields.carrier', 'customFields.tags'];
const TIMES = ['created.day', 'created.week', 'created.month', 'startTime.week', 'startTime.month'];
const ZONES = ['UTC', 'Europe/Berlin', 'Asia/Kolkata', 'America/New_York', 'Australia/Lord_Howe'];

const join = (...parts: (string | undefined)[]) => parts.filter((p) => p !== undefined && p !== '').join(',');
const qs = (params: Record<string, string>) =>
  Object.entries(params)
    .filter(([, v]) => v !== '')
    .map(([k, v]) => `${k}=${encodeURIComponent(v)}`)
    .join('&');

/** The review list (the /v2 list when `review` is empty) for the filter. */
async function listed(svc: TestService, filter: string, customFields: string, review = '', unset = ''): Promise<{ total: number; reports: LabelReport[] }> {
  const res = await api(svc, `/local/labelReports?${qs({ filter, customFields, review, unset, pageSize: '1000' })}`);
  expect(res.status).toBe(200);
  return { total: res.body.totalDocuments, reports: res.body.data };
}

/** What the decision facet and the groups count: acme's newest decision of each report. */
async function decisionsOf(svc: TestService, reports: LabelReport[]): Promise<Map<string, string | null>> {
  const out = new Map<string, string | null>();
  for (const r of reports) {
    const review = await api(svc, `/local/labelReports/${r.id}/review`);
    out.set(r.id, review.body.decision?.decision ?? null);
  }
  return out;
}

function hasTypedElement(r: LabelReport, field: string): boolean {
  const value = r.customFields?.find((c) => c.customFieldId === field)?.value;
  const elements = Array.isArray(value) ? value : [value];
  return elements.some((e) => typeof e === 'string' || typeof e === 'number');
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

function expectFigures(group: Group, reports: LabelReport[], decisions: Map<string, string | null>): void {
  const calc = reports.map((r) => r.calculatedSenseData);
  expect(group.count).toBe(reports.length);
  expect(group.reportsWithExcursions).toBe(calc.filter((c) => c.numberOfViolations.all > 0).length);
  expect(group.excursions).toBe(sum(calc.map((c) => c.numberOfViolations.all)));
  expect(group.secondsOutOfRange).toBe(sum(calc.map((c) => c.durationOfViolations.all)));
  expect(group.degreeHours).toBeCloseTo(sum(calc.map((c) => c.analysedValues.temperature.degreeHour)), 6);
  const mkts = calc.map((c) => c.analysedValues.temperature.meanKineticTemperature).filter((m): m is number => m !== null && m !== undefined);
  if (mkts.length === 0) expect(group.mkt).toEqual({ mean: null, max: null });
  else {
    expect(group.mkt.mean).toBeCloseTo(sum(mkts) / mkts.length, 6);
    expect(group.mkt.max).toBe(Math.max(...mkts));
  }
  for (const level of [-1, 0, 1, 2]) expect(group.alertLevels[String(level)]).toBe(reports.filter((r) => r.alert.level === level).length);
  for (const d of [...DECIDE, null]) {
    expect(group.decisions[d ?? 'none']).toBe(reports.filter((r) => (decisions.get(r.id) ?? null) === d).length);
  }
}

/** The same groups with the same figures; sums of reals may differ in their last bits, as they are added in another order. */
function expectSameGroups(actual: Groups, expected: Groups): void {
  const exact = (g: Group) => ({ ...g, degreeHours: 0, mkt: { mean: g.mkt.mean === null, max: g.mkt.max } });
  expect({ ...actual, groups: actual.groups.map(exact) }).toEqual({ ...expected, groups: expected.groups.map(exact) });
  actual.groups.forEach((g, i) => {
    expect(g.degreeHours).toBeCloseTo(expected.groups[i].degreeHours, 6);
    if (g.mkt.mean !== null) expect(g.mkt.mean).toBeCloseTo(expected.groups[i].mkt.mean!, 6);
  });
}

describe('insights agree with the list', () => {
  test('facet counts and group figures equal the list answers for each value’s conditions', async () => {
    await assertAsyncProperty(
      fc.asyncProperty(
        fc.array(reportArb, { minLength: 5, maxLength: 30 }),
        fc.array(fc.record({ where: filterArb, by: fc.constantFrom(...BYS), zone: fc.constantFrom(...ZONES), time: fc.constantFrom(...TIMES), split: fc.constantFrom(...SPLITS) }), { minLength: 1, maxLength: 3 }),
        async (drawn, asks) => {
          const svc = await startTestService(bundleOf(drawn));
          try {
            for (const [i, d] of drawn.entries()) {
              if (d.owner !== 'acme') continue;
              for (const decision of d.decisions) {
                const res = await api(svc, `/local/labelReports/r${String(i).padStart(3, '0')}/decision`, { method: 'PUT', body: { decision, reason: 'checked' } });
                expect(res.status).toBe(200);
              }
            }
            for (const ask of asks) {
              const filter = ask.where.filter.join(',');
              const customFields = ask.where.customFields.join(',');
              const review = ask.where.review;
              const unset = ask.where.unset;
              const all = await listed(svc, filter, customFields, review, unset);
              if (review === '' && unset === '') expect(all.total).toBe((await api(svc, `/v2/labelReports?${qs({ filter, customFields, pageSize: '1' })}`)).body.totalDocuments);
              const decisions = await decisionsOf(svc, all.reports);

              const facetsRes = await api(svc, `/local/insights/facets?${qs({ filter, customFields, review, unset, keys: FACET_KEYS.join(',') })}`);
              expect(facetsRes.status).toBe(200);
              const facets = facetsRes.body as Facets;
              // Asked alone, as the browser asks for a facet it opens, each key answers as among all.
              for (const key of FACET_KEYS) {
                const aloneRes = await api(svc, `/local/insights/facets?${qs({ filter, customFields, review, unset, keys: key })}`);
                expect(aloneRes.status, JSON.stringify(aloneRes.body)).toBe(200);
                expect(aloneRes.body, key).toEqual({ totalDocuments: facets.totalDocuments, facets: { [key]: facets.facets[key] } });
              }
              expect(facets.totalDocuments).toBe(all.total);
              for (const [key, values] of Object.entries(facets.facets)) {
                if (!key.startsWith('customFields.')) expect(sum(values.map((v) => v.count))).toBe(all.total);
                for (const v of values) {
                  if (key.startsWith('customFields.') && v.value === null) {
                    // A custom field's absence: the listed reports without it.
                    expect(v.count).toBe(all.reports.filter((r) => !hasTypedElement(r, key.slice('customFields.'.length))).length);
                  }
                  if (v.filter !== undefined || v.customFields !== undefined || v.review !== undefined || v.unset !== undefined) {
                    const one = await listed(svc, join(filter, v.filter), join(customFields, v.customFields), join(review, v.review), join(unset, v.unset));
                    expect(v.count, `${key} ${String(v.value)}`).toBe(one.total);
                    if (key === 'decision') expect(v.count).toBe([...decisions.values()].filter((d) => d === v.value).length);
                  } else if (key === 'decision') {
                    // The request's own decision condition: the value's reports are all of them.
                    expect(review).toContain(`decision.${v.value ?? 'none'}`);
                    expect(v.count).toBe(all.total);
                    expect(v.count).toBe([...decisions.values()].filter((d) => d === v.value).length);
                  } else {
                    // The request's own unset key: the value's reports are all of them.
                    expect(v.value).toBe(null);
                    expect(unset.split(',')).toContain(key);
                    expect(v.count).toBe(all.total);
                  }
                }
              }

              const groupsRes = await api(svc, `/local/insights/groups?${qs({ filter, customFields, review, unset, by: ask.by, zone: ask.zone })}`);
              expect(groupsRes.status).toBe(200);
              const groups = groupsRes.body as Groups;
              expect(groups.total).toBe(all.total);
              expect(groups.zone).toBe(ask.zone);
              expect(groups.by).toBe(ask.by);
              if (!ask.by.startsWith('customFields.')) expect(sum(groups.groups.map((g) => g.count))).toBe(all.total);
              for (const g of groups.groups) {
                let reports: LabelReport[];
                if (g.filter !== undefined || g.customFields !== undefined || g.unset !== undefined) {
                  const one = await listed(svc, join(filter, g.filter), join(customFields, g.customFields), review, join(unset, g.unset));
                  expect(g.count).toBe(one.total);
                  reports = one.reports;
                } else if (ask.by.startsWith('bins.')) {
                  // In no range: only a report without an MKT can be, and the request asked for those.
                  expect(ask.by).toBe('bins.mkt');
                  expect(unset.split(',')).toContain(MKT);
                  reports = all.reports.filter((r) => r.calculatedSenseData.analysedValues.temperature.meanKineticTemperature == null);
                } else if (ask.by.startsWith('startTime.')) {
                  expect(unset.split(',')).toContain('calculatedSenseData.startTime');
                  reports = all.reports.filter((r) => r.calculatedSenseData.startTime == null);
                } else {
                  expect(unset.split(',')).toContain(ask.by);
                  reports = all.reports.filter((r) => !hasTypedElement(r, ask.by.slice('customFields.'.length)));
                }
                if (g.value === null && ask.by.startsWith('customFields.')) {
                  expect(reports.map((r) => r.id)).toEqual(all.reports.filter((r) => !hasTypedElement(r, ask.by.slice('customFields.'.length))).map((r) => r.id));
                }
                expectFigures(g, reports, decisions);
              }

              // The screen's one request: each part as the groups answer it for the same question.
              const screenRes = await api(svc, `/local/insights/screen?${qs({ filter, customFields, review, unset, time: ask.time, by: ask.split, zone: ask.zone })}`);
              expect(screenRes.status).toBe(200);
              const screen = screenRes.body as InsightsScreenFigures;
              expect(screen.total).toBe(all.total);
              expect(screen.zone).toBe(ask.zone);
              const parts: [Groups, string][] = [
                [screen.time, ask.time],
                [screen.split, ask.split],
                ...(['bins.secondsOutOfRange', 'bins.degreeHours', 'bins.mkt'] as const).map((by, i): [Groups, string] => [screen.bins[i], by]),
              ];
              for (const [part, by] of parts) {
                const res = await api(svc, `/local/insights/groups?${qs({ filter, customFields, review, unset, by, zone: ask.zone })}`);
                expect(res.status).toBe(200);
                expectSameGroups(part, res.body as Groups);
              }
            }
          } finally {
            await svc.stop();
          }
        },
      ),
      // 1953061176: a decision or custom field facet asked alone under one custom field comparison failed (no fixed key to group by).
      { numRuns: 6, seeds: [1953061176] },
    );
  });
});
