/**
 * A folder that cannot be written (docs/operations.md#a-folder-that-cannot-be-written), for root
 * too (tests run as root in CI, where permission bits stop nothing): a folder of the kernel's
 * sysfs, which takes no file from anyone; /proc, which answers a new file with ENOENT though it
 * is there; and a path through a file (ENOTDIR), as a mistyped path gives. `labeldesk serve`
 * and `labeldesk import` with the database there, and `labeldesk backup --to` there, each exit
 * 1 with one line naming the folder and why, no stack trace, and leave nothing behind.
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runLabeldesk } from '../cli/run-labeldesk';
import { seedDatabase } from './seed';

let dir: string;
let sound: string;
let bundle: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'labeldesk-unwritable-'));
  sound = join(dir, 'sound.sqlite');
  await seedDatabase(sound);
  bundle = join(dir, 'bundle.json');
  writeFileSync(bundle, JSON.stringify({ version: 1, companies: [], apiKeys: [], labelReports: [] }));
  writeFileSync(join(dir, 'notes.txt'), 'a file, where a path goes on as if it were a folder');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Each folder, and the reasons the message may give for it (a container mounts sysfs read-only). */
const FOLDERS = [
  { what: 'a sysfs folder', folder: () => '/sys/kernel', why: /permission denied|not permitted|a read-only file system/ },
  { what: 'a /proc folder', folder: () => '/proc/self', why: /it takes no new files|the folder it is in takes no new folders/ },
  { what: 'a path through a file', folder: () => join(dir, 'notes.txt', 'labeldesk'), why: /a part of its path is a file, not a folder/ },
];

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

function expectOneLine(run: { code: number | null; stderr: string; stdout: string }, command: string, folder: string, why: RegExp): void {
  expect(run.code, run.stderr).toBe(1);
  const lines = run.stderr.trim().split('\n');
  expect(lines, run.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(new RegExp(`^${command}.*the folder ${escape(folder)} cannot be written \\((${why.source})\\): .*Give a folder this user may write to, or make this one writable$`));
  expect(run.stderr).not.toMatch(/\n\s+at /);
}

function runsOf(file: string): { ok: number; failure: string | null }[] {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare('SELECT ok, failure FROM backup_runs ORDER BY id').all() as { ok: number; failure: string | null }[];
  } finally {
    db.close();
  }
}

describe.each(FOLDERS)('$what', ({ folder, why }) => {
  it('labeldesk serve --db in it exits 1 with one line naming the folder', async () => {
    const run = await runLabeldesk(dir, ['serve', '--db', join(folder(), 'labeldesk.db'), '--port', '0']);
    expectOneLine(run, 'labeldesk serve: ', folder(), why);
    expect(run.stdout).not.toMatch(/listening/);
  });

  it('labeldesk import --db in it exits 1 with one line naming the folder', async () => {
    const run = await runLabeldesk(dir, ['import', '--db', join(folder(), 'labeldesk.db'), bundle]);
    expectOneLine(run, 'labeldesk import: ', folder(), why);
  });

  it('labeldesk backup --to it exits 1 with one line naming the folder, and the failure is recorded', async () => {
    const to = join(folder(), 'backups');
    const before = runsOf(sound).length;
    const run = await runLabeldesk(dir, ['backup', '--db', sound, '--to', to]);
    expectOneLine(run, 'backup failed, no backup was kept: ', to, why);
    const runs = runsOf(sound);
    expect(runs).toHaveLength(before + 1);
    expect(runs.at(-1)).toMatchObject({ ok: 0 });
    expect(runs.at(-1)!.failure).toContain(`the folder ${to} cannot be written`);
    // Nothing was left beside the database either.
    expect(readdirSync(dir).filter((n) => n.includes('.partial'))).toEqual([]);
  });
});
