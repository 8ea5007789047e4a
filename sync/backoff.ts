/**
 * When to try again after a failed attempt (decisions §5): exponential backoff from 1 s,
 * doubling, at most 5 minutes, with jitter so that many desktops coming back online do not
 * knock at once; a `Retry-After` from the remote is waited out in full. Pure functions.
 */

export const FIRST_RETRY_MS = 1000;
export const MAX_RETRY_MS = 5 * 60 * 1000;
/** Each delay is shortened by up to this share, at random. */
export const JITTER = 0.2;

/**
 * The delay after the `failures`-th failure in a row (1 for the first). `random` is uniform in
 * [0, 1); `retryAfterMs` is what the remote asked for, if anything.
 */
export function retryDelayMs(failures: number, random: () => number, retryAfterMs?: number): number {
  const exponent = Math.max(0, Math.min(failures - 1, 30));
  const base = Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** exponent);
  const jittered = Math.round(base * (1 - JITTER * random()));
  return Math.max(jittered, retryAfterMs ?? 0);
}

/**
 * A `Retry-After` header in milliseconds from `nowMs`: delay-seconds or an HTTP date.
 * Undefined when absent or unreadable.
 */
export function parseRetryAfter(header: string | null | undefined, nowMs: number): number | undefined {
  if (header === null || header === undefined) return undefined;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // An HTTP date names its day and month; Date.parse would also take '-5' as a year.
  if (!/[a-z]/i.test(text)) return undefined;
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - nowMs);
}
