/**
 * The parse worker: the processor in its own thread, so that parsing and validating overlap
 * reading and writing. `ParseWorker` is this thread's handle on it; `runWorker` is what runs in
 * the worker. The worker loads this very file; under tsx (the command line, the tests) it
 * registers tsx first, as workers do not inherit loaders.
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { parentPort, Worker } from 'node:worker_threads';
import type { ScanEvent } from './bundle-reader';
import { ElementProcessor, type Outcome } from './element-processor';

export class ParseWorker {
  private readonly queue: Outcome[][] = [];
  private failure: Error | null = null;
  private wake: (() => void) | null = null;
  private closed = false;

  private constructor(private readonly worker: Worker) {
    worker.on('message', (outcomes: Outcome[]) => {
      this.queue.push(outcomes);
      this.notify();
    });
    worker.on('error', (err) => {
      this.failure ??= err;
      this.notify();
    });
    worker.on('exit', (code) => {
      if (!this.closed) this.failure ??= new Error(`the import worker stopped unexpectedly (exit code ${code})`);
      this.notify();
    });
  }

  /** A ready worker, or null when none can be started here (the caller then works alone). */
  static async start(): Promise<ParseWorker | null> {
    let worker: Worker;
    try {
      worker = new Worker(bootstrapCode(), { eval: true, stdout: false, stderr: false });
    } catch {
      return null;
    }
    const ready = await new Promise<boolean>((resolve) => {
      worker.once('message', (m: unknown) => resolve((m as { ready?: boolean }).ready === true));
      worker.once('error', () => resolve(false));
      worker.once('exit', () => resolve(false));
    });
    if (!ready) {
      await worker.terminate();
      return null;
    }
    return new ParseWorker(worker);
  }

  /** Hands a batch over; its outcomes come back, in order, from `next`. */
  send(events: ScanEvent[]): void {
    this.worker.postMessage(events);
  }

  /** The outcomes of the oldest batch not yet received. */
  async next(): Promise<Outcome[]> {
    for (;;) {
      const outcomes = this.queue.shift();
      if (outcomes) return outcomes;
      if (this.failure) throw this.failure;
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    void this.worker.terminate();
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }
}

/** The worker's side: processes each batch it is sent and posts the outcomes back. */
export function runWorker(): void {
  const port = parentPort!;
  const processor = new ElementProcessor();
  port.on('message', (events: ScanEvent[]) => port.postMessage(processor.process(events)));
  port.postMessage({ ready: true });
}

/** The worker's script: load this file (through tsx when it is TypeScript) and run `runWorker`. */
function bootstrapCode(): string {
  const self = import.meta.url;
  const run = `.then((worker) => worker.runWorker());`;
  if (!/\.[cm]?ts$/.test(new URL(self).pathname)) return `import(${JSON.stringify(self)})${run}`;
  const require = createRequire(self);
  const tsxApi = pathToFileURL(require.resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs')).href;
  return `import(${JSON.stringify(tsxApi)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(self)}); })${run}`;
}
