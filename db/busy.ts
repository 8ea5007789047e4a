/**
 * A write that meets a busy database (another connection holds the write lock: an import
 * switching in, another LabelDesk on the same file) waits its turn here, without blocking the
 * event loop, so reads and other requests go on meanwhile. Past the budget it answers 503 with
 * Retry-After (http/errors.ts). Safe to repeat: a busy write wrote nothing. A request whose client has
 * gone away (`signal`) stops waiting at once and does not write.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { DatabaseBusyError } from './data-store';

/** How long a write waits for the database by default before its 503. */
export const BUSY_WAIT_MS = 10_000;

export async function waitForDatabase<T>(write: () => T, budgetMs: number, signal?: AbortSignal): Promise<T> {
  const deadline = Date.now() + budgetMs;
  for (let pause = 5; ; pause = Math.min(pause * 2, 200)) {
    signal?.throwIfAborted();
    try {
      return write();
    } catch (err) {
      if (!(err instanceof DatabaseBusyError) || Date.now() >= deadline) throw err;
    }
    try {
      await sleep(Math.min(pause, Math.max(1, deadline - Date.now())), undefined, { signal });
    } catch (err) {
      // Ended early by the signal: its reason says why.
      signal?.throwIfAborted();
      throw err;
    }
  }
}
