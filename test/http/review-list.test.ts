/**
 * GET /local/labelReports over a real server on 127.0.0.1: the /v2 list's grammar, refusals and
 * order of checks, narrowed by where the company's review stands (decisions and acknowledgements
 * written through the review API, withdrawals as the review entries store them), with counts
 * equal to what the rows say.
 */
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { reviewMinimalPageSchema, reviewListedPageSchema, REVIEW_CONDITIONS, type ReviewState } from '../../schema/review-list';
import { api, makeReport, series, startTestService, T0, type KeyName, type TestService } from '../support/service-fixture';

let svc: TestService;

// Readings 4,5,9,10,5,4,1,5 against 2..8 (makeReport's default) fire a moderate alert.
const QUIET = { reportedSenseData: { datapoints: series(T0, 600, [4, 5, 6]) } };

beforeAll(async () => {
  svc = await startTestService([
    makeReport('r-released', { access: [{ companyId: 'nordic', role: 'editor' }] }),
    makeReport('r-withdrawn'),
    makeReport('r-acknowledged'),
    makeReport('r-open', { access: [{ companyId: 'fresh', role: 'viewer' }] }),
    makeReport('r-held'),
    makeReport('r-quiet', QUIET),
    makeReport('r-quiet-rejected', QUIET),
    makeReport('r-other', { companyId: 'other' }),
  ]);
  const decide = (id: string, decision: string, key: KeyName = 'acme') =>
    api(svc, `/local/labelReports/${id}/decision`, { method: 'PUT', key, body: { decision, reason: 'checked' } });
  const acknowledge = (id: string) => api(svc, `/local/labelReports/${id}/acknowledgement`, { method: 'PUT', body: {} });
  for (const res of [
    await decide('r-released', 'rejected'),
    await decide('r-released', 'released'),
    await decide('r-released', 'onHold', 'nordic'),
    await acknowledge('r-released'),
    await decide('r-withdrawn', 'released'),
    await acknowledge('r-withdrawn'),
    await acknowledge('r-acknowledged'),
    await decide('r-held', 'onHold'),
    await decide('r-quiet-rejected', 'rejected'),
  ]) {
    expect(res.status).toBe(200);
  }
  writeWithdrawal(svc.dbFile, 'r-withdrawn', 'acme', 1);
});
afterAll(() => svc.stop());

/**
 * A withdrawal as the review entries keep it ("the alert changed under the decision"), written
 * beside the running service on the same file.
 */
function writeWithdrawal(file: string, reportId: string, companyId: string, alertLevel: number): void {
  const db = new Database(file);
  try {
    db.prepare(
      `INSERT INTO report_reviews (label_report_id, company_id, kind, text, alert_level, alert_timestamp, api_key_id, api_key_name, at)
       VALUES (?, ?, 'withdrawal', 'the alert changed', ?, 0, 'test', 'test', ?)`,
    ).run(reportId, companyId, alertLevel, new Date().toISOString());
  } finally {
    db.close();
  }
}

const list = (query: string, key: KeyName | null = 'acme') => api(svc, `/local/labelReports?${query}`, { key });

async function idsFor(review: string, key: KeyName = 'acme'): Promise<string[]> {
  const res = await list(`output=minimal&order=labelReference[asc]&review=${review}`, key);
  expect(res.status).toBe(200);
  const page = reviewMinimalPageSchema.parse(res.body);
  expect(page.totalDocuments).toBe(page.data.length);
  return page.data.map((r) => r.id);
}

