/**
 * When to try again after a failed cycle (docs/sync.md#local-edits-and-push): exponential backoff from 1 s,
 * doubling, at most 5 minutes, shortened at random by up to a fifth so that many desktops
 * coming back online do not knock at once; a `Retry-After` from the remote is waited out in
 * full. The arithmetic is the job queues' own (jobs/backoff.ts, jobs/retry-after.ts).
 */
import { delayAfter, exponential, SHORTEN_ONLY } from '../jobs/backoff';
import { parseRetryAfter as readRetryAfter } from '../jobs/retry-after';

export const FIRST_RETRY_MS = 1000;
export const MAX_RETRY_MS = 5 * 60 * 1000;
/** Each delay is shortened by up to this share, at random. */
export const JITTER = SHORTEN_ONLY.shorter;

export const CYCLE_BACKOFF = exponential(FIRST_RETRY_MS, MAX_RETRY_MS, SHORTEN_ONLY);

/**
 * The delay after the `failures`-th failure in a row (1 for the first). `random` is uniform in
 * [0, 1); `retryAfterMs` is what the remote asked for, if anything.
 */
export function retryDelayMs(failures: number, random: () => number, retryAfterMs?: number): number {
  return delayAfter(CYCLE_BACKOFF, failures, random, retryAfterMs)!;
}

/** A `Retry-After` header in milliseconds from `nowMs` (jobs/retry-after.ts); undefined when absent or unreadable. */
export function parseRetryAfter(header: string | null | undefined, nowMs: number): number | undefined {
  return readRetryAfter(header, nowMs);
}
