/**
 * One durable job queue for background work. Jobs are rows of the queue's own outbox table,
 * which a small typed store (`JobStore`, SQL in db/) lets this class read: they survive a
 * restart because they were written in the transaction of the change that caused them. A job
 * is taken under a lease (its row names the process and until when), so that it runs once at
 * a time even with two processes on one database file; a crash leaves the lease, which is
 * freed at the next start when its process no longer runs, or once it runs out. The job then
 * runs again, under the same id: delivery is at least once.
 *
 * A subclass says how to run one attempt (`run`, off the database), what its result means
 * (`verdict`) and how to record it (`record`, inside the queue's write). Attempts are counted
 * by the store; the next one is due after the queue's backoff (jobs/backoff.ts), never sooner
 * than a Retry-After asked for. The queue sleeps until the next job is due, or until `wake`
 * says one was just written (an outbox's `onDue`), never polling in a loop; `stop` waits for
 * the attempts in flight, then cuts them short and gives their leases back.
 *
 * A queue whose work must happen at a point of something else (the sync push, after the pull
 * of its cycle) is drained instead of started: `drain` runs what is due and resolves when it is
 * done, and nothing runs on a timer in between.
 */
import { waitForDatabase } from '../db/busy';
import { DatabaseBusyError } from '../db/data-store';
import { delayAfter, type Backoff } from './backoff';

/** What the queue needs of a job: the store's row may carry anything else the job needs. */
export interface QueuedJob {
  id: string;
  /** Attempts recorded before this one. */
  attempts: number;
  /** Jobs of one group (a receiver, a server) share the group's limit of attempts in flight. */
  group: string;
}

/** The queue's rows, as the queue's table in db/ keeps them. Every method runs inside the queue's write. */
export interface JobStore<J extends QueuedJob> {
  /** Up to `limit` jobs due at `now` that no lease holds, oldest due first, none of the groups in `busy`. */
  due(now: Date, limit: number, busy: readonly string[]): J[];
  /** The job is `owner`'s to run until `until`. */
  lease(job: J, until: Date, owner: number): void;
  /** When the next job not held by `owner` nor of the groups in `busy` becomes due, or its lease runs out. */
  nextDueAt(now: Date, owner: number, busy: readonly string[]): Date | undefined;
  /** The processes holding leases. */
  leaseHolders(): number[];
  /** Every lease of `owner`: its jobs are due again at once. */
  releaseLeases(owner: number): void;
  /** One lease given back without an attempt recorded. */
  release(job: J, owner: number): void;
}

/**
 * An outbox table as its store in db/ answers it: times as ISO 8601 text, jobs by id. Queues
 * whose table has this shape get their `JobStore` from `outboxJobStore`.
 */
export interface OutboxTable<Row extends { id: string }> {
  due(now: string, limit: number, busy: readonly string[]): Row[];
  lease(id: string, until: string, owner: number): void;
  nextDueAt(owner: number, now: string, busy: readonly string[]): string | undefined;
  leaseHolders(): number[];
  releaseLeases(owner: number): unknown;
  release(id: string, owner: number): void;
}

/** The queue's view of such a table: each row made a job (with its group) by `toJob`. */
export function outboxJobStore<Row extends { id: string }, J extends QueuedJob>(table: OutboxTable<Row>, toJob: (row: Row) => J): JobStore<J> {
  return {
    due: (now, limit, busy) => table.due(now.toISOString(), limit, busy).map(toJob),
    lease: (job, until, owner) => table.lease(job.id, until.toISOString(), owner),
    nextDueAt: (now, owner, busy) => {
      const next = table.nextDueAt(owner, now.toISOString(), busy);
      return next === undefined ? undefined : new Date(next);
    },
    leaseHolders: () => table.leaseHolders(),
    releaseLeases: (owner) => void table.releaseLeases(owner),
    release: (job, owner) => table.release(job.id, owner),
  };
}

/** The database the store works in (DataStore is one). */
export interface JobDatabase {
  readonly isOpen: boolean;
  /** A transaction held open across awaits (an import): writing now would join it. */
  readonly inTransaction: boolean;
  write<T>(fn: () => T): T;
}

