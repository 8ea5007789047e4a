/**
 * The sync worker: cycles (pull, reconcile when due, push), its timers and its state. It runs
 * off the request path: every step is a small transaction, and between pages and pushes it
 * lets the event loop serve requests. Continuous, it cycles every interval, about a second
 * after a local edit (edits in that second travel together), and after a failure on its
 * backoff timer, never sooner because of a local edit. Inside a cycle, a read that fails on
 * the way is asked again a few times first (read-retry.ts), so a lossy link does not fail
 * every cycle; the pages committed before a failure stay, and the next cycle goes on from them.
 */
import { waitForDatabase } from '../db/busy';
import type { SyncState, SyncStatus } from '../schema/sync';
import type { SyncService } from './synced-service';
import { retryDelayMs } from './backoff';
import { Stopped, type CycleContext } from './context';
import { SYNC_DEFAULTS } from './defaults';
import type { CycleOutcome, SyncOptions, SyncWorker } from './index';
import { pull } from './pull';
import { PushQueue } from './push-queue';
import { reconcile } from './reconcile';
import { READ_RETRY, readRetryDelayMs, type ReadRetryPolicy } from './read-retry';
import { RemoteClient, RemoteFailure } from './remote-client';
import { RetryingRemote } from './retrying-remote';

/** How soon after a local edit its cycle starts: edits within it travel in one PATCH per report. */
export const PUSH_DELAY_MS = 1000;
/** How long a sync write waits for another connection's write lock before the cycle fails and retries. */
const BUSY_BUDGET_MS = 10_000;

export interface WorkerHooks {
  /** Reports that cannot be taken, and other things worth a line in a log. */
  log?: (line: string) => void;
  /** Random in [0, 1) for the jitter (tests pass a fixed one). */
  random?: () => number;
  now?: () => Date;
  /** After each cycle, with how it ended (the command line prints it). */
  onCycle?: (outcome: CycleOutcome, status: SyncStatus) => void;
  /** How reads are retried inside a cycle (READ_RETRY when not given). */
  readRetry?: ReadRetryPolicy;
  /** The process id the push's leases are taken under, and how to tell whether a holder still runs. */
  pid?: number;
  isRunning?: (pid: number) => boolean;
}

export function createSyncWorker(service: SyncService, options: SyncOptions, hooks: WorkerHooks = {}): SyncWorker {
  return new Worker(service, options, hooks);
}

class Worker implements SyncWorker {
  private readonly settings: Required<Omit<SyncOptions, 'companyId'>>;
  private readonly client: RemoteClient;
  private readonly remote: RetryingRemote;
  private readonly now: () => Date;
  private readonly random: () => number;
  private companyId: string | null;
  private state: SyncState = 'idle';
  private progress: { done: number; total: number } | null = null;
  private lastSuccessAt: string | null;
  private lastError: { at: string; message: string } | null;
  private nextAttemptAt: string | null = null;
  private failures = 0;
  private paused = false;
  private started = false;
  private stopping = false;
  /** A cycle of this run has reconciled: the first one always does. */
  private reconciledThisRun = false;
  private timer: NodeJS.Timeout | null = null;
  /** The waits between attempts of a read in flight: stop() ends them. */
  private readonly waits = new Set<() => void>();
  private timerDue = Infinity;
  private running: Promise<CycleOutcome> | null = null;
  /** Asked for while a cycle ran: one more cycle follows it. */
  private again = false;
  private editWaiting = false;
  /** A report of this cycle could not be taken: its warning stays the last error after the cycle. */
  private warned = false;
  private unsubscribe: (() => void) | null = null;
  private readonly pushQueue: PushQueue;
  /** Aborted at stop: the push takes no further entry. */
  private readonly stopSignal = new AbortController();

  constructor(
    private readonly service: SyncService,
    options: SyncOptions,
    private readonly hooks: WorkerHooks,
  ) {
    this.settings = { ...SYNC_DEFAULTS, ...stripUndefined(options) } as Required<Omit<SyncOptions, 'companyId'>>;
    this.now = hooks.now ?? (() => new Date());
    this.random = hooks.random ?? Math.random;
    this.client = new RemoteClient(options.remoteUrl, options.remoteKey, this.settings.requestTimeoutMs, this.settings.maxAnswerBytes);
    this.remote = new RetryingRemote(this.client, (attempt, failure) => this.retryWait(attempt, failure));
    service.sync.setRemote(options.remoteUrl, options.companyId ?? null);
    const saved = service.sync.savedState();
    this.lastSuccessAt = saved.lastSuccessAt;
    this.lastError = saved.lastError;
    this.companyId = options.companyId ?? service.sync.settings().companyId;
    this.pushQueue = new PushQueue(service.sync.pushJobs(), {
      requestTimeoutMs: this.settings.requestTimeoutMs,
      busyBudgetMs: BUSY_BUDGET_MS,
      pid: hooks.pid,
      isRunning: hooks.isRunning,
      logError: (line) => this.log(line),
    });
  }

