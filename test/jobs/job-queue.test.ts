/**
 * The job queue on a real SQLite file, with the webhook outbox as its table: a queue here runs
 * jobs with a function the test holds instead of sending them, so that each test decides when
 * an attempt ends and how. Two queues on one file are two connections, as two processes are.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DataStore } from '../../db/data-store';
import { schedule, SPREAD_EVENLY, type Backoff } from '../../jobs/backoff';
import { JobQueue, type Settled, type Verdict } from '../../jobs/job-queue';
import { outboxJobs, type DeliveryJob } from '../../webhooks/delivery-worker';
import { manager, openWebhookHarness, type WebhookHarness } from '../support/webhook-fixture';

const ACME = manager('acme');

/**
 * What a test's attempt answers: done, a failure to retry (after at least `retryAfterMs`), or one
 * not to retry; `endDrain` names the error a drain ends with.
 */
type Outcome = { ok: true } | { ok: false; retry: boolean; retryAfterMs?: number; endDrain?: string };
type Runner = (job: DeliveryJob, signal: AbortSignal) => Promise<Outcome>;

class Probe extends JobQueue<DeliveryJob, Outcome> {
  readonly settled: { job: DeliveryJob; settled: Settled<Outcome> }[] = [];
  crashOnRecord = false;

  constructor(
    private readonly data: DataStore,
    private readonly runner: Runner,
    options: { pid?: number; isRunning?: (pid: number) => boolean; backoff?: Backoff; random?: () => number; concurrency?: number } = {},
  ) {
    super(data, outboxJobs(data), {
      name: 'probe',
      leaseMs: 60_000,
      backoff: options.backoff ?? schedule([5, 5, 5, 5], SPREAD_EVENLY),
      random: options.random ?? (() => 0.5),
      pid: options.pid,
      isRunning: options.isRunning ?? (() => true),
      concurrency: options.concurrency,
      logError: () => {},
    });
  }

  protected run(job: DeliveryJob, signal: AbortSignal): Promise<Outcome> {
    return this.runner(job, signal);
  }

  protected verdict(_job: DeliveryJob, outcome: Outcome): Verdict {
    if (outcome.ok) return { done: true };
    return { done: false, retry: outcome.retry, retryAfterMs: outcome.retryAfterMs, endDrain: outcome.endDrain === undefined ? undefined : new Error(outcome.endDrain) };
  }

  protected record(job: DeliveryJob, settled: Settled<Outcome>): void {
    const { result, retryAt } = settled;
    this.data.webhooks.recordAttempt({
      messageId: job.id,
      status: result.ok ? 'succeeded' : 'failed',
      responseStatus: null,
      error: result.ok ? null : 'failed',
      durationMs: 0,
      at: settled.startedAt.toISOString(),
      messageStatus: result.ok ? 'succeeded' : retryAt === null ? 'failed' : 'pending',
      nextAttemptAt: retryAt?.toISOString() ?? null,
    });
    // The attempt went out, and the process died before its transaction committed.
    if (this.crashOnRecord) throw new Error('crashed before the commit');
    this.settled.push({ job, settled });
  }
}

/** An attempt that ends when the test says so. */
class Gate {
  private opened!: () => void;
  readonly open = new Promise<void>((resolve) => (this.opened = resolve));
  release(): void {
    this.opened();
  }
}

let harness: WebhookHarness | undefined;
const others: DataStore[] = [];
const queues: Probe[] = [];
afterEach(async () => {
  for (const queue of queues.splice(0)) await queue.stop(0);
  for (const data of others.splice(0)) data.close();
  await harness?.stop();
  harness = undefined;
});

function open(): { h: WebhookHarness; hook: string } {
  harness = openWebhookHarness();
  const hook = harness.webhooks.create(ACME, { url: 'http://127.0.0.1:9/hook', events: ['labelReport.tapped'] }).id;
  return { h: harness, hook };
}

function queue(...args: ConstructorParameters<typeof Probe>): Probe {
  const made = new Probe(...args);
  queues.push(made);
  return made;
}

function attemptsOf(h: WebhookHarness, hook: string): { messageId: string; attempt: number; status: string; nextAttemptAt: string | null }[] {
  return h.webhooks.deliveries(ACME, hook, { pageNumber: 1, pageSize: 100 }).data.reverse();
}

const waitFor = <T>(check: () => T) => vi.waitFor(check, { timeout: 20_000, interval: 10 });


/**
 * Runners for two queues on one file that note every job run and every job running in both at
 * once; each run waits for `gate` to open.
 */
