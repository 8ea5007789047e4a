/**
 * A remote that answers wrongly, report by report: a retrieve answering another report, a
 * reference far past the local API's limit, an access entry id another report holds, a report
 * shown without the key's company, figures no engine gives (a negative count, alert level 3). Each such report is refused on its own (listed in
 * /local/sync/refused with why and when, counted in /local/sync), changes nothing here, lets
 * the rest of the page and the cycle go on, and is taken once the remote answers it honestly
 * at the next reconciliation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeReport } from '../support/service-fixture';
import { SyncPair } from '../support/sync-pair';
import { at, plainReports, putReports } from '../support/sync-reports';
import type { Rule } from '../support/fault-proxy';

let pair: SyncPair;
const rules: Rule[] = [];

beforeAll(async () => {
  pair = await SyncPair.start({ reports: plainReports(4), worker: { reconcileEverySeconds: 86_400 } });
  await pair.cycleOk();
  pair.createLocalCompany();
});
afterAll(async () => {
  await pair?.close();
});

/** The remote's own answer for `id`, to be told wrongly. */
async function honest(id: string): Promise<any> {
  return structuredClone(await pair.remoteReport(id));
}

/** The next retrieves of `id` are answered with `body` instead of the remote's. */
function answerRetrieve(id: string, body: unknown): void {
  rules.push(pair.proxy.failAll({ kind: 'status', status: 200, body }, { method: 'GET', path: new RegExp(`^/v2/labelReports/${id}$`) }));
}

async function refused(): Promise<{ labelReportId: string; reason: string; at: string }[]> {
  const answer = await pair.localApi('/local/sync/refused', { key: 'reader' });
  expect(answer.status).toBe(200);
  return answer.body;
}