  runCycle(): Promise<CycleOutcome> {
    if (this.running) {
      // One cycle at a time: this one starts when the running one is done.
      return this.running.then(() => this.runCycle());
    }
    const cycle = this.cycle().finally(() => {
      this.running = null;
      this.afterCycle();
    });
    void cycle.then((outcome) => this.hooks.onCycle?.(outcome, this.status()));
    this.running = cycle;
    return cycle;
  }

  start(): void {
    if (this.started || this.stopping) return;
    this.started = true;
    this.unsubscribe = this.service.sync.onQueued(() => this.localEdit());
    this.schedule(0);
  }

  trigger(): void {
    if (this.stopping) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.clearTimer();
    void this.runCycle();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.stopSignal.abort();
    this.started = false;
    this.unsubscribe?.();
    this.unsubscribe = null;
    this.clearTimer();
    for (const cancel of [...this.waits]) cancel();
    await this.running?.catch(() => undefined);
    this.client.close();
    this.clearTimer();
    this.nextAttemptAt = null;
    if (this.state === 'pulling' || this.state === 'pushing' || this.state === 'reconciling') this.state = 'idle';
    this.save();
  }

  status(): SyncStatus {
    const counts = this.service.sync.counts();
    return {
      configured: true,
      remoteUrl: this.settings.remoteUrl,
      companyId: this.companyId,
      state: this.state,
      lastSuccessAt: this.lastSuccessAt,
      lastError: this.lastError,
      ...counts,
      progress: this.progress,
      nextAttemptAt: this.nextAttemptAt,
    };
  }

  private async cycle(): Promise<CycleOutcome> {
    this.clearTimer();
    this.editWaiting = false;
    this.warned = false;
    try {
      const ctx = await this.context();
      this.enter('pulling');
      await pull(ctx);
      if (this.reconcileDue()) {
        this.enter('reconciling');
        await reconcile(ctx);
        this.reconciledThisRun = true;
        await ctx.write(() => this.service.sync.markReconciled(this.now().toISOString()));
      }
      this.enter('pushing');
      await this.pushQueue.push(ctx, this.stopSignal.signal);
      this.failures = 0;
      this.paused = false;
      this.lastSuccessAt = this.now().toISOString();
      if (!this.warned) this.lastError = null;
      this.enter('idle');
      return { ok: true };
    } catch (err) {
      return this.failed(err);
    } finally {
      this.progress = null;
    }
  }

  private failed(err: unknown): CycleOutcome {
    if (err instanceof Stopped) {
      this.enter('idle');
      return { ok: false, reason: 'error', message: err.message };
    }
    const message = err instanceof Error ? err.message : String(err);
    this.lastError = { at: this.now().toISOString(), message };
    if (err instanceof RemoteFailure && err.kind === 'paused') {
      this.paused = true;
      this.enter('paused');
      return { ok: false, reason: 'paused', message };
    }
    this.failures++;
    const delay = retryDelayMs(this.failures, this.random, err instanceof RemoteFailure ? err.retryAfterMs : undefined);
    this.nextAttemptAt = new Date(this.now().getTime() + delay).toISOString();
    if (err instanceof RemoteFailure && err.kind === 'offline') {
      this.enter('offline');
      return { ok: false, reason: 'offline', message };
    }
    if (!(err instanceof RemoteFailure)) this.log(`sync: ${err instanceof Error ? (err.stack ?? message) : message}`);
    this.enter('idle');
    return { ok: false, reason: 'error', message };
  }

  /** The next cycle, when running continuously: again at once, on the backoff timer, after an edit, or at the interval. */
  private afterCycle(): void {
    if (this.stopping) return;
    if (this.again) {
      this.again = false;
      this.schedule(0);
      return;
    }
    if (!this.started) {
      this.nextAttemptAt = this.failures > 0 ? this.nextAttemptAt : null;
      this.save();
      return;
    }
    if (this.paused) {
      this.nextAttemptAt = null;
      this.save();
      return;
    }
    if (this.failures > 0) {
      this.schedule(Math.max(0, Date.parse(this.nextAttemptAt!) - this.now().getTime()));
      return;
    }
    this.schedule(this.editWaiting ? PUSH_DELAY_MS : this.settings.intervalSeconds * 1000);
  }