/**
 * What an attempt's result means for its job. `endDrain`: in a drain, no further job is taken,
 * and once the attempts in flight are recorded the drain rejects with it (a failure that says
 * the receiver is unreachable ends the work of this point; the caller's own backoff applies).
 */
export type Verdict = { done: true } | { done: false; retry: boolean; retryAfterMs?: number; endDrain?: Error };

/** How an attempt ended, as `record` writes it. */
export interface Settled<R> {
  result: R;
  verdict: Verdict;
  startedAt: Date;
  endedAt: Date;
  /** When the job is due again; null when it is done or has no attempt left. */
  retryAt: Date | null;
}

export interface JobQueueOptions {
  /** Names the queue in log lines. */
  name: string;
  /** Attempts in flight at once, in all. */
  concurrency?: number;
  /** Attempts in flight at once per group. */
  perGroup?: number;
  /** How long a lease lasts: an attempt's own deadline and a margin. Another process may take the job only after that. */
  leaseMs: number;
  backoff: Backoff;
  /** Random in [0, 1) for the jitter. */
  random?: () => number;
  now?: () => Date;
  /** The process id leases are taken under, and how to tell whether a holder still runs. */
  pid?: number;
  isRunning?: (pid: number) => boolean;
  logError?: (line: string) => void;
  /** Jobs another process wrote wake nobody here: they are looked for this often. */
  idleCheckMs?: number;
  /** How long recording an attempt waits for a busy database before the lease is left to run out. */
  busyBudgetMs?: number;
  /**
   * A started queue records the attempts that ended in one turn of the event loop together,
   * and leases the jobs due in their places in the same commit: one commit per turn instead of
   * one per attempt and one per claim. Each record stays its own savepoint, so one that throws
   * leaves the others recorded. A drain records each attempt on its own, as without it.
   */
  recordWithClaim?: boolean;
}

/** An ended attempt of a started queue waiting for the commit it shares (`recordWithClaim`). */
interface Unrecorded<J> {
  job: J;
  /** Writes the record, inside the shared write. */
  write: () => void;
  /** Told once the shared write committed, or why this record could not be written. */
  settled: (error?: unknown) => void;
}

/** How soon to look again when the connection is in someone's open transaction or the file is busy. */
const RETRY_SOON_MS = 50;

/** Settled jobs and their attempts stay this long for the delivery logs, then go, looked for once an hour. */
const KEEP_SETTLED_MS = 30 * 24 * 60 * 60 * 1000;
const PRUNE_EVERY_MS = 60 * 60 * 1000;

interface InFlight {
  job: QueuedJob;
  abort: AbortController;
  done: Promise<void>;
}

export abstract class JobQueue<J extends QueuedJob, R> {
  protected readonly now: () => Date;
  protected readonly logError: (line: string) => void;
  protected readonly pid: number;
  private readonly concurrency: number;
  private readonly perGroup: number;
  private readonly random: () => number;
  private readonly isRunning: (pid: number) => boolean;
  private readonly idleCheckMs: number;
  private readonly busyBudgetMs: number;
  private readonly inFlight = new Map<string, InFlight>();
  private timer: NodeJS.Timeout | undefined;
  private pumpQueued = false;
  private stopping = false;
  /** Leases of earlier processes under this pid were freed (at start or the first drain). */
  private ownLeasesFreed = false;
  /** Jobs of a drain whose attempt could not be recorded: their leases are given back at the next drain. */
  private stranded: J[] = [];
  private lastPrune = -Infinity;
  private unrecorded: Unrecorded<J>[] = [];
  private flushQueued = false;

  constructor(
    protected readonly db: JobDatabase,
    protected readonly store: JobStore<J>,
    private readonly options: JobQueueOptions,
  ) {
    this.concurrency = options.concurrency ?? 16;
    this.perGroup = Math.min(options.perGroup ?? this.concurrency, this.concurrency);
    this.random = options.random ?? Math.random;
    this.now = options.now ?? (() => new Date());
    this.pid = options.pid ?? process.pid;
    this.isRunning = options.isRunning ?? processRuns;
    this.logError = options.logError ?? ((line) => process.stderr.write(line + '\n'));
    this.idleCheckMs = options.idleCheckMs ?? 30_000;
    this.busyBudgetMs = options.busyBudgetMs ?? 30_000;
  }

