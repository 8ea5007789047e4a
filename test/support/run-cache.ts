/**
 * What test files would otherwise each make again, made once per run in the run's folder
 * (test/support/global-setup.ts): the renderer built (a build per define set) and demo databases
 * (one per size and seed, copied for each file that asks, so every file still writes to its own).
 *
 * Workers coordinate through the file system: the first to ask claims an entry (an atomic mkdir)
 * and makes it in a folder of its own, renamed into place whole, so no reader ever sees half an
 * entry. A worker that finds the entry claimed waits for it rather than making it again beside
 * the maker: the big demo databases take a core for half a minute each, and the files that want
 * them are the slowest, so both workers tend to ask for the same one at once. A claim whose maker
 * has gone (its process ended, or its making failed) is taken over.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';
import type { DemoOptions } from '../../demo';
import { openService } from '../../host/open-service';
import type { DemoSummary } from '../../service/demo-seeder';

const REPO = fileURLToPath(new URL('../../', import.meta.url));

/** This worker's entries, by name, so a second file in the same worker neither checks nor makes them again. */
const made = new Map<string, Promise<string>>();

/** Whether the process `pid` is still running. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Claims `target` for this process: true when this process is to make it, false when it exists
 * already. While another live process holds the claim, waits for the entry to appear (a look
 * every few milliseconds: the state is a file, and fs.watch is not reliable on every file system).
 */
async function claim(target: string): Promise<boolean> {
  const claimDir = `${target}.claim`;
  for (;;) {
    if (existsSync(target)) return false;
    try {
      mkdirSync(claimDir);
      writeFileSync(join(claimDir, 'pid'), String(process.pid));
      // The entry may have been renamed into place between the look above and the claim.
      if (existsSync(target)) {
        rmSync(claimDir, { recursive: true, force: true });
        return false;
      }
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    let owner = Number.NaN;
    try {
      owner = Number(readFileSync(join(claimDir, 'pid'), 'utf8'));
    } catch {
      // Claimed a moment ago, its pid not yet written: look again.
    }
    if (Number.isInteger(owner) && owner > 0 && !alive(owner) && !existsSync(target)) rmSync(claimDir, { recursive: true, force: true });
    else await sleep(50);
  }
}

/** The run's folder `name`, made by `make(into)` unless this run has it already. */
function entry(name: string, make: (into: string) => Promise<void>): Promise<string> {
  let ready = made.get(name);
  if (!ready) {
    ready = (async () => {
      const target = join(inject('runDir'), name);
      if (!(await claim(target))) return target;
      const own = `${target}.${process.pid}`;
      try {
        rmSync(own, { recursive: true, force: true });
        mkdirSync(own, { recursive: true });
        await make(own);
        renameSync(own, target);
      } finally {
        rmSync(own, { recursive: true, force: true });
        // Given up on failure too, so that a worker waiting for the entry takes it over.
        rmSync(`${target}.claim`, { recursive: true, force: true });
      }
      return target;
    })();
    made.set(name, ready);
    // A failure is not kept: the next file that asks tries again, and fails on its own.
    ready.catch(() => made.delete(name));
  }
  return ready;
}

/**
 * The renderer built as `npm run build:renderer` builds it, into the run's folder rather than
 * dist/ (so a test never serves a stale dist/ nor races another build of it). `define` sets the
 * build's compile-time constants (a test may shrink a limit to reach it cheaply); each set is a
 * build of its own. Tests only read it. Under `npm test` (scripts/test.js), which has just built
 * dist/renderer, the build without constants is that one.
 */
export function builtUi(define?: Record<string, string>): Promise<string> {
  // `npm test` builds the renderer as its first step and names the result: the same build.
  const prebuilt = process.env.LABELDESK_TEST_UI;
  if (!define && prebuilt && existsSync(join(prebuilt, 'index.html'))) return Promise.resolve(prebuilt);
  const name = define ? `ui-${createHash('sha256').update(JSON.stringify(define)).digest('hex').slice(0, 12)}` : 'ui';
  return entry(name, async (into) => {
    // Loaded only to build: under `npm test` most runs never do, and vite is a large import.
    const { build } = await import('vite');
    await build({
      configFile: join(REPO, 'renderer/vite.config.ts'),
      logLevel: 'error',
      build: { outDir: into, emptyOutDir: true },
      ...(define ? { define } : {}),
    });
  });
}

/**
 * A database of demo data at `dbFile` (which must not exist yet), with what the seeding
 * answered. The data is made once per run for each size and seed and copied: the copy is the
 * same database, keys included, so each file gets the data it always got, to change as it likes.
 */
export async function demoDatabase(dbFile: string, demo: DemoOptions): Promise<DemoSummary> {
  const template = await entry(`demo-${demo.reports}-${demo.seed}`, async (into) => {
    const service = openService(join(into, 'demo.sqlite'));
    try {
      writeFileSync(join(into, 'summary.json'), JSON.stringify(service.createDemoData(demo)));
    } finally {
      service.close();
    }
  });
  // The database and any journal beside it (closing leaves none today; a copy without one would be torn).
  for (const file of readdirSync(template)) {
    if (file.startsWith('demo.sqlite')) copyFileSync(join(template, file), dbFile + file.slice('demo.sqlite'.length));
  }
  return JSON.parse(readFileSync(join(template, 'summary.json'), 'utf8')) as DemoSummary;
}
