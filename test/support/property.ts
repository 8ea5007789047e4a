/**
 * Seeds for property and fault tests. `npm test` runs each property on fixed seeds: the default
 * one and every seed that ever found a counterexample, so a run fails only when the code does.
 * `npm run test:explore` (EXPLORE=N) draws N fresh seeds per property and reports every one that
 * fails. SEED=N replays one seed; a failure names the command that does it.
 */
import { mulberry32 } from '../../demo/random';
import { relative } from 'node:path';
import fc from 'fast-check';
import { expect } from 'vitest';

/** The seed every property runs on, besides its own counterexample seeds. */
export const DEFAULT_SEED = 1;

/** How many fresh seeds `npm run test:explore` draws per property (0 under `npm test`). */
export const exploring = Number(process.env.EXPLORE ?? 0);

function envSeed(name: string): number | undefined {
  const text = process.env[name];
  if (text === undefined || text === '') return undefined;
  const seed = Number(text);
  if (!Number.isSafeInteger(seed)) throw new Error(`${name}=${text} is not an integer seed`);
  return seed;
}

/**
 * The seeds a seeded test runs on: SEED (or the legacy `legacyEnv`, e.g. SYNC_SEED) alone when
 * set; fresh ones when exploring; else the default seed and the fixed ones given.
 */
export function seedsToRun(fixed: readonly number[] = [], legacyEnv?: string): number[] {
  const replay = envSeed('SEED') ?? (legacyEnv ? envSeed(legacyEnv) : undefined);
  if (replay !== undefined) return [replay];
  if (exploring > 0) return Array.from({ length: exploring }, () => Math.floor(Math.random() * 2 ** 31));
  return [...new Set([DEFAULT_SEED, ...fixed])];
}

/**
 * The one command that runs the current test again on `seed`. A test that runs concurrently with
 * others passes its own `expect` (the test context's), which knows which test it is.
 */
export function replayCommand(seed: number, current: Pick<typeof expect, 'getState'> = expect): string {
  const { testPath, currentTestName } = current.getState();
  const file = testPath ? relative(process.cwd(), testPath) : '<test file>';
  // -t takes a pattern matched against the names of the test's suites and its own, space-joined.
  const pattern = currentTestName
    ?.split(' > ')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  const name = pattern ? ` -t '${pattern.replaceAll("'", "'\\''")}'` : '';
  return `SEED=${seed} npx vitest run ${file}${name}`;
}

type Params<Ts> = fc.Parameters<Ts> & {
  /** Seeds that found a counterexample once: they run on every `npm test`. */
  seeds?: readonly number[];
};

function failure(failed: { seed: number; report: string }[]): Error {
  const lines = failed.map(({ seed, report }) => `seed ${seed} fails; replay: ${replayCommand(seed)}\n${report}`);
  return new Error(`${failed.length} seed(s) failed:\n\n${lines.join('\n\n')}`);
}

/** fc.assert on each seed to run; every failing seed is reported with its replay command. */
export function assertProperty<Ts>(property: fc.IProperty<Ts>, params: Params<Ts> = {}): void {
  const { seeds, ...rest } = params;
  const failed: { seed: number; report: string }[] = [];
  for (const seed of seedsToRun(seeds)) {
    const details = fc.check(property, { ...rest, seed });
    if (details.failed) failed.push({ seed, report: fc.defaultReportMessage(details) ?? '' });
  }
  if (failed.length > 0) throw failure(failed);
}

/** The same for an asynchronous property. */
export async function assertAsyncProperty<Ts>(property: fc.IAsyncProperty<Ts>, params: Params<Ts> = {}): Promise<void> {
  const { seeds, ...rest } = params;
  const failed: { seed: number; report: string }[] = [];
  for (const seed of seedsToRun(seeds)) {
    const details = await fc.check(property, { ...rest, seed });
    if (details.failed) failed.push({ seed, report: (await fc.asyncDefaultReportMessage(details)) ?? '' });
  }
  if (failed.length > 0) throw failure(failed);
}

/** Draws from one seed for a run of steps: the same seed, the same run. */
export function seededDraws(seed: number) {
  const next = mulberry32(seed);
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)];
  return { next, int, pick };
}
export type SeededDraws = ReturnType<typeof seededDraws>;
