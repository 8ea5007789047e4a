/**
 * A full backup folder (docs/operations.md#a-full-disk), made with a file size limit on a real
 * `labeldesk` process (test/support/file-size-limit.ts): `labeldesk backup --to DIR` exits 1 with
 * one line naming the folder, and the service's scheduled backup is recorded as failed with the
 * same words (GET /local/backups, what Settings › Backups and the header's warning read) while
 * the service goes on serving; nothing half-written is left in the folder for a rotation or a
 * restore to take for a backup, and the next backup once there is room succeeds.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordBackupRun } from '../../db/backup';
import { acmeManagerKey, call, serveFile, type Served } from '../cli/backup-site';
import { REPO, runLabeldeskInProcess, runToEnd } from '../cli/run-labeldesk';
import { limitBelow, setFileSizeLimit, underFileSizeLimit } from '../support/file-size-limit';

let dir: string;
const running: Served[] = [];
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'labeldesk-full-backups-'));
});
afterAll(async () => {
  await Promise.all(running.map((s) => s.stop()));
  rmSync(dir, { recursive: true, force: true });
});

async function demoSite(name: string): Promise<{ dbFile: string; key: string }> {
  mkdirSync(join(dir, name));
  const dbFile = join(dir, name, 'labeldesk.db');
  const demo = await runLabeldeskInProcess(['demo', '--db', dbFile, '--reports', '120', '--seed', '5']);
  expect(demo.code, demo.stderr).toBe(0);
  return { dbFile, key: acmeManagerKey(demo.stdout) };
}

function newestRun(dbFile: string): { reason: string; ok: number; failure: string | null } {
  const db = new Database(dbFile, { readonly: true });
  try {
    return db.prepare('SELECT reason, ok, failure FROM backup_runs ORDER BY id DESC LIMIT 1').get() as { reason: string; ok: number; failure: string | null };
  } finally {
    db.close();
  }
}

const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

/** What a rotation or a restore would take for a backup: each must be whole, as its manifest says. */
function expectOnlyWholeBackups(folder: string): string[] {
  const names = readdirSync(folder).sort();
  expect(names.filter((n) => n.includes('.partial'))).toEqual([]);
  for (const name of names.filter((n) => n.endsWith('.sqlite'))) {
    const manifest = JSON.parse(readFileSync(join(folder, name.replace(/\.sqlite$/, '.json')), 'utf8'));
    expect(manifest).toMatchObject({ file: name, verification: { ok: true } });
    expect(sha256(join(folder, name))).toBe(manifest.sha256);
  }
  for (const name of names.filter((n) => n.endsWith('.json'))) JSON.parse(readFileSync(join(folder, name), 'utf8'));
  return names;
}

const FULL = (folder: string) => `the disk holding ${folder} is full: the backup cannot be written there`;

describe('labeldesk backup --to a full folder', () => {
  it('exits 1 with one line naming the folder, leaves only the failure’s manifest, and backs up once there is room', async () => {
    const { dbFile } = await demoSite('command');
    const to = join(dir, 'command-backups');
    const limit = limitBelow(dbFile);
    const argv = underFileSizeLimit(limit, [process.execPath, join(REPO, 'bin/labeldesk.js'), 'backup', '--db', dbFile, '--to', to]);
    const refused = await runToEnd(argv[0], argv.slice(1), { env: { ...process.env, LABELDESK_DATA_DIR: join(dir, 'data') } });
    expect(refused.code).toBe(1);
    const lines = refused.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^backup failed, no backup was kept: /);
    expect(lines[0]).toContain(FULL(to));
    expect(lines[0]).toContain(`at most ${limit} bytes`);
    expect(refused.stdout).toBe('');

    const names = expectOnlyWholeBackups(to);
    expect(names).toHaveLength(1);
    expect(names[0]).toMatch(/^labeldesk-.*Z\.failed\.json$/);
    expect(JSON.parse(readFileSync(join(to, names[0]), 'utf8'))).toMatchObject({ verification: { ok: false }, bytes: null, sha256: null });
    expect(newestRun(dbFile)).toMatchObject({ reason: 'command', ok: 0 });
    expect(newestRun(dbFile).failure).toContain(FULL(to));

    const done = await runLabeldeskInProcess(['backup', '--db', dbFile, '--to', to]);
    expect(done.code, done.stderr).toBe(0);
    const after = expectOnlyWholeBackups(to);
    // The good backup and its manifest (and the failure's manifest, which the rotation removes once it is older than a good backup).
    expect(after.filter((n) => n.endsWith('.sqlite'))).toHaveLength(1);
    expect(newestRun(dbFile)).toMatchObject({ reason: 'command', ok: 1, failure: null });
  });
});

describe('the service’s scheduled backup into a full folder', () => {
  it('is recorded as failed naming the folder, the service serves on, and the next backup succeeds once there is room', async () => {
    const { dbFile, key } = await demoSite('service');
    const to = join(dir, 'service-backups');
    // The last good backup two days ago: the schedule's next one is due as the service starts.
    recordBackupRun(dbFile, { at: new Date(Date.now() - 48 * 3_600_000).toISOString(), file: join(to, 'gone.sqlite'), bytes: 1, reason: 'schedule', ok: true, failure: null, counts: {}, sha256: null });
    const limit = limitBelow(dbFile);
    const served = await serveFile(dbFile, { LABELDESK_BACKUP_DIR: to, LABELDESK_BACKUP_EVERY_HOURS: '24' }, (argv) => underFileSizeLimit(limit, argv));
    running.push(served);
    await new Promise<void>((resolve) => {
      const check = () => /backup failed: /.test(served.stderr()) && resolve();
      served.child.stderr!.on('data', check);
      check();
    });
    expect(served.stderr()).toContain(FULL(to));

    const status = await call(served.url, '/local/backups', key);
    expect(status.status).toBe(200);
    expect(status.body).toMatchObject({ lastFailed: true, running: false, backups: [{ reason: 'schedule', ok: false, present: false }, { ok: true }] });
    expect(status.body.backups[0].failure).toContain(FULL(to));
    expect(status.body.backups[0].failure).toContain(`at most ${limit} bytes`);
    // The next try of the schedule is an hour after the failed one, not a loop.
    expect(new Date(status.body.nextDueAt).getTime() - new Date(status.body.backups[0].at).getTime()).toBe(3_600_000);
    expect(expectOnlyWholeBackups(to).filter((n) => !n.endsWith('.failed.json'))).toEqual([]);

    // The service goes on: reads, and a write.
    const list = await call(served.url, '/v2/labelReports?pageSize=50&output=minimal', key);
    expect(list.status).toBe(200);
    let changed = 0;
    for (const { id } of list.body.data as { id: string }[]) {
      const res = await call(served.url, `/v2/labelReports/${id}`, key, { method: 'PATCH', body: { limits: { minTemperature: -10, maxTemperature: 41 } } });
      if (res.status === 200) changed++;
      if (changed === 3) break;
    }
    expect(changed).toBe(3);

    setFileSizeLimit(served.child.pid!, null);
    const posted = await call(served.url, '/local/backups', key, { method: 'POST' });
    expect(posted.status).toBe(201);
    expect(posted.body).toMatchObject({ ok: true, reason: 'manual', failure: null, present: true });
    const after = await call(served.url, '/local/backups', key);
    expect(after.body).toMatchObject({ lastFailed: false, lastGood: { reason: 'manual' } });
    const names = expectOnlyWholeBackups(to);
    expect(names.filter((n) => n.endsWith('.sqlite'))).toHaveLength(1);
  });
});
