/**
 * Migration 014 adds alarms beside a database of schema 13: people keep every value and gain an
 * empty e-mail address, and the new tables refuse what the rules never write.
 */
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { migrate, SCHEMA_VERSION, schemaVersion } from '../../db/database';
import { databaseAt, temporaryFolder } from './migration-fixture';
import { makeReport } from '../support/service-fixture';

const folder = temporaryFolder('labeldesk-migration-alarms-');

describe('migration 014: alarms', () => {
  test('people keep their rows and gain an e-mail address; the alarm tables take rules, alarms and jobs', () => {
    const db = databaseAt(join(folder(), 'v13.sqlite'), 13, [makeReport('r1')]);
    try {
      db.prepare(
        `INSERT INTO users (id, company_id, login, name, role, password_hash, password_changed, created)
         VALUES ('u1', 'acme', 'anna', 'Anna Berg', 'admin', 'scrypt$x', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')`,
      ).run();
      migrate(db, 14);
      expect(schemaVersion(db)).toBe(14);
      expect(SCHEMA_VERSION).toBeGreaterThanOrEqual(14);
      expect(db.prepare('SELECT login, name, role, email FROM users').all()).toEqual([{ login: 'anna', name: 'Anna Berg', role: 'admin', email: null }]);

      db.prepare(
        `INSERT INTO alarm_rules (id, company_id, name, min_level, steps, channels, created)
         VALUES ('rule1', 'acme', 'Warm', 1, '[{"users":["u1"],"emails":[]}]', '["email"]', '2026-01-01T00:00:00.000Z')`,
      ).run();
      const alarm = db.prepare(
        `INSERT INTO alarms (id, rule_id, company_id, label_report_id, label_reference, level, alert_timestamp, excursion, cause, created)
         VALUES (?, 'rule1', 'acme', 'r1', 'REF-r1', ?, 0, 'warm', 'tap', '2026-01-01T00:00:00.000Z')`,
      );
      alarm.run('a1', 2);
      // Once per rule, report and level.
      expect(() => alarm.run('a2', 2)).toThrow(/UNIQUE/);
      expect(() => alarm.run('a3', 0)).toThrow(/CHECK/);
      expect(() =>
        db.prepare("INSERT INTO alarm_rules (id, company_id, name, min_level, steps, channels, created) VALUES ('x', 'acme', 'x', 3, '[]', '[]', 'now')").run(),
      ).toThrow(/CHECK/);
      db.prepare(
        `INSERT INTO alarm_jobs (id, kind, alarm_id, company_id, recipients, status, next_attempt_at, created)
         VALUES ('mail1', 'email', 'a1', 'acme', '["qa@acme.example"]', 'pending', 'now', 'now')`,
      ).run();
      expect(() =>
        db.prepare("INSERT INTO alarm_jobs (id, kind, company_id, status, next_attempt_at, created) VALUES ('j', 'sms', 'acme', 'pending', 'now', 'now')").run(),
      ).toThrow(/CHECK/);
      // The relay's settings have no place for a password.
      const columns = (db.prepare('PRAGMA table_info(smtp_settings)').all() as { name: string }[]).map((c) => c.name);
      expect(columns.some((c) => /pass|secret/i.test(c))).toBe(false);
    } finally {
      db.close();
    }
  });
});
