/**
 * Delivers the webhook outbox as a job queue (jobs/job-queue.ts): due messages are taken under
 * a lease in a short write transaction, sent concurrently off the request path, each attempt
 * recorded with the next one scheduled (docs/webhooks.md#delivery). It sleeps until the next message is
 * due, or until `wake` says one was just enqueued, never polling in a loop.
 *
 * The lease makes delivery survive a crash without getting stuck: a message whose worker died
 * mid-delivery is taken again at the next start when that process no longer runs, or once its
 * lease runs out. At least once: the receiver may see a message again, under the same webhook-id.
 */
import type { DataStore } from '../db/data-store';
import type { ClaimedMessage } from '../db/webhook-store';
import { JobQueue, outboxJobStore, type JobStore, type Settled, type Verdict } from '../jobs/job-queue';
import { RetrySchedule, retryAfterMs } from './retry-schedule';
import { DEFAULT_TIMEOUT_MS, WebhookSender, type SendResult } from './sender';
import { signatureHeader, signingSecrets } from './signing';
import type { Resolve } from './target-guard';

const DAY_MS = 24 * 60 * 60 * 1000;
/** A webhook whose every attempt failed for this long is disabled. */
const DISABLE_AFTER_MS = 5 * DAY_MS;
/**
 * Beyond the attempt's own timeout, how long its lease lasts: room for a slow event loop or a
 * busy database before recording. Another worker may take the message only after that.
 */
const LEASE_MARGIN_MS = 30_000;

export interface DeliveryOptions {
  /** Default: LABELDESK_WEBHOOK_RETRY_DELAYS, else the schedule of docs/webhooks.md#delivery. */
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

/** A message taken for delivery: its webhook is the group whose attempts in flight are limited. */
export type DeliveryJob = ClaimedMessage & { group: string };

/** The outbox's messages as the queue's jobs; the SQL is db/webhook-store.ts's. */
export function outboxJobs(data: DataStore): JobStore<DeliveryJob> {
  return outboxJobStore(data.webhooks, (message) => ({ ...message, group: message.webhookId }));
}

export class DeliveryWorker extends JobQueue<DeliveryJob, SendResult> {
  private readonly sender: WebhookSender;

  constructor(
    private readonly data: DataStore,
    options: DeliveryOptions = {},
  ) {
    const schedule = options.schedule ?? RetrySchedule.fromEnvironment();
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const concurrency = options.concurrency ?? 16;
    const perWebhook = Math.min(options.perWebhook ?? 8, concurrency);
    super(data, outboxJobs(data), {
      name: 'webhook delivery',
      concurrency,
      perGroup: perWebhook,
      leaseMs: timeoutMs + LEASE_MARGIN_MS,
      busyBudgetMs: LEASE_MARGIN_MS,
      backoff: schedule.backoff,
      random: schedule.random,
      now: options.now,
      pid: options.pid,
      isRunning: options.isRunning,
      logError: options.logError,
    });
    this.sender = new WebhookSender({ timeoutMs, resolve: options.resolve, maxSockets: perWebhook });
  }

  protected run(message: DeliveryJob, signal: AbortSignal): Promise<SendResult> {
    const at = this.now();
    const timestamp = Math.floor(at.getTime() / 1000);
    const signature = signatureHeader(signingSecrets(message, at), message.id, timestamp, message.body);
    return this.sender.send({ url: message.url, messageId: message.id, timestamp, signature, body: message.body }, signal);
  }

  protected verdict(_message: DeliveryJob, result: SendResult): Verdict {
    if (result.ok) return { done: true };
    // 410: the receiver is gone for good, and says so.
    if (result.status === 410) return { done: false, retry: false };
    const asked = result.status === 429 || result.status === 503 ? retryAfterMs(result.retryAfter, this.now()) : null;
    return { done: false, retry: true, retryAfterMs: asked ?? undefined };
  }

  protected record(message: DeliveryJob, { result, startedAt, endedAt, retryAt }: Settled<SendResult>): void {
    const { webhooks } = this.data;
    const at = startedAt.toISOString();
    const attempt = {
      messageId: message.id,
      status: result.ok ? ('succeeded' as const) : ('failed' as const),
      responseStatus: result.status,
      error: result.error,
      durationMs: result.durationMs,
      at,
    };
    if (result.ok) {
      webhooks.recordAttempt({ ...attempt, messageStatus: 'succeeded', nextAttemptAt: null });
      webhooks.markSucceeded(message.webhookId);
      return;
    }
    webhooks.recordAttempt({ ...attempt, messageStatus: retryAt === null ? 'failed' : 'pending', nextAttemptAt: retryAt?.toISOString() ?? null });
    const failingSince = webhooks.markFailed(message.webhookId, at);
    if (result.status === 410) webhooks.disable(message.webhookId, `the endpoint answered 410 Gone at ${at}`);
    else if (failingSince !== undefined && endedAt.getTime() - Date.parse(failingSince) >= DISABLE_AFTER_MS) {
      webhooks.disable(message.webhookId, `every delivery failed from ${failingSince} to ${at}`);
    }
  }

  protected override prune(before: string): void {
    this.data.webhooks.prune(before);
  }

  protected override stopped(): void {
    this.sender.close();
  }
}
