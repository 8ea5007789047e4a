/**
 * The one write path and its change log, through the service's own operations (no HTTP):
 * every successful kind of change leaves exactly one entry, in the same transaction as the
 * change; a refused or rolled-back change leaves none and changes nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/database';
import type { Permission } from '../../schema/report';
import type { Caller } from '../../service/api-keys';
import type { Service } from '../../host/open-service';
import { COMPANIES, makeReport } from '../support/service-fixture';
import { column, serviceFile } from '../support/service-files';

const NOW = new Date('2026-11-20T10:00:00.000Z');
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'labeldesk-change-log-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ALL: Permission[] = ['labelReports:read', 'labelReports:update'];
const as = (companyId: string, keyId = `key-${companyId}`): Caller => ({ keyId, companyId, permissions: new Set(ALL) });

function seeded(): Service & { file: string } {
  const service = serviceFile(dir, { now: () => NOW });
  for (const c of COMPANIES) service.companies.upsert(c);
  service.putReport(makeReport('r1', { access: [{ companyId: 'nordic', role: 'editor' }, { companyId: 'fresh', role: 'viewer' }] }), { kind: 'import' });
  return service;
}

const logRows = (service: { file: string }) => column(service.file, 'SELECT count(*) FROM change_log')[0];

describe('PATCH through the service', () => {
  it('logs one update with each changed field, old and new, who and who can see it', () => {
    const service = seeded();
    service.reports.update(as('acme'), 'r1', {
      labelReference: 'PO-1',
      limits: { minTemperature: 0, maxTemperature: 12 },
      customFields: [{ customFieldId: 'batch', value: 'B-42' }],
    });
    const [create, update] = service.history('r1');
    expect(create).toMatchObject({ kind: 'create', changes: [], actor: { kind: 'import' } });
    expect(update).toMatchObject({ kind: 'update', actor: { kind: 'apiKey', keyId: 'key-acme' }, at: NOW.toISOString() });
    expect(update.companies.sort()).toEqual(['acme', 'fresh', 'nordic']);
    const byField = Object.fromEntries(update.changes.map((c) => [c.field, [c.old, c.new]]));
    expect(byField).toMatchObject({
      labelReference: ['REF-r1', 'PO-1'],
      'limits.minTemperature': [2, 0],
      'limits.maxTemperature': [8, 12],
      'customFields.batch': [null, 'B-42'],
    });
    // The limits change recalculated the alert: the log says so too (9, 10 and 1 °C were out).
    expect(byField['alert.level']).toEqual([1, 0]);
    expect(update.changes.map((c) => c.field)).not.toContain('updated');
  });

  it('logs a per-company flag with the company it belongs to', () => {
    const service = seeded();
    service.reports.update(as('fresh'), 'r1', { hasFlag: true });
    service.reports.update(as('fresh'), 'r1', { isArchived: true });
    const [, flag, archive] = service.history('r1');
    expect(flag.changes).toEqual([{ field: 'hasFlag', companyId: 'fresh', old: false, new: true }]);
    expect(archive.changes).toEqual([{ field: 'isArchived', companyId: 'fresh', old: false, new: true }]);
  });

  it('logs nothing when nothing changes: an empty patch or current values', () => {
    const service = seeded();
    const before = service.reports.retrieve(as('acme'), 'r1');
    service.reports.update(as('acme'), 'r1', {});
    service.reports.update(as('acme'), 'r1', { labelReference: 'REF-r1', status: 'active', limits: { maxTemperature: 8 }, hasFlag: false });
    expect(service.history('r1')).toHaveLength(1);
    expect(service.reports.retrieve(as('acme'), 'r1').updated).toBe(before.updated);
  });

  it('a refused patch changes nothing and logs nothing', () => {
    const service = seeded();
    expect(() => service.reports.update(as('nordic'), 'r1', { labelReference: 'x', limits: { maxTemperature: 30 } })).toThrow(/owner can update limits/);
    expect(() => service.reports.update(as('fresh'), 'r1', { labelReference: 'x' })).toThrow(/Viewers can only/);
    expect(() => service.reports.update(as('acme'), 'r1', { limits: { minTemperature: 20 } })).toThrow(/minTemperature 20 is above maxTemperature 8/);
    expect(() => service.reports.update(as('other'), 'r1', { hasFlag: true })).toThrow(/no label report 'r1'/);
    expect(service.history('r1')).toHaveLength(1);
    expect(service.reports.retrieve(as('acme'), 'r1').labelReference).toBe('REF-r1');
  });

  it('a patch whose log write fails rolls back whole: no change, no entry', () => {
    const service = seeded();
    // A real failure inside the transaction, after the report's row was written.
    const raw = openDatabase(service.file);
    raw.exec(`CREATE TRIGGER refuse_log BEFORE INSERT ON change_log BEGIN SELECT RAISE(ABORT, 'disk trouble'); END`);
    raw.close();
    expect(() => service.reports.update(as('acme'), 'r1', { labelReference: 'lost', hasFlag: true })).toThrow(/disk trouble/);
    const report = service.reports.retrieve(as('acme'), 'r1');
    expect(report).toMatchObject({ labelReference: 'REF-r1', hasFlag: false });
    expect(logRows(service)).toBe(1);
  });
});

describe('import, demo and whole reports', () => {
  const bundle = (reports: unknown[], extra: Record<string, unknown> = {}) =>
    Readable.from([Buffer.from(JSON.stringify({ version: 1, companies: COMPANIES, labelReports: reports, ...extra }))]);

  it('an import logs one create per new report, one update per changed report, nothing for an unchanged one', async () => {
    const service = serviceFile(dir, { now: () => NOW });
    expect((await service.importBundle(bundle([makeReport('i1'), makeReport('i2')]))).ok).toBe(true);
    expect(service.history('i1')).toMatchObject([{ kind: 'create', actor: { kind: 'import' }, changes: [], companies: ['acme'] }]);
    expect(logRows(service)).toBe(2);

    const changed = makeReport('i1', { labelReference: 'NEW', reportedSenseData: { datapoints: [{ timestamp: 1_780_000_000, temperature: 4 }] } });
    expect((await service.importBundle(bundle([changed, makeReport('i2')]))).ok).toBe(true);
    expect(logRows(service)).toBe(3);
    const [, update] = service.history('i1');
    expect(update).toMatchObject({ kind: 'update', actor: { kind: 'import' } });
    const fields = Object.fromEntries(update.changes.map((c) => [c.field, c]));
    expect(fields.labelReference).toMatchObject({ old: 'REF-i1', new: 'NEW' });
    expect(fields['reportedSenseData.datapoints']).toMatchObject({ old: { count: 8 }, new: { count: 1 } });
    expect(service.history('i2')).toHaveLength(1);
  });

  it('an import that replaces some reports and brings new ones logs each once, new ones in bundle order, naming who sees them', async () => {
    const service = serviceFile(dir, { now: () => NOW });
    expect((await service.importBundle(bundle([makeReport('m1')]))).ok).toBe(true);
    const shared = makeReport('m3', { access: [{ companyId: 'nordic', role: 'editor' }, { companyId: 'fresh', role: 'viewer' }] });
    const incoming = [makeReport('m4'), makeReport('m1', { labelReference: 'CHANGED' }), shared, makeReport('m2')];
    expect((await service.importBundle(bundle(incoming))).ok).toBe(true);
    expect(column(service.file, 'SELECT label_report_id FROM change_log ORDER BY seq')).toEqual(['m1', 'm1', 'm4', 'm3', 'm2']);
    expect(service.history('m1').map((e) => e.kind)).toEqual(['create', 'update']);
    expect(service.history('m3')).toMatchObject([
      { kind: 'create', actor: { kind: 'import' }, changes: [], companies: ['acme', 'nordic', 'fresh'], at: NOW.toISOString() },
    ]);
    expect(service.reports.retrieve(as('fresh'), 'm3').labelReference).toBe('REF-m3');
  });

  it('a failed import logs nothing and writes nothing', async () => {
    const service = serviceFile(dir, { now: () => NOW });
    const result = await service.importBundle(bundle([makeReport('f1'), { ...makeReport('f2'), companyId: 'ghost' }]));
    expect(result.ok).toBe(false);
    expect(logRows(service)).toBe(0);
    expect(column(service.file, 'SELECT count(*) FROM label_reports')).toEqual([0]);
  });

  it('demo data logs one create per report, by the demo', () => {
    const service = serviceFile(dir, { now: () => NOW });
    service.createDemoData({ reports: 25, seed: 3 });
    expect(column(service.file, "SELECT count(*) FROM change_log WHERE kind = 'create' AND actor = 'demo'")).toEqual([25]);
    expect(logRows(service)).toBe(25);
    // The same demo again changes nothing, so it logs nothing.
    service.createDemoData({ reports: 25, seed: 3 });
    expect(logRows(service)).toBe(25);
  });

  it('every write to a report went through the log: one create per report ever written', () => {
    const service = seeded();
    service.putReport(makeReport('r2'), { kind: 'sync' });
    service.reports.update(as('acme'), 'r2', { status: 'completed' });
    expect(column(service.file, 'SELECT label_report_id FROM change_log WHERE kind = ? ORDER BY seq', 'create')).toEqual(['r1', 'r2']);
    expect(column(service.file, 'SELECT actor FROM change_log ORDER BY seq')).toEqual(['import', 'sync', 'apiKey']);
  });
});
