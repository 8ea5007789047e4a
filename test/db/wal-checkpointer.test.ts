/**
 * The write-ahead log's checkpoints on a thread of their own (db/wal-checkpointer.ts): the
 * writer stops checkpointing once the worker has its connection, the worker copies what the
 * writes appended, and every write is there after a close or a reopen. Stopping the worker hands
 * the checkpoints back to the writer.
 */
import Database from 'better-sqlite3';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
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

/**
 * Whether every frame of the log is in the database file, read from the wal-index as SQLite's
 * file format lays it out: the header's mxFrame at byte 16, the checkpoint's nBackfill at byte 96.
 */
function logCopied(file: string): boolean {
  const index = readFileSync(`${file}-shm`);
  return index.readUInt32LE(16) > 0 && index.readUInt32LE(96) === index.readUInt32LE(16);
}

/** The checkpoints the worker reports, and a wait for the first one after which `done` holds. */
function checkpoints() {
  const seen: CheckpointResult[] = [];
  let wake: (() => void) | undefined;
  const until = (done: () => boolean) =>
    new Promise<void>((resolve) => {
      const look = () => {
        if (done()) resolve();
        else wake = look;
      };
      look();
    });
  return {
    seen,
    onCheckpoint: (result: CheckpointResult) => {
      seen.push(result);
      wake?.();
    },
    until,
    /** A checkpoint that copied every page of a log that held some. */
    whole: () => until(() => seen.some((r) => (r.log ?? 0) > 0 && r.checkpointed === r.log)),
  };
}

describe('checkpoints off the writer thread', () => {
  it('the writer stops checkpointing, and the worker copies what the writes appended', async () => {
    const { data, file, writeReport } = storeAt('worker.sqlite');
    expect(autocheckpoint(data)).toBe(1000);
    const seen = checkpoints();
    const checkpointer = await data.checkpointOffThread({ intervalMs: 0, onCheckpoint: seen.onCheckpoint });
    expect(checkpointer).not.toBeNull();
    expect(autocheckpoint(data)).toBe(0);
    // The same worker for a second ask.
    expect(await data.checkpointOffThread()).toBe(checkpointer);

    // The worker checkpoints while the writes go on; commits after its checkpoint began ask for
    // one more once its answer is in, so the burst's last commits are copied without a later write.
    for (let i = 0; i < 20; i++) writeReport(i);
    await seen.until(() => logCopied(file));
    expect(seen.seen.every((r) => r.error === undefined)).toBe(true);

    await checkpointer!.stop();
    // Handed back: the writer checkpoints again as SQLite does by default.
    expect(autocheckpoint(data)).toBe(1000);
    data.close();
  });

  it('a reader that held pages back: the worker tries again until the log is copied, with no write to nudge it', async () => {
    const { data, file, writeReport } = storeAt('reader.sqlite');
    const seen = checkpoints();
    const checkpointer = await data.checkpointOffThread({ intervalMs: 0, onCheckpoint: seen.onCheckpoint });
    writeReport(0);
    // A reader whose snapshot predates the next writes: the checkpoint cannot copy past it.
    const reader = new Database(file, { readonly: true });
    reader.prepare('BEGIN').run();
    reader.prepare('SELECT count(*) FROM label_reports').get();
    for (let i = 1; i < 5; i++) writeReport(i);
    await seen.until(() => seen.seen.some((r) => (r.checkpointed ?? 0) < (r.log ?? 0)));
    expect(logCopied(file)).toBe(false);
    reader.prepare('COMMIT').run();
    reader.close();
    await seen.until(() => logCopied(file));
    await checkpointer!.stop();
    data.close();
  });

  it('many commits within the interval wait for it: one checkpoint, not one a commit', async () => {
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

  it('every committed write is in the file once the close returns, and the log is gone', async () => {
    const { data, file, writeReport } = storeAt('close.sqlite');
    const checkpointer = await data.checkpointOffThread({ intervalMs: 0 });
    for (let i = 0; i < 50; i++) writeReport(i);
    data.close();
    // The worker's connection closed first, so the writer's close, the last, removed the log.
    expect(!existsSync(`${file}-wal`) || statSync(`${file}-wal`).size === 0).toBe(true);
    await checkpointer!.stop();
    const db = new Database(file, { readonly: true });
    expect(db.prepare('SELECT count(*) FROM label_reports').pluck().get()).toBe(50);
    db.close();
  });
});
