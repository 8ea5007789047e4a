/**
 * List pages and retrieve are read on worker threads (service/read-pool.ts): nobody waits behind
 * another request's page, a read after a PATCH sees it, a caller that floods heavy reads does not
 * starve another, and a worker that dies answers its read with a clean error and is replaced.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, makeReport, series, startTestService, T0, type TestService } from '../support/service-fixture';

/** Enough readings per report that a page of all of them is megabytes, far past what sockets buffer. */
const POINTS = 400;
const REPORTS = 120;
const HUGE = '/v2/labelReports?pageSize=100000';

let svc: TestService;
beforeAll(async () => {
  const temperatures = Array.from({ length: POINTS }, (_, i) => 4 + (i % 7) * 0.5);
  const reports = Array.from({ length: REPORTS }, (_, i) =>
    makeReport(`r${String(i).padStart(3, '0')}`, { reportedSenseData: { datapoints: series(T0, 600, temperatures) } }),
  );
  reports.push(makeReport('nordic-1', { companyId: 'nordic' }), makeReport('dies-here'));
  svc = await startTestService(reports, { readers: { size: 2, dieOnRetrieveOf: 'dies-here' } });
});
afterAll(async () => {
  await svc.stop();
});

/** A whole GET, read as fast as it comes; `started` once its first bytes arrived. */
function read(path: string, key: string): { started: Promise<void>; done: Promise<{ status: number; body: string }> } {
  let started!: () => void;
  const begun = new Promise<void>((resolve) => (started = resolve));
  const done = new Promise<{ status: number; body: string }>((resolve, reject) => {
    http
      .get(svc.url + path, { headers: { 'x-api-key': key }, agent: false }, (res) => {
        const parts: Buffer[] = [];
        res.on('data', (d: Buffer) => {
          parts.push(d);
          started();
        });
        res.on('end', () => resolve({ status: res.statusCode!, body: Buffer.concat(parts).toString('utf8') }));
      })
      .on('error', reject);
  });
  return { started: begun, done };
}

describe('reads off the event loop', () => {
  it('answers a small list and a retrieve while huge pages are being streamed, before they end', async () => {
    const events: string[] = [];
    // Read as fast as they come; each is answered in dozens of batches.
    const huge = [read(HUGE, svc.keys.acme), read(HUGE, svc.keys.acme), read(HUGE, svc.keys.acme)];
    huge.forEach((answer, i) => void answer.done.then(() => events.push(`huge ${i} ended`)));
    await Promise.all(huge.map((answer) => answer.started));
    const small = await api(svc, '/v2/labelReports?pageSize=2&output=minimal');
    events.push('small answered');
    const one = await api(svc, '/v2/labelReports/r007');
    events.push('retrieve answered');
    expect(small.status).toBe(200);
    expect(small.body.data).toHaveLength(2);
    expect(small.body.totalDocuments).toBe(REPORTS + 1);
    expect(one.status).toBe(200);
    expect(one.body.id).toBe('r007');
    const answers = await Promise.all(huge.map((answer) => answer.done));
    expect(events.slice(0, 2)).toEqual(['small answered', 'retrieve answered']);
    // Each huge page came whole: it parses, with every report the key sees.
    for (const answer of answers) expect(JSON.parse(answer.body).data).toHaveLength(REPORTS + 1);
  });

  it('reads what a PATCH wrote as soon as the PATCH has answered, on every worker', async () => {
    for (let i = 0; i < 12; i++) {
      const reference = `REF-AFTER-${i}`;
      const patched = await api(svc, '/v2/labelReports/r001', { method: 'PATCH', body: { labelReference: reference } });
      expect(patched.status).toBe(200);
      // Two at once, so both workers answer some of them.
      const [one, list] = await Promise.all([
        api(svc, '/v2/labelReports/r001'),
        api(svc, `/v2/labelReports?filter=labelReference[eq]${reference}&output=minimal`),
      ]);
      expect(one.body.labelReference).toBe(reference);
      expect(list.body.data.map((r: { id: string }) => r.id)).toEqual(['r001']);
    }
  });

  it('serves another caller in turn while one caller floods heavy pages', async () => {
    let floodDone = 0;
    const FLOOD = 6;
    const flood = Array.from({ length: FLOOD }, () => read(HUGE, svc.keys.acme).done.then((r) => (floodDone++, r)));
    const doneWhenOtherFinished: number[] = [];
    for (let i = 0; i < 4; i++) {
      const other = await api(svc, '/v2/labelReports?pageSize=5', { key: 'nordic' });
      expect(other.status).toBe(200);
      expect(other.body.data.map((r: { id: string }) => r.id)).toEqual(['nordic-1']);
      doneWhenOtherFinished.push(floodDone);
    }
    const answers = await Promise.all(flood);
    expect(answers.every((a) => a.status === 200)).toBe(true);
    // The other caller's four answers came while the flood was still being served.
    expect(doneWhenOtherFinished[3]).toBeLessThan(FLOOD);
  });

  it('answers a read whose worker dies with a clean 503, and the next read on a new worker', async () => {
    const died = await api(svc, '/v2/labelReports/dies-here');
    expect(died.status).toBe(503);
    expect(died.body.code).toBe('READ_FAILED');
    expect(died.headers.get('retry-after')).toBe('1');
    const after = await Promise.all([api(svc, '/v2/labelReports/r002'), api(svc, '/v2/labelReports?pageSize=1&output=minimal')]);
    expect(after.map((a) => a.status)).toEqual([200, 200]);
  });

  it('answers the list\'s CSV and Insights from the workers too', async () => {
    const csv = await read('/local/labelReports.csv?filter=id[like]r00%', svc.keys.acme).done;
    expect(csv.status).toBe(200);
    // The header and the ten reports r000 to r009.
    expect(csv.body.trim().split('\n')).toHaveLength(11);
    const facets = await api(svc, '/local/insights/facets');
    expect(facets.status).toBe(200);
    const bad = await api(svc, '/local/insights/groups?by=nope');
    expect(bad.status).toBe(400);
  });

  it('refuses in the words of the rules, as before: an unknown report and a bad query', async () => {
    const unknown = await api(svc, '/v2/labelReports/none-such');
    expect(unknown.status).toBe(404);
    const bad = await api(svc, '/v2/labelReports?order=nope[asc]');
    expect(bad.status).toBe(400);
  });
});

describe('a read that waits too long for a worker', () => {
  let impatient: TestService;
  beforeAll(async () => {
    // No wait at all: the first read meets a worker still starting.
    impatient = await startTestService([makeReport('w1')], { readers: { size: 1, waitMs: 0 } });
  });
  afterAll(async () => {
    await impatient.stop();
  });

  it('is answered 503 DATABASE_BUSY with Retry-After, never left hanging', async () => {
    const res = await api(impatient, '/v2/labelReports?output=minimal');
    expect(res.status).toBe(503);
    expect(res.body.code).toBe('DATABASE_BUSY');
    expect(res.headers.get('retry-after')).toBe('2');
  });
});
