/**
 * Migration 010 (leases on the sync outbox) upgrades a version-9 database holding a mirrored
 * report with a pending entry: the entry stays as it was, unleased with no attempt counted, and
 * is the push queue's to take; the six queue methods of db/sync-store.ts work on it.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect, it } from 'vitest';
import { DataStore } from '../../db/data-store';
import { MIGRATIONS, schemaVersion, SCHEMA_VERSION } from '../../db/database';
import leases from '../../db/migrations/010-sync-outbox-leases';
import { databaseAt, temporaryFolder } from './migration-fixture';
import { makeReport } from '../support/service-fixture';

const dir = temporaryFolder('labeldesk-migration-sync-outbox-leases-');

const LEASES_VERSION = MIGRATIONS.indexOf(leases) + 1;

it('keeps pending entries, unleased with no attempt counted, and leases them to one process at a time', () => {
  expect(LEASES_VERSION).toBe(10);
  const file = join(dir(), 'before-leases.sqlite');
  const db = databaseAt(file, LEASES_VERSION - 1, [makeReport('s1'), makeReport('s2')]);
  const fields = { labelReference: { base: 'PO-0', value: 'PO-1' } };
  db.prepare(`INSERT INTO sync_mirror (label_report_id, remote_updated) VALUES ('s1', '2026-11-01T00:00:00.000Z'), ('s2', NULL)`).run();
  db.prepare(
    `INSERT INTO sync_outbox (label_report_id, fields, since, version) VALUES
       ('s1', ?, '2026-11-02T00:00:00.000Z', 3), ('s2', ?, '2026-11-01T00:00:00.000Z', 1)`,
  ).run(JSON.stringify(fields), JSON.stringify(fields));
  db.close();

  const data = DataStore.open(file);
  try {
    const raw = new Database(file, { readonly: true });
    expect(schemaVersion(raw)).toBe(SCHEMA_VERSION);
    expect(raw.prepare('SELECT label_report_id, version, attempts, lease_until, lease_pid FROM sync_outbox ORDER BY label_report_id').all()).toEqual([
      { label_report_id: 's1', version: 3, attempts: 0, lease_until: null, lease_pid: null },
      { label_report_id: 's2', version: 1, attempts: 0, lease_until: null, lease_pid: null },
    ]);
    raw.close();

    const { sync } = data;
    const now = '2026-11-20T10:00:00.000Z';
    const later = '2026-11-20T10:05:00.000Z';
    // Oldest first, as the push has always sent them.
    expect(sync.duePushes(now, 10)).toEqual([
      { labelReportId: 's2', fields, since: '2026-11-01T00:00:00.000Z', version: 1, attempts: 0 },
      { labelReportId: 's1', fields, since: '2026-11-02T00:00:00.000Z', version: 3, attempts: 0 },
    ]);
    expect(sync.nextPushDueAt(7, now)).toBe(now);

    data.write(() => sync.leasePush('s2', later, 7));
    expect(sync.duePushes(now, 10).map((e) => e.labelReportId)).toEqual(['s1']);
    expect(sync.pushLeaseHolders()).toEqual([7]);
    // Another process waits for s1 now and s2 when its lease runs out; the holder sees only s1.
    data.write(() => sync.leasePush('s1', later, 8));
    expect(sync.nextPushDueAt(9, now)).toBe(later);
    expect(sync.nextPushDueAt(7, now)).toBe(later);
    expect(sync.duePushes(later, 10).map((e) => e.labelReportId)).toEqual(['s2', 's1']);

    // A failed attempt is counted as its lease is given back; one that went out starts the count again.
    data.write(() => sync.releasePush('s2', 7, 'failed'));
    data.write(() => sync.releasePush('s1', 7, 'failed')); // not 7's: nothing happens
    expect(sync.duePushes(now, 10)).toMatchObject([{ labelReportId: 's2', attempts: 1 }]);
    data.write(() => sync.leasePush('s2', later, 7));
    data.write(() => sync.releasePush('s2', 7, 'untried'));
    expect(sync.duePushes(now, 10)).toMatchObject([{ labelReportId: 's2', attempts: 1 }]);
    expect(data.write(() => sync.releasePushLeases(8))).toBe(1);
    expect(sync.pushLeaseHolders()).toEqual([]);
    data.write(() => sync.leasePush('s2', later, 7));
    data.write(() => sync.releasePush('s2', 7, 'sent'));
    expect(sync.duePushes(now, 10)).toMatchObject([
      { labelReportId: 's2', attempts: 0 },
      { labelReportId: 's1', attempts: 0 },
    ]);

    // A local edit merged into a leased entry keeps the lease: the push that holds it decides.
    data.write(() => sync.leasePush('s1', later, 7));
    data.write(() => sync.putOutbox({ labelReportId: 's1', fields: { labelReference: { base: 'PO-0', value: 'PO-2' } }, since: '2026-11-02T00:00:00.000Z', version: 4 }));
    expect(sync.pushLeaseHolders()).toEqual([7]);
    expect(sync.duePushes(now, 10).map((e) => e.labelReportId)).toEqual(['s2']);
  } finally {
    data.close();
  }
});
