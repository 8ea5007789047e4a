/**
 * One test per numbered migration: a database at the previous version, holding data, is
 * upgraded and keeps every value, and the new schema works. A newer database is refused, and
 * a migration that fails leaves the file at its old version. A database of every earlier
 * version, holding reports, review entries and audit chains, upgrades to the latest keeping all
 * of it, its kept tables as the read model rebuilds them, and `labeldesk audit verify` passes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../cli/main';
import { DataStore } from '../../db/data-store';
import { migrate, MIGRATIONS, schemaVersion, SCHEMA_VERSION, type Db } from '../../db/database';
import { READ_MODEL } from '../../db/read-model';
import { ReportStore } from '../../db/report-store';
import { openService } from '../../host/open-service';
import { rowsFromReport } from '../../db/report-convert';
import type { BundleReport } from '../../schema/bundle';
import { reportFromBundle } from '../../service/report-from-bundle';

/** A bundle report as the rows a database of any schema version takes. */
const recordFromBundle = (report: BundleReport) => rowsFromReport(reportFromBundle(report));
import { COMPANIES, makeReport } from '../support/service-fixture';
import { SEEDED_REPORTS, seededAt } from './migration-fixture';

let dir: string;
let n = 0;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'labeldesk-migrations-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A raw file at `version`, through the real migrations up to it. */
function fileAt(version: number): { file: string; db: Db } {
  const file = join(dir, `v${version}-${++n}.sqlite`);
  const db = new Database(file);
  migrate(db, version);
  return { file, db };
}

