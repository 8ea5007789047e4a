/** What the steps of a cycle (pull, reconcile, push) share: the service, the remote, the settings, and the worker's hooks. */
import type { ConflictPolicy, RemoteReport } from '../schema/sync';
import type { SyncService } from './synced-service';
import { isRefused, type RefusedReport } from './remote-checks';
import type { Remote } from './remote-client';
import { RetrievePool } from './retrieve-pool';
import type { RetryWait } from './retrying-remote';

export interface CycleContext {
  service: SyncService;
  /** Reads retried a few times on transient failures; the PATCH sent once; `retrieveOnce` for the retrieve pool, which retries on its own. */
  remote: Remote & { retrieveOnce(id: string): Promise<RemoteReport | RefusedReport | null> };
  /** The remote key's company. */
  companyId: string;
  policy: ConflictPolicy;
  pageSize: number;
  overlapSeconds: number;
  /**
   * Between two steps (a page, a push): lets requests waiting on the event loop be served,
   * and throws `Stopped` when the worker is asked to stop.
   */
  checkpoint(): Promise<void>;
  /** During a pull: reports handled of the total the remote counts. */
  progress(done: number, total: number): void;
  /** A report the remote shows that cannot be taken (it is tried again at the next reconciliation). */
  warn(message: string): void;
  /** Runs a database write, waiting without blocking while another connection holds the write lock. */
  write<T>(fn: () => T): Promise<T>;
  /** Waits before another attempt of a failed request, or resolves false when the failure goes to the cycle. */
  retryWait: RetryWait;
  /** Waits `ms`; rejects with `Stopped` when the worker stops meanwhile. */
  wait(ms: number): Promise<void>;
  /** Uniform in [0, 1), for jitter. */
  random(): number;
}

/** The worker was asked to stop: the cycle ends after the step in flight. */
export class Stopped extends Error {
  constructor() {
    super('sync stopped');
    this.name = 'Stopped';
  }
}

/** The retrieves of one step (a pull, a reconciliation): the pool that pauses as a whole when the remote asks it to. */
export function retrievePool(ctx: Pick<CycleContext, 'remote' | 'wait' | 'retryWait' | 'random'>): RetrievePool {
  return new RetrievePool({
    retrieve: (id) => ctx.remote.retrieveOnce(id),
    wait: (ms) => ctx.wait(ms),
    retryWait: ctx.retryWait,
    random: () => ctx.random(),
  });
}

/** What a batch of retrieves gave: the reports, and those the mirror does not take with why. */
export interface Retrieved {
  reports: RemoteReport[];
  refused: RefusedReport[];
}

/** The pool's answers, reports apart from refusals. */
export function splitRetrieved(found: readonly (RemoteReport | RefusedReport)[]): Retrieved {
  const result: Retrieved = { reports: [], refused: [] };
  for (const r of found) {
    if (isRefused(r)) result.refused.push(r);
    else result.reports.push(r);
  }
  return result;
}

/** A refusal as the worker's log says it. */
export function refusalMessage({ id, reason }: RefusedReport): string {
  return `label report '${id}' from the remote was refused: ${reason}`;
}