describe('the rows', () => {
  test('each report carries the company’s current review state; a newer withdrawal takes the decision back', async () => {
    const res = await list('output=minimal&order=labelReference[asc]&pageSize=100');
    expect(res.status).toBe(200);
    const page = reviewMinimalPageSchema.parse(res.body);
    const byId = new Map<string, ReviewState>(page.data.map((r) => [r.id, r.review]));
    expect(byId.get('r-released')).toEqual({ decision: 'released', decisionWithdrawn: false, awaitingAcknowledgement: false, awaitingReview: false });
    expect(byId.get('r-withdrawn')).toEqual({ decision: null, decisionWithdrawn: true, awaitingAcknowledgement: true, awaitingReview: true });
    expect(byId.get('r-acknowledged')).toEqual({ decision: null, decisionWithdrawn: false, awaitingAcknowledgement: false, awaitingReview: true });
    expect(byId.get('r-open')).toEqual({ decision: null, decisionWithdrawn: false, awaitingAcknowledgement: true, awaitingReview: true });
    expect(byId.get('r-held')?.decision).toBe('onHold');
    expect(byId.get('r-quiet')).toEqual({ decision: null, decisionWithdrawn: false, awaitingAcknowledgement: false, awaitingReview: false });
    expect(byId.get('r-quiet-rejected')?.decision).toBe('rejected');
    expect(byId.has('r-other')).toBe(false);
    // The whole run's excursions, which order=calculatedSenseData.numberOfViolations.all sorts by.
    expect(page.data.find((r) => r.id === 'r-released')?.calculatedExcursions).toBe(2);
  });

  test('output=normal is the /v2 element with the same review state', async () => {
    const res = await list('filter=labelReference[eq]REF-r-held');
    const page = reviewListedPageSchema.parse(res.body);
    const v2 = await api(svc, '/v2/labelReports?filter=labelReference[eq]REF-r-held');
    const { review, calculatedExcursions, ...rest } = page.data[0];
    expect(rest).toEqual(v2.body.data[0]);
    expect(review.decision).toBe('onHold');
    expect(calculatedExcursions).toBe(v2.body.data[0].calculatedSenseData.numberOfViolations.all);
  });

  test('each company reads its own review: an editor’s decision is its own, a viewer awaits nothing', async () => {
    const nordic = reviewMinimalPageSchema.parse((await list('output=minimal', 'nordic')).body);
    expect(nordic.data.map((r) => [r.id, r.review.decision])).toEqual([['r-released', 'onHold']]);
    expect(await idsFor('awaitingReview', 'fresh')).toEqual([]);
    expect(await idsFor('awaitingAcknowledgement', 'fresh')).toEqual([]);
    expect(await idsFor('decision.none', 'fresh')).toEqual(['r-open']);
  });
});

describe('the review filters', () => {
  test('each condition answers exactly the rows whose state says so', async () => {
    expect(await idsFor('awaitingReview')).toEqual(['r-acknowledged', 'r-open', 'r-withdrawn']);
    // r-held is decided yet its alert was never acknowledged.
    expect(await idsFor('awaitingAcknowledgement')).toEqual(['r-held', 'r-open', 'r-withdrawn']);
    expect(await idsFor('decision.released')).toEqual(['r-released']);
    expect(await idsFor('decision.rejected')).toEqual(['r-quiet-rejected']);
    expect(await idsFor('decision.onHold')).toEqual(['r-held']);
    expect(await idsFor('decision.none')).toEqual(['r-acknowledged', 'r-open', 'r-quiet', 'r-withdrawn']);
    expect(await idsFor('awaitingReview,awaitingAcknowledgement')).toEqual(['r-open', 'r-withdrawn']);
  });

  test('counts are exact on every page and with the /v2 filter and order in force', async () => {
    for (const review of REVIEW_CONDITIONS) {
      const all = reviewMinimalPageSchema.parse((await list(`output=minimal&pageSize=1000&review=${review}&filter=alert.level[gte]1`)).body);
      for (const r of all.data) {
        const state = r.review;
        const holds = {
          awaitingReview: state.awaitingReview,
          awaitingAcknowledgement: state.awaitingAcknowledgement,
          'decision.released': state.decision === 'released',
          'decision.rejected': state.decision === 'rejected',
          'decision.onHold': state.decision === 'onHold',
          'decision.none': state.decision === null,
        }[review];
        expect(holds, `${review} ${r.id}`).toBe(true);
        expect(r.alert.level).toBeGreaterThanOrEqual(1);
      }
      // A full first page leaves the count to be counted, not inferred from the page.
      const one = await list(`output=minimal&pageSize=1&pageNumber=1&order=calculatedSenseData.numberOfViolations.all[desc]&review=${review}&filter=alert.level[gte]1`);
      expect(one.body.totalDocuments, review).toBe(all.totalDocuments);
      const past = await list(`output=minimal&pageSize=1&pageNumber=50&review=${review}&filter=alert.level[gte]1`);
      expect(past.body).toEqual({ data: [], totalDocuments: all.totalDocuments });
    }
  });
});