function tables(db: Db): string[] {
  return (db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").pluck().all() as string[]);
}

const caller = { keyId: 'test', companyId: 'acme', permissions: new Set(['labelReports:read', 'labelReports:update'] as const) };

describe('migrations', () => {
  it('are numbered from 1 without gaps, and the newest is the schema version', () => {
    expect(MIGRATIONS.length).toBe(SCHEMA_VERSION);
    expect(SCHEMA_VERSION).toBeGreaterThanOrEqual(2);
  });

  it('001 creates the schema on an empty file', () => {
    const { db } = fileAt(0);
    expect(schemaVersion(db)).toBe(0);
    migrate(db, 1);
    expect(schemaVersion(db)).toBe(1);
    expect(tables(db)).toEqual(['access', 'api_keys', 'companies', 'company_report_state', 'custom_field_values', 'label_reports', 'report_datapoints']);
    db.close();
  });

  it('002 adds the change log to a database with reports, keeping every report as it was', () => {
    const { file, db } = fileAt(1);
    // Data written the way version 1 wrote it: rows straight through the report store.
    const insertCompany = db.prepare('INSERT INTO companies (id, name, short_code) VALUES (?, ?, ?)');
    for (const c of COMPANIES) insertCompany.run(c.id, c.name, c.shortCode);
    const reports = new ReportStore(db);
    const bundled = [
      makeReport('m1', { customFields: [{ customFieldId: 'po', value: 'PO-1' }], access: [{ companyId: 'nordic', role: 'viewer' }] }),
      makeReport('m2', { trim: { startTime: 1_780_000_000, endTime: 1_780_003_000 }, companyState: [{ companyId: 'acme', hasFlag: true, isArchived: false }] }),
    ];
    for (const report of bundled) {
      const r = recordFromBundle(report);
      reports.replace(r);
    }
    db.close();

    // The same reports written by today's code into a fresh database, for comparison.
    const reference = openService(join(dir, `reference-${++n}.sqlite`), { now: () => new Date('2026-11-20T10:00:00.000Z') });
    for (const c of COMPANIES) reference.companies.upsert(c);
    for (const report of bundled) reference.putReport(report, { kind: 'import' });

    const upgraded = openService(file, { now: () => new Date('2026-11-20T10:00:00.000Z') });
    const raw = new Database(file, { readonly: true });
    expect(schemaVersion(raw)).toBe(SCHEMA_VERSION);
    expect(tables(raw)).toContain('change_log');
    expect(raw.prepare('SELECT count(*) FROM change_log').pluck().get()).toBe(0);
    for (const id of ['m1', 'm2']) expect(upgraded.reports.retrieve(caller, id)).toEqual(reference.reports.retrieve(caller, id));

    // The upgraded file logs from now on.
    upgraded.reports.update(caller, 'm1', { labelReference: 'PO-after-upgrade' });
    expect(upgraded.history('m1')).toMatchObject([{ kind: 'update', changes: [{ field: 'labelReference', old: 'REF-m1', new: 'PO-after-upgrade' }] }]);
    raw.close();
    upgraded.close();
    reference.close();
  });

  it('003 adds webhooks to a database with reports and a change log, keeping both as they were', () => {
    const { file, db } = fileAt(2);
    const insertCompany = db.prepare('INSERT INTO companies (id, name, short_code) VALUES (?, ?, ?)');
    for (const c of COMPANIES) insertCompany.run(c.id, c.name, c.shortCode);
    const bundled = makeReport('w1', { access: [{ companyId: 'nordic', role: 'editor' }] });
    const r = recordFromBundle(bundled);
    new ReportStore(db).replace(r);
    // The schema of that version: the entry as its change log held it.
  db.prepare(`INSERT INTO change_log (label_report_id, kind, changes, actor, api_key_id, companies, at) VALUES (?, 'create', '[]', 'import', NULL, ?, ?)`).run('w1', '["acme","nordic"]', '2026-11-01T00:00:00.000Z');
    db.close();

    const reference = openService(join(dir, `reference-${++n}.sqlite`), { now: () => new Date('2026-11-20T10:00:00.000Z') });
    for (const c of COMPANIES) reference.companies.upsert(c);
    reference.putReport(bundled, { kind: 'import' });

    const upgraded = openService(file, { now: () => new Date('2026-11-20T10:00:00.000Z') });
    const raw = new Database(file, { readonly: true });
    expect(schemaVersion(raw)).toBe(SCHEMA_VERSION);
    expect(tables(raw)).toEqual(expect.arrayContaining(['webhooks', 'webhook_messages', 'webhook_attempts', 'change_log']));
    expect(upgraded.reports.retrieve(caller, 'w1')).toEqual(reference.reports.retrieve(caller, 'w1'));
    expect(upgraded.history('w1')).toEqual([
      { seq: 1, labelReportId: 'w1', kind: 'create', changes: [], actor: { kind: 'import' }, companies: ['acme', 'nordic'], at: '2026-11-01T00:00:00.000Z' },
    ]);

    // The upgraded file keeps webhooks, and a message owed to one outlives its connection.
    const manager = { companyId: 'nordic', permissions: new Set(['webhooks:manage'] as const) };
    const created = upgraded.webhooks.create(manager, { url: 'http://127.0.0.1:9/hook', events: ['labelReport.tapped'] });
    const { messageId } = upgraded.webhooks.test(manager, created.id);
    upgraded.close();
    const reopened = openService(file);
    const { secret: _secret, ...shown } = created;
    expect(reopened.webhooks.list(manager)).toEqual([shown]);
    expect(reopened.webhooks.deliveries(manager, created.id, { pageNumber: 1, pageSize: 10 })).toMatchObject({
      data: [{ messageId, type: 'webhook.test', attempt: 1, status: 'pending' }],
      totalDocuments: 1,
    });
    raw.close();
    reopened.close();
    reference.close();
  });

  it('refuses a database from a newer LabelDesk and leaves it alone', () => {
    const { file, db } = fileAt(SCHEMA_VERSION);
    db.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    db.close();
    expect(() => DataStore.open(file)).toThrow(/newer than this LabelDesk understands/);
    const raw = new Database(file, { readonly: true });
    expect(schemaVersion(raw)).toBe(SCHEMA_VERSION + 1);
    raw.close();
  });

  it('a migration that fails leaves the file at its previous version', () => {
    const { file, db } = fileAt(1);
    // A table in the way of migration 002 makes it fail half way.
    db.exec('CREATE INDEX change_log_report ON companies(id)');
    db.close();
    expect(() => DataStore.open(file)).toThrow(/change_log_report/);
    const raw = new Database(file, { readonly: true });
    expect(schemaVersion(raw)).toBe(1);
    expect(tables(raw)).not.toContain('change_log');
    raw.close();
  });
});

/** Every row of `table`, the given columns, in a stable order. */
const rowsOf = (db: Db, table: string, columns: readonly string[]) =>
  db.prepare(`SELECT ${columns.map((c) => `"${c}"`).join(', ')} FROM "${table}" ORDER BY ${columns.map((_, i) => i + 1).join(', ')}`).raw().all();

/**
 * What a database holds besides what the read model derives: every table but the kept ones (and
 * those a later migration replaced: migration 33's shipment_listing took the place of
 * shipment_groups), SQLite's own, the text index's and the audit backfill's (a task, done at the
 * first open), with its columns and rows.
 */
function heldRows(db: Db): Map<string, { columns: string[]; rows: unknown[][] }> {
  const kept = new Set([...READ_MODEL.flatMap((d) => d.tables.map((t) => t.name)), 'shipment_groups']);
  const held = new Map<string, { columns: string[]; rows: unknown[][] }>();
  for (const table of tables(db)) {
    if (kept.has(table) || table.startsWith('report_text_') || table === 'audit_backfill') continue;
    const columns = (db.pragma(`table_info("${table}")`) as { name: string }[]).map((c) => c.name);
    held.set(table, { columns, rows: rowsOf(db, table, columns) as unknown[][] });
  }
  return held;
}

/** The kept tables of whole numbers and texts (the group figures' sums of reals aside), each as rows. */
function keptRows(db: Db): Record<string, unknown[][]> {
  const exact = ['report_listing', 'custom_field_elements', 'listing_counts', 'custom_field_counts', 'custom_field_totals', 'custom_field_pair_counts', 'review_current', 'shipment_listing', 'shipment_counts'];
  return Object.fromEntries(
    exact.map((table) => [table, rowsOf(db, table, (db.pragma(`table_info("${table}")`) as { name: string }[]).map((c) => c.name)) as unknown[][]]),
  );
}

async function cli(argv: string[]): Promise<{ code: number; out: string }> {
  const out = new PassThrough();
  const err = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  err.resume();
  const code = await main(argv, { out, err });
  return { code, out: Buffer.concat(chunks).toString('utf8') };
}

describe('a database of every earlier schema version', () => {
  const versions = Array.from({ length: SCHEMA_VERSION - 1 }, (_, i) => i + 1);
  it.each(versions)('at version %i, upgrades to the latest keeping its reports, reviews and audit chains, and its audit trail verifies', async (version) => {
    const file = join(dir, `earlier-v${version}.sqlite`);
    const db = seededAt(file, version);
    const before = heldRows(db);
    db.close();

    // Opening the file migrates it and seals the entries written before the chains.
    DataStore.open(file).close();
    const upgraded = new Database(file);
    expect(schemaVersion(upgraded)).toBe(SCHEMA_VERSION);
    expect(before.size).toBeGreaterThan(5);
    for (const [table, { columns, rows }] of before) expect(rowsOf(upgraded, table, columns), table).toEqual(rows);
    expect(upgraded.prepare('SELECT count(*) FROM label_reports').pluck().get()).toBe(SEEDED_REPORTS.length);
    const entries = (table: string) => (tables(upgraded).includes(table) ? (upgraded.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number) : 0);
    const logged = entries('change_log');
    const reviewed = entries('report_reviews');
    expect(logged).toBe(version >= 2 ? SEEDED_REPORTS.length + 1 : 0);
    expect(reviewed).toBe(version >= 13 ? 6 : version >= 4 ? 3 : 0);
    expect(upgraded.prepare('SELECT count(*) FROM change_log WHERE hash IS NULL').pluck().get()).toBe(0);
    expect(upgraded.prepare('SELECT count(*) FROM report_reviews WHERE hash IS NULL').pluck().get()).toBe(0);

    // What the migrations kept of the read model is what the declarations rebuild from it.
    const kept = keptRows(upgraded);
    const store = new ReportStore(upgraded);
    let rebuilt: Record<string, unknown[][]> = {};
    const rollback = new Error('rolled back');
    expect(() =>
      upgraded.transaction(() => {
        store.writingMany(SEEDED_REPORTS.length, () => undefined);
        rebuilt = keptRows(upgraded);
        throw rollback;
      })(),
    ).toThrow(rollback);
    expect(kept).toEqual(rebuilt);
    upgraded.close();

    const verified = await cli(['audit', 'verify', '--db', file]);
    // A change log chain per report; a review chain for each of the two reports reviewed.
    const chains = (version >= 2 ? SEEDED_REPORTS.length : 0) + (version >= 4 ? 2 : 0);
    // Its first line is the chains' verdict; what follows is about signed checkpoints, which no fixture signs.
    expect(verified.out.split('\n')[0]).toBe(`${logged + reviewed} entries in ${chains} chains checked: the audit trail is sound`);
    expect(verified.code).toBe(0);
  });
});
