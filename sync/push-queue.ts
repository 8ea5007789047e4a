/**
 * The push (docs/sync.md#local-edits-and-push) as a job queue (jobs/job-queue.ts) on the
 * outbox: each pending entry is one job, sent as one PATCH of its fields with absolute values,
 * so a replay changes nothing. A 200's answer becomes the mirror's state and what was sent
 * leaves the outbox; a refusal makes the entry a dead letter and the rest goes on; anything
 * else (offline, paused) ends the push with the entry kept and its failure counted, unless the
 * PATCH may be sent again at once (see `send`), and the cycle's backoff applies.
 *
 * The queue is drained by the cycle after its pull (a push never goes out before the pull of
 * its cycle: the lost-answer logic of merge.ts depends on it), never on a timer of its own. An
 * entry being pushed is leased, so a second process on the same file, or a second worker, does
 * not send it at the same time; an entry edited again while its PATCH is out waits for the next
 * cycle, which the edit schedules.
 */
import { isRefused } from './remote-checks';
import type { DataStore } from '../db/data-store';
import type { LeasedOutboxRecord } from '../model/sync-records';
import { exponential } from '../jobs/backoff';
import { JobQueue, type JobDatabase, type JobStore, type Settled, type Verdict } from '../jobs/job-queue';
import type { LabelReportPatch } from '../schema/report';
import type { RemoteReport } from '../schema/sync';
import type { CycleContext } from './context';
import { patchOf } from './fields';
import { RemoteFailure } from './remote-client';

/** An outbox entry taken for a push; one group: PATCHes go out one at a time, oldest entry first. */
export type PushJob = LeasedOutboxRecord & { id: string; group: string };

export interface PushJobs {
  database: JobDatabase;
  store: JobStore<PushJob>;
}

/** How one entry's push ended. */
export type PushResult =
  | { kind: 'accepted'; answer: RemoteReport | null }
  | { kind: 'refused'; failure: RemoteFailure }
  /** The entry stays and the push ends; `sent`: its PATCH may have gone out (an attempt to count). */
  | { kind: 'failed'; error: Error; sent: boolean };

const PUSH_GROUP = 'push';

/** The outbox's entries as the queue's jobs; the SQL is db/sync-store.ts's. */
export function outboxJobs(data: DataStore): JobStore<PushJob> {
  const { sync } = data;
  return {
    due: (now, limit, busy) =>
      busy.includes(PUSH_GROUP) ? [] : sync.duePushes(now.toISOString(), limit).map((entry) => ({ ...entry, id: entry.labelReportId, group: PUSH_GROUP })),
    lease: (job, until, owner) => sync.leasePush(job.id, until.toISOString(), owner),
    nextDueAt: (now, owner, busy) => {
      if (busy.includes(PUSH_GROUP)) return undefined;
      const next = sync.nextPushDueAt(owner, now.toISOString());
      return next === undefined ? undefined : new Date(next);
    },
    leaseHolders: () => sync.pushLeaseHolders(),
    releaseLeases: (owner) => void sync.releasePushLeases(owner),
    release: (job, owner) => sync.releasePush(job.id, owner, 'untried'),
  };
}

export interface PushQueueOptions {
  /** A request's deadline: the lease covers the few requests of one entry's push. */
  requestTimeoutMs: number;
  /** How long a write waits for another connection's write lock. */
  busyBudgetMs: number;
  pid?: number;
  isRunning?: (pid: number) => boolean;
  now?: () => Date;
  logError?: (line: string) => void;
}

/**
 * How long an entry's lease lasts: its push is at most a PATCH, a retrieve and a PATCH again,
 * each read retried a few times (read-retry.ts), and its writes. A process that dies holding
 * the lease frees it at the next drain of any other process, so a long one costs little.
 */
const leaseMs = ({ requestTimeoutMs, busyBudgetMs }: PushQueueOptions) => 10 * requestTimeoutMs + 3 * busyBudgetMs + 60_000;

