/**
 * A write reads its report once and compares it once: a PATCH loads the report, applies the
 * edit, writes what changed and answers from the report the writer gives back; a sync pull
 * loads each report it brings once, and the reports it skips not at all.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import * as diff from '../../model/report-diff';
import { openService, type Service } from '../../host/open-service';
import { serviceApp } from '../../host/service-app';
import { createSyncWorker } from '../../sync';
import { COMPANIES, makeReport, startTestService, type TestService } from '../support/service-fixture';

// Counts the comparisons, calling the real one.
vi.mock('../../model/report-diff', async (original) => {
  const real = await original<typeof import('../../model/report-diff')>();
  return { ...real, diffReports: vi.fn(real.diffReports) };
});
const diffs = vi.mocked(diff.diffReports);

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'labeldesk-reads-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function counted(file: string): { service: Service; loads: string[] } {
  const loads: string[] = [];
  return { service: openService(file, { onReportLoad: (id) => loads.push(id) }), loads };
}

describe('reads per write', () => {
  it('a PATCH reads its report once and compares once, whatever it changes', async () => {
    const { service, loads } = counted(join(dir, 'patch.sqlite'));
    for (const c of COMPANIES) service.companies.upsert(c);
    service.putReport(makeReport('p1'), { kind: 'import' });
    const key = service.apiKeys.create('acme', ['labelReports:read', 'labelReports:update'], 'patcher').key;
    const app = serviceApp(service).app;
    await app.ready();
    const bodies = [
      { labelReference: 'PO-1' },
      { limits: { maxTemperature: 12 } },
      { hasFlag: true, customFields: [{ customFieldId: 'batch', value: 'B-1' }] },
      { trim: null },
    ];
    for (const body of bodies) {
      loads.length = 0;
      diffs.mockClear();
      const res = await app.inject({ method: 'PATCH', url: '/v2/labelReports/p1', headers: { 'x-api-key': key }, payload: body });
      expect(res.statusCode, res.body).toBe(200);
      expect(loads, JSON.stringify(body)).toEqual(['p1']);
      expect(diffs, JSON.stringify(body)).toHaveBeenCalledTimes(1);
    }
    // Not vacuous: the edits were made and logged, and the answer is the report as written.
    const history = service.history('p1');
    expect(history.filter((h) => h.kind === 'update')).toHaveLength(3);
    const last = JSON.parse(
      (await app.inject({ method: 'GET', url: '/v2/labelReports/p1', headers: { 'x-api-key': key } })).body,
    );
    expect(last).toMatchObject({ labelReference: 'PO-1', hasFlag: true, customFields: [{ customFieldId: 'batch', value: 'B-1' }] });
    expect(last.senseConfig.limits.maxTemperature).toBe(12);
    await app.close();
    service.close();
  });

  describe('a sync pull', () => {
    let remote: TestService;
    beforeAll(async () => {
      remote = await startTestService(['s1', 's2', 's3', 's4'].map((id) => makeReport(id)));
    });
    afterAll(async () => {
      await remote?.stop();
    });

    it('reads each report it brings once, and those it holds already not at all', async () => {
      const { service, loads } = counted(join(dir, 'pull.sqlite'));
      const worker = createSyncWorker(service, { remoteUrl: remote.url, remoteKey: remote.keys.acme, companyId: 'acme' });
      try {
        diffs.mockClear();
        expect(await worker.runCycle()).toEqual({ ok: true });
        const first = [...loads].sort();
        expect(first).toEqual(['s1', 's2', 's3', 's4']);
        // New reports are written whole: nothing to compare.
        expect(diffs).toHaveBeenCalledTimes(0);

        const remoteKey = remote.keys.acme;
        for (const id of ['s2', 's3']) {
          const res = await fetch(`${remote.url}/v2/labelReports/${id}`, {
            method: 'PATCH',
            headers: { 'x-api-key': remoteKey, 'content-type': 'application/json' },
            body: JSON.stringify({ labelReference: `changed-${id}` }),
          });
          expect(res.status).toBe(200);
        }
        loads.length = 0;
        diffs.mockClear();
        expect(await worker.runCycle()).toEqual({ ok: true });
        expect([...loads].sort()).toEqual(['s2', 's3']);
        expect(diffs).toHaveBeenCalledTimes(2);
        expect(service.history('s2').at(-1)).toMatchObject({ kind: 'update', changes: [{ field: 'labelReference', new: 'changed-s2' }] });
      } finally {
        await worker.stop();
        service.close();
      }
    });
  });
});
