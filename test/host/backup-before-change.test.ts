/**
 * A backup before every change to the whole file: the service opening a database of an older
 * schema backs it up as it was before migrating it (reason `migration`, the old schema version
 * in the manifest, recorded once the table exists), and `labeldesk import` into a database that
 * holds anything backs it up first (reason `import`).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { migrate, SCHEMA_VERSION } from '../../db/database';
import { startService } from '../../host/start-service';
import { exported, serviceFile } from '../support/service-files';
import { COMPANIES, makeReport } from '../support/service-fixture';
import { runLabeldeskInProcess } from '../cli/run-labeldesk';
import { writeFileSync } from 'node:fs';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'labeldesk-backup-before-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('the service backs up a database of an older schema before it migrates it', async () => {
  const dbFile = join(dir, 'old.db');
  const old = new Database(dbFile);
  migrate(old, SCHEMA_VERSION - 1);
  old.prepare("INSERT INTO companies (id, name, short_code) VALUES ('acme', 'Acme', 'AC')").run();
  old.close();
  const running = await startService({ dbFile, port: 0, backup: { dir: join(dir, 'b'), everyHours: 0 } });
  try {
    const status = running.service.backups.status();
    expect(status.backups).toMatchObject([{ reason: 'migration', ok: true, counts: { companies: 1 } }]);
    const manifest = JSON.parse(readFileSync(status.backups[0].file.replace(/\.sqlite$/, '.json'), 'utf8'));
    expect(manifest).toMatchObject({ reason: 'migration', schemaVersion: SCHEMA_VERSION - 1, verification: { ok: true } });
  } finally {
    await running.close();
  }
  // Opened again at the current schema: nothing to migrate, no backup.
  const again = await startService({ dbFile, port: 0, backup: { dir: join(dir, 'b'), everyHours: 0 } });
  try {
    expect(again.service.backups.status().backups).toHaveLength(1);
  } finally {
    await again.close();
  }
});

it('labeldesk import backs up a database that holds anything first', async () => {
  const source = serviceFile(dir);
  for (const c of COMPANIES) source.companies.upsert(c);
  source.putReport(makeReport('r1'), { kind: 'import' });
  const bundle = join(dir, 'bundle.json');
  writeFileSync(bundle, await exported(source));
  source.close();
  const target = join(dir, 'target.db');
  expect((await runLabeldeskInProcess(['import', '--db', target, bundle])).code).toBe(0);
  // A new file: nothing to back up.
  expect(readdirSync(dir)).not.toContain('backups');
  expect((await runLabeldeskInProcess(['import', '--db', target, bundle])).code).toBe(0);
  const names = readdirSync(join(dir, 'backups'));
  expect(names.filter((n) => n.endsWith('.sqlite'))).toHaveLength(1);
  const manifest = JSON.parse(readFileSync(join(dir, 'backups', names.find((n) => n.endsWith('.json'))!), 'utf8'));
  expect(manifest).toMatchObject({ reason: 'import', counts: { reports: 1 }, verification: { ok: true } });
  const db = new Database(target, { readonly: true });
  expect(db.prepare('SELECT reason, ok FROM backup_runs').all()).toEqual([{ reason: 'import', ok: 1 }]);
  db.close();
});
