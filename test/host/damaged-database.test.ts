/**
 * A damaged database file (docs/operations.md#a-damaged-database): `serve`, `npm start`, the
 * desktop's service process and every command refuse to start with one message naming the file,
 * saying it is damaged and pointing to `labeldesk restore`; the file, its -wal and its -shm are
 * left byte for byte.
 */
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openDatabase } from '../../db/database';
import { DATABASE_FILE_NAME } from '../../host/data-folder';
import { startService } from '../../host/start-service';
import type { ServiceMessage } from '../../host/service-protocol';
import { REPO, runLabeldesk, runLabeldeskInProcess } from '../cli/run-labeldesk';
import { seedDatabase } from './seed';

let dir: string;
let sound: string;
const children: ChildProcess[] = [];

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'labeldesk-damaged-'));
  sound = path.join(dir, 'sound.sqlite');
  await seedDatabase(sound);
});
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

const sha = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

/** The page numbers of a table's (or index's) pages, by SQLite's own page map. */
function pagesOf(file: string, name: string): { pages: number[]; pageSize: number } {
  const db = new Database(file, { readonly: true });
  try {
    const pages = db.prepare('SELECT pageno FROM dbstat WHERE name = ? ORDER BY pageno').pluck().all(name) as number[];
    return { pages, pageSize: db.pragma('page_size', { simple: true }) as number };
  } finally {
    db.close();
  }
}

function overwritePage(file: string, page: number, pageSize: number): void {
  const bytes = readFileSync(file);
  // A fixed pattern, not zeros: a zeroed page can pass for a freed one.
  bytes.fill(0xa5, (page - 1) * pageSize, page * pageSize);
  writeFileSync(file, bytes);
}

/** A copy of the sound database, damaged as `how` says, with the name of the case. */
function damaged(name: string, how: (file: string) => void): string {
  const file = path.join(dir, `${name}.sqlite`);
  copyFileSync(sound, file);
  how(file);
  return file;
}

const CASES: Record<string, (file: string) => void> = {
  'a header that is not SQLite’s': (file) => {
    const bytes = readFileSync(file);
    bytes.write('this is not a database, whatever it was', 0, 'latin1');
    writeFileSync(file, bytes);
  },
  'a file cut short': (file) => truncateSync(file, Math.floor(readFileSync(file).length / 2)),
  'a damaged page of the schema': (file) => {
    // Page 1 holds the header and the root of the schema; its other pages are overwritten here.
    const { pages, pageSize } = pagesOf(file, 'sqlite_schema');
    expect(pages.length).toBeGreaterThan(1);
    overwritePage(file, pages[1], pageSize);
  },
  // Found at the start here, where the start's statistics read the small tables whole; in a large
  // file, when first read, in the same words (docs/operations.md#a-damaged-database).
  'a damaged page in the middle (the datapoints)': (file) => {
    const { pages, pageSize } = pagesOf(file, 'report_datapoints');
    overwritePage(file, pages[pages.length - 1], pageSize);
  },
};

function expectDamageMessage(text: string, file: string): void {
  expect(text).toContain(`the database ${file} is damaged`);
  expect(text).toContain(`labeldesk restore --from BACKUP --db ${file}`);
  expect(text).toContain(`(the backups are in ${path.join(path.dirname(file), 'backups')})`);
  expect(text).not.toMatch(/\n\s+at /);
}

/** Every command that opens the database, with what it needs besides `--db`. */
const COMMANDS: readonly string[][] = [
  ['keys', 'list'],
  ['users', 'list'],
  ['webhooks', 'list'],
  ['alarms', 'rules'],
  ['smtp', 'show'],
  ['sync', 'status'],
  ['audit', 'verify'],
  ['audit', 'export'],
  ['insights', '--csv', 'OUT'],
  ['report', '--id', 'a1', '--csv', 'OUT/a1.csv'],
  ['export', '--out', 'OUT/export.json'],
  ['import', 'BUNDLE'],
  ['demo', '--reports', '1'],
  ['backup', '--to', 'OUT/backups'],
];

