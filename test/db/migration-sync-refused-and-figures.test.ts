/**
 * Migrations 011 (reports refused from the remote) and 012 (whose figures a mirrored report
 * shows) upgrade a version-10 database holding a mirrored report: the report is marked as
 * showing figures computed here and is fetched again at the next reconciliation (its remote
 * `updated` forgotten), a local report stays unmirrored, and the refusal list starts empty and
 * keeps one row per report, the newest reason.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect, it } from 'vitest';
import { DataStore } from '../../db/data-store';
import { MIGRATIONS, schemaVersion, SCHEMA_VERSION } from '../../db/database';
import refused from '../../db/migrations/011-sync-refused';
import mirrorFigures from '../../db/migrations/012-sync-mirror-figures';
import { databaseAt, temporaryFolder } from './migration-fixture';
import { makeReport } from '../support/service-fixture';

const dir = temporaryFolder('labeldesk-migration-sync-refused-figures-');

it('marks mirrored reports to be fetched again with figures computed here, and keeps refusals one per report', () => {
  expect(MIGRATIONS.indexOf(refused) + 1).toBe(11);
  expect(MIGRATIONS.indexOf(mirrorFigures) + 1).toBe(12);
  const file = join(dir(), 'before-remote-figures.sqlite');
  const db = databaseAt(file, 10, [makeReport('m1'), makeReport('local')]);
  db.prepare(`INSERT INTO sync_mirror (label_report_id, remote_updated) VALUES ('m1', '2026-11-01T00:00:00.000Z')`).run();
  db.close();

  const data = DataStore.open(file);
  try {
    const raw = new Database(file, { readonly: true });
    expect(schemaVersion(raw)).toBe(SCHEMA_VERSION);
    expect(raw.prepare('SELECT label_report_id, remote_updated, figures FROM sync_mirror').all()).toEqual([
      { label_report_id: 'm1', remote_updated: null, figures: 'local' },
    ]);
    raw.close();

    const { sync } = data;
    expect(sync.remoteUpdated(['m1', 'local'])).toEqual(new Map([['m1', null]]));
    expect(sync.mirrorFigures('m1')).toBe('local');
    expect(sync.mirrorFigures('local')).toBeUndefined();
    data.write(() => {
      sync.setMirrored('m1', '2026-11-20T00:00:00.000Z');
      sync.setMirrorFigures('m1', 'remote');
    });
    expect(sync.mirrorFigures('m1')).toBe('remote');

    expect(sync.refused()).toEqual([]);
    data.write(() => {
      sync.refuse('n1', 'first reason', '2026-11-20T10:00:00.000Z');
      sync.refuse('n2', 'another', '2026-11-20T10:01:00.000Z');
      sync.refuse('n1', 'newer reason', '2026-11-20T10:02:00.000Z');
    });
    expect(sync.refused()).toEqual([
      { labelReportId: 'n1', reason: 'newer reason', at: '2026-11-20T10:02:00.000Z' },
      { labelReportId: 'n2', reason: 'another', at: '2026-11-20T10:01:00.000Z' },
    ]);
    expect(sync.refusedCount()).toBe(2);
    data.write(() => sync.forgetRefused('n1'));
    expect(sync.refusedIds()).toEqual(['n2']);
    // Another remote's refusals say nothing about the next one.
    data.write(() => sync.setRemote('https://other.example.com', 'acme'));
    expect(sync.refusedCount()).toBe(0);
  } finally {
    data.close();
  }
});
