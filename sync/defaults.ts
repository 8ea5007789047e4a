/** The worker's settings when none are given (docs/sync.md#running-it). */
import type { SyncOptions } from './index';
import { DEFAULT_MAX_ANSWER_BYTES } from '../jobs/http-client';

export const SYNC_DEFAULTS = {
  pageSize: 100,
  overlapSeconds: 300,
  reconcileEverySeconds: 3600,
  intervalSeconds: 30,
  conflicts: 'remote',
  requestTimeoutMs: 30_000,
  maxAnswerBytes: DEFAULT_MAX_ANSWER_BYTES,
} as const satisfies Required<Omit<SyncOptions, 'remoteUrl' | 'remoteKey' | 'companyId'>>;
