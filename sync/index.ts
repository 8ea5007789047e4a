/**
 * Sync with a remote instance of the /v2 interface (docs/sync.md): the local database mirrors
 * the reports one remote API key sees, and local edits of them go back, through list,
 * retrieve and PATCH only. One file per idea in this folder:
 * - remote-client.ts: the three /v2 operations and /local/session over HTTP, refusals classified
 * - pull.ts: the cursor on `updated`, paging by moving the bound, a page and its cursor in one transaction
 * - reconcile.ts: the full minimal list compared with the mirror
 * - push-queue.ts: the outbox sent as absolute-value PATCHes, a job queue (jobs/) the cycle drains after its pull
 * - merge.ts: the per-field three-way merge (pure)
 * - backoff.ts: retry delays with jitter and Retry-After (pure)
 * - worker.ts: cycles, timers, state
 */

import type { ConflictPolicy, SyncStatus } from '../schema/sync';

export type { SyncStatus } from '../schema/sync';

export interface SyncOptions {
  /** Base URL of the remote, e.g. http://127.0.0.1:1234 */
  remoteUrl: string;
  remoteKey: string;
  /** Else asked from the remote's GET /local/session. */
  companyId?: string;
  /** Default 100. */
  pageSize?: number;
  /** Default 300. */
  overlapSeconds?: number;
  /** Default 3600 (and at every start). */
  reconcileEverySeconds?: number;
  /** Default 30. */
  intervalSeconds?: number;
  /** Default 'remote'. */
  conflicts?: ConflictPolicy;
  /** Default 30 000. */
  requestTimeoutMs?: number;
  /** The largest answer read from the remote, a list page or a report; default 64 MiB. */
  maxAnswerBytes?: number;
}

export { SYNC_DEFAULTS } from './defaults';

export type CycleOutcome = { ok: true } | { ok: false; reason: 'offline' | 'paused' | 'error'; message: string };

export interface SyncWorker {
  /** One cycle: pull, reconcile when due, push; resolves when done. */
  runCycle(): Promise<CycleOutcome>;
  /** Continuous: cycles every interval, pushes ~1 s after a local edit, retries on its backoff timer. */
  start(): void;
  /** Start a cycle now (POST /local/sync). */
  trigger(): void;
  /** Finishes the step in flight, clears every timer. */
  stop(): Promise<void>;
  /** The GET /local/sync body. */
  status(): SyncStatus;
}

export { createSyncWorker } from './worker';
