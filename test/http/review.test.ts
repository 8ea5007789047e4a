/**
 * The review workflow over a real server on 127.0.0.1: who may read, comment, acknowledge and
 * decide (owner, editor, viewer, a read-only key), the order of refusals of docs/api.md#errors, and
 * what each answer holds.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { acknowledgementSchema, commentSchema, decisionSchema, reviewSchema } from '../../schema/review';
import { api, makeReport, series, startTestService, T0, type KeyName, type TestService } from '../support/service-fixture';

let svc: TestService;

// r-shared: owned by acme, nordic edits, fresh views. Readings 4,5,9,10,5,4,1,5 against 2..8:
// the default rules fire level 1 at the first reading out of limits.
beforeAll(async () => {
  svc = await startTestService([
    makeReport('r-shared', {
      access: [
        { companyId: 'nordic', role: 'editor' },
        { companyId: 'fresh', role: 'viewer' },
      ],
    }),
    makeReport('r-quiet', { reportedSenseData: { datapoints: series(T0, 600, [4, 5, 6]) } }),
    makeReport('r-untapped', { numberOfTaps: 0, reportedSenseData: { datapoints: [] } }),
    makeReport('r-other', { companyId: 'other' }),
  ]);
});
afterAll(() => svc.stop());

const comment = (id: string, body: unknown, key: KeyName = 'acme') =>
  api(svc, `/local/labelReports/${id}/comments`, { method: 'POST', body, key });
const acknowledge = (id: string, body: unknown, key: KeyName = 'acme') =>
  api(svc, `/local/labelReports/${id}/acknowledgement`, { method: 'PUT', body, key });
const decide = (id: string, body: unknown, key: KeyName = 'acme') =>
  api(svc, `/local/labelReports/${id}/decision`, { method: 'PUT', body, key });
const review = (id: string, key: KeyName = 'acme') => api(svc, `/local/labelReports/${id}/review`, { key });

describe('roles', () => {
  test('every company that sees the report may comment, viewers included', async () => {
    for (const key of ['acme', 'nordic', 'fresh'] as const) {
      const res = await comment('r-shared', { text: `  seen by ${key}  ` }, key);
      expect(res.status).toBe(201);
      const parsed = commentSchema.parse(res.body);
      expect(parsed.text).toBe(`seen by ${key}`);
      expect(parsed.author.keyName).toBe(key);
    }
  });

  test('the owner and an editor may acknowledge and decide; a viewer is told who may', async () => {
    for (const key of ['acme', 'nordic'] as const) {
      expect((await acknowledge('r-shared', { note: `ack ${key}` }, key)).status).toBe(200);
      expect((await decide('r-shared', { decision: 'onHold', reason: `wait ${key}` }, key)).status).toBe(200);
    }
    const ack = await acknowledge('r-shared', {}, 'fresh');
    expect(ack.status).toBe(403);
    expect(ack.body).toEqual({
      statusCode: 403,
      error: 'Forbidden',
      code: 'ROLE_FORBIDDEN',
      message: 'Only the label report owner or an editor can acknowledge an alert',
    });
    const decision = await decide('r-shared', { decision: 'released', reason: 'fine' }, 'fresh');
    expect(decision.status).toBe(403);
    expect(decision.body.message).toBe('Only the label report owner or an editor can release, reject or hold a label report');
  });

  test('a read-only key reads the review but writes nothing', async () => {
    expect((await review('r-shared', 'acmeRead')).status).toBe(200);
    for (const res of [
      await comment('r-shared', { text: 'x' }, 'acmeRead'),
      await acknowledge('r-shared', {}, 'acmeRead'),
      await decide('r-shared', { decision: 'released', reason: 'x' }, 'acmeRead'),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('PERMISSION_DENIED');
      expect(res.body.message).toBe('the API key lacks the labelReports:update permission');
    }
  });

  test('a key without labelReports:read may not read the review', async () => {
    const res = await review('r-shared', 'acmeUpdateOnly');
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('the API key lacks the labelReports:read permission');
  });
});

describe('refusals, in the order of docs/api.md#errors', () => {
  test('a report the company cannot see is 404 for every route, even with a bad body', async () => {
    for (const res of [
      await review('r-other'),
      await api(svc, '/local/labelReports/r-other/alerts'),
      await api(svc, '/local/labelReports/r-other/history'),
      await api(svc, '/local/labelReports/r-other/readings.csv'),
      await api(svc, '/local/labelReports/nope/review'),
      await comment('r-other', { bad: true }),
      await acknowledge('r-other', 'not json'),
      await decide('r-other', { decision: 'maybe' }),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('REPORT_NOT_FOUND');
    }
  });

  test('without a valid key every route is 401, before anything else', async () => {
    for (const [path, method] of [
      ['/local/labelReports/r-other/review', 'GET'],
      ['/local/labelReports/r-shared/comments', 'POST'],
      ['/local/labelReports/r-shared/decision', 'PUT'],
      ['/local/labelReports.csv?filter=nonsense', 'GET'],
      ['/local/customFields', 'GET'],
    ] as const) {
      const missing = await api(svc, path, { method, key: null, body: method === 'GET' ? undefined : { bad: 1 } });
      expect([missing.status, missing.body.code]).toEqual([401, 'API_KEY_MISSING']);
      const revoked = await api(svc, path, { method, key: 'revoked', body: method === 'GET' ? undefined : { bad: 1 } });
      expect([revoked.status, revoked.body.code]).toEqual([401, 'API_KEY_INVALID']);
    }
  });

  test('the key permission answers before visibility', async () => {
    const res = await comment('r-other', { text: 'x' }, 'acmeRead');
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('PERMISSION_DENIED');
  });

  test('bad bodies are 400 naming the problem, before the role', async () => {
    const cases: [Promise<{ status: number; body: any }>, RegExp][] = [
      [comment('r-shared', { text: '' }), /text: write the comment/],
      [comment('r-shared', { text: '   ' }), /text: write the comment/],
      [comment('r-shared', { text: 'x'.repeat(2001) }), /at most 2000 characters/],
      [comment('r-shared', { text: 'ok', extra: 1 }), /extra/],
      [comment('r-shared', ['text']), /must be a JSON object/],
      [decide('r-shared', { decision: 'approved', reason: 'x' }), /decision/],
      [decide('r-shared', { decision: 'released' }), /reason/],
      // A viewer's bad body: the body answers before the role does.
      [decide('r-shared', { decision: 'released' }, 'fresh'), /reason/],
      [acknowledge('r-shared', { note: 5 }), /note/],
    ];
    for (const [pending, message] of cases) {
      const res = await pending;
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('INVALID_BODY');
      expect(res.body.message).toMatch(message);
    }
  });

  test('malformed JSON is 400 and a non-JSON body 415', async () => {
    const bad = await api(svc, '/local/labelReports/r-shared/comments', { method: 'POST', body: '{"text":', key: 'acme' });
    expect(bad.status).toBe(400);
    const text = await api(svc, '/local/labelReports/r-shared/comments', {
      method: 'POST',
      body: 'hello',
      headers: { 'content-type': 'text/plain' },
    });
    expect(text.status).toBe(415);
  });

  test('an unknown query parameter is 400', async () => {
    const res = await api(svc, '/local/labelReports/r-shared/review?verbose=1');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('UNKNOWN_PARAMETER');
  });

  test('no alert, nothing to acknowledge: 409 in words', async () => {
    const quiet = await acknowledge('r-quiet', {});
    expect(quiet.status).toBe(409);
    expect(quiet.body.message).toBe('the report has no alert (level 0) to acknowledge');
    const untapped = await acknowledge('r-untapped', {});
    expect(untapped.status).toBe(409);
    expect(untapped.body.message).toMatch(/has not been tapped yet/);
  });
});

describe('the review', () => {
  test('the newest acknowledgement and decision count; comments oldest first; each company its own', async () => {
    const id = 'r-shared';
    const first = await decide(id, { decision: 'rejected', reason: 'too warm' });
    expect(decisionSchema.parse(first.body).decision).toBe('rejected');
    const second = await decide(id, { decision: 'released', reason: 'QA accepted the stability data' });
    const ack = await acknowledge(id, undefined);
    expect(ack.status).toBe(200);
    const parsedAck = acknowledgementSchema.parse(ack.body);
    expect(parsedAck.note).toBeNull();
    expect(parsedAck.alert).toEqual({ level: 1, timestamp: T0 + 2 * 600 });

    const acme = reviewSchema.parse((await review(id)).body);
    expect(acme.decision).toEqual(second.body);
    expect(acme.acknowledgement).toEqual(ack.body);
    expect(acme.comments.map((c) => c.text)).toEqual(['seen by acme']);

    const nordic = reviewSchema.parse((await review(id, 'nordic')).body);
    expect(nordic.decision?.reason).toBe('wait nordic');
    expect(nordic.comments.map((c) => c.text)).toEqual(['seen by nordic']);
    const fresh = reviewSchema.parse((await review(id, 'fresh')).body);
    expect(fresh).toEqual({ acknowledgement: null, decision: null, comments: [expect.objectContaining({ text: 'seen by fresh' })] });
  });
});
