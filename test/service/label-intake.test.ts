/**
 * Activation and taps through the service (no HTTP), on real SQLite files: each leaves exactly
 * one change log entry, written by the key; a tap that fails inside its transaction leaves
 * nothing at all.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/database';
import type { Permission } from '../../schema/report';
import { MAX_DATAPOINTS } from '../../schema/sense';
import type { Caller } from '../../service/api-keys';
import type { Service } from '../../host/open-service';
import { COMPANIES, makeActivation, makeReport, series, T0 } from '../support/service-fixture';
import { column, serviceFile } from '../support/service-files';

const NOW = new Date('2026-11-20T10:00:00.000Z');
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'labeldesk-intake-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const PERMISSIONS: Permission[] = ['labelReports:create', 'labelReports:read'];
const as = (companyId: string): Caller => ({ keyId: `key-${companyId}`, companyId, permissions: new Set(PERMISSIONS) });

const ACTIVATION = makeActivation('a1');

function seeded(): Service & { file: string } {
  const service = serviceFile(dir, { now: () => NOW });
  for (const c of COMPANIES) service.companies.upsert(c);
  return service;
}

const logRows = (service: { file: string }) => column(service.file, 'SELECT count(*) FROM change_log')[0];

describe('the change log', () => {
  it('an activation logs one create by the key; each tap one update with what it changed', () => {
    const service = seeded();
    service.intake.activate(as('acme'), ACTIVATION);
    expect(service.history('a1')).toEqual([
      { seq: 1, labelReportId: 'a1', kind: 'create', changes: [], actor: { kind: 'apiKey', keyId: 'key-acme' }, companies: ['acme'], at: NOW.toISOString() },
    ]);

    service.intake.tap(as('acme'), 'a1', { datapoints: series(T0, 600, [4, 9]), currentTime: T0 + 700 });
    const [, tap] = service.history('a1');
    expect(tap).toMatchObject({ kind: 'update', actor: { kind: 'apiKey', keyId: 'key-acme' }, companies: ['acme'] });
    const byField = Object.fromEntries(tap.changes.map((c) => [c.field, [c.old, c.new]]));
    expect(byField).toEqual({
      numberOfTaps: [0, 1],
      'reportedSenseData.currentTime': [null, T0 + 700],
      'reportedSenseData.datapoints': [expect.objectContaining({ count: 0 }), expect.objectContaining({ count: 2 })],
      'alert.level': [-1, 1],
      'alert.timestamp': [0, T0 + 600],
    });

    // Nothing new but the count: the entry says just that (and the counters it no longer reports).
    service.intake.tap(as('acme'), 'a1', { datapoints: series(T0, 600, [4, 9]) });
    expect(service.history('a1')[2].changes).toEqual([
      { field: 'numberOfTaps', old: 1, new: 2 },
      { field: 'reportedSenseData.currentTime', old: T0 + 700, new: null },
    ]);
    expect(logRows(service)).toBe(3);
  });

  it('a refused activation or tap logs nothing', () => {
    const service = seeded();
    service.intake.activate(as('acme'), ACTIVATION);
    expect(() => service.intake.activate(as('acme'), ACTIVATION)).toThrow(/exists already/);
    expect(() => service.intake.tap(as('nordic'), 'a1', { datapoints: [] })).toThrow(/no label report 'a1'/);
    const readOnly: Caller = { ...as('acme'), permissions: new Set<Permission>(['labelReports:read']) };
    expect(() => service.intake.tap(readOnly, 'a1', { datapoints: [] })).toThrow(/labelReports:create/);
    expect(logRows(service)).toBe(1);
  });

  it('a tap whose log write fails rolls back whole: no reading, no count, no entry', () => {
    const service = seeded();
    service.intake.activate(as('acme'), ACTIVATION);
    const before = service.reports.retrieve(as('acme'), 'a1');
    const raw = openDatabase(service.file);
    raw.exec(`CREATE TRIGGER refuse_log BEFORE INSERT ON change_log BEGIN SELECT RAISE(ABORT, 'disk trouble'); END`);
    raw.close();
    expect(() => service.intake.tap(as('acme'), 'a1', { datapoints: series(T0, 600, [4, 9]) })).toThrow(/disk trouble/);
    expect(service.reports.retrieve(as('acme'), 'a1')).toEqual(before);
    expect(logRows(service)).toBe(1);
  });
});

describe('events, to the webhook outbox in the same transaction', () => {
  const manager = (companyId: string) => ({ companyId, permissions: new Set<Permission>(['webhooks:manage']) });
  /** A webhook of the company, taking both events. */
  const subscribe = (service: Service, companyId: string) =>
    service.webhooks.create(manager(companyId), { url: 'http://127.0.0.1:9/hook', events: ['labelReport.activated', 'labelReport.tapped'] }).id;
  /** What the webhook is owed, oldest first: each message's type and the report its body carries. */
  const owed = (service: Service & { file: string }, webhookId: string) =>
    (column(service.file, 'SELECT body FROM webhook_messages WHERE webhook_id = ? ORDER BY created, rowid', webhookId) as string[])
      .map((body) => JSON.parse(body))
      .map(({ type, data }) => ({ type, id: data.id, numberOfTaps: data.numberOfTaps }));

  it('an activation announces labelReport.activated, each tap labelReport.tapped, with the report as it then is', () => {
    const service = seeded();
    const hook = subscribe(service, 'acme');
    const elsewhere = subscribe(service, 'nordic');
    service.intake.activate(as('acme'), ACTIVATION);
    service.intake.tap(as('acme'), 'a1', { datapoints: series(T0, 600, [4]) });
    service.intake.tap(as('acme'), 'a1', { datapoints: [] });
    expect(owed(service, hook)).toEqual([
      { type: 'labelReport.activated', id: 'a1', numberOfTaps: 0 },
      { type: 'labelReport.tapped', id: 'a1', numberOfTaps: 1 },
      { type: 'labelReport.tapped', id: 'a1', numberOfTaps: 2 },
    ]);
    const pending = service.webhooks.deliveries(manager('acme'), hook, { pageNumber: 1, pageSize: 10 });
    expect(pending.data.map((d) => [d.type, d.status]).sort()).toEqual([
      ['labelReport.activated', 'pending'],
      ['labelReport.tapped', 'pending'],
      ['labelReport.tapped', 'pending'],
    ]);
    // A company that cannot see the report hears nothing of it.
    expect(owed(service, elsewhere)).toEqual([]);
  });

  it('a tap of a shared report is announced to the companies that see it', () => {
    const service = seeded();
    service.putReport(makeReport('shared', { access: [{ companyId: 'fresh', role: 'viewer' }] }), { kind: 'import' });
    const viewer = subscribe(service, 'fresh');
    service.intake.tap(as('acme'), 'shared', { datapoints: [] });
    expect(owed(service, viewer)).toEqual([{ type: 'labelReport.tapped', id: 'shared', numberOfTaps: 2 }]);
  });

  it('a tap that rolls back or is refused announces nothing', () => {
    const service = seeded();
    const hook = subscribe(service, 'acme');
    service.putReport(makeReport('shared', { access: [{ companyId: 'fresh', role: 'viewer' }] }), { kind: 'import' });
    expect(() => service.intake.tap(as('fresh'), 'shared', { datapoints: [] })).toThrow(/owner/);
    service.intake.activate(as('acme'), ACTIVATION);
    expect(() => service.intake.activate(as('acme'), ACTIVATION)).toThrow(/exists already/);
    const raw = openDatabase(service.file);
    raw.exec(`CREATE TRIGGER refuse_log BEFORE INSERT ON change_log BEGIN SELECT RAISE(ABORT, 'disk trouble'); END`);
    raw.close();
    expect(() => service.intake.tap(as('acme'), 'a1', { datapoints: series(T0, 600, [4]) })).toThrow(/disk trouble/);
    expect(owed(service, hook)).toEqual([{ type: 'labelReport.activated', id: 'a1', numberOfTaps: 0 }]);
  });
});

describe('a report’s size', () => {
  it('a tap that would take a report past the most datapoints one holds is refused', () => {
    const service = seeded();
    const full = makeReport('big');
    // Built directly: parsing a million datapoints through zod would take the test's time.
    service.putReport({ ...full, reportedSenseData: { datapoints: series(T0, 1, new Array<number>(MAX_DATAPOINTS - 1).fill(5)) } }, { kind: 'import' });
    const next = T0 + MAX_DATAPOINTS;
    expect(() => service.intake.tap(as('acme'), 'big', { datapoints: series(next, 1, [5, 5]) })).toThrow(
      `with this tap the report would hold ${MAX_DATAPOINTS + 1} datapoints`,
    );
    // Readings it holds already do not count twice.
    const report = service.intake.tap(as('acme'), 'big', { datapoints: series(next - 10, 1, new Array<number>(10).fill(5)) });
    expect(report.report.calculatedSenseData.numberOfDatapointsRead).toBe(MAX_DATAPOINTS);
  });
});
