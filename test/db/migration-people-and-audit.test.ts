/**
 * Migration 013 (people and the audit trail) upgrades a version-12 database holding reviews
 * written by keys: every entry keeps its id, text, alert and the key that wrote it, new entries
 * continue the numbering, and the new kinds and columns are accepted: a withdrawal, an entry a
 * signed-in person wrote without a key, a signature's meaning and zone.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect, it } from 'vitest';
import { MIGRATIONS, openDatabase, schemaVersion, SCHEMA_VERSION } from '../../db/database';
import { DataStore } from '../../db/data-store';
import peopleAndAudit from '../../db/migrations/013-people-and-audit';
import { databaseAt, temporaryFolder } from './migration-fixture';
import { makeReport } from '../support/service-fixture';

const dir = temporaryFolder('labeldesk-migration-people-');

it('keeps every review entry written by a key and accepts people, signatures and withdrawals', () => {
  expect(MIGRATIONS.indexOf(peopleAndAudit) + 1).toBe(13);
  const file = join(dir(), 'before-people.sqlite');
  const db = databaseAt(file, 12, [makeReport('r1')]);
  const insert = db.prepare(
    `INSERT INTO report_reviews (label_report_id, company_id, kind, text, decision, alert_level, alert_timestamp, api_key_id, api_key_name, at)
     VALUES (?, 'acme', ?, ?, ?, ?, ?, 'k1', 'QA desk', ?)`,
  );
  insert.run('r1', 'acknowledgement', 'seen', null, 2, 1700000000, '2026-11-01T00:00:00.000Z');
  insert.run('r1', 'decision', 'fine', 'released', null, null, '2026-11-01T00:01:00.000Z');
  db.prepare(`INSERT INTO change_log (label_report_id, kind, changes, actor, api_key_id, companies, at) VALUES ('r1', 'create', '[]', 'import', NULL, '["acme"]', '2026-11-01T00:00:00.000Z')`).run();
  db.close();

  // The migration alone, before the data store seals the old entries into their chains.
  openDatabase(file).close();
  const migrated = new Database(file, { readonly: true });
  expect(schemaVersion(migrated)).toBe(SCHEMA_VERSION);
  expect(migrated.prepare('SELECT seq, reason, user_id, hash FROM change_log').all()).toEqual([{ seq: 1, reason: null, user_id: null, hash: null }]);
  migrated.close();

  const data = DataStore.open(file);
  try {
    const raw = new Database(file, { readonly: true });
    expect(raw.prepare('SELECT COUNT(*) FROM change_log WHERE hash IS NULL').pluck().get()).toBe(0);
    // Sealed once: later opens do not read the chains again.
    expect(raw.prepare('SELECT COUNT(*) FROM audit_backfill').pluck().get()).toBe(0);
    raw.close();

    const before = data.reviews.entries('r1', 'acme');
    expect(before.map((e) => [e.id, e.kind, e.text, e.decision, e.alert, e.keyId, e.keyName, e.person, e.meaning])).toEqual([
      [1, 'acknowledgement', 'seen', null, { level: 2, timestamp: 1700000000 }, 'k1', 'QA desk', null, null],
      [2, 'decision', 'fine', 'released', null, 'k1', 'QA desk', null, null],
    ]);

    const person = { id: 'u1', login: 'anna', name: 'Anna Berg' };
    const signed = data.write(() =>
      data.reviews.append({
        reportId: 'r1', companyId: 'acme', kind: 'decision', text: 'checked', decision: 'rejected', alert: null,
        keyId: null, keyName: null, person, meaning: 'Rejected', zone: 'Europe/Berlin', at: '2026-11-02T00:00:00.000Z',
      }),
    );
    // AUTOINCREMENT goes on after the copied entries: ids keep the order entries were written in.
    expect(signed).toBe(3);
    data.write(() =>
      data.reviews.append({
        reportId: 'r1', companyId: 'acme', kind: 'withdrawal', text: 'alert changed', decision: null, alert: { level: 0, timestamp: 0 },
        keyId: null, keyName: null, person, meaning: null, zone: null, at: '2026-11-03T00:00:00.000Z',
      }),
    );
    const after = data.reviews.entries('r1', 'acme');
    expect(after.slice(2).map((e) => [e.id, e.kind, e.keyId, e.person, e.meaning, e.zone])).toEqual([
      [3, 'decision', null, person, 'Rejected', 'Europe/Berlin'],
      [4, 'withdrawal', null, person, null, null],
    ]);
    // An entry names a key or a person: never neither.
    expect(() =>
      data.write(() =>
        data.reviews.append({
          reportId: 'r1', companyId: 'acme', kind: 'comment', text: 'x', decision: null, alert: null,
          keyId: null, keyName: null, person: null, meaning: null, zone: null, at: '2026-11-03T00:00:00.000Z',
        }),
      ),
    ).toThrow(/CHECK constraint/);
  } finally {
    data.close();
  }
});
