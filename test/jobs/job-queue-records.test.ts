/**
 * A started queue that records its attempts together with its next claims (`recordWithClaim`),
 * on a real SQLite file with the webhook outbox as its table: the attempts that end in one turn
 * share one write, a record that throws leaves the others recorded, a job due again at once runs
 * again only after its attempt is recorded, and a stop waits for the records.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DataStore } from '../../db/data-store';
import { schedule, SPREAD_EVENLY } from '../../jobs/backoff';
import { JobQueue, type Settled, type Verdict } from '../../jobs/job-queue';
import { outboxJobs, type DeliveryJob } from '../../webhooks/delivery-worker';
import { manager, openWebhookHarness, type WebhookHarness } from '../support/webhook-fixture';

const ACME = manager('acme');

type Outcome = { ok: true } | { ok: false; retry: boolean };

class Batched extends JobQueue<DeliveryJob, Outcome> {
  readonly recorded: string[] = [];
  readonly errors: string[] = [];
  /** Records of these jobs throw, as a record that meets a broken row would. */
  readonly failing = new Set<string>();
  /** How many records each write held, in order. */
  readonly writes: number[] = [];
  private inWrite = 0;

  constructor(
    private readonly data: DataStore,
    private readonly runner: (job: DeliveryJob) => Promise<Outcome>,
    concurrency: number,
  ) {
    super(data, outboxJobs(data), {
      name: 'batched',
      leaseMs: 60_000,
      backoff: schedule([0, 0, 0, 0], SPREAD_EVENLY),
      random: () => 0.5,
      isRunning: () => true,
      concurrency,
      logError: (line) => this.errors.push(line),
      recordWithClaim: true,
    });
  }

  protected run(job: DeliveryJob): Promise<Outcome> {
    return this.runner(job);
  }

  protected verdict(_job: DeliveryJob, outcome: Outcome): Verdict {
    return outcome.ok ? { done: true } : { done: false, retry: outcome.retry };
  }

  protected record(job: DeliveryJob, { result, startedAt, retryAt }: Settled<Outcome>): void {
    // Records of one write see one open transaction: counted until the turn's microtasks end.
    if (this.inWrite === 0) {
      this.writes.push(0);
      queueMicrotask(() => (this.inWrite = 0));
    }
    this.inWrite++;
    this.writes[this.writes.length - 1]++;
    this.data.webhooks.recordAttempt({
      messageId: job.id,
      status: result.ok ? 'succeeded' : 'failed',
      responseStatus: null,
      error: result.ok ? null : 'failed',
      durationMs: 0,
      at: startedAt.toISOString(),
      messageStatus: result.ok ? 'succeeded' : retryAt === null ? 'failed' : 'pending',
      nextAttemptAt: retryAt?.toISOString() ?? null,
    });
    if (this.failing.has(job.id)) throw new Error(`the record of ${job.id} failed`);
    this.recorded.push(job.id);
  }
}

let harness: WebhookHarness | undefined;
const queues: Batched[] = [];
afterEach(async () => {
  for (const q of queues.splice(0)) await q.stop(0);
  await harness?.stop();
  harness = undefined;
});

const waitFor = <T>(check: () => T) => vi.waitFor(check, { timeout: 20_000, interval: 10 });

function open(): { h: WebhookHarness; hook: string } {
  harness = openWebhookHarness();
  const hook = harness.webhooks.create(ACME, { url: 'http://127.0.0.1:9/hook', events: ['labelReport.tapped'] }).id;
  return { h: harness, hook };
}

function attemptsOf(h: WebhookHarness, hook: string) {
  return h.webhooks.deliveries(ACME, hook, { pageNumber: 1, pageSize: 100 }).data.reverse();
}

describe('a queue that records with its claims', () => {
  it('records the attempts that end together in one write; one that throws leaves the others recorded, its job leased', async () => {
    const { h, hook } = open();
    const ids = Array.from({ length: 6 }, () => h.webhooks.test(ACME, hook).messageId);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const ran: string[] = [];
    const q = new Batched(h.data, async (job) => {
      ran.push(job.id);
      await gate;
      return { ok: true };
    }, 3);
    queues.push(q);
    q.failing.add(ids[0]);
    q.start();
    await waitFor(() => expect(q.running).toBe(3));
    release();
    await waitFor(() => expect(q.recorded).toHaveLength(5));
    expect(q.writes[0]).toBe(3);
    expect(q.errors).toEqual([expect.stringContaining(`the record of ${ids[0]} failed`)]);
    expect(ran.sort()).toEqual([...ids].sort());
    expect(q.recorded.sort()).toEqual(ids.slice(1).sort());
    // Its savepoint rolled back: no attempt listed, and its lease holds it from a second run.
    expect(attemptsOf(h, hook).filter((d) => d.messageId === ids[0] && d.status !== 'pending')).toEqual([]);
    expect(h.data.webhooks.leaseHolders()).toEqual([process.pid]);
  });

  it('a job due again at once runs again only after its attempt is recorded, and a stop waits for the records', async () => {
    const { h, hook } = open();
    const { messageId } = h.webhooks.test(ACME, hook);
    const running = new Set<string>();
    const overlaps: string[] = [];
    const q = new Batched(h.data, async (job) => {
      if (running.has(job.id)) overlaps.push(job.id);
      running.add(job.id);
      await Promise.resolve();
      running.delete(job.id);
      return job.attempts < 3 ? { ok: false, retry: true } : { ok: true };
    }, 4);
    queues.push(q);
    h.outbox.onDue(() => q.wake());
    q.start();
    await waitFor(() => expect(q.recorded).toHaveLength(4));
    await q.stop();
    expect(overlaps).toEqual([]);
    expect(attemptsOf(h, hook).map((d) => [d.messageId, d.attempt, d.status])).toEqual([
      [messageId, 1, 'failed'],
      [messageId, 2, 'failed'],
      [messageId, 3, 'failed'],
      [messageId, 4, 'succeeded'],
    ]);
  });
});
