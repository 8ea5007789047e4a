/**
 * The retrieves of a cycle, side by side: at most `RETRIEVE_CONCURRENCY` in flight, one request
 * per connection kept open to the remote, fed from batches (a page's reports new to the mirror)
 * in the order they were handed in, so that the next page's retrieves start while the last of
 * this page's are still answered instead of after the slowest of them.
 *
 * A remote that answers 429 or 503 is asking every request to slow down, not the one it
 * answered: the whole pool pauses, until its `Retry-After` or, without one, for a backoff that
 * doubles while it keeps answering so (jobs/backoff.ts); the retrieves in flight finish, no new
 * one starts. A pause longer than a cycle should hold its place for, or one pause too many in a
 * row, fails the batch, and the cycle's backoff timer takes over. Other transient failures (a
 * reset connection, a 500, a timeout) concern their own request: it is asked again on the
 * worker's read retry (read-retry.ts), the others go on.
 *
 * A batch resolves once every report of it is in, or rejects with the first failure that is
 * not retried; the batches handed in after a failed one are dropped with it (their pages cannot
 * be committed before it), those before it go on.
 */
import { delayAfter, exponential, SHORTEN_ONLY } from '../jobs/backoff';
import type { RemoteReport } from '../schema/sync';
import type { RefusedReport } from './remote-checks';
import { REMOTE_CONNECTIONS, RemoteFailure } from './remote-client';
import type { RetryWait } from './retrying-remote';

/** Retrieves in flight at once: as many as the connections kept open, so none waits for a socket. */
export const RETRIEVE_CONCURRENCY = REMOTE_CONNECTIONS;

/** Statuses by which the remote asks the client to slow down as a whole. */
const SLOW_DOWN: ReadonlySet<number> = new Set([429, 503]);

export interface PausePolicy {
  /** The pause after a slow-down answer without Retry-After; it doubles with each one in a row. */
  firstPauseMs: number;
  /** The longest pause without Retry-After. */
  longestPauseMs: number;
  /** The longest Retry-After waited inside the cycle; a longer one goes to the cycle's backoff. */
  longestRetryAfterMs: number;
  /** Pauses in a row, without a retrieve answered in between, before the batch fails. */
  pausesInARow: number;
}

export const RETRIEVE_PAUSES: PausePolicy = { firstPauseMs: 500, longestPauseMs: 8_000, longestRetryAfterMs: 60_000, pausesInARow: 6 };

export interface RetrievePoolOptions {
  /** One retrieve, asked once: the pool decides whether and when to ask again. */
  retrieve(id: string): Promise<Retrieval | null>;
  /** Waits `ms`; rejects (with `Stopped`) when the worker stops meanwhile. */
  wait(ms: number): Promise<void>;
  /** Between two attempts of a retrieve that failed on its own (not a slow-down): the worker's read retry. */
  retryWait: RetryWait;
  /** Uniform in [0, 1), for the pauses' jitter. */
  random: () => number;
  /** Milliseconds since the epoch (tests pass a clock of their own with `wait`). */
  now?: () => number;
  concurrency?: number;
  pauses?: PausePolicy;
  /** Told of each pause as it begins, with how long (tests follow the pool by it). */
  onPause?: (ms: number, failure: RemoteFailure) => void;
}

/** A report retrieved, or the reason the mirror does not take what the remote answered for it. */
export type Retrieval = RemoteReport | RefusedReport;

interface Batch {
  ids: readonly string[];
  found: (Retrieval | null)[];
  /** Items not yet answered. */
  open: number;
  failed: boolean;
  resolve(reports: Retrieval[]): void;
  reject(err: unknown): void;
}

interface Item {
  batch: Batch;
  index: number;
  /** Attempts made so far of this retrieve. */
  attempts: number;
}

export class RetrievePool {
  private readonly queue: Item[] = [];
  private readonly batches: Batch[] = [];
  private readonly concurrency: number;
  private readonly pauses: PausePolicy;
  private readonly now: () => number;
  private active = 0;
  /** Until when no retrieve starts (ms since the epoch); 0 when not paused. */
  private pausedUntil = 0;
  /** Resolves when the pause in progress ends; null when none is. */
  private pausing: Promise<void> | null = null;
  /** Slow-down answers in a row, each to a retrieve started after the last pause began. */
  private pausesInARow = 0;
  /** Counts pauses: a retrieve started before the current pause began does not start another one. */
  private generation = 0;
  private closed = false;

  constructor(private readonly options: RetrievePoolOptions) {
    this.concurrency = Math.max(1, options.concurrency ?? RETRIEVE_CONCURRENCY);
    this.pauses = options.pauses ?? RETRIEVE_PAUSES;
    this.now = options.now ?? Date.now;
  }