  private localEdit(): void {
    if (!this.started || this.paused || this.failures > 0) return;
    if (this.running) {
      this.editWaiting = true;
      return;
    }
    this.schedule(PUSH_DELAY_MS);
  }

  /** Sets the timer to `ms` from now, unless it is due sooner already. */
  private schedule(ms: number): void {
    const due = Date.now() + ms;
    if (this.timer && this.timerDue <= due) return;
    this.clearTimer();
    this.timerDue = due;
    this.nextAttemptAt = new Date(this.now().getTime() + ms).toISOString();
    this.save();
    this.timer = setTimeout(() => {
      this.timer = null;
      this.timerDue = Infinity;
      if (!this.stopping) void this.runCycle();
    }, ms);
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.timerDue = Infinity;
  }

  private reconcileDue(): boolean {
    if (!this.reconciledThisRun) return true;
    const last = this.service.sync.settings().lastReconcileAt;
    return last === null || this.now().getTime() - Date.parse(last) >= this.settings.reconcileEverySeconds * 1000;
  }

  /** The remote key's company: given, remembered, or asked from the remote's /local/session. */
  private async context(): Promise<CycleContext> {
    if (this.companyId === null || !this.companyKnownLocally()) {
      const session = await this.remote.session();
      const companyId = this.companyId ?? session?.companyId ?? null;
      if (companyId === null) {
        throw new Error(
          `the remote ${this.settings.remoteUrl} does not say which company its key belongs to (it has no /local/session): give the company id (--company ID)`,
        );
      }
      const name = session?.companyId === companyId ? session.companyName : (this.service.companies.find(companyId)?.name ?? companyId);
      await this.write(() => this.service.sync.setCompany({ id: companyId, name }));
      this.companyId = companyId;
    }
    return {
      service: this.service,
      remote: this.remote,
      companyId: this.companyId,
      policy: this.settings.conflicts,
      pageSize: this.settings.pageSize,
      overlapSeconds: this.settings.overlapSeconds,
      checkpoint: () => this.checkpoint(),
      progress: (done, total) => {
        this.progress = { done, total };
      },
      warn: (message) => {
        this.warned = true;
        this.lastError = { at: this.now().toISOString(), message };
        this.log(`sync: ${message}`);
      },
      write: (fn) => this.write(fn),
      retryWait: (attempt, failure) => this.retryWait(attempt, failure),
      wait: (ms) => this.wait(ms),
      random: this.random,
    };
  }

  private companyKnownLocally(): boolean {
    return this.companyId !== null && this.service.companies.find(this.companyId) !== undefined && this.service.sync.settings().companyId === this.companyId;
  }

  private async checkpoint(): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (this.stopping) throw new Stopped();
  }

  /** Between two attempts of a request inside a cycle (read-retry.ts): waits, or says the failure goes to the cycle. */
  private async retryWait(attempt: number, failure: RemoteFailure): Promise<boolean> {
    const delay = readRetryDelayMs(this.hooks.readRetry ?? READ_RETRY, attempt, failure, this.random);
    if (delay === null) return false;
    await this.wait(delay);
    return true;
  }

  /** Waits `ms`; throws `Stopped` when the worker stops meanwhile. */
  private wait(ms: number): Promise<void> {
    if (this.stopping) return Promise.reject(new Stopped());
    return new Promise<void>((resolve, reject) => {
      const cancel = () => {
        clearTimeout(timer);
        this.waits.delete(cancel);
        reject(new Stopped());
      };
      const timer = setTimeout(() => {
        this.waits.delete(cancel);
        resolve();
      }, ms);
      this.waits.add(cancel);
    });
  }

  private write<T>(fn: () => T): Promise<T> {
    return waitForDatabase(fn, BUSY_BUDGET_MS);
  }

  private enter(state: SyncState): void {
    this.state = state;
    if (state === 'idle' && this.failures === 0) this.nextAttemptAt = null;
    this.save();
  }

  /** What `labeldesk sync status` shows from another process; a busy database only delays it to the next change. */
  private save(): void {
    try {
      this.service.sync.saveState({
        state: this.state,
        lastSuccessAt: this.lastSuccessAt,
        lastError: this.lastError,
        nextAttemptAt: this.nextAttemptAt,
      });
    } catch (err) {
      if ((err as Error).name !== 'DatabaseBusyError') throw err;
    }
  }

  private log(line: string): void {
    (this.hooks.log ?? ((text: string) => process.stderr.write(text + '\n')))(line);
  }
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
