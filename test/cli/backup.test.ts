/**
 * `labeldesk backup` and `labeldesk restore` on real files beside a real `labeldesk serve`:
 * - a backup taken while the served database takes PATCHes (by the command, another process,
 *   and by POST /local/backups inside the service) holds one committed moment: integrity ok,
 *   counts equal to what was committed at that moment (every PATCH answered before it began is
 *   in it, none beyond those sent before it ended), and its audit chains verify;
 * - GET /local/backups lists them with their verification, for a key with apiKeys:manage only;
 * - the manifest beside each backup, and the archive folder with the SHA-256 of every file;
 * - restore refuses a damaged backup and changes nothing, refuses a database in use unless
 *   --force, and keeps the replaced file aside (its -wal copied in, or beside it with --force).
 */
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acmeManagerKey, call, serveFile, type Served } from './backup-site';
import { runLabeldesk, runLabeldeskInProcess } from './run-labeldesk';

let dir: string;
const running: Served[] = [];
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'labeldesk-backup-'));
});
afterAll(async () => {
  await Promise.all(running.map((s) => s.stop()));
  rmSync(dir, { recursive: true, force: true });
});

const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

function rows(file: string, sql: string): number {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare(sql).pluck().get() as number;
  } finally {
    db.close();
  }
}

async function demoSite(name: string, reports = 120): Promise<{ dbFile: string; key: string; readKey: string }> {
  mkdirSync(join(dir, name));
  const dbFile = join(dir, name, 'labeldesk.db');
  const demo = await runLabeldeskInProcess(['demo', '--db', dbFile, '--reports', String(reports), '--seed', '5']);
  expect(demo.code).toBe(0);
  const readLine = demo.stdout.split('\n').find((l) => /^acme\s+labelReports:read\s/.test(l))!;
  return { dbFile, key: acmeManagerKey(demo.stdout), readKey: /ldk_[A-Za-z0-9_-]{43}/.exec(readLine)![0] };
}

describe('a backup while the service writes', () => {
  it('holds one committed moment: integrity, counts and chains, whether the command or the service takes it', async () => {
    const { dbFile, key, readKey } = await demoSite('online');
    const served = await serveFile(dbFile, { LABELDESK_BACKUP_EVERY_HOURS: '0' });
    running.push(served);
    // The reports whose limits acme's key may change (it owns or edits them), found by trying.
    const all = ((await call(served.url, '/v2/labelReports?pageSize=200&output=minimal', key)).body.data as { id: string }[]).map((r) => r.id);
    const ids: string[] = [];
    for (const id of all) {
      const res = await call(served.url, `/v2/labelReports/${id}`, key, { method: 'PATCH', body: { limits: { minTemperature: -10, maxTemperature: 39 } } });
      if (res.status === 200) ids.push(id);
      if (ids.length === 20) break;
    }
    expect(ids).toHaveLength(20);
    const before = rows(dbFile, 'SELECT count(*) FROM change_log');

    // PATCHes one after another until told to stop; each answered one is committed.
    let answered = 0;
    let sent = 0;
    let stop = false;
    const writer = (async () => {
      for (let i = 0; !stop; i++) {
        sent++;
        // A new maximum each round: every PATCH changes its report, so each answered one is one change log entry.
        const maxTemperature = 40 + Math.floor(i / ids.length);
        const res = await call(served.url, `/v2/labelReports/${ids[i % ids.length]}`, key, { method: 'PATCH', body: { limits: { minTemperature: -10, maxTemperature } } });
        expect(res.status).toBe(200);
        answered++;
      }
    })();
    let failed: unknown = null;
    writer.catch((err: unknown) => (failed = err ?? new Error('the writer failed')));
    const waitFor = async (n: number) => {
      while (answered < n && failed === null) await new Promise((resolve) => setImmediate(resolve));
      if (failed !== null) throw failed;
    };

    await waitFor(20);
    const answeredBeforeCommand = answered;
    const command = await runLabeldeskInProcess(['backup', '--db', dbFile, '--to', join(dir, 'online', 'by-command')]);
    const sentAfterCommand = sent;
    expect(command.code, command.stderr).toBe(0);

    await waitFor(answered + 20);
    const answeredBeforePost = answered;
    const posted = await call(served.url, '/local/backups', key, { method: 'POST' });
    const sentAfterPost = sent;
    stop = true;
    await writer;
    expect(posted.status).toBe(201);
    expect(posted.body).toMatchObject({ ok: true, reason: 'manual', failure: null, present: true });

    const byCommand = readdirSync(join(dir, 'online', 'by-command')).find((n) => n.endsWith('.sqlite'))!;
    for (const [copy, answeredBefore, sentAfter] of [
      [join(dir, 'online', 'by-command', byCommand), answeredBeforeCommand, sentAfterCommand],
      [posted.body.file as string, answeredBeforePost, sentAfterPost],
    ] as const) {
      const manifest = JSON.parse(readFileSync(copy.replace(/\.sqlite$/, '.json'), 'utf8'));
      expect(manifest.verification).toMatchObject({ ok: true, integrity: ['ok'], countsMatch: true, chains: { problems: 0 } });
      expect(manifest.sha256).toBe(sha256(copy));
      const entries = rows(copy, 'SELECT count(*) FROM change_log');
      expect(manifest.counts.changeLogEntries).toBe(entries);
      expect(entries).toBeGreaterThanOrEqual(before + answeredBefore);
      expect(entries).toBeLessThanOrEqual(before + sentAfter);
      expect(rows(copy, 'SELECT count(*) FROM label_reports')).toBe(120);
      // The audit chains of a working copy of the copy, as the command checks them.
      const work = join(dir, 'online', `work-${entries}.db`);
      copyFileSync(copy, work);
      if (existsSync(copy.replace(/\.sqlite$/, '.checkpoints.jsonl'))) copyFileSync(copy.replace(/\.sqlite$/, '.checkpoints.jsonl'), `${work}.checkpoints.jsonl`);
      const verify = await runLabeldeskInProcess(['audit', 'verify', '--db', work]);
      expect(verify.stdout).toMatch(/the audit trail is sound/);
    }

    const listed = await call(served.url, '/local/backups', key);
    expect(listed.status).toBe(200);
    expect(listed.body).toMatchObject({ everyHours: 0, overdue: false, lastFailed: false, running: false, lastGood: { reason: 'manual', ok: true } });
    expect(listed.body.backups.map((b: { reason: string }) => b.reason)).toEqual(['manual', 'command']);
    expect(await call(served.url, '/local/backups', readKey)).toMatchObject({ status: 403, body: { code: 'PERMISSION_DENIED' } });
    expect(await call(served.url, '/local/backups', readKey, { method: 'POST' })).toMatchObject({ status: 403 });
    expect(await call(served.url, '/local/backups', null)).toMatchObject({ status: 401 });

    // In use: restore refuses and changes nothing.
    const inUse = await runLabeldesk(dir, ['restore', '--from', posted.body.file, '--db', dbFile]);
    expect(inUse.code).toBe(1);
    expect(inUse.stderr).toMatch(/is in use .* nothing was changed/);
    expect(readdirSync(join(dir, 'online')).filter((n) => n.includes('.replaced-'))).toEqual([]);
    expect(await served.stop()).toBe(0);
  });
});

