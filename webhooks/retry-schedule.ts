/**
 * When a failed delivery is tried again (decisions §6): 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h,
 * each ±20 % so that messages failed together do not all come back together; then the message
 * has failed. `LABELDESK_WEBHOOK_RETRY_DELAYS` (seconds, comma separated) replaces the delays.
 */
import { z } from 'zod';
import { describeZodError } from '../contract/zod-messages';

export const RETRY_DELAYS_ENV = 'LABELDESK_WEBHOOK_RETRY_DELAYS';
export const DEFAULT_RETRY_DELAYS_S: readonly number[] = [5, 300, 1800, 7200, 18_000, 36_000, 36_000];
const JITTER = 0.2;
/** A Retry-After beyond this is read as this: a message is not held for longer than its attempts are kept. */
const MAX_RETRY_AFTER_MS = 30 * 24 * 60 * 60 * 1000;

const delaysText = z
  .string()
  .transform((text) => text.split(',').map((part) => part.trim()))
  .pipe(z.array(z.string().regex(/^\d+(\.\d+)?$/, 'each delay must be a number of seconds, like 5 or 0.5').transform(Number)));

export class RetrySchedule {
  constructor(
    /** Seconds before the 2nd, 3rd, … attempt. */
    readonly delaysS: readonly number[] = DEFAULT_RETRY_DELAYS_S,
    private readonly random: () => number = Math.random,
  ) {}

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
    const seconds = this.delaysS[attempt - 1];
    if (seconds === undefined) return null;
    return Math.round(seconds * 1000 * (1 - JITTER + 2 * JITTER * this.random()));
  }
}

/** A Retry-After header (seconds, or an HTTP date) as milliseconds from `now`; null when absent or unreadable. */
export function retryAfterMs(header: string | undefined, now: Date): number | null {
  if (header === undefined) return null;
  const text = header.trim();
  let ms: number;
  if (/^\d+$/.test(text)) ms = Number(text) * 1000;
  else {
    const at = Date.parse(text);
    if (Number.isNaN(at)) return null;
    ms = at - now.getTime();
  }
  return Math.min(Math.max(0, ms), MAX_RETRY_AFTER_MS);
}