  /** Retrieves in flight (or waiting on their own retry) now. */
  get inFlight(): number {
    return this.active;
  }

  /** Whether new retrieves wait for a pause to end. */
  get paused(): boolean {
    return this.pausing !== null;
  }

  /**
   * The whole reports of `ids` (or why one is refused), in the order given; those the remote no
   * longer shows (404) are left out. Queued behind the batches handed in before it.
   */
  fetch(ids: readonly string[]): Promise<Retrieval[]> {
    if (this.closed) return Promise.reject(new Error('the retrieve pool is closed'));
    return new Promise<Retrieval[]>((resolve, reject) => {
      const batch: Batch = { ids, found: new Array(ids.length).fill(null), open: ids.length, failed: false, resolve, reject };
      if (ids.length === 0) return resolve([]);
      this.batches.push(batch);
      for (let index = 0; index < ids.length; index++) this.queue.push({ batch, index, attempts: 0 });
      this.pump();
    });
  }

  /** Drops what is queued; the batches not yet complete reject. Retrieves in flight finish unheard. */
  close(): void {
    this.closed = true;
    this.fail(this.batches[0], new Error('the retrieve pool is closed'));
  }

  private pump(): void {
    while (!this.closed && this.pausing === null && this.active < this.concurrency && this.queue.length > 0) {
      const item = this.queue.shift()!;
      this.active++;
      void this.run(item).finally(() => {
        this.active--;
        this.pump();
      });
    }
  }

  private async run(item: Item): Promise<void> {
    const { batch } = item;
    for (;;) {
      if (batch.failed) return;
      const generation = this.generation;
      item.attempts++;
      try {
        const report = await this.options.retrieve(batch.ids[item.index]);
        this.pausesInARow = 0;
        this.answered(item, report);
        return;
      } catch (err) {
        if (batch.failed) return;
        if (err instanceof RemoteFailure && err.transient && err.status !== undefined && SLOW_DOWN.has(err.status)) {
          const paused = this.slowDown(err, generation);
          if (paused instanceof Error) return this.fail(batch, paused);
          // Back in the queue at its head: it goes first once the pause ends.
          this.queue.unshift(item);
          return;
        }
        let again = false;
        try {
          again = err instanceof RemoteFailure && (await this.options.retryWait(item.attempts, err));
        } catch (stopped) {
          return this.fail(batch, stopped);
        }
        if (!again) return this.fail(batch, err);
      }
    }
  }

  /** A slow-down answer: the pool pauses (or pauses longer), or the error that ends the batch. */
  private slowDown(failure: RemoteFailure, generation: number): true | Error {
    const { pauses } = this;
    if (generation === this.generation) {
      this.generation++;
      this.pausesInARow++;
    }
    if (this.pausesInARow > pauses.pausesInARow) return failure;
    if (failure.retryAfterMs !== undefined && failure.retryAfterMs > pauses.longestRetryAfterMs) return failure;
    const ms = delayAfter(exponential(pauses.firstPauseMs, pauses.longestPauseMs, SHORTEN_ONLY), this.pausesInARow, this.options.random, failure.retryAfterMs)!;
    const until = this.now() + ms;
    if (until <= this.pausedUntil) return true;
    this.pausedUntil = until;
    this.options.onPause?.(ms, failure);
    if (this.pausing === null) {
      this.pausing = this.pauseUntilDue().then(
        () => {
          this.pausing = null;
          this.pausedUntil = 0;
          this.pump();
        },
        (err: unknown) => {
          this.pausing = null;
          this.fail(this.batches[0], err);
        },
      );
    }
    return true;
  }

  /** Waits until `pausedUntil`, which a later slow-down answer may move on meanwhile. */
  private async pauseUntilDue(): Promise<void> {
    for (let left = this.pausedUntil - this.now(); left > 0; left = this.pausedUntil - this.now()) {
      await this.options.wait(left);
    }
  }

  private answered(item: Item, report: Retrieval | null): void {
    const { batch } = item;
    if (batch.failed) return;
    batch.found[item.index] = report;
    if (--batch.open > 0) return;
    this.batches.splice(this.batches.indexOf(batch), 1);
    batch.resolve(batch.found.filter((r): r is Retrieval => r !== null));
  }

  /** `batch` and every batch handed in after it reject with `err`; their queued retrieves are dropped. */
  private fail(batch: Batch | undefined, err: unknown): void {
    if (!batch || batch.failed) return;
    const from = this.batches.indexOf(batch);
    if (from < 0) return;
    const dropped = this.batches.splice(from);
    for (const b of dropped) b.failed = true;
    for (let i = this.queue.length - 1; i >= 0; i--) if (this.queue[i].batch.failed) this.queue.splice(i, 1);
    for (const b of dropped) b.reject(err);
  }
}