describe.each(Object.entries(CASES))('%s', (name, how) => {
  let file: string;
  let before: { db: string; wal: string };
  beforeAll(() => {
    file = damaged(name.replace(/\W+/g, '-'), how);
    // Leftovers of a process that died: they are the file's, and stay.
    writeFileSync(`${file}-wal`, Buffer.alloc(0));
    writeFileSync(`${file}-shm`, Buffer.alloc(32_768, 7));
    before = { db: sha(file), wal: sha(`${file}-wal`) };
  });
  // The -shm is SQLite's index of the log, which any connection that reads the file rebuilds:
  // it must stay there; its bytes are SQLite's to write.
  const unchanged = () => {
    expect(existsSync(`${file}-wal`) && existsSync(`${file}-shm`)).toBe(true);
    expect({ db: sha(file), wal: sha(`${file}-wal`) }).toEqual(before);
  };

  test('every command exits 1 with one line naming the file, and leaves it as it was', async () => {
    const out = mkdtempSync(path.join(dir, 'out-'));
    const bundle = path.join(out, 'bundle.json');
    writeFileSync(bundle, JSON.stringify({ version: 1, companies: [], apiKeys: [], labelReports: [] }));
    for (const command of COMMANDS) {
      const args = command.map((a) => (a === 'BUNDLE' ? bundle : a.replace(/^OUT/, out)));
      const run = await runLabeldeskInProcess([...args, '--db', file]);
      expect({ command: command.join(' '), code: run.code }).toEqual({ command: command.join(' '), code: 1 });
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expectDamageMessage(run.stderr, file);
      unchanged();
    }
  });

  test('labeldesk serve refuses to start, in one line, and listens nowhere', async () => {
    const run = await runLabeldesk(dir, ['serve', '--db', file, '--port', '0']);
    expect(run.code).toBe(1);
    expect(run.stdout).not.toContain('listening');
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expectDamageMessage(run.stderr, file);
    unchanged();
  });

  test('the service start the desktop and npm start share refuses it too', async () => {
    await expect(startService({ dbFile: file, port: 0 })).rejects.toThrow(`the database ${file} is damaged`);
    unchanged();
  });
});

test('npm start (headless) says it in one line and exits 1', async () => {
  const dataDir = mkdtempSync(path.join(dir, 'data-'));
  const file = path.join(dataDir, DATABASE_FILE_NAME);
  copyFileSync(sound, file);
  CASES['a header that is not SQLite’s'](file);
  const before = sha(file);
  const run = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, ['scripts/start.js', '--port', '0'], {
      cwd: REPO,
      env: { ...process.env, LABELDESK_DATA_DIR: dataDir, LABELDESK_SKIP_RENDERER_BUILD: '1', LABELDESK_ELECTRON_DIR: dataDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
  expect(run.code).toBe(1);
  expect(run.stderr.trim().split('\n')).toHaveLength(1);
  expect(run.stderr).toMatch(/^LabelDesk could not start: the database .* is damaged/);
  expectDamageMessage(run.stderr, file);
  expect(sha(file)).toBe(before);
});

test("the desktop's service process tells the main process why, and exits 1", async () => {
  const file = damaged('desktop', CASES['a file cut short']);
  const before = sha(file);
  const child = fork(path.join(REPO, 'host/service-process.ts'), ['--db', file, '--port', '0'], {
    execArgv: ['--import', 'tsx'],
    cwd: REPO,
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  children.push(child);
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const first = await new Promise<ServiceMessage>((resolve) => child.once('message', (m) => resolve(m as ServiceMessage)));
  expect(first.type).toBe('error');
  // main/main.ts shows this message in its error box.
  if (first.type === 'error') expectDamageMessage(first.message, file);
  expect(await exit).toBe(1);
  expect(sha(file)).toBe(before);
});

test('labeldesk restore puts a good backup in place of a damaged file, which it keeps aside unchanged', async () => {
  const backups = path.join(dir, 'restore-backups');
  const backup = await runLabeldeskInProcess(['backup', '--db', sound, '--to', backups]);
  expect(backup.code).toBe(0);
  const from = /backup (\S+\.sqlite)/.exec(backup.stdout)![1];
  const file = damaged('to-restore', CASES['a header that is not SQLite’s']);
  const before = sha(file);
  const run = await runLabeldeskInProcess(['restore', '--from', from, '--db', file]);
  expect(run.stderr).toMatch(/warning: the backup of the replaced database failed/);
  expect(run.code).toBe(0);
  const aside = /kept aside as (\S+)/.exec(run.stdout)![1];
  expect(sha(aside)).toBe(before);
  const db = openDatabase(file);
  try {
    expect(db.prepare('SELECT count(*) FROM label_reports').pluck().get()).toBe(4);
  } finally {
    db.close();
  }
});