  /** One attempt, off the database. `signal` aborts when the queue stops; a rejection is logged and the lease left to run out. */
  protected abstract run(job: J, signal: AbortSignal): Promise<R>;
  /** What the result means. */
  protected abstract verdict(job: J, result: R): Verdict;
  /** Records the attempt and its job's next state, inside the queue's write. */
  protected abstract record(job: J, settled: Settled<R>): void;
  /** Removes settled jobs and attempts recorded before `before` (an ISO time), inside the queue's write. */
  protected prune(_before: string): void {}

  private pruneHourly(now: Date): void {
    if (now.getTime() - this.lastPrune < PRUNE_EVERY_MS) return;
    const before = new Date(now.getTime() - KEEP_SETTLED_MS).toISOString();
    this.db.write(() => this.prune(before));
    this.lastPrune = now.getTime();
  }

  /** Frees what dead processes held, then runs whatever is due. */
  start(): this {
    this.db.write(() => this.freeAbandonedLeases());
    this.pump();
    return this;
  }

  /**
   * Runs the jobs due now, with the queue's limits, and resolves once none is left and every
   * attempt is recorded; no timer is set. A job runs at most once per drain: one due again
   * meanwhile (its attempt failed, or its row changed while the attempt was out) waits for the
   * next drain. `signal` aborted: no further job is taken (the attempts in flight end as they
   * do). Rejects with a verdict's `endDrain`, or the error of an attempt that could not be
   * recorded (its lease is given back at the next drain), after the attempts in flight ended.
   * At every drain the leases of processes that no longer run are freed, as at `start`.
   */
  async drain(signal?: AbortSignal): Promise<void> {
    await waitForDatabase(
      () =>
        this.db.write(() => {
          this.freeAbandonedLeases();
          for (const job of this.stranded) this.store.release(job, this.pid);
        }),
      this.busyBudgetMs,
    );
    this.stranded = [];
    const tried = new Set<string>();
    const running = new Set<Promise<void>>();
    let ended: Error | undefined;
    for (;;) {
      const free = this.concurrency - running.size;
      if (free > 0 && ended === undefined && !signal?.aborted && !this.stopping && this.db.isOpen) {
        const taken = await waitForDatabase(() => this.claimOnce(free, tried), this.busyBudgetMs);
        for (const job of taken) {
          tried.add(job.id);
          const done: Promise<void> = this.attempt(job, (end) => {
            if ('error' in end) ended ??= end.error;
            else if (!end.verdict.done && end.verdict.endDrain !== undefined) ended ??= end.verdict.endDrain;
          }).finally(() => running.delete(done));
          running.add(done);
        }
        if (taken.length > 0) continue;
      }
      if (running.size === 0) break;
      // An attempt ending frees a place, or its group, or leaves a job due again for this drain's look.
      await Promise.race(running);
    }
    if (ended !== undefined) throw ended;
  }

  /** Inside the queue's write. */
  private freeAbandonedLeases(): void {
    for (const pid of this.store.leaseHolders()) {
      // Before this queue held anything, a lease under its own pid is an earlier process's
      // (a container's process is often pid 1 at every start); later it is its own.
      if ((pid === this.pid && !this.ownLeasesFreed) || (pid !== this.pid && !this.isRunning(pid))) this.store.releaseLeases(pid);
    }
    this.ownLeasesFreed = true;
  }

  /** A job was written: run it soon, after the transaction that wrote it has ended. */
  wake(): void {
    if (this.stopping || this.pumpQueued) return;
    this.pumpQueued = true;
    setImmediate(() => {
      this.pumpQueued = false;
      this.pump();
    });
  }

  /** How many attempts are in flight. */
  get running(): number {
    return this.inFlight.size;
  }

  /**
   * Takes no more jobs; attempts in flight get `graceMs` to finish, then are cut short and
   * their leases given back (nothing recorded: the job is due again at the next start).
   */
  async stop(graceMs = 2_000): Promise<void> {
    this.stopping = true;
    clearTimeout(this.timer);
    const running = [...this.inFlight.values()];
    const cut = setTimeout(() => {
      for (const attempt of running) attempt.abort.abort();
    }, graceMs);
    await Promise.allSettled(running.map((attempt) => attempt.done));
    clearTimeout(cut);
    this.stopped();
  }

