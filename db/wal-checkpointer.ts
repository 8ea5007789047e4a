/**
 * Checkpoints of the write-ahead log on a thread of their own. SQLite checkpoints in the commit
 * that fills the log past a thousand pages: that commit copies the pages into the database file
 * and waits for the disk twice (synchronous=NORMAL syncs the log, then the file), while every
 * request behind it waits. A service under a burst of taps committed that way about once every
 * thirty taps. Here the writer's own checkpoints are off, and a second connection in a worker
 * thread checkpoints instead, at most every `intervalMs` while writes come in, so the writer's
 * thread only appends to the log.
 *
 * PASSIVE checkpoints never wait for the writer or a reader: they copy what no reader still
 * needs, and the writer starts the log over once all of it is copied. A crash at any moment is
 * what it always was: the log holds every committed page until it has been copied.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { Db } from './database';

/** What runs in the worker: its own connection, a checkpoint per nudge, never two within the interval. */
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('busy_timeout = 0');
let last = 0, timer = null, stopped = false;
const checkpoint = () => {
  timer = null;
  if (stopped) return;
  last = Date.now();
  let result;
  try {
    const [row] = db.pragma('wal_checkpoint(PASSIVE)');
    result = { busy: row.busy, log: row.log, checkpointed: row.checkpointed };
  } catch (error) {
    result = { error: String(error && error.message || error) };
  }
  parentPort.postMessage(result);
  // Pages a reader's snapshot or a racing commit kept from being copied: try again without
  // waiting for a write that may never come, so the log does not stay behind after a burst.
  const behind = result.error === undefined && (result.busy || result.checkpointed < result.log);
  if (behind && !stopped) timer = setTimeout(checkpoint, Math.max(workerData.intervalMs, 100));
};
parentPort.on('message', (message) => {
  if (message === 'stop') {
    stopped = true;
    if (timer) clearTimeout(timer);
    db.close();
    // The writer waits for this before it closes its own connection, the last.
    Atomics.store(workerData.closed, 0, 1);
    Atomics.notify(workerData.closed, 0);
    parentPort.close();
    return;
  }
  if (!timer) timer = setTimeout(checkpoint, Math.max(0, last + workerData.intervalMs - Date.now()));
});
parentPort.postMessage('ready');
`;

/** One checkpoint's outcome, as SQLite reports it: pages in the log and pages copied. */
export interface CheckpointResult {
  busy?: number;
  log?: number;
  checkpointed?: number;
  error?: string;
}

export interface CheckpointerOptions {
  /** The least time between two checkpoints while writes come in. */
  intervalMs?: number;
  /** Told of each checkpoint the worker made (tests wait for them). */
  onCheckpoint?: (result: CheckpointResult) => void;
}

export class WalCheckpointer {
  /** A nudge is on its way or being answered. */
  private asked = false;
  /** Commits came after the nudge was sent: the checkpoint answering it may have started before them. */
  private again = false;
  private stopping: Promise<void> | undefined;

  /** The worker has ended or failed: nothing to wait for. */
  private exited = false;

  private constructor(
    private readonly worker: Worker,
    private readonly writer: Db,
    /** Set by the worker once its connection is closed. */
    private readonly closed: Int32Array,
    onCheckpoint: ((result: CheckpointResult) => void) | undefined,
  ) {
    worker.on('message', (result: CheckpointResult) => {
      this.asked = false;
      onCheckpoint?.(result);
      if (this.again) {
        this.again = false;
        this.committed();
      }
    });
    // A worker that fails hands the checkpoints back to the writer: the log must not grow for ever.
    worker.on('error', () => {
      this.exited = true;
      this.handBack();
    });
    worker.on('exit', () => {
      this.exited = true;
      this.handBack();
    });
  }

  /**
   * Starts the worker on the writer's file; once it has its connection, the writer stops
   * checkpointing. Null where no worker can start (the writer then keeps checkpointing itself).
   */
  static async start(writer: Db, options: CheckpointerOptions = {}): Promise<WalCheckpointer | null> {
    let driver: string;
    try {
      driver = createRequire(import.meta.url).resolve('better-sqlite3');
    } catch {
      return null;
    }
    if (writer.memory || writer.readonly) return null;
    const closed = new Int32Array(new SharedArrayBuffer(4));
    let worker: Worker;
    try {
      worker = new Worker(WORKER, { eval: true, workerData: { driver, file: writer.name, intervalMs: options.intervalMs ?? 250, closed } });
    } catch {
      return null;
    }
    const ready = await new Promise<boolean>((resolve) => {
      worker.once('message', (message) => resolve(message === 'ready'));
      worker.once('error', () => resolve(false));
      worker.once('exit', () => resolve(false));
    });
    if (!ready) {
      await worker.terminate();
      return null;
    }
    // A service never closed must not keep its process running for the sake of checkpoints.
    worker.unref();
    writer.pragma('wal_autocheckpoint = 0');
    return new WalCheckpointer(worker, writer, closed, options.onCheckpoint);
  }

  /**
   * After a commit: a checkpoint soon. Commits while one is asked for add at most one more,
   * sent once the answer is in, so the last commits of a burst are copied too.
   */
  committed(): void {
    if (this.stopping) return;
    if (this.asked) {
      this.again = true;
      return;
    }
    this.asked = true;
    this.worker.postMessage('nudge');
  }

  /** Ends the worker after any checkpoint it is making; the writer checkpoints again itself. */
  stop(): Promise<void> {
    this.stopping ??= new Promise<void>((resolve) => {
      this.worker.once('exit', () => resolve());
      this.worker.postMessage('stop');
    });
    return this.stopping;
  }

  /**
   * Ends the worker's connection before the writer closes its own, blocking until it has (after
   * any checkpoint it is making; at most `timeoutMs`). The writer's connection is then the last,
   * and its close copies what is left of the log and removes it, as when no worker ran; and a
   * connection opened on the file right after finds no other still closing.
   */
  stopBeforeClose(timeoutMs = 10_000): void {
    void this.stop();
    if (!this.exited) Atomics.wait(this.closed, 0, 0, timeoutMs);
  }

  private handBack(): void {
    this.stopping ??= Promise.resolve();
    if (this.writer.open) this.writer.pragma('wal_autocheckpoint = 1000');
  }
}