describe('restore', () => {
  it('refuses a damaged backup and changes nothing; restores a sound one, keeping the replaced file, its -wal copied in, aside', async () => {
    const { dbFile } = await demoSite('restore', 30);
    const taken = await runLabeldeskInProcess(['backup', '--db', dbFile, '--to', join(dir, 'restore', 'b')]);
    expect(taken.code).toBe(0);
    const backup = join(dir, 'restore', 'b', readdirSync(join(dir, 'restore', 'b')).find((n) => n.endsWith('.sqlite'))!);

    // The database moves on after the backup, and a -wal beside it holds its last commit.
    const later = new Database(dbFile);
    later.pragma('wal_autocheckpoint = 0');
    later.prepare("UPDATE companies SET name = 'Acme after the backup' WHERE id = 'acme'").run();
    const held = readFileSync(dbFile);
    const wal = readFileSync(`${dbFile}-wal`);
    later.close();
    // Closing checkpointed it; put the -wal back as a crashed process would leave it.
    writeFileSync(dbFile, held);
    writeFileSync(`${dbFile}-wal`, wal);
    const current = sha256(dbFile);

    for (const damage of ['bytes', 'manifest'] as const) {
      const bad = join(dir, 'restore', `damaged-${damage}.sqlite`);
      const bytes = readFileSync(backup);
      if (damage === 'bytes') for (let i = 8192; i < 8192 + 64; i++) bytes[i] ^= 0xa5;
      writeFileSync(bad, bytes);
      const manifest = JSON.parse(readFileSync(backup.replace(/\.sqlite$/, '.json'), 'utf8'));
      if (damage === 'manifest') manifest.counts.reports = 31;
      writeFileSync(bad.replace(/\.sqlite$/, '.json'), JSON.stringify(manifest));
      const refused = await runLabeldeskInProcess(['restore', '--from', bad, '--db', dbFile]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(damage === 'bytes' ? /does not verify, so nothing was changed: .*SHA-256/ : /reports: the copy holds 30, the source held 31/);
      expect(sha256(dbFile)).toBe(current);
      expect(existsSync(`${dbFile}-wal`)).toBe(true);
      expect(readdirSync(join(dir, 'restore')).filter((n) => n.includes('.replaced-') || n.includes('.restoring'))).toEqual([]);
    }

    const restored = await runLabeldeskInProcess(['restore', '--from', backup, '--db', dbFile]);
    expect(restored.code, restored.stderr).toBe(0);
    const aside = /kept aside as (\S+)/.exec(restored.stdout)![1];
    expect(aside).toMatch(/labeldesk\.db\.replaced-\d{4}-\d\d-\d\dT\d{6}Z$/);
    // The check that nobody has the file open copied its -wal into it: the file aside stands alone
    // and is the database as it was, its last commit (the name after the backup) included.
    expect(existsSync(`${aside}-wal`)).toBe(false);
    expect(existsSync(`${dbFile}-wal`)).toBe(false);
    const asideDb = new Database(aside, { readonly: true });
    expect(asideDb.prepare("SELECT name FROM companies WHERE id = 'acme'").pluck().get()).toBe('Acme after the backup');
    asideDb.close();
    expect(rows(dbFile, "SELECT count(*) FROM companies WHERE name = 'Acme after the backup'")).toBe(0);
    // And a backup of it was taken first, beside the others.
    expect(restored.stdout).toMatch(/was backed up first: .*labeldesk-.*\.sqlite/);
    expect(readdirSync(join(dir, 'restore', 'backups')).filter((n) => n.endsWith('.sqlite'))).toHaveLength(1);
  });

  it('with --force restores a database another connection has open, moving its -wal and -shm aside with it', async () => {
    const { dbFile } = await demoSite('force', 10);
    await runLabeldeskInProcess(['backup', '--db', dbFile, '--to', join(dir, 'force', 'b')]);
    const backup = join(dir, 'force', 'b', readdirSync(join(dir, 'force', 'b')).find((n) => n.endsWith('.sqlite'))!);
    const holder = new Database(dbFile);
    holder.prepare('SELECT count(*) FROM label_reports').get();
    try {
      expect((await runLabeldeskInProcess(['restore', '--from', backup, '--db', dbFile])).stderr).toMatch(/is in use/);
      expect(existsSync(`${dbFile}-wal`)).toBe(true);
      const forced = await runLabeldeskInProcess(['restore', '--from', backup, '--db', dbFile, '--force']);
      expect(forced.code, forced.stderr).toBe(0);
      // The file it replaced goes aside with its -wal and -shm: a -wal left beside the restored file would be applied to it.
      const aside = /kept aside as (\S+)/.exec(forced.stdout)![1];
      expect(existsSync(`${aside}-wal`)).toBe(true);
      expect(existsSync(`${dbFile}-wal`)).toBe(false);
    } finally {
      holder.close();
    }
    expect(rows(dbFile, 'SELECT count(*) FROM label_reports')).toBe(10);
  });
});

describe('the archive', () => {
  it('is a folder of the SQLite file, the audit trail, the access record and reports as CSV, a README and a manifest with the SHA-256 of each', async () => {
    const { dbFile } = await demoSite('archive', 12);
    const archived = await runLabeldeskInProcess(['backup', '--db', dbFile, '--archive', join(dir, 'archive', 'out')]);
    expect(archived.code, archived.stderr).toBe(0);
    const [folderName] = readdirSync(join(dir, 'archive', 'out'));
    expect(folderName).toMatch(/^labeldesk-archive-\d{4}-\d\d-\d\dT\d{6}Z$/);
    const folder = join(dir, 'archive', 'out', folderName);
    expect(readdirSync(folder).sort()).toEqual(['README.txt', 'audit-trail.csv', 'labeldesk.sqlite', 'manifest.json', 'report-access.csv', 'reports.csv']);
    const manifest = JSON.parse(readFileSync(join(folder, 'manifest.json'), 'utf8'));
    expect(manifest).toMatchObject({ format: 'labeldesk-archive', formatVersion: 1, labeldeskVersion: expect.any(String), counts: { reports: 12 }, verification: { ok: true } });
    for (const f of manifest.files) expect(sha256(join(folder, f.name)), f.name).toBe(f.sha256);
    expect(rows(join(folder, 'labeldesk.sqlite'), 'SELECT count(*) FROM label_reports')).toBe(12);
    const reports = readFileSync(join(folder, 'reports.csv'), 'utf8').replace(/^\uFEFF/, '').split('\r\n').filter((l) => l !== '');
    expect(reports[0]).toBe(
      'viewedBy,id,reference,labelUid,labelName,status,alertLevel,alert,created,updated,flag,archived,ownerCompany,decision,decisionSignedBy,decisionSignedAt,excursions,excursionSeconds,degreeHours',
    );
    expect(new Set(reports.slice(1).map((l) => l.split(',')[1])).size).toBe(12);
    const trail = readFileSync(join(folder, 'audit-trail.csv'), 'utf8').replace(/^\uFEFF/, '').split('\r\n').filter((l) => l !== '');
    expect(trail.length - 1).toBe(manifest.counts.changeLogEntries + manifest.counts.reviewEntries);
  });
});