  /** After the last attempt ended at a stop: close what the attempts used. */
  protected stopped(): void {}

  private pump(): void {
    if (this.stopping || !this.db.isOpen) return;
    // An import or export holds this connection's transaction across awaits: writing now would
    // join it. Such work ends soon; look again then.
    if (this.db.inTransaction) return this.later(RETRY_SOON_MS);
    try {
      const now = this.now();
      this.pruneHourly(now);
      const free = this.concurrency - this.inFlight.size;
      // Full, or some due job waits for its group's turn: a finishing attempt wakes us.
      if (free === 0 || this.claim(now, free)) return this.later(null);
      const next = this.store.nextDueAt(now, this.pid, this.busyGroups());
      this.later(next === undefined ? this.idleCheckMs : Math.min(this.idleCheckMs, next.getTime() - now.getTime()));
    } catch (err) {
      if (!(err instanceof DatabaseBusyError)) this.logError(`${this.options.name}: ${(err as Error).stack ?? String(err)}`);
      this.later(err instanceof DatabaseBusyError ? RETRY_SOON_MS : this.idleCheckMs);
    }
  }

  /** Leases and starts what is due; returns whether more is due than was taken. */
  private claim(now: Date, free: number): boolean {
    const { taken, more } = this.db.write(() => this.leaseDue(now, free, this.runningPerGroup()));
    for (const job of taken) this.attempt(job);
    return more;
  }

  /**
   * Inside the queue's write: leases up to `free` due jobs, none of `skip`, within the groups'
   * limits given what runs (`running`, per group); returns them and whether more is due.
   */
  private leaseDue(now: Date, free: number, running: Map<string, number>, skip?: ReadonlySet<string>): { taken: J[]; more: boolean } {
    const busy = [...running].filter(([, n]) => n >= this.perGroup).map(([group]) => group);
    const leaseUntil = new Date(now.getTime() + this.options.leaseMs);
    const extra = skip?.size ?? 0;
    const due = this.store.due(now, free + extra, busy);
    const chosen: J[] = [];
    let passed = 0;
    for (const job of due) {
      if (chosen.length === free) break;
      if (skip?.has(job.id)) continue;
      passed++;
      const n = running.get(job.group) ?? 0;
      if (n >= this.perGroup) continue;
      running.set(job.group, n + 1);
      this.store.lease(job, leaseUntil, this.pid);
      chosen.push(job);
    }
    return { taken: chosen, more: due.length === free + extra || chosen.length < passed };
  }

  /**
   * Writes the records of the attempts that ended since the last look, each in a savepoint of
   * one write, and in the same write leases what is due in their places (unless stopping).
   * Told after the commit: each record's attempt, then the new attempts start.
   */
  private async flush(): Promise<void> {
    this.flushQueued = false;
    const batch = this.unrecorded.splice(0);
    if (batch.length === 0) return;
    if (!this.db.isOpen) {
      // Closed under us: the leases run out and the jobs run again.
      for (const entry of batch) entry.settled();
      return;
    }
    const failed = new Map<Unrecorded<J>, unknown>();
    let taken: J[] = [];
    try {
      taken = await waitForDatabase(() => {
        failed.clear();
        const claim = !this.stopping && !this.db.inTransaction;
        return this.db.write(() => {
          for (const entry of batch) {
            try {
              this.db.write(entry.write);
            } catch (err) {
              failed.set(entry, err);
            }
          }
          if (!claim) return [];
          const ended = new Set(batch.map((entry) => entry.job.id));
          const running = new Map<string, number>();
          for (const { job } of this.inFlight.values()) if (!ended.has(job.id)) running.set(job.group, (running.get(job.group) ?? 0) + 1);
          const free = this.concurrency - [...this.inFlight.keys()].filter((id) => !ended.has(id)).length;
          // A job recorded here and due again at once is left for the next look: its attempt still ends.
          return free > 0 ? this.leaseDue(this.now(), free, running, ended).taken : [];
        });
      }, this.busyBudgetMs);
    } catch (err) {
      for (const entry of batch) entry.settled(err);
      return;
    }
    for (const entry of batch) entry.settled(failed.has(entry) ? (failed.get(entry) ?? new Error('the record failed')) : undefined);
    for (const job of taken) this.attempt(job);
  }

