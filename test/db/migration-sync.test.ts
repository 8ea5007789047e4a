/**
 * The sync migration upgrades a database that holds reports, a change log, webhooks and
 * reviews: every value stays, sync starts off with an empty mirror and outbox, and after the
 * upgrade an edit of a mirrored report is queued in the transaction of the edit.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect, it } from 'vitest';
import { MIGRATIONS, schemaVersion, SCHEMA_VERSION } from '../../db/database';
import sync from '../../db/migrations/005-sync';
import { openService } from '../../host/open-service';
import { databaseAt, temporaryFolder } from './migration-fixture';
import { COMPANIES, makeReport } from '../support/service-fixture';

const dir = temporaryFolder('labeldesk-migration-sync-');

const SYNC_VERSION = MIGRATIONS.indexOf(sync) + 1;
const NOW = () => new Date('2026-11-20T10:00:00.000Z');

it('adds sync to a database holding reports, a change log and webhooks, keeping them as they were', () => {
  expect(SYNC_VERSION).toBeGreaterThan(4);
  const file = join(dir(), 'before-sync.sqlite');
  const bundled = [makeReport('s1', { access: [{ companyId: 'nordic', role: 'editor' }] }), makeReport('s2')];
  const db = databaseAt(file, SYNC_VERSION - 1, bundled);
  // The schema of that version: the entry as its change log held it.
  db.prepare(`INSERT INTO change_log (label_report_id, kind, changes, actor, api_key_id, companies, at) VALUES (?, 'create', '[]', 'import', NULL, ?, ?)`).run('s1', '["acme","nordic"]', '2026-11-01T00:00:00.000Z');
  db.prepare(
    `INSERT INTO webhooks (id, company_id, url, events, description, enabled, created, secret)
     VALUES ('wh1', 'acme', 'http://127.0.0.1:9/hook', '["labelReport.tapped"]', '', 1, '2026-11-01T00:00:00.000Z', 'whsec_c2VjcmV0')`,
  ).run();
  db.close();

  const reference = openService(join(dir(), 'reference.sqlite'), { now: NOW });
  for (const c of COMPANIES) reference.companies.upsert(c);
  for (const report of bundled) reference.putReport(report, { kind: 'import' });

  const upgraded = openService(file, { now: NOW });
  const raw = new Database(file, { readonly: true });
  expect(schemaVersion(raw)).toBe(SCHEMA_VERSION);
  for (const table of ['sync_mirror', 'sync_outbox', 'sync_conflicts', 'sync_dead_letters']) {
    expect(raw.prepare(`SELECT count(*) FROM ${table}`).pluck().get()).toBe(0);
  }
  expect(raw.prepare('SELECT id FROM webhooks').pluck().all()).toEqual(['wh1']);
  raw.close();

  const acme = { keyId: 'k1', companyId: 'acme', permissions: new Set(['labelReports:read', 'labelReports:update'] as const) };
  for (const { id } of bundled) expect(upgraded.reports.retrieve(acme, id)).toEqual(reference.reports.retrieve(acme, id));
  expect(upgraded.history('s1')).toEqual([
    { seq: 1, labelReportId: 's1', kind: 'create', changes: [], actor: { kind: 'import' }, companies: ['acme', 'nordic'], at: '2026-11-01T00:00:00.000Z' },
  ]);
  expect(upgraded.sync.settings()).toEqual({ remoteUrl: null, companyId: null, cursor: { updated: null, ids: [] }, lastReconcileAt: null });
  expect(upgraded.sync.savedState()).toEqual({ state: 'off', lastSuccessAt: null, lastError: null, nextAttemptAt: null });

  // After the upgrade, a report mirrored from a remote is queued when a key edits it; one that
  // exists only here is not.
  upgraded.sync.setRemote('http://127.0.0.1:9', 'acme');
  upgraded.sync.applyRemote([toRemote(upgraded.reports.retrieve(acme, 's1'))], { companyId: 'acme', policy: 'remote' });
  upgraded.reports.update(acme, 's1', { labelReference: 'PO-1', hasFlag: true });
  upgraded.reports.update(acme, 's2', { labelReference: 'PO-2' });
  expect(upgraded.sync.outboxEntries()).toEqual([{ labelReportId: 's1', fields: ['labelReference', 'hasFlag'], since: NOW().toISOString() }]);
  upgraded.close();
  reference.close();
});

/** A report as a remote LabelDesk shows it (the same shape as here). */
function toRemote(report: unknown) {
  return JSON.parse(JSON.stringify(report));
}
