/**
 * Delivers the outbox: takes due messages under a lease in a short write transaction, sends
 * them concurrently off the request path, records each attempt and schedules the next
 * (decisions §6). It sleeps until the next message is due, or until `wake` says one was just
 * enqueued, never polling in a loop.
 *
 * The lease makes delivery survive a crash without getting stuck: a message whose worker died
 * mid-delivery is taken again at the next start when that process no longer runs, or once its
 * lease runs out. At least once: the receiver may see a message again, under the same webhook-id.
 */
import { DatabaseBusyError, type DataStore } from '../db/data-store';
import type { AttemptOutcome, ClaimedMessage } from '../db/webhook-store';
import { waitForDatabase } from '../db/busy';
import { RetrySchedule, retryAfterMs } from './retry-schedule';
import { DEFAULT_TIMEOUT_MS, WebhookSender, type SendResult } from './sender';
import { signatureHeader, signingSecrets } from './signing';
import type { Resolve } from './target-guard';

const DAY_MS = 24 * 60 * 60 * 1000;
/** A webhook whose every attempt failed for this long is disabled. */
const DISABLE_AFTER_MS = 5 * DAY_MS;
const KEEP_ATTEMPTS_MS = 30 * DAY_MS;
const PRUNE_EVERY_MS = 60 * 60 * 1000;
/**
 * Beyond the attempt's own timeout, how long its lease lasts: room for a slow event loop or a
 * busy database before recording. Another worker may take the message only after that.
 */
const LEASE_MARGIN_MS = 30_000;
/** Messages another process enqueued wake nobody here: they are looked for this often. */
const IDLE_CHECK_MS = 30_000;
/** How soon to look again when the connection is in someone's open transaction or the file is busy. */
const RETRY_SOON_MS = 50;

export interface DeliveryOptions {
  /** Default: LABELDESK_WEBHOOK_RETRY_DELAYS, else the schedule of decisions §6. */
  schedule?: RetrySchedule;
  timeoutMs?: number;
  resolve?: Resolve;
  /** Attempts in flight at once, in all. */
  concurrency?: number;
  /** Attempts in flight at once to one webhook, so that a slow receiver cannot hold up the others. */
  perWebhook?: number;
  now?: () => Date;
  /** The process id leases are taken under, and how to tell whether a holder still runs. */
  pid?: number;
  isRunning?: (pid: number) => boolean;
  logError?: (line: string) => void;
}

interface InFlight {
  webhookId: string;
  abort: AbortController;
  done: Promise<void>;
}

export class DeliveryWorker {
  private readonly schedule: RetrySchedule;
  private readonly sender: WebhookSender;
  private readonly now: () => Date;
  private readonly concurrency: number;
  private readonly perWebhook: number;
  private readonly leaseMs: number;
  private readonly pid: number;
  private readonly isRunning: (pid: number) => boolean;
  private readonly logError: (line: string) => void;
  private readonly inFlight = new Map<string, InFlight>();
  private timer: NodeJS.Timeout | undefined;
  private pumpQueued = false;
  private stopping = false;
  private lastPrune = -Infinity;

  constructor(
    private readonly data: DataStore,
    options: DeliveryOptions = {},
  ) {
    this.schedule = options.schedule ?? RetrySchedule.fromEnvironment();
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.concurrency = options.concurrency ?? 16;
    this.perWebhook = Math.min(options.perWebhook ?? 8, this.concurrency);
    this.sender = new WebhookSender({ timeoutMs, resolve: options.resolve, maxSockets: this.perWebhook });
    this.leaseMs = timeoutMs + LEASE_MARGIN_MS;
    this.now = options.now ?? (() => new Date());
    this.pid = options.pid ?? process.pid;
    this.isRunning = options.isRunning ?? processRuns;
    this.logError = options.logError ?? ((line) => process.stderr.write(line + '\n'));
  }

  /** Frees what dead processes held, then delivers whatever is due. */
  start(): this {
    const { webhooks } = this.data;
    this.data.write(() => {
      for (const pid of webhooks.leaseHolders()) {
        // This worker holds nothing yet: a lease under its own pid is an earlier process's
        // (a container's process is often pid 1 at every start).
        if (pid === this.pid || !this.isRunning(pid)) webhooks.releaseLeases(pid);
      }
    });
    this.pump();
    return this;
  }

  /** A message was enqueued: deliver it soon, after the transaction that wrote it has ended. */
  wake(): void {
    if (this.stopping || this.pumpQueued) return;
    this.pumpQueued = true;
    setImmediate(() => {
      this.pumpQueued = false;
      this.pump();
    });
  }