  private runningPerGroup(): Map<string, number> {
    const running = new Map<string, number>();
    for (const { job } of this.inFlight.values()) running.set(job.group, (running.get(job.group) ?? 0) + 1);
    return running;
  }

  /** Groups with as many attempts in flight as they may have. */
  private busyGroups(): string[] {
    return [...this.runningPerGroup()].filter(([, n]) => n >= this.perGroup).map(([group]) => group);
  }

  /** Leases up to `free` due jobs not in `tried`, in one write (a drain's look). */
  private claimOnce(free: number, tried: ReadonlySet<string>): J[] {
    const now = this.now();
    const running = this.runningPerGroup();
    const busy = this.busyGroups();
    const leaseUntil = new Date(now.getTime() + this.options.leaseMs);
    return this.db.write(() => {
      const chosen: J[] = [];
      for (const job of this.store.due(now, free + tried.size, busy)) {
        if (chosen.length === free) break;
        const n = running.get(job.group) ?? 0;
        if (tried.has(job.id) || n >= this.perGroup) continue;
        running.set(job.group, n + 1);
        this.store.lease(job, leaseUntil, this.pid);
        chosen.push(job);
      }
      return chosen;
    });
  }

  /**
   * Starts one attempt. `drained`: it belongs to a drain, which is told how it ended (its verdict,
   * or the error that kept it from being recorded), and it wakes no pump when it ends.
   */
  private attempt(job: J, drained?: (ended: { verdict: Verdict } | { error: Error }) => void): Promise<void> {
    const abort = new AbortController();
    const startedAt = this.now();
    const batched = this.options.recordWithClaim === true && !drained;
    const done: Promise<void> = this.run(job, abort.signal)
      .then((result) => this.settle(job, result, startedAt, abort.signal.aborted, batched))
      .then(
        (verdict) => void (verdict && drained?.({ verdict })),
        (err: unknown) => {
          if (!drained) return this.logError(`${this.options.name}: job ${job.id}: ${(err as Error).stack ?? String(err)}`);
          // The lease would hold the job past the next drain of this queue: given back then.
          this.stranded.push(job);
          drained({ error: err instanceof Error ? err : new Error(String(err)) });
        },
      )
      .finally(() => {
        if (this.inFlight.get(job.id)?.done === done) this.inFlight.delete(job.id);
        if (!drained) this.wake();
      });
    this.inFlight.set(job.id, { job, abort, done });
    return done;
  }

  private async settle(job: J, result: R, startedAt: Date, stopped: boolean, batched: boolean): Promise<Verdict | undefined> {
    if (!this.db.isOpen) return undefined; // closed under us: the lease runs out and the job runs again
    if (stopped) {
      await waitForDatabase(() => this.db.write(() => this.store.release(job, this.pid)), this.busyBudgetMs);
      return undefined;
    }
    const verdict = this.verdict(job, result);
    const delay = verdict.done || !verdict.retry ? null : delayAfter(this.options.backoff, job.attempts + 1, this.random, verdict.retryAfterMs);
    if (batched) {
      await new Promise<void>((resolve, reject) => {
        this.unrecorded.push({
          job,
          write: () => {
            const endedAt = this.now();
            const retryAt = delay === null ? null : new Date(endedAt.getTime() + delay);
            this.record(job, { result, verdict, startedAt, endedAt, retryAt });
          },
          settled: (error) => (error === undefined ? resolve() : reject(error)),
        });
        if (!this.flushQueued) {
          this.flushQueued = true;
          // After this turn's other I/O: the attempts that ended in it share the commit.
          setImmediate(() => void this.flush());
        }
      });
      return verdict;
    }
    await waitForDatabase(() => {
      const endedAt = this.now();
      const retryAt = delay === null ? null : new Date(endedAt.getTime() + delay);
      return this.db.write(() => this.record(job, { result, verdict, startedAt, endedAt, retryAt }));
    }, this.busyBudgetMs);
    return verdict;
  }

  /** Pumps again after `ms`, or only when woken (null). */
  private later(ms: number | null): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (ms === null || this.stopping) return;
    // Unref'd: a pending retry alone does not keep a process alive; the service's server does.
    this.timer = setTimeout(() => this.pump(), Math.max(0, ms)).unref();
  }
}

export function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it runs, as another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