export class PushQueue extends JobQueue<PushJob, PushResult> {
  private ctx: CycleContext | undefined;

  constructor(jobs: PushJobs, options: PushQueueOptions) {
    super(jobs.database, jobs.store, {
      name: 'sync push',
      concurrency: 1,
      leaseMs: leaseMs(options),
      busyBudgetMs: options.busyBudgetMs,
      // Attempts are counted, but the cycle's backoff (sync/backoff.ts) says when the next
      // push comes: an entry never fails for good on transient failures.
      backoff: exponential(0, 0),
      now: options.now,
      pid: options.pid,
      isRunning: options.isRunning,
      logError: options.logError,
    });
  }

  /**
   * The push of a cycle: every pending entry once, after the cycle's pull. Rejects with the
   * failure that ended it; `Stopped` (through the cycle's checkpoint) when asked to stop.
   */
  async push(ctx: CycleContext, signal: AbortSignal): Promise<void> {
    this.ctx = ctx;
    try {
      await this.drain(signal);
    } finally {
      this.ctx = undefined;
    }
    await ctx.checkpoint();
  }

  protected async run(entry: PushJob): Promise<PushResult> {
    const ctx = this.ctx!;
    const { service, remote } = ctx;
    const values = Object.fromEntries(Object.entries(entry.fields).map(([field, { value }]) => [field, value]));
    let sent = false;
    try {
      // Between two entries requests waiting on the event loop are served, and a stop ends the push.
      await ctx.checkpoint();
      await ctx.write(() => service.sync.pushSending(entry, values));
      sent = true;
      const answer = (await send(ctx, entry.labelReportId, patchOf(values))) ?? (await remote.retrieve(entry.labelReportId));
      // A retrieve the mirror cannot take leaves the report to the next reconciliation.
      return { kind: 'accepted', answer: answer && !isRefused(answer) ? answer : null };
    } catch (err) {
      if (err instanceof RemoteFailure && err.kind === 'refused') return { kind: 'refused', failure: err };
      return { kind: 'failed', error: err instanceof Error ? err : new Error(String(err)), sent };
    }
  }

  protected verdict(_entry: PushJob, result: PushResult): Verdict {
    if (result.kind === 'failed') return { done: false, retry: true, endDrain: result.error };
    // A refusal is recorded as a dead letter: the entry is done with either way.
    return { done: true };
  }

  protected record(entry: PushJob, { result }: Settled<PushResult>): void {
    const { service, companyId, policy } = this.ctx!;
    const { sync } = service;
    if (result.kind === 'accepted') sync.pushAccepted(entry, result.answer, { companyId, policy });
    else if (result.kind === 'refused') sync.pushRefused(entry, result.failure.status ?? 0, result.failure.message);
    // What is left of the entry (fields edited again meanwhile, or all of it after a failure) is free for the next push.
    sync.pushReleased(entry, this.pid, result.kind !== 'failed' ? 'sent' : result.sent ? 'failed' : 'untried');
  }
}

/**
 * One PATCH. After a transient failure it is sent again inside the cycle only while the remote
 * still shows the report at the `updated` the mirror holds: the lost request then changed
 * nothing there, and no remote change made since the pull is overwritten. Otherwise (the
 * PATCH may have arrived with its answer lost, or someone edited the report) the failure ends
 * the cycle, and the next one pulls before it sends.
 */
async function send(ctx: CycleContext, id: string, body: LabelReportPatch): Promise<RemoteReport | null> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await ctx.remote.patch(id, body);
    } catch (err) {
      if (!(err instanceof RemoteFailure) || !(await ctx.retryWait(attempt, err))) throw err;
      const shown = await ctx.remote.retrieve(id);
      if (!shown || isRefused(shown) || ctx.service.sync.outdated([shown]).length > 0) throw err;
    }
  }
}
