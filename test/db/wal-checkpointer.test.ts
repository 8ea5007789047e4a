/**
 * The write-ahead log's checkpoints on a thread of their own (db/wal-checkpointer.ts): the
 * writer stops checkpointing once the worker has its connection, the worker copies what the
 * writes appended, and every write is there after a close or a reopen. Stopping the worker hands
 * the checkpoints back to the writer.
 */
import Database from 'better-sqlite3';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DataStore } from '../../db/data-store';
import type { CheckpointResult } from '../../db/wal-checkpointer';
import { reportFromBundle } from '../../service/report-from-bundle';
import { COMPANIES, makeReport } from '../support/service-fixture';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'labeldesk-checkpointer-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The file with the fixture's companies, and a way to write report `i` in a transaction of its own. */
function storeAt(name: string): { data: DataStore; file: string; writeReport: (i: number) => void } {
  const file = join(dir, name);
  const data = DataStore.open(file);
  data.write(() => {
    for (const c of COMPANIES) data.companies.upsert(c);
  });
  return { data, file, writeReport: (i) => data.write(() => data.reports.write(reportFromBundle(makeReport(`c${i}`)))) };
}

/** The writer connection's own checkpoint threshold, read through a statement of the store's. */
const autocheckpoint = (data: DataStore) => data.read(() => (data as unknown as { db: Database.Database }).db.pragma('wal_autocheckpoint', { simple: true }));

/** Calls back when a checkpoint has copied every page of a log that held some. */
function checkpoints() {
  const seen: CheckpointResult[] = [];
  let wake: (() => void) | undefined;
  return {
    seen,
    onCheckpoint: (result: CheckpointResult) => {
      seen.push(result);
      wake?.();
    },
    whole: () =>
      new Promise<CheckpointResult>((resolve) => {
        const look = () => {
          const done = seen.find((r) => (r.log ?? 0) > 0 && r.checkpointed === r.log);
          if (done) resolve(done);
          else wake = look;
        };
        look();
      }),
  };
}

describe('checkpoints off the writer thread', () => {
  it('the writer stops checkpointing, and the worker copies what the writes appended', async () => {
    const { data, writeReport } = storeAt('worker.sqlite');
    expect(autocheckpoint(data)).toBe(1000);
    const seen = checkpoints();
    const checkpointer = await data.checkpointOffThread({ intervalMs: 0, onCheckpoint: seen.onCheckpoint });
    expect(checkpointer).not.toBeNull();
    expect(autocheckpoint(data)).toBe(0);
    // The same worker for a second ask.
    expect(await data.checkpointOffThread()).toBe(checkpointer);

    for (let i = 0; i < 20; i++) writeReport(i);
    const whole = await seen.whole();
    expect(whole.log).toBeGreaterThan(0);
    expect(seen.seen.every((r) => r.error === undefined)).toBe(true);

    await checkpointer!.stop();
    // Handed back: the writer checkpoints again as SQLite does by default.
    expect(autocheckpoint(data)).toBe(1000);
    data.close();
  });

  it('one checkpoint for many commits: nudges while one is asked for add none', async () => {
    const { data, writeReport } = storeAt('coalesce.sqlite');
    const seen = checkpoints();
    // An interval no test waits out: the first checkpoint comes at once, the next only after it.
    const checkpointer = await data.checkpointOffThread({ intervalMs: 3_600_000, onCheckpoint: seen.onCheckpoint });
    writeReport(0);
    await seen.whole();
    for (let i = 1; i < 30; i++) writeReport(i);
    await checkpointer!.stop();
    expect(seen.seen).toHaveLength(1);
    data.close();
  });

  it('every committed write is in the file after a close, and the log is gone', async () => {
    const { data, file, writeReport } = storeAt('close.sqlite');
    const checkpointer = await data.checkpointOffThread({ intervalMs: 0 });
    for (let i = 0; i < 50; i++) writeReport(i);
    data.close();
    await checkpointer!.stop();
    expect(!existsSync(`${file}-wal`) || statSync(`${file}-wal`).size === 0).toBe(true);
    const db = new Database(file, { readonly: true });
    expect(db.prepare('SELECT count(*) FROM label_reports').pluck().get()).toBe(50);
    db.close();
  });
});
