/**
 * The one backoff every queue and retry loop uses: a base delay per failure count (doubling
 * to a ceiling, or a fixed schedule), spread at random so that many jobs failed together do
 * not all come back together, and never shorter than what the server's Retry-After asked for.
 * Pure: `random` is uniform in [0, 1) and tests pass a fixed one.
 */

export interface Jitter {
  /** The largest share a delay is shortened by. */
  shorter: number;
  /** The largest share a delay is lengthened by. */
  longer: number;
}

export interface Backoff {
  /** The delay before the next attempt after `failures` failures in a row (1 for the first), before jitter; null when none is left. */
  baseMs(failures: number): number | null;
  jitter: Jitter;
}

/** Shortened by up to a fifth, never lengthened: a ceiling stays a ceiling. */
export const SHORTEN_ONLY: Jitter = { shorter: 0.2, longer: 0 };
/** ±20 %. */
export const SPREAD_EVENLY: Jitter = { shorter: 0.2, longer: 0.2 };

/** From `firstMs`, doubling with each failure, at most `maxMs`; after `attempts` attempts in all (when given), none is left. */
export function exponential(firstMs: number, maxMs: number, jitter: Jitter = SHORTEN_ONLY, attempts = Infinity): Backoff {
  return {
    jitter,
    baseMs: (failures) => {
      if (failures >= attempts) return null;
      const exponent = Math.max(0, Math.min(failures - 1, 30));
      return Math.min(maxMs, firstMs * 2 ** exponent);
    },
  };
}

/** One delay per failure, in order; past the last, none is left. */
export function schedule(delaysMs: readonly number[], jitter: Jitter = SPREAD_EVENLY): Backoff {
  return { jitter, baseMs: (failures) => delaysMs[failures - 1] ?? null };
}

/**
 * `ms` spread by the jitter: `random` 0 gives the longest delay and values towards 1 the
 * shortest, so a shorten-only jitter with 0 gives the base delay itself.
 */
export function jittered(ms: number, jitter: Jitter, random: () => number): number {
  return Math.round(ms * (1 + jitter.longer - (jitter.shorter + jitter.longer) * random()));
}

/** The delay after `failures` failures in a row, at least `retryAfterMs`; null when no attempt is left. */
export function delayAfter(backoff: Backoff, failures: number, random: () => number, retryAfterMs?: number): number | null {
  const base = backoff.baseMs(failures);
  if (base === null) return null;
  return Math.max(jittered(base, backoff.jitter, random), retryAfterMs ?? 0);
}
