/**
 * The alarm queue (jobs/README.md): e-mails to the people of an alarm's step, escalations and
 * the daily digests, as jobs of `alarm_jobs`, written in the transaction that raised the alarm
 * (or saved the digest's hour). An e-mail keeps one Message-ID for all its attempts: a relay
 * or a reader that sees it twice (a crash between the relay's yes and the record) knows it for
 * the same mail. Failures are retried on the webhooks' schedule and logged with the relay's
 * reply. Each e-mail and escalation reads its alarm again in the write that takes it, just
 * before its attempt: acknowledged, it is told to nobody more. An attempt's record shares its
 * commit with the leases of the jobs taken in its place (`recordWithClaim`).
 */
import type { AlarmJobKind, AlarmRow, ClaimedAlarmJob, SmtpRecord } from '../db/alarm-store';
import type { DataStore } from '../db/data-store';
import { JobQueue, outboxJobStore, type JobStore, type Settled, type Verdict } from '../jobs/job-queue';
import type { AlarmService } from '../service/alarms';
import { schedule as backoffSchedule, SPREAD_EVENLY, type Backoff } from '../jobs/backoff';
import { alarmMail, digestMail } from './mail-text';
import { SmtpRelay, type RelayOptions, type SendOutcome } from './smtp-relay';

const LEASE_MARGIN_MS = 30_000;
const DEFAULT_TIMEOUT_MS = 30_000;

/** The webhooks' delays (README "Webhooks"): the composition root passes their schedule, environment included. */
const DEFAULT_DELAYS_S = [5, 300, 1800, 7200, 18_000, 36_000, 36_000];

export interface AlarmQueueOptions {
  /** When a failed mail is tried again. */
  schedule?: { backoff: Backoff; random: () => number };
  /** Per step of an SMTP exchange. */
  timeoutMs?: number;
  /** Mails in flight at once (one relay: the pool's connections). */
  concurrency?: number;
  /** Where a mail's link opens the report when the relay's settings name no app address (the running service's URL). */
  appUrl?: () => string;
  relay?: RelayOptions;
  now?: () => Date;
  pid?: number;
  isRunning?: (pid: number) => boolean;
  logError?: (line: string) => void;
  idleCheckMs?: number;
}

/**
 * A job as claimed, with what its attempt reads, read in the claim's own write: the relay's
 * settings, and an e-mail's alarm (null when it is gone or was acknowledged).
 */
export type AlarmJob = ClaimedAlarmJob & { group: AlarmJobKind; smtp: SmtpRecord | undefined; alarm: AlarmRow | null };

type AttemptResult = { kind: 'mail'; outcome: SendOutcome } | { kind: 'skipped'; why: string } | { kind: 'escalation' };

export function alarmJobs(data: DataStore, alarms?: Pick<AlarmService, 'retimeEscalations'>): JobStore<AlarmJob> {
  const jobs = outboxJobStore(data.alarms, (job) => ({ ...job, group: job.kind, smtp: undefined as SmtpRecord | undefined, alarm: null as AlarmRow | null }));
  return {
    ...jobs,
    // Read in the claim's write, not in a read of each attempt's own: the attempt starts at once.
    due: (now, limit, busy) => {
      // The escalations' times follow a step of the wall clock first (service/alarms.ts).
      alarms?.retimeEscalations();
      const due = jobs.due(now, limit, busy);
      if (due.length === 0) return due;
      const smtp = data.alarms.smtp();
      return due.map((job) => {
        const alarm = job.kind === 'email' && job.alarmId !== null ? data.alarms.findAlarm(job.alarmId) : undefined;
        return { ...job, smtp, alarm: alarm && !alarm.acknowledged ? alarm : null };
      });
    },
  };
}

/** The Message-ID of a job's mail: its id, at the desk's own domain part. */
export function messageIdOf(jobId: string): string {
  return `${jobId}@labeldesk.invalid`;
}

export class AlarmQueue extends JobQueue<AlarmJob, AttemptResult> {
  private readonly relay: SmtpRelay;
  private readonly appUrl: () => string;