  /**
   * Takes no more messages; attempts in flight get `graceMs` to finish, then are cut short and
   * their leases given back (nothing recorded: the message is due again at the next start).
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
    this.sender.close();
  }

  private pump(): void {
    if (this.stopping || !this.data.isOpen) return;
    // An import or export holds this connection's transaction across awaits: writing now would
    // join it. Such work ends soon; look again then.
    if (this.data.inTransaction) return this.later(RETRY_SOON_MS);
    try {
      const now = this.now();
      this.pruneWhenDue(now);
      const free = this.concurrency - this.inFlight.size;
      // Full, or some due message waits for its webhook's turn: a finishing attempt wakes us.
      if (free === 0 || this.claim(now, free)) return this.later(null);
      const next = this.data.webhooks.nextDueAt(this.pid, now.toISOString(), this.busyWebhooks());
      this.later(next === undefined ? IDLE_CHECK_MS : Math.min(IDLE_CHECK_MS, Date.parse(next) - now.getTime()));
    } catch (err) {
      if (!(err instanceof DatabaseBusyError)) this.logError(`webhook delivery: ${(err as Error).stack ?? String(err)}`);
      this.later(err instanceof DatabaseBusyError ? RETRY_SOON_MS : IDLE_CHECK_MS);
    }
  }

  /** Leases and starts what is due; returns whether more is due than was taken. */
  private claim(now: Date, free: number): boolean {
    const { webhooks } = this.data;
    const running = this.runningPerWebhook();
    const busy = this.busyWebhooks();
    const leaseUntil = new Date(now.getTime() + this.leaseMs).toISOString();
    const { taken, more } = this.data.write(() => {
      const due = webhooks.due(now.toISOString(), free, busy);
      const chosen: ClaimedMessage[] = [];
      for (const message of due) {
        const n = running.get(message.webhookId) ?? 0;
        if (n >= this.perWebhook) continue;
        running.set(message.webhookId, n + 1);
        webhooks.lease(message.id, leaseUntil, this.pid);
        chosen.push(message);
      }
      return { taken: chosen, more: due.length === free || chosen.length < due.length };
    });
    for (const message of taken) this.deliver(message);
    return more;
  }

  private runningPerWebhook(): Map<string, number> {
    const running = new Map<string, number>();
    for (const { webhookId } of this.inFlight.values()) running.set(webhookId, (running.get(webhookId) ?? 0) + 1);
    return running;
  }

  /** Webhooks with as many attempts in flight as they may have. */
  private busyWebhooks(): string[] {
    return [...this.runningPerWebhook()].filter(([, n]) => n >= this.perWebhook).map(([id]) => id);
  }

  private deliver(message: ClaimedMessage): void {
    const abort = new AbortController();
    const at = this.now();
    const timestamp = Math.floor(at.getTime() / 1000);
    const signature = signatureHeader(signingSecrets(message, at), message.id, timestamp, message.body);
    const done = this.sender
      .send({ url: message.url, messageId: message.id, timestamp, signature, body: message.body }, abort.signal)
      .then((result) => this.settle(message, result, at, abort.signal.aborted))
      .catch((err: unknown) => this.logError(`webhook delivery of ${message.id}: ${(err as Error).stack ?? String(err)}`))
      .finally(() => {
        this.inFlight.delete(message.id);
        this.wake();
      });
    this.inFlight.set(message.id, { webhookId: message.webhookId, abort, done });
  }

  private async settle(message: ClaimedMessage, result: SendResult, at: Date, stopped: boolean): Promise<void> {
    if (!this.data.isOpen) return; // closed under us: the lease runs out and the message is sent again
    const write = stopped
      ? () => this.data.webhooks.release(message.id, this.pid)
      : () => this.record(message, result, at);
    await waitForDatabase(() => this.data.write(write), LEASE_MARGIN_MS);
  }

  private record(message: ClaimedMessage, result: SendResult, at: Date): void {
    const { webhooks } = this.data;
    const ended = this.now();
    const outcome: AttemptOutcome = {
      messageId: message.id,
      status: result.ok ? 'succeeded' : 'failed',
      responseStatus: result.status,
      error: result.error,
      durationMs: result.durationMs,
      at: at.toISOString(),
      messageStatus: 'succeeded',
      nextAttemptAt: null,
    };
    if (result.ok) {
      webhooks.recordAttempt(outcome);
      webhooks.markSucceeded(message.webhookId);
      return;
    }
    const gone = result.status === 410;
    let delay = gone ? null : this.schedule.delayAfter(message.attempts + 1);
    if (delay !== null && (result.status === 429 || result.status === 503)) {
      delay = Math.max(delay, retryAfterMs(result.retryAfter, ended) ?? 0);
    }
    outcome.messageStatus = delay === null ? 'failed' : 'pending';
    outcome.nextAttemptAt = delay === null ? null : new Date(ended.getTime() + delay).toISOString();
    webhooks.recordAttempt(outcome);
    const failingSince = webhooks.markFailed(message.webhookId, outcome.at);
    if (gone) webhooks.disable(message.webhookId, `the endpoint answered 410 Gone at ${outcome.at}`);
    else if (failingSince !== undefined && ended.getTime() - Date.parse(failingSince) >= DISABLE_AFTER_MS) {
      webhooks.disable(message.webhookId, `every delivery failed from ${failingSince} to ${outcome.at}`);
    }
  }

  private pruneWhenDue(now: Date): void {
    if (now.getTime() - this.lastPrune < PRUNE_EVERY_MS) return;
    const before = new Date(now.getTime() - KEEP_ATTEMPTS_MS).toISOString();
    this.data.write(() => this.data.webhooks.prune(before));
    this.lastPrune = now.getTime();
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

function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it runs, as another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