describe('reports the remote answers wrongly', () => {
  const before: Record<string, any> = {};

  beforeAll(async () => {
    for (const id of ['r-000', 'r-001', 'r-002', 'r-003']) before[id] = await pair.localReport(id);
    // New reports on the remote, each to be answered wrongly; one answered honestly beside them.
    putReports(pair.remote.service, [
      makeReport('n-other-id', { updated: at(100) }),
      makeReport('n-long-ref', { updated: at(101) }),
      makeReport('n-clash', { updated: at(102) }),
      makeReport('n-not-ours', { updated: at(103) }),
      makeReport('n-honest', { updated: at(104) }),
      makeReport('n-bad-count', { updated: at(105) }),
      makeReport('n-bad-level', { updated: at(106) }),
    ]);

    const badCount = await honest('n-bad-count');
    badCount.calculatedSenseData.numberOfViolations.temperature = -1;
    answerRetrieve('n-bad-count', badCount);
    const badLevel = await honest('n-bad-level');
    badLevel.alert.level = 3;
    answerRetrieve('n-bad-level', badLevel);

    const otherId = await honest('r-000');
    otherId.updated = new Date(Date.parse(otherId.updated) + 3_600_000).toISOString();
    otherId.labelReference = 'written over by a wrong answer';
    answerRetrieve('n-other-id', otherId);

    const longRef = await honest('n-long-ref');
    longRef.labelReference = 'x'.repeat(5 * 1024 * 1024);
    answerRetrieve('n-long-ref', longRef);

    const clash = await honest('n-clash');
    clash.access[0].id = before['r-001'].access[0].id;
    answerRetrieve('n-clash', clash);

    const notOurs = await honest('n-not-ours');
    notOurs.company = { id: 'nordic', name: 'Nordic Pharma Logistics', shortCode: 'NPL' };
    notOurs.access = [{ id: 'acc-nordic', companyId: 'nordic', labelReportId: 'n-not-ours', role: 'owner' }];
    answerRetrieve('n-not-ours', notOurs);

    await pair.cycleOk();
  });

  it('takes none of them, changes no other report, and takes the honest one of the same page', async () => {
    for (const id of ['n-other-id', 'n-long-ref', 'n-clash', 'n-not-ours', 'n-bad-count', 'n-bad-level']) {
      expect(await pair.localReport(id), id).toBeUndefined();
    }
    for (const id of ['r-000', 'r-001', 'r-002', 'r-003']) expect(stored(await pair.localReport(id)), id).toEqual(stored(before[id]));
    expect((await pair.localReport('n-honest'))?.labelReference).toBe('REF-n-honest');
  });

  it('lists each with why and counts them in /local/sync; the cycle still completed', async () => {
    const list = await refused();
    const reasons = Object.fromEntries(list.map((r) => [r.labelReportId, r.reason]));
    expect(Object.keys(reasons).sort()).toEqual(['n-bad-count', 'n-bad-level', 'n-clash', 'n-long-ref', 'n-not-ours', 'n-other-id']);
    expect(reasons['n-bad-count']).toMatch(/calculatedSenseData\.numberOfViolations\.temperature/);
    expect(reasons['n-bad-level']).toMatch(/alert\.level/);
    expect(reasons['n-other-id']).toBe("the remote answered with label report 'r-000' when asked for 'n-other-id'");
    // Cut off as it streams in, long before 5 MB are read.
    expect(reasons['n-long-ref']).toMatch(/was cut off: it holds a string of more than 64 KiB$/);
    expect(reasons['n-clash']).toBe(`access entry id '${before['r-001'].access[0].id}' is that of another label report ('r-001')`);
    expect(reasons['n-not-ours']).toBe(
      "the remote shows it without company 'acme' (the remote key's) as its owner or among its access entries",
    );
    for (const r of list) expect(Number.isNaN(Date.parse(r.at))).toBe(false);

    // The count is the database's: the service's own /local/sync shows it, as the worker does.
    expect((await pair.localApi('/local/sync', { key: 'reader' })).body.refused).toBe(6);
    const status = pair.worker!.status();
    expect(status).toMatchObject({ state: 'idle', refused: 6 });
    expect(status.lastError?.message).toMatch(/^label report '[a-z-]+' from the remote was refused: /);
  });

  it('a list element past the limits is refused on its own; the page around it is applied', async () => {
    await pair.remoteEdit('r-002', { labelReference: 'edited on the remote' });
    await pair.remoteEdit('r-003', { labelReference: 'also edited on the remote' });
    await pair.remoteEdit('r-000', { labelReference: 'edited on the remote with too many fields' });
    const r0 = await honest('r-000');
    const r2 = await honest('r-002');
    const r3 = await honest('r-003');
    r0.customFields = Array.from({ length: 201 }, (_, i) => ({ customFieldId: `f${i}`, value: i }));
    r2.labelReference = 'y'.repeat(1001);
    const page = { data: [listElement(r0), listElement(r2), listElement(r3)], totalDocuments: 3 };
    const rule = pair.proxy.failNext(1, { kind: 'status', status: 200, body: page }, { method: 'GET', path: /^\/v2\/labelReports\?.*output=normal/ });
    await pair.cycleOk();
    rule.remove();
    expect((await pair.localReport('r-002')).labelReference).toBe(before['r-002'].labelReference);
    expect((await pair.localReport('r-003')).labelReference).toBe('also edited on the remote');
    expect((await refused()).find((r) => r.labelReportId === 'r-002')?.reason).toMatch(/labelReference has at most 1000 characters/);
    expect((await pair.localReport('r-000')).labelReference).toBe(before['r-000'].labelReference);
    expect((await refused()).find((r) => r.labelReportId === 'r-000')?.reason).toMatch(/a report holds at most 200 custom fields/);
  });

  it('once the remote answers honestly, the next reconciliation takes them and the list empties', async () => {
    for (const rule of rules.splice(0)) rule.remove();
    // A new start reconciles.
    await pair.startWorker();
    await pair.settle();
    expect(await refused()).toEqual([]);
    expect(pair.worker!.status()).toMatchObject({ refused: 0, lastError: null });
    await pair.expectMirrored();
  });
});

/** A report as a list page of output=normal shows it: the label reduced to uid and sequenceCode. */
function listElement(report: any): any {
  return { ...report, label: { uid: report.label.uid, sequenceCode: report.label.sequenceCode } };
}

/** A report as stored: without the battery estimate, which retrieve computes from the time of asking. */
function stored(report: any): any {
  const { estimatedBatteryDaysLeft: _, ...label } = report.label;
  return { ...report, label };
}

describe('an answer past the cap', () => {
  it('ends `labeldesk sync --once` with a message naming the cap, no stack trace, and nothing changed', async () => {
    const idsBefore = await pair.localIds();
    const element = { id: 'r-000', updated: '2026-11-01T00:00:00.000Z', labelReference: 'an honest shape, only too much of it' };
    const huge = { data: Array.from({ length: 20_000 }, () => element), totalDocuments: 20_000 };
    const rule = pair.proxy.failAll({ kind: 'status', status: 200, body: huge }, { method: 'GET', path: /^\/v2\/labelReports\?/ });
    try {
      const run = await pair.syncOnce(['--max-answer-mb', '1']);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/the answer is larger than the 1 MiB an answer may have/);
      expect(run.stderr).not.toMatch(/\n\s+at /);
    } finally {
      rule.remove();
    }
    expect(await pair.localIds()).toEqual(idsBefore);
  });
});
