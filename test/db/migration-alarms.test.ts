/**
 * Migration 014 (alarms) upgrades a version-13 database that already has people: each keeps
 * everything and gains an empty e-mail address, which can then be set; the alarm tables start
 * empty and take a rule of the company.
 */
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { migrate, MIGRATIONS } from '../../db/database';
import alarms from '../../db/migrations/014-alarms';
import { makeReport } from '../support/service-fixture';
import { databaseAt, temporaryFolder } from './migration-fixture';

const dir = temporaryFolder('labeldesk-migration-alarms-');

it('keeps the people, gives them an empty e-mail address, and starts with no alarm', () => {
  const before = MIGRATIONS.indexOf(alarms);
  expect(before + 1).toBe(14);
  const db = databaseAt(join(dir(), 'before-alarms.sqlite'), before, [makeReport('r1')]);
  try {
    db.prepare(
      `INSERT INTO users (id, company_id, login, name, role, password_hash, password_changed, created)
       VALUES ('u1', 'acme', 'anna', 'Anna Berg', 'admin', 'scrypt$x', '2026-11-01T00:00:00.000Z', '2026-11-01T00:00:00.000Z')`,
    ).run();
    migrate(db, before + 1);
    expect(db.prepare('SELECT id, login, name, role, password_hash, email FROM users').all()).toEqual([
      { id: 'u1', login: 'anna', name: 'Anna Berg', role: 'admin', password_hash: 'scrypt$x', email: null },
    ]);
    db.prepare(`UPDATE users SET email = 'anna@acme.example' WHERE id = 'u1'`).run();
    expect(db.prepare('SELECT email FROM users').pluck().get()).toBe('anna@acme.example');
    for (const table of ['alarm_rules', 'alarms', 'alarm_jobs', 'alarm_attempts', 'alarm_notices', 'alarm_settings', 'smtp_settings']) {
      expect(db.prepare(`SELECT count(*) AS n FROM ${table}`).get(), table).toEqual({ n: 0 });
    }
    db.prepare(
      `INSERT INTO alarm_rules (id, company_id, name, min_level, steps, channels, created)
       VALUES ('rule1', 'acme', 'Critical', 2, '[{"users":["u1"],"emails":[]}]', '["email"]', '2026-11-01T00:00:00.000Z')`,
    ).run();
    expect(() => db.prepare(`INSERT INTO alarm_rules (id, company_id, name, min_level, steps, channels, created) VALUES ('r2', 'acme', 'x', 3, '[]', '[]', 'now')`).run()).toThrow(/CHECK/);
  } finally {
    db.close();
  }
});
