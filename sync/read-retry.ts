/**
 * Retrying a read inside a cycle (docs/sync.md#local-edits-and-push): a list page, a retrieve or the session asked
 * again a few times, soon, after a network error, a timeout, a 5xx, a 429 or a 408, so that a
 * lossy link still lets a cycle finish instead of failing it at its first lost request and
 * starting over. Reads change nothing on the remote, so asking again is always safe. What
 * does not pass within the few attempts, or asks (Retry-After) for a longer wait than a cycle
 * should hold its place for, goes to the cycle's backoff timer. A PATCH is sent again under
 * the same policy only when the remote still shows the report as the pull left it (push-queue.ts).
 * Pure.
 */
import { delayAfter, exponential, SHORTEN_ONLY } from '../jobs/backoff';

export interface ReadRetryPolicy {
  /** Attempts of one read in all, the first included. */
  attempts: number;
  /** The wait after the first failure; it doubles with each further one. */
  firstDelayMs: number;
  /** The longest wait inside a cycle; a longer Retry-After ends the cycle instead. */
  longestWaitMs: number;
}

/** A Retry-After (whole seconds) of 1 or more goes to the cycle's backoff; only `0` is waited here. */
export const READ_RETRY: ReadRetryPolicy = { attempts: 3, firstDelayMs: 250, longestWaitMs: 500 };

/** What the policy needs to know of a failure. */
export interface ReadFailure {
  /** A network error, a timeout, a 5xx, a 429 or a 408: the same request may pass later. */
  transient: boolean;
  /** What the remote's Retry-After asked for. */
  retryAfterMs?: number;
}

/**
 * How long to wait before asking again after the `attempt`-th attempt failed (1 for the
 * first), or null when the failure goes to the cycle. `random` is uniform in [0, 1): the
 * wait is shortened by up to the backoff's jitter, and never shorter than Retry-After.
 */
export function readRetryDelayMs(policy: ReadRetryPolicy, attempt: number, failure: ReadFailure, random: () => number): number | null {
  if (!failure.transient || attempt >= policy.attempts) return null;
  if (failure.retryAfterMs !== undefined && failure.retryAfterMs > policy.longestWaitMs) return null;
  return delayAfter(exponential(policy.firstDelayMs, policy.longestWaitMs, SHORTEN_ONLY), attempt, random, failure.retryAfterMs);
}