describe('the list’s CSV', () => {
  test('takes the same review conditions and holds the same reports', async () => {
    const res = await fetch(`${svc.url}/local/labelReports.csv?review=awaitingAcknowledgement&order=labelReference[asc]`, { headers: { 'x-api-key': svc.keys.acme } });
    expect(res.status).toBe(200);
    const ids = (await res.text()).split('\r\n').slice(1, -1).map((line) => line.split(',')[0]);
    expect(ids).toEqual(await idsFor('awaitingAcknowledgement'));
    expect((await api(svc, '/local/labelReports.csv?review=nope')).body.code).toBe('INVALID_REVIEW');
  });
});

describe('one definition of the current decision', () => {
  test('the insights’ decision counts equal the review list’s, a withdrawn decision counted as none', async () => {
    const res = await api(svc, '/local/insights/facets?keys=decision');
    expect(res.status).toBe(200);
    const facet = Object.fromEntries((res.body.facets.decision as { value: string | null; count: number }[]).map((v) => [String(v.value), v.count]));
    const total = async (review: string) => (await list(`output=minimal&pageSize=1&review=${review}`)).body.totalDocuments as number;
    expect(facet).toEqual({
      null: await total('decision.none'),
      released: await total('decision.released'),
      rejected: await total('decision.rejected'),
      onHold: await total('decision.onHold'),
    });
    expect(facet.released).toBe(1);
  });
});

describe('refusals, in the order of /v2', () => {
  test('no key 401, a key without labelReports:read 403, then the list parameters, then review', async () => {
    expect((await list('review=bogus', null)).status).toBe(401);
    const noRead = await list('review=bogus&filter=nope[eq]1', 'acmeUpdateOnly');
    expect(noRead.status).toBe(403);
    expect(noRead.body.code).toBe('PERMISSION_DENIED');
    const filterFirst = await list('review=bogus&filter=nope[eq]1');
    expect(filterFirst.status).toBe(400);
    expect(filterFirst.body.code).toBe('INVALID_FILTER');
    const v2 = await api(svc, '/v2/labelReports?filter=nope[eq]1');
    expect(filterFirst.body).toEqual(v2.body);
  });

  test('an unknown, repeated or contradictory review condition is a 400 naming it', async () => {
    for (const [query, message] of [
      ['review=bogus', /review 'bogus' is not one of awaitingReview, /],
      ['review=', /review '' is not one of/],
      ['review=awaitingReview,awaitingReview', /given twice/],
      ['review=decision.released,decision.none', /more than one decision/],
    ] as const) {
      const res = await list(query);
      expect(res.status, query).toBe(400);
      expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request', code: 'INVALID_REVIEW' });
      expect(res.body.message).toMatch(message);
    }
    expect((await list('review=awaitingReview&review=decision.none')).status).toBe(400);
    expect((await list('reviews=awaitingReview')).body.code).toBe((await api(svc, '/v2/labelReports?reviews=x')).body.code);
  });

  test('/v2 knows no review parameter: its list stays the interface’s', async () => {
    expect((await api(svc, '/v2/labelReports?review=awaitingReview')).status).toBe(400);
  });
});