function overlapWatch() {
  const gate = new Gate();
  const running = new Map<string, string>();
  const ran: string[] = [];
  const overlaps: string[] = [];
  const runner =
    (name: string): Runner =>
    async (job) => {
      if (running.has(job.id)) overlaps.push(`${job.id} runs in ${running.get(job.id)} and ${name} at once`);
      running.set(job.id, name);
      ran.push(job.id);
      await gate.open;
      running.delete(job.id);
      return { ok: true };
    };
  return { gate, running, ran, overlaps, runner };
}

describe('the job queue', () => {
  it('runs each job once at a time though two queues on one file look for it, each under its lease', async () => {
    const { h, hook } = open();
    const second = DataStore.open(h.file);
    others.push(second);
    const ids = Array.from({ length: 12 }, () => h.webhooks.test(ACME, hook).messageId);
    const { gate, running, ran, overlaps, runner } = overlapWatch();
    const a = queue(h.data, runner('a'), { pid: 1001, concurrency: 5 }).start();
    const b = queue(second, runner('b'), { pid: 1002, concurrency: 5 }).start();
    // Ten run, five in each queue; the two left wait: each queue is full and the other's leases hold theirs.
    await waitFor(() => expect(running.size).toBe(10));
    expect([a.running, b.running]).toEqual([5, 5]);
    expect(new Set(h.data.webhooks.leaseHolders())).toEqual(new Set([1001, 1002]));
    b.wake();
    a.wake();
    gate.release();
    await waitFor(() => expect(attemptsOf(h, hook).filter((d) => d.status === 'succeeded')).toHaveLength(12));
    expect(overlaps).toEqual([]);
    expect(ran.sort()).toEqual([...ids].sort());
  });

  it('counts attempts and waits the backoff between them, or what Retry-After asked when longer', async () => {
    const { h, hook } = open();
    const seen: number[] = [];
    const probe = queue(
      h.data,
      async (job) => {
        seen.push(job.attempts);
        if (job.attempts === 0) return { ok: false, retry: true };
        if (job.attempts === 1) return { ok: false, retry: true, retryAfterMs: 40 };
        return { ok: true };
      },
      // ±20 %: random 0 gives the longest delay.
      { backoff: schedule([10, 10, 10], SPREAD_EVENLY), random: () => 0 },
    ).start();
    h.outbox.onDue(() => probe.wake());
    const { messageId } = h.webhooks.test(ACME, hook);
    await waitFor(() => expect(probe.settled).toHaveLength(3));
    expect(seen).toEqual([0, 1, 2]);
    const [first, second] = probe.settled.map(({ settled }) => settled);
    expect(first!.retryAt!.getTime() - first!.endedAt.getTime()).toBe(12);
    expect(second!.retryAt!.getTime() - second!.endedAt.getTime()).toBe(40);
    expect(attemptsOf(h, hook).map((d) => [d.messageId, d.attempt, d.status])).toEqual([
      [messageId, 1, 'failed'],
      [messageId, 2, 'failed'],
      [messageId, 3, 'succeeded'],
    ]);
  });

  it('stops retrying when the backoff has no attempt left, or the verdict says not to', async () => {
    const { h, hook } = open();
    const probe = queue(h.data, async (job) => ({ ok: false, retry: job.attempts < 5 }), { backoff: schedule([1]) }).start();
    h.outbox.onDue(() => probe.wake());
    h.webhooks.test(ACME, hook);
    h.webhooks.test(ACME, hook);
    await waitFor(() => expect(probe.settled).toHaveLength(4));
    expect(probe.settled.map(({ job, settled }) => [job.attempts, settled.retryAt === null])).toEqual([
      [0, false],
      [0, false],
      [1, true],
      [1, true],
    ]);
    await probe.stop();

    const final = queue(h.data, async () => ({ ok: false, retry: false }), { backoff: schedule([1, 1, 1]) }).start();
    h.outbox.onDue(() => final.wake());
    const { messageId } = h.webhooks.test(ACME, hook);
    await waitFor(() => expect(final.settled).toHaveLength(1));
    expect(final.settled[0]!.settled.retryAt).toBeNull();
    expect(attemptsOf(h, hook).filter((d) => d.messageId === messageId)).toMatchObject([{ attempt: 1, status: 'failed', nextAttemptAt: null }]);
  });

  it('runs a job again under the same id when its process died between sending and the commit', async () => {
    const { h, hook } = open();
    const second = DataStore.open(h.file);
    others.push(second);
    const sent: string[] = [];
    const send: Runner = async (job) => {
      sent.push(job.id);
      return { ok: true };
    };
    const dying = queue(h.data, send, { pid: 424_242 });
    dying.crashOnRecord = true;
    dying.start();
    const { messageId } = h.webhooks.test(ACME, hook);
    dying.wake();
    await waitFor(() => expect(sent).toEqual([messageId]));
    // The record rolled back: no attempt, and the dead process's lease stays on the row.
    await waitFor(() => expect(dying.running).toBe(0));
    expect(attemptsOf(h, hook)).toMatchObject([{ messageId, attempt: 1, status: 'pending', durationMs: null }]);
    expect(second.webhooks.leaseHolders()).toEqual([424_242]);

    const restarted = queue(second, send, { pid: 5150, isRunning: (pid) => pid !== 424_242 }).start();
    await waitFor(() => expect(restarted.settled).toHaveLength(1));
    expect(sent).toEqual([messageId, messageId]);
    expect(attemptsOf(h, hook)).toMatchObject([{ messageId, attempt: 1, status: 'succeeded' }]);
  });

  it('a stop waits for the attempt in flight, records it when it ends within the grace, and takes nothing more', async () => {
    const { h, hook } = open();
    const gate = new Gate();
    const started: string[] = [];
    const probe = queue(h.data, async (job) => {
      started.push(job.id);
      await gate.open;
      return { ok: true };
    }).start();
    h.outbox.onDue(() => probe.wake());
    const { messageId } = h.webhooks.test(ACME, hook);
    await waitFor(() => expect(started).toEqual([messageId]));
    let stopped = false;
    const stopping = probe.stop(60_000).then(() => (stopped = true));
    h.webhooks.test(ACME, hook);
    await new Promise((resolve) => setImmediate(resolve));
    expect(stopped).toBe(false);
    gate.release();
    await stopping;
    expect(probe.settled.map(({ job }) => job.id)).toEqual([messageId]);
    expect(started).toEqual([messageId]);
    expect(h.data.webhooks.leaseHolders()).toEqual([]);
  });

  it('a stop past its grace aborts the attempt and gives its lease back without recording it', async () => {
    const { h, hook } = open();
    const probe = queue(
      h.data,
      (_job, signal) =>
        new Promise<Outcome>((resolve) => signal.addEventListener('abort', () => resolve({ ok: false, retry: true }))),
    ).start();
    h.outbox.onDue(() => probe.wake());
    h.webhooks.test(ACME, hook);
    await waitFor(() => expect(probe.running).toBe(1));
    expect(h.data.webhooks.leaseHolders()).toEqual([process.pid]);
    await probe.stop(0);
    expect(probe.running).toBe(0);
    expect(probe.settled).toEqual([]);
    expect(h.data.webhooks.leaseHolders()).toEqual([]);
    expect(attemptsOf(h, hook)).toMatchObject([{ attempt: 1, status: 'pending', durationMs: null }]);
  });
});

