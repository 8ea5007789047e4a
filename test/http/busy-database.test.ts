/**
 * Another process writing to the same file (an import switching in, a second LabelDesk) is not
 * a server failure: reads go on, a write waits its turn without stalling anyone, and one that
 * waited too long answers 503 with Retry-After and changes nothing. An unexpected error is a
 * 500 whose body names the request id under which the log holds it.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../db/database';
import { openService } from '../../host/open-service';
import { DatabaseOpenError, startService, type RunningService } from '../../host/start-service';
import { temporaryFolder } from '../db/migration-fixture';
import { api, makeReport, startTestService, type TestService } from '../support/service-fixture';

const dir = temporaryFolder('labeldesk-busy-database-');
let svc: TestService;
let impatient: RunningService;
const logged: string[] = [];
beforeAll(async () => {
  svc = await startTestService([makeReport('b1'), makeReport('b2')], { busyWaitMs: 60_000, logError: (line) => logged.push(line) });
  // A second service on the same file that gives up on a busy database at once.
  impatient = await startService({ dbFile: svc.dbFile, port: 0, busyWaitMs: 0 });
});
afterAll(async () => {
  await impatient.close();
  await svc.stop();
});

/** Another connection holding the write lock, as an import's switch does. */
function holdWriteLock(file: string): Db {
  const other = openDatabase(file);
  other.exec('BEGIN IMMEDIATE');
  return other;
}

describe('a database another process is writing to', () => {
  it('answers reads at once, and a PATCH once the other writer is done', async () => {
    const other = holdWriteLock(svc.dbFile);
    let patchDone = false;
    const patching = api(svc, '/v2/labelReports/b1', { method: 'PATCH', body: { labelReference: 'WAITED' } }).then((res) => {
      patchDone = true;
      return res;
    });
    // The PATCH is waiting; the event loop is not: reads answer meanwhile.
    const read = await api(svc, '/v2/labelReports/b2');
    const list = await api(svc, '/v2/labelReports?pageSize=1&output=minimal');
    expect([read.status, list.status]).toEqual([200, 200]);
    expect(patchDone).toBe(false);
    other.exec('COMMIT');
    other.close();
    const patched = await patching;
    expect(patched.status).toBe(200);
    expect(patched.body.labelReference).toBe('WAITED');
  });

  it('answers a write that cannot wait 503 with Retry-After, and changes nothing', async () => {
    const other = holdWriteLock(svc.dbFile);
    try {
      const res = await fetch(`${impatient.url}/v2/labelReports/b2`, {
        method: 'PATCH',
        headers: { 'x-api-key': svc.keys.acme, 'content-type': 'application/json' },
        body: JSON.stringify({ labelReference: 'NEVER' }),
      });
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('2');
      expect(await res.json()).toMatchObject({ statusCode: 503, code: 'DATABASE_BUSY', message: expect.stringContaining('busy with another writer') });
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
    expect((await api(svc, '/v2/labelReports/b2')).body.labelReference).toBe('REF-b2');
  });
});

/** Another connection holding the file alone, as an import switching in under the rollback journal does. */
function holdAlone(file: string): Db {
  const other = new Database(file);
  expect(other.pragma('journal_mode = DELETE', { simple: true })).toBe('delete');
  other.exec('BEGIN EXCLUSIVE');
  return other;
}

describe('a database another process holds alone', () => {
  it('keeps a starting service waiting, without blocking, until it is free', async () => {
    const file = join(dir(), 'alone.sqlite');
    openService(file).close();
    const other = holdAlone(file);
    let told!: () => void;
    const waiting = new Promise<void>((resolve) => (told = resolve));
    let started = false;
    const starting = startService({ dbFile: file, port: 0, onWaitingForDatabase: told }).then((running) => {
      started = true;
      return running;
    });
    await waiting;
    // Still waiting, and the event loop runs: this test's own awaits go on.
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toBe(false);
    other.exec('COMMIT');
    other.close();
    const running = await starting;
    const health = await fetch(`${running.url}/v2/labelReports`);
    expect(health.status).toBe(401);
    await running.close();
  });

  it('gives up after its wait, naming the busy database', async () => {
    const file = join(dir(), 'alone-long.sqlite');
    openService(file).close();
    const other = holdAlone(file);
    let waited = 0;
    try {
      const start = startService({ dbFile: file, port: 0, openWaitMs: 30, onWaitingForDatabase: () => waited++ });
      await expect(start).rejects.toThrow(DatabaseOpenError);
      await expect(start).rejects.toThrow(/busy/);
      expect(waited).toBe(1);
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
  });
});

describe('an unexpected error', () => {
  it('is a 500 naming a request id, and the log holds the error under that id', async () => {
    const raw = openDatabase(svc.dbFile);
    raw.exec(`CREATE TRIGGER fail_log BEFORE INSERT ON change_log BEGIN SELECT RAISE(ABORT, 'simulated fault'); END`);
    try {
      const res = await api(svc, '/v2/labelReports/b2', { method: 'PATCH', body: { labelReference: 'FAULT' } });
      expect(res.status).toBe(500);
      expect(res.body).toMatchObject({ code: 'INTERNAL_ERROR' });
      const id = /request id (req-[0-9a-f-]+)/.exec(res.body.message)?.[1];
      expect(id).toBeDefined();
      const line = logged.find((l) => l.startsWith(id!));
      expect(line).toContain('simulated fault');
      expect(line).toContain('PATCH /v2/labelReports/b2');
    } finally {
      raw.exec('DROP TRIGGER fail_log');
      raw.close();
    }
    expect((await api(svc, '/v2/labelReports/b2')).body.labelReference).toBe('REF-b2');
  });
});
