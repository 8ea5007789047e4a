/** What the steps of a cycle (pull, reconcile, push) share: the service, the remote, the settings, and the worker's hooks. */
import type { ConflictPolicy, RemoteReport } from '../schema/sync';
import type { SyncService } from './synced-service';
import { isRefused, type RefusedReport } from './remote-checks';
import type { Remote } from './remote-client';
import type { RetryWait } from './retrying-remote';

export interface CycleContext {
  service: SyncService;
  /** Reads retried a few times on transient failures; the PATCH sent once. */
  remote: Remote;
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
}

/** The worker was asked to stop: the cycle ends after the step in flight. */
export class Stopped extends Error {
  constructor() {
    super('sync stopped');
    this.name = 'Stopped';
  }
}

/** How many retrieves run at once when a page holds reports new to the mirror. */
export const RETRIEVE_CONCURRENCY = 8;

/** What a batch of retrieves gave: the reports, and those the mirror does not take with why. */
export interface Retrieved {
  reports: RemoteReport[];
  refused: RefusedReport[];
}

/**
 * The whole reports of `ids`, fetched with retrieve a few at a time, in the order given;
 * those the remote no longer shows (404) are left out.
 */
export async function retrieveAll(remote: Pick<Remote, 'retrieve'>, ids: readonly string[]): Promise<Retrieved> {
  const found: (RemoteReport | RefusedReport | null)[] = new Array(ids.length).fill(null);
  let next = 0;
  const worker = async () => {
    while (next < ids.length) {
      const i = next++;
      found[i] = await remote.retrieve(ids[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(RETRIEVE_CONCURRENCY, ids.length) }, worker));
  const result: Retrieved = { reports: [], refused: [] };
  for (const r of found) {
    if (r === null) continue;
    if (isRefused(r)) result.refused.push(r);
    else result.reports.push(r);
  }
  return result;
}

/** A refusal as the worker's log says it. */
export function refusalMessage({ id, reason }: RefusedReport): string {
  return `label report '${id}' from the remote was refused: ${reason}`;
}
