/**
 * The review migration upgrades a database that holds reports, a change log and webhooks: every
 * value stays, the review tables start empty, and reviews written after the upgrade are kept,
 * also across an import that replaces their report.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect, it } from 'vitest';
import { migrate, MIGRATIONS, schemaVersion, SCHEMA_VERSION } from '../../db/database';
import review from '../../db/migrations/004-review';
import { openService } from '../../host/open-service';
import { databaseAt, temporaryFolder } from './migration-fixture';
import { COMPANIES, makeReport } from '../support/service-fixture';

const dir = temporaryFolder('labeldesk-migration-review-');

/** The version this migration takes the schema to. */
const REVIEW_VERSION = MIGRATIONS.indexOf(review) + 1;
const NOW = () => new Date('2026-11-20T10:00:00.000Z');

it('adds the review to a database holding reports, a change log and webhooks, keeping them as they were', () => {
  expect(REVIEW_VERSION).toBeGreaterThan(3);
  const file = join(dir(), 'before-review.sqlite');
  const bundled = makeReport('v1', { access: [{ companyId: 'nordic', role: 'editor' }] });
  const db = databaseAt(file, REVIEW_VERSION - 1, [bundled]);
  // The schema of that version: the entry as its change log held it.
  db.prepare(`INSERT INTO change_log (label_report_id, kind, changes, actor, api_key_id, companies, at) VALUES (?, 'create', '[]', 'import', NULL, ?, ?)`).run('v1', '["acme","nordic"]', '2026-11-01T00:00:00.000Z');
  db.prepare(
    `INSERT INTO webhooks (id, company_id, url, events, description, enabled, created, secret)
     VALUES ('wh1', 'acme', 'http://127.0.0.1:9/hook', '["labelReport.tapped"]', '', 1, '2026-11-01T00:00:00.000Z', 'whsec_c2VjcmV0')`,
  ).run();
  db.close();

  const reference = openService(join(dir(), 'reference.sqlite'), { now: NOW });
  for (const c of COMPANIES) reference.companies.upsert(c);
  reference.putReport(bundled, { kind: 'import' });

  const upgraded = openService(file, { now: NOW });
  const raw = new Database(file, { readonly: true });
  expect(schemaVersion(raw)).toBe(SCHEMA_VERSION);
  expect(raw.prepare('SELECT count(*) FROM report_reviews').pluck().get()).toBe(0);
  expect(raw.prepare('SELECT id FROM webhooks').pluck().all()).toEqual(['wh1']);
  raw.close();

  const acme = { keyId: upgraded.apiKeys.create('acme', ['labelReports:read', 'labelReports:update'], 'QA desk').id, companyId: 'acme', permissions: new Set(['labelReports:read', 'labelReports:update'] as const) };
  expect(upgraded.reports.retrieve(acme, 'v1')).toEqual(reference.reports.retrieve(acme, 'v1'));
  expect(upgraded.history('v1')).toEqual([
    { seq: 1, labelReportId: 'v1', kind: 'create', changes: [], actor: { kind: 'import' }, companies: ['acme', 'nordic'], at: '2026-11-01T00:00:00.000Z' },
  ]);

  // Reviews written on the upgraded file outlive the connection and an import of their report.
  upgraded.reviews.comment(acme, 'v1', { text: 'Pallet checked on arrival' });
  upgraded.reviews.decide(acme, 'v1', { decision: 'released', reason: 'Within the stability budget' });
  upgraded.putReport({ ...bundled, labelReference: 'REF-reimported' }, { kind: 'import' });
  upgraded.close();
  const reopened = openService(file, { now: NOW });
  expect(reopened.reviews.review(acme, 'v1')).toMatchObject({
    acknowledgement: null,
    decision: { decision: 'released', reason: 'Within the stability budget', by: { keyName: 'QA desk' }, at: NOW().toISOString() },
    comments: [{ text: 'Pallet checked on arrival' }],
  });
  reopened.close();
  reference.close();
});

it('refuses an entry that is not one of the three kinds, or a decision without its value', () => {
  const file = join(dir(), 'checks.sqlite');
  const db = new Database(file);
  migrate(db, REVIEW_VERSION);
  db.prepare("INSERT INTO companies (id, name, short_code) VALUES ('acme', 'Acme', 'A')").run();
  const insert = db.prepare(
    `INSERT INTO report_reviews (label_report_id, company_id, kind, text, decision, alert_level, api_key_id, at)
     VALUES ('r', 'acme', ?, 'x', ?, ?, 'k', '2026-11-01T00:00:00.000Z')`,
  );
  expect(() => insert.run('like', null, null)).toThrow(/CHECK/);
  expect(() => insert.run('decision', null, null)).toThrow(/CHECK/);
  expect(() => insert.run('comment', 'released', null)).toThrow(/CHECK/);
  expect(() => insert.run('acknowledgement', null, null)).toThrow(/CHECK/);
  expect(insert.run('acknowledgement', null, 1).changes).toBe(1);
  db.close();
});
