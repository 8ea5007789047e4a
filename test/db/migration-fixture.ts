/**
 * What the migration tests share: a temporary folder per test file, and a database at the
 * version before a migration, holding the fixture's companies and the given reports.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll } from 'vitest';
import { migrate } from '../../db/database';
import { ReportStore } from '../../db/report-store';
import type { BundleReport } from '../../schema/bundle';
import { reportFromBundle } from '../../service/report-from-bundle';
import { COMPANIES } from '../support/service-fixture';

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
