/**
 * The service process as Electron's utility process runs it, here under Node's
 * child_process.fork (the same entry; messages over process.send instead of parentPort).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openDatabase } from '../../db/database';
import type { ServiceMessage } from '../../host/service-protocol';
import { seedDatabase } from './seed';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const entry = path.join(root, 'host/service-process.ts');

let dir: string;
let dbFile: string;
beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'labeldesk-service-process-'));
  dbFile = path.join(dir, 'labeldesk.sqlite');
  await seedDatabase(dbFile);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Started {
  child: ChildProcess;
  first: ServiceMessage;
  exit: Promise<number | null>;
}

async function startProcess(args: string[]): Promise<Started> {
  const child = fork(entry, args, { execArgv: ['--import', 'tsx'], cwd: root, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
  let stderr = '';
  child.stderr?.on('data', (chunk) => (stderr += chunk));
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const first = await new Promise<ServiceMessage>((resolve, reject) => {
    child.once('message', (m) => resolve(m as ServiceMessage));
    void exit.then((code) => reject(new Error(`the service process exited (${code}) before a message: ${stderr}`)));
  });
  return { child, first, exit };
}

async function get(url: string, key: string | null) {
  const res = await fetch(url, { headers: key ? { 'x-api-key': key } : {} });
  return { status: res.status, body: (await res.json()) as any };
}

describe('service process', () => {
  test('ready → real requests with the session key → shutdown: exit 0, database closed', async () => {
    const { child, first, exit } = await startProcess(['--db', dbFile, '--port', '0']);
    expect(first).toMatchObject({ type: 'ready', companyId: 'acme', message: null });
    if (first.type !== 'ready') throw new Error('not ready');
    expect(first.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(first.sessionKey).toMatch(/^ldk_/);

    const list = await get(`${first.url}/v2/labelReports`, first.sessionKey);
    expect(list.status).toBe(200);
    const session = await get(`${first.url}/local/session`, first.sessionKey);
    expect(session.status).toBe(200);
    expect(session.body).toMatchObject({ companyId: 'acme', companyName: 'Acme Cold Chain' });
    expect((await get(`${first.url}/v2/labelReports`, null)).status).toBe(401);

    child.send({ type: 'shutdown' });
    expect(await exit).toBe(0);
    // The last connection closed: SQLite checkpointed the WAL into the database and removed it.
    const wal = `${dbFile}-wal`;
    expect(!existsSync(wal) || statSync(wal).size === 0).toBe(true);
    const db = openDatabase(dbFile);
    try {
      expect((db.prepare('SELECT COUNT(*) AS n FROM label_reports').get() as { n: number }).n).toBe(4);
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    } finally {
      db.close();
    }

    // The session key lived only as long as that process.
    const next = await startProcess(['--db', dbFile, '--port', '0']);
    try {
      if (next.first.type !== 'ready') throw new Error('not ready');
      expect((await get(`${next.first.url}/v2/labelReports`, first.sessionKey)).status).toBe(401);
      expect(next.first.sessionKey).not.toBe(first.sessionKey);
    } finally {
      next.child.send({ type: 'shutdown' });
      expect(await next.exit).toBe(0);
    }
  });

  test('the parent going away stops the service cleanly too', async () => {
    const { child, first, exit } = await startProcess(['--db', dbFile, '--port', '0']);
    expect(first.type).toBe('ready');
    child.disconnect();
    expect(await exit).toBe(0);
  });

  test('a startup failure is reported as an error message and exit code 1', async () => {
    const { first, exit } = await startProcess(['--db', path.join(dir, 'missing', 'folder', 'x.sqlite'), '--port', '0']);
    expect(first).toMatchObject({ type: 'error' });
    if (first.type !== 'error') throw new Error('not an error');
    expect(first.message).toMatch(/directory|exist|open/i);
    expect(await exit).toBe(1);
  });
});
