/**
 * Two clocks (docs/operations.md#the-clock-steps): the wall clock gives the instants LabelDesk
 * stores and shows (a record says when, in the time a person reads), and a monotonic clock
 * measures how long something lasted within the running process. The wall clock can step, back
 * or forward by hours (a wrong time corrected by hand or by NTP, a virtual machine restored); the
 * monotonic one only moves on. So what counts a duration from a stored instant (a session's idle
 * time and age, an escalation's wait) counts it on the monotonic clock wherever this process saw
 * the instant happen, and on the wall clock only for instants from before its start.
 */

/** The monotonic clock in milliseconds: only its differences mean anything. */
export type Monotonic = () => number;

export const systemMonotonic: Monotonic = () => performance.now();

/**
 * A wall clock that carries the monotonic clock that goes with it: the one seam the service's
 * parts take (`now`), so each part that measures a duration finds its monotonic clock there.
 */
export type WallClock = (() => Date) & { readonly monotonic?: Monotonic };

/** `now`, carrying `monotonic`. */
export function withMonotonic(now: () => Date, monotonic: Monotonic): WallClock {
  return Object.assign(() => now(), { monotonic });
}

/**
 * The monotonic clock that goes with `now`: the one given, else the one `now` carries, else the
 * system's for the system's wall clock; for a wall clock a test holds, that clock itself, so
 * that a test moving it moves both (a test that steps the wall clock alone gives a monotonic
 * clock of its own).
 */
export function monotonicFor(now: WallClock | undefined, monotonic?: Monotonic): Monotonic {
  if (monotonic) return monotonic;
  if (now?.monotonic) return now.monotonic;
  return now ? () => now().getTime() : systemMonotonic;
}

/** A step of the wall clock shorter than this is its ordinary drift and slewing, not a step. */
export const STEP_TOLERANCE_MS = 1000;

/**
 * How long ago stored wall-clock instants were, each under a key: measured on the monotonic
 * clock from the moment this process stored it (`mark`), else (an instant stored before this
 * process started) the wall clock's difference, never below zero.
 */
export class Elapsed {
  private readonly marks = new Map<string, { at: string; monotonic: number }>();

  constructor(
    private readonly now: () => Date,
    private readonly monotonic: Monotonic,
  ) {}

  /** `at`, just stored under `key`, is now. */
  mark(key: string, at: string): void {
    this.marks.set(key, { at, monotonic: this.monotonic() });
  }

  /** Milliseconds since `at`, stored under `key`. */
  since(key: string, at: string): number {
    const mark = this.marks.get(key);
    if (mark && mark.at === at) return this.monotonic() - mark.monotonic;
    return Math.max(0, this.now().getTime() - Date.parse(at));
  }

  forget(key: string): void {
    this.marks.delete(key);
  }
}
