/**
 * What the migration tests share: a temporary folder per test file, and a database at the
 * version before a migration, holding the fixture's companies and the given reports.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll } from 'vitest';
import { AuditChain } from '../../db/audit-chain';
import { migrate } from '../../db/database';
import { ReportStore } from '../../db/report-store';
import type { BundleReport } from '../../schema/bundle';
import { reportFromBundle } from '../../service/report-from-bundle';
import { COMPANIES, makeReport } from '../support/service-fixture';

/** A folder made before the file's tests and removed after them; call the result for its path. */
export function temporaryFolder(prefix: string): () => string {
  let dir = '';
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), prefix));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return () => dir;
}

/** A database file at schema `version`, with foreign keys on, holding COMPANIES and `reports`. */
export function databaseAt(file: string, version: number, reports: readonly BundleReport[]): Database.Database {
  const db = new Database(file);
  migrate(db, version);
  db.pragma('foreign_keys = ON');
  const insertCompany = db.prepare('INSERT INTO companies (id, name, short_code) VALUES (?, ?, ?)');
  for (const c of COMPANIES) insertCompany.run(c.id, c.name, c.shortCode);
  const store = new ReportStore(db);
  // One transaction: a commit per report waits on the disk each time.
  db.transaction(() => {
    for (const report of reports) store.write(reportFromBundle(report));
  })();
  return db;
}

/** The reports seededAt writes: custom fields, sharing and a company's own state among them. */
export const SEEDED_REPORTS: readonly BundleReport[] = [
  makeReport('s1', { customFields: [{ customFieldId: 'po', value: 'PO-1' }, { customFieldId: 'pallets', value: 24 }], access: [{ companyId: 'nordic', role: 'viewer' }] }),
  makeReport('s2', { customFields: [{ customFieldId: 'pallets', value: [3, 12] }], companyState: [{ companyId: 'acme', hasFlag: true, isArchived: false }] }),
  makeReport('s3', { trim: { startTime: 1_780_000_000, endTime: 1_780_003_000 } }),
];

/**
 * A database file at schema `version` holding what that version could hold, written as it wrote
 * it: COMPANIES and SEEDED_REPORTS; from 2, change log entries; from 4, review entries (a comment,
 * an acknowledgement and a decision by an API key); from 13, a person with an account event and
 * company settings, a decision they signed, a withdrawal, and every entry sealed into its hash
 * chain, as the service of that version sealed them.
 */
export function seededAt(file: string, version: number): Database.Database {
  const db = databaseAt(file, version, SEEDED_REPORTS);
  const people = version >= 13;
  db.transaction(() => {
    if (people) {
      // The service of that version had sealed the entries before the chains at its first open.
      new AuditChain(db).backfillOnce();
      db.prepare(
        `INSERT INTO users (id, company_id, login, name, role, password_hash, password_changed, created)
         VALUES ('u1', 'acme', 'anna', 'Anna Berg', 'approver', 'scrypt$fixture', '2026-10-01T00:00:00.000Z', '2026-10-01T00:00:00.000Z')`,
      ).run();
      db.prepare(`INSERT INTO user_events (user_id, kind, detail, by_user_id, by_key_id, at) VALUES ('u1', 'created', NULL, NULL, 'cli', '2026-10-01T00:00:00.000Z')`).run();
      db.prepare(`INSERT INTO company_settings (company_id, lock_after_minutes, four_eyes) VALUES ('acme', 30, 1)`).run();
    }
    const chain = people ? new AuditChain(db) : null;
    if (version >= 2) {
      const log = db.prepare(`INSERT INTO change_log (label_report_id, kind, changes, actor, api_key_id, companies, at) VALUES (?, ?, ?, ?, ?, ?, ?)`);
      for (const r of SEEDED_REPORTS) log.run(r.id, 'create', '[]', 'import', null, '["acme","nordic"]', '2026-11-01T00:00:00.000Z');
      const update = log.run('s1', 'update', '[{"field":"labelReference","old":"REF-s1","new":"PO-7"}]', 'apiKey', 'k1', '["acme","nordic"]', '2026-11-02T00:00:00.000Z');
      if (people) db.prepare(`UPDATE change_log SET user_id = 'u1', user_name = 'Anna Berg', reason = 'the carrier asked' WHERE seq = ?`).run(update.lastInsertRowid);
      for (const seq of db.prepare('SELECT seq FROM change_log ORDER BY seq').pluck().all() as number[]) chain?.seal('change_log', seq);
    }
    if (version >= 4) {
      const review = db.prepare(
        `INSERT INTO report_reviews (label_report_id, company_id, kind, text, decision, alert_level, alert_timestamp, api_key_id, api_key_name, at)
         VALUES (?, 'acme', ?, ?, ?, ?, ?, 'k1', 'QA desk', ?)`,
      );
      review.run('s1', 'comment', 'probe checked', null, null, null, '2026-11-03T00:00:00.000Z');
      review.run('s1', 'acknowledgement', 'seen', null, 2, 1_780_000_100, '2026-11-03T00:01:00.000Z');
      review.run('s2', 'decision', 'within limits', 'released', null, null, '2026-11-03T00:02:00.000Z');
      if (people) {
        const signed = db.prepare(
          `INSERT INTO report_reviews (label_report_id, company_id, kind, text, decision, alert_level, alert_timestamp, user_id, user_login, user_name, meaning, zone, at)
           VALUES (?, 'acme', ?, ?, ?, ?, ?, 'u1', 'anna', 'Anna Berg', ?, 'Europe/Berlin', ?)`,
        );
        signed.run('s1', 'decision', 'excursion explained', 'onHold', null, null, 'Reviewed', '2026-11-04T00:00:00.000Z');
        signed.run('s2', 'withdrawal', 'alert changed', null, 1, 1_780_000_200, null, '2026-11-04T00:01:00.000Z');
        signed.run('s2', 'decision', 'released again', 'released', null, null, 'Approved for release', '2026-11-04T00:02:00.000Z');
      }
      for (const id of db.prepare('SELECT id FROM report_reviews ORDER BY id').pluck().all() as number[]) chain?.seal('report_reviews', id);
    }
  })();
  return db;
}