  constructor(
    private readonly data: DataStore,
    private readonly alarms: AlarmService,
    options: AlarmQueueOptions = {},
  ) {
    const schedule = options.schedule ?? { backoff: backoffSchedule(DEFAULT_DELAYS_S.map((s) => s * 1000), SPREAD_EVENLY), random: Math.random };
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const concurrency = options.concurrency ?? 8;
    super(data, alarmJobs(data, alarms), {
      name: 'alarm e-mail',
      concurrency,
      perGroup: concurrency,
      // An exchange has a few steps, each with its own timeout.
      leaseMs: 4 * timeoutMs + LEASE_MARGIN_MS,
      busyBudgetMs: LEASE_MARGIN_MS,
      backoff: schedule.backoff,
      random: schedule.random,
      now: options.now,
      pid: options.pid,
      isRunning: options.isRunning,
      logError: options.logError,
      idleCheckMs: options.idleCheckMs,
      recordWithClaim: true,
    });
    this.relay = new SmtpRelay({ timeoutMs, maxConnections: Math.min(concurrency, 4), ...options.relay });
    this.appUrl = options.appUrl ?? (() => 'http://127.0.0.1:4317');
  }

  protected async run(job: AlarmJob, signal: AbortSignal): Promise<AttemptResult> {
    if (job.kind === 'escalation') return { kind: 'escalation' };
    const { smtp } = job;
    const appUrl = smtp?.appUrl ?? this.appUrl();
    let text;
    if (job.kind === 'digest') {
      text = digestMail(this.alarms.digestAlarms(job.companyId, this.now()), appUrl, this.now());
    } else {
      const { alarm } = job;
      if (!alarm) return { kind: 'skipped', why: 'the alarm was acknowledged before the mail went out' };
      text = alarmMail(alarm, appUrl, job.step);
    }
    const outcome = await this.relay.send(smtp, this.alarms.smtpPassword, { messageId: messageIdOf(job.id), to: job.recipients, ...text }, signal);
    return { kind: 'mail', outcome };
  }

  protected verdict(_job: AlarmJob, result: AttemptResult): Verdict {
    if (result.kind !== 'mail' || result.outcome.ok) return { done: true };
    return { done: false, retry: !result.outcome.permanent };
  }

  protected record(job: AlarmJob, { result, startedAt, endedAt, retryAt }: Settled<AttemptResult>): void {
    const { alarms } = this.data;
    if (result.kind === 'escalation') {
      alarms.finish(job.id, this.alarms.escalate(job.alarmId ?? '', job.step) ? 'succeeded' : 'cancelled', null, true);
      return;
    }
    if (result.kind === 'skipped') {
      alarms.finish(job.id, 'cancelled', null);
      return;
    }
    const { outcome } = result;
    const at = startedAt.toISOString();
    alarms.recordAttempt({
      jobId: job.id,
      status: outcome.ok ? 'succeeded' : 'failed',
      reply: outcome.reply,
      error: outcome.ok ? null : outcome.error,
      durationMs: outcome.durationMs,
      at,
      jobStatus: outcome.ok ? 'succeeded' : retryAt === null ? 'failed' : 'pending',
      nextAttemptAt: outcome.ok ? null : (retryAt?.toISOString() ?? null),
    });
    if (outcome.ok && job.alarmId !== null) this.alarms.recordMailed(job.alarmId, job.step, job.recipients, endedAt.toISOString());
    if (job.kind === 'digest' && (outcome.ok || retryAt === null)) {
      // The next day's digest is written with this one's outcome.
      const settings = this.alarms.settingsOf(job.companyId);
      if (settings.digest && alarms.pendingOf(job.companyId, 'digest').length === 0) this.alarms.scheduleDigest(job.companyId, settings, endedAt);
    }
  }

  protected override prune(before: string): void {
    this.data.alarms.prune(before);
  }

  protected override stopped(): void {
    this.relay.close();
  }
}
