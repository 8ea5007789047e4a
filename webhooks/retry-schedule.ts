/**
 * When a failed delivery is tried again (docs/webhooks.md#delivery): 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h,
 * each ±20 % so that messages failed together do not all come back together; then the message
 * has failed. `LABELDESK_WEBHOOK_RETRY_DELAYS` (seconds, comma separated) replaces the delays.
 */
import { z } from 'zod';
import { describeZodError } from '../contract/zod-messages';
import { delayAfter, schedule, SPREAD_EVENLY, type Backoff } from '../jobs/backoff';
import { parseRetryAfter } from '../jobs/retry-after';

export const RETRY_DELAYS_ENV = 'LABELDESK_WEBHOOK_RETRY_DELAYS';
export const DEFAULT_RETRY_DELAYS_S: readonly number[] = [5, 300, 1800, 7200, 18_000, 36_000, 36_000];

const delaysText = z
  .string()
  .transform((text) => text.split(',').map((part) => part.trim()))
  .pipe(z.array(z.string().regex(/^\d+(\.\d+)?$/, 'each delay must be a number of seconds, like 5 or 0.5').transform(Number)));

export class RetrySchedule {
  /** The schedule as the job queue's backoff (jobs/backoff.ts). */
  readonly backoff: Backoff;
  /** What the backoff draws its jitter from. */
  readonly random: () => number;

  constructor(
    /** Seconds before the 2nd, 3rd, … attempt. */
    readonly delaysS: readonly number[] = DEFAULT_RETRY_DELAYS_S,
    random: () => number = Math.random,
  ) {
    this.backoff = schedule(delaysS.map((seconds) => seconds * 1000), SPREAD_EVENLY);
    // This schedule's random has always given its shortest delay for 0, the shared jitter its longest.
    this.random = () => 1 - random();
  }

  /** The schedule the environment sets, else the default. An unset or empty variable means the default. */
  static fromEnvironment(env: NodeJS.ProcessEnv = process.env, random?: () => number): RetrySchedule {
    const text = env[RETRY_DELAYS_ENV]?.trim();
    if (!text) return new RetrySchedule(DEFAULT_RETRY_DELAYS_S, random);
    const parsed = delaysText.safeParse(text);
    if (!parsed.success) throw new Error(`${RETRY_DELAYS_ENV}='${text}': ${describeZodError(parsed.error)}`);
    return new RetrySchedule(parsed.data, random);
  }

  /** Milliseconds from the failure of attempt `attempt` (1 for the first) to the next one; null when none is left. */
  delayAfter(attempt: number): number | null {
    return delayAfter(this.backoff, attempt, this.random);
  }
}

/** A Retry-After header (seconds, or an HTTP date) as milliseconds from `now`, at most 30 days; null when absent or unreadable (jobs/retry-after.ts). */
export function retryAfterMs(header: string | undefined, now: Date): number | null {
  return parseRetryAfter(header, now.getTime()) ?? null;
}
