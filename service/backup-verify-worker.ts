/**
 * A copy's verification (service/backups.ts `verifyCopy`: integrity check, audit chains and
 * checkpoints, counts) on a worker thread of its own, so that the running service answers
 * requests meanwhile: read whole, a copy of 75 MB held the event loop for 0.9 s. `verifyOffThread`
 * is this thread's side; `runBackupVerifyWorker` is what runs in the worker, which loads this
 * very file (under tsx it registers tsx first, as workers do not inherit loaders; inside the
 * prebuilt command the bundle, which exports it). Where no worker can start (a bundle without
 * it), the verification runs on the calling thread.
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { parentPort, Worker } from 'node:worker_threads';
import type { BackupCounts } from '../db/backup';
import { verifyCopy, type Verification } from './backups';

interface Job {
  file: string;
  expected?: Partial<BackupCounts>;
  checkpoints: string | null;
}

export async function verifyOffThread(file: string, expected: Partial<BackupCounts> | undefined, checkpoints: string | null): Promise<Verification> {
  let worker: Worker;
  try {
    worker = new Worker(bootstrapCode(), { eval: true, stdout: false, stderr: false });
  } catch {
    return verifyCopy(file, expected, checkpoints);
  }
  try {
    const answer = await new Promise<{ ready?: boolean; result?: Verification; error?: string } | null>((resolve) => {
      worker.on('message', (m: { ready?: boolean; result?: Verification; error?: string }) => {
        if (m.ready) worker.postMessage({ file, expected, checkpoints } satisfies Job);
        else resolve(m);
      });
      worker.once('error', () => resolve(null));
      worker.once('exit', () => resolve(null));
    });
    if (answer?.result) return answer.result;
    if (answer?.error) return { ok: false, problems: [answer.error], inspection: null };
    // The worker could not run here: verify on this thread.
    return verifyCopy(file, expected, checkpoints);
  } finally {
    await worker.terminate();
  }
}

/** The worker's side: verifies the one copy it is sent and posts the result back. */
export function runBackupVerifyWorker(): void {
  const port = parentPort!;
  port.on('message', (job: Job) => {
    try {
      port.postMessage({ result: verifyCopy(job.file, job.expected, job.checkpoints) });
    } catch (err) {
      port.postMessage({ error: `the verification failed: ${(err as Error).message}` });
    }
  });
  port.postMessage({ ready: true });
}

/** The worker's script: load this file (through tsx when it is TypeScript) and run `runBackupVerifyWorker`. */
function bootstrapCode(): string {
  const self = import.meta.url;
  const run = `.then((worker) => worker.runBackupVerifyWorker());`;
  if (!/\.[cm]?ts$/.test(new URL(self).pathname)) return `import(${JSON.stringify(self)})${run}`;
  const require = createRequire(self);
  const tsxApi = pathToFileURL(require.resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs')).href;
  return `import(${JSON.stringify(tsxApi)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(self)}); })${run}`;
}
