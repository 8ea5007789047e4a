/**
 * A full disk (docs/operations.md#a-full-disk), made with SQLite's max_page_count
 * (test/support/full-disk.ts): a write the service cannot make answers 507 DISK_FULL naming the
 * folder and changes nothing; an import exits 1 with one line and imports nothing; once there is
 * room again, the same requests succeed, with no restart.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { openDatabase } from '../../db/database';
import { runLabeldeskInProcess } from '../cli/run-labeldesk';
import { watchDisk, type FullDisk } from '../support/full-disk';
import { api, makeReport, startTestService, type TestService } from '../support/service-fixture';

let disk: FullDisk;
let svc: TestService;

beforeAll(async () => {
  disk = watchDisk();
  svc = await startTestService([makeReport('r1'), makeReport('r2')]);
});
afterEach(() => disk.free());
afterAll(async () => {
  disk.stop();
  await svc.stop();
});

/** A PATCH that needs new pages: 100 texts of 1 000 characters, about 100 KB. */
const bigPatch = (mark: string) => ({
  customFields: [{ customFieldId: 'notes', value: Array.from({ length: 100 }, (_, i) => `${mark}${i}`.padEnd(1000, mark)) }],
  hasFlag: true,
});

const changeLogEntries = () => {
  const db = openDatabase(svc.dbFile, { readonly: true });
  try {
    return db.prepare('SELECT count(*) FROM change_log').pluck().get() as number;
  } finally {
    db.close();
  }
};

describe('while serving', () => {
  test('a write answers 507 DISK_FULL naming the folder, changes nothing, and goes through once there is room', async () => {
    const before = (await api(svc, '/v2/labelReports/r1')).body;
    const entries = changeLogEntries();
    disk.fill();
    const refused = await api(svc, '/v2/labelReports/r1', { method: 'PATCH', body: bigPatch('a') });
    expect(refused.status).toBe(507);
    expect(refused.body.code).toBe('DISK_FULL');
    expect(refused.body.message).toContain(`the disk holding ${path.dirname(svc.dbFile)} is full`);
    expect(refused.body.message).toContain('nothing was changed');
    // Nothing half-written: the report, its flag and the change log are as they were.
    expect((await api(svc, '/v2/labelReports/r1')).body).toEqual(before);
    expect(changeLogEntries()).toBe(entries);
    // Reads go on meanwhile.
    expect((await api(svc, '/v2/labelReports')).status).toBe(200);

    disk.free();
    const done = await api(svc, '/v2/labelReports/r1', { method: 'PATCH', body: bigPatch('a') });
    expect(done.status).toBe(200);
    expect(done.body.hasFlag).toBe(true);
    expect(changeLogEntries()).toBe(entries + 1);
  });
});

describe('importing', () => {
  test('labeldesk import exits 1 with one line, imports nothing, and imports all once there is room', async () => {
    const bundle = path.join(svc.dir, 'bundle.json');
    const reports = Array.from({ length: 40 }, (_, i) => makeReport(`imported-${i}`));
    writeFileSync(bundle, JSON.stringify({ version: 1, companies: [], apiKeys: [], labelReports: reports }));
    const count = () => {
      const db = openDatabase(svc.dbFile, { readonly: true });
      try {
        return db.prepare("SELECT count(*) FROM label_reports WHERE id LIKE 'imported-%'").pluck().get() as number;
      } finally {
        db.close();
      }
    };
    disk.fill();
    const refused = await runLabeldeskInProcess(['import', '--db', svc.dbFile, bundle]);
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    expect(refused.stderr).toMatch(/^labeldesk import: import failed, nothing was imported: /);
    expect(refused.stderr).toContain(`the disk holding ${path.dirname(svc.dbFile)} is full`);
    expect(count()).toBe(0);

    disk.free();
    const done = await runLabeldeskInProcess(['import', '--db', svc.dbFile, bundle]);
    expect(done.stderr).toBe('');
    expect(done.code).toBe(0);
    expect(count()).toBe(40);
  });
});
