/**
 * The one reading of a `Retry-After` header for every queue and client: delay-seconds (digits
 * only) or an HTTP date, as milliseconds from now. Anything else (a negative number, a
 * fraction, words) is no answer at all, so a misbehaving server cannot turn a retry into an
 * immediate hammering or a wait of centuries: a date in the past is 0, and any wait is capped.
 */

/** The longest wait a server can ask for: a job is not held for longer than its attempts are kept. */
export const MAX_RETRY_AFTER_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * `header` as milliseconds from `nowMs`, at most `maxMs`; undefined when absent or unreadable.
 * Arrays (a header sent twice) are read by their first value, as node gives them.
 */
export function parseRetryAfter(
  header: string | readonly string[] | null | undefined,
  nowMs: number,
  maxMs: number = MAX_RETRY_AFTER_MS,
): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  let ms: number;
  if (/^\d+$/.test(text)) ms = Number(text) * 1000;
  else {
    // An HTTP date names its day and month; Date.parse would also take '-5' or '12' as a year.
    if (!/[a-z]/i.test(text)) return undefined;
    const at = Date.parse(text);
    if (Number.isNaN(at)) return undefined;
    ms = at - nowMs;
  }
  return Math.min(Math.max(0, ms), maxMs);
}