describe('a drained queue', () => {
  /** Timers set while `fn` runs (a drained queue sets none: nothing runs between drains). */
  async function timersSetDuring<T>(fn: () => Promise<T>): Promise<{ value: T; timers: number }> {
    const spy = vi.spyOn(globalThis, 'setTimeout');
    try {
      const value = await fn();
      return { value, timers: spy.mock.calls.length };
    } finally {
      spy.mockRestore();
    }
  }

  it('runs every job due once, resolves when each is recorded, and runs nothing until the next drain', async () => {
    const { h, hook } = open();
    const ids = Array.from({ length: 5 }, () => h.webhooks.test(ACME, hook).messageId);
    const ran: string[] = [];
    const probe = queue(h.data, async (job) => {
      ran.push(job.id);
      return { ok: true };
    });
    const { timers } = await timersSetDuring(() => probe.drain());
    expect(timers).toBe(0);
    expect(ran.sort()).toEqual([...ids].sort());
    expect(probe.settled).toHaveLength(5);
    expect(probe.running).toBe(0);

    const later = h.webhooks.test(ACME, hook).messageId;
    await new Promise((resolve) => setImmediate(resolve));
    expect(ran).toHaveLength(5);
    await probe.drain();
    expect(ran).toHaveLength(6);
    expect(ran[5]).toBe(later);
  });

  it('runs a job at most once per drain, though its failure leaves it due again at once', async () => {
    const { h, hook } = open();
    const { messageId } = h.webhooks.test(ACME, hook);
    const seen: number[] = [];
    const probe = queue(
      h.data,
      async (job) => {
        seen.push(job.attempts);
        return { ok: false, retry: true };
      },
      { backoff: schedule([0, 0, 0], SPREAD_EVENLY) },
    );
    await probe.drain();
    expect(seen).toEqual([0]);
    await probe.drain();
    expect(seen).toEqual([0, 1]);
    expect(attemptsOf(h, hook).map((d) => [d.messageId, d.attempt, d.status])).toEqual([
      [messageId, 1, 'failed'],
      [messageId, 2, 'failed'],
      // Due again at once: the next drain's.
      [messageId, 3, 'pending'],
    ]);
  });

  it('a verdict that ends the drain: no further job is taken, and the drain rejects with its error once the attempt is recorded', async () => {
    const { h, hook } = open();
    const ids = Array.from({ length: 4 }, () => h.webhooks.test(ACME, hook).messageId);
    const ran: string[] = [];
    const probe = queue(
      h.data,
      async (job) => {
        ran.push(job.id);
        return ran.length === 2 ? { ok: false, retry: true, endDrain: 'the receiver is offline' } : { ok: true };
      },
      { concurrency: 1 },
    );
    await expect(probe.drain()).rejects.toThrow('the receiver is offline');
    expect(ran).toHaveLength(2);
    expect(probe.settled.map(({ job }) => job.id)).toEqual(ran);
    expect(h.data.webhooks.leaseHolders()).toEqual([]);
    await probe.drain();
    expect(new Set(ran)).toEqual(new Set(ids));
  });

  it('an aborted signal takes no further job; the attempt in flight ends and is recorded', async () => {
    const { h, hook } = open();
    for (let i = 0; i < 3; i++) h.webhooks.test(ACME, hook);
    const gate = new Gate();
    const abort = new AbortController();
    const ran: string[] = [];
    const probe = queue(
      h.data,
      async (job) => {
        ran.push(job.id);
        await gate.open;
        return { ok: true };
      },
      { concurrency: 1 },
    );
    const drained = probe.drain(abort.signal);
    await waitFor(() => expect(ran).toHaveLength(1));
    abort.abort();
    gate.release();
    await drained;
    expect(ran).toHaveLength(1);
    expect(probe.settled.map(({ job }) => job.id)).toEqual(ran);
    expect(h.data.webhooks.leaseHolders()).toEqual([]);
  });

  it('an attempt that could not be recorded ends the drain with its error; its lease is given back at the next drain, which runs it again', async () => {
    const { h, hook } = open();
    const { messageId } = h.webhooks.test(ACME, hook);
    const ran: string[] = [];
    const probe = queue(h.data, async (job) => {
      ran.push(job.id);
      return { ok: true };
    });
    probe.crashOnRecord = true;
    await expect(probe.drain()).rejects.toThrow('crashed before the commit');
    expect(h.data.webhooks.leaseHolders()).toEqual([process.pid]);
    probe.crashOnRecord = false;
    await probe.drain();
    expect(ran).toEqual([messageId, messageId]);
    expect(attemptsOf(h, hook)).toMatchObject([{ messageId, attempt: 1, status: 'succeeded' }]);
  });

  it('frees the leases of a process that no longer runs, and leaves those of one that runs', async () => {
    const { h, hook } = open();
    const second = DataStore.open(h.file);
    others.push(second);
    const dead = h.webhooks.test(ACME, hook).messageId;
    const alive = h.webhooks.test(ACME, hook).messageId;
    const until = new Date(Date.now() + 3_600_000).toISOString();
    h.data.write(() => {
      h.data.webhooks.lease(dead, until, 424_242);
      h.data.webhooks.lease(alive, until, 535_353);
    });
    const ran: string[] = [];
    const probe = queue(
      second,
      async (job) => {
        ran.push(job.id);
        return { ok: true };
      },
      { pid: 5150, isRunning: (pid) => pid === 535_353 },
    );
    await probe.drain();
    expect(ran).toEqual([dead]);
    expect(h.data.webhooks.leaseHolders()).toEqual([535_353]);
  });

  it('two queues draining one file at once run each job once, never the same job in both', async () => {
    const { h, hook } = open();
    const second = DataStore.open(h.file);
    others.push(second);
    const ids = Array.from({ length: 12 }, () => h.webhooks.test(ACME, hook).messageId);
    const { gate, running, ran, overlaps, runner } = overlapWatch();
    const a = queue(h.data, runner('a'), { pid: 1001, concurrency: 4 });
    const b = queue(second, runner('b'), { pid: 1002, concurrency: 4 });
    const drains = [a.drain(), b.drain()];
    await waitFor(() => expect(running.size).toBe(8));
    expect([a.running, b.running]).toEqual([4, 4]);
    gate.release();
    await Promise.all(drains);
    expect(overlaps).toEqual([]);
    expect(ran.sort()).toEqual([...ids].sort());
  });
});
