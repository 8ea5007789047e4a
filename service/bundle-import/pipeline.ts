/**
 * The pipeline: moves the reader's events through the processor into the sink. This thread
 * reads, scans and writes; with workers, they parse, validate and compute the rows in between,
 * each a batch at a time, and their outcomes are applied in the order the batches were sent.
 * Until a worker is ready (it takes a moment to start), this thread processes the events
 * itself, so a worker never delays an import.
 */
import { availableParallelism } from 'node:os';
import type { BundleReader, ScanEvent } from './bundle-reader';
import { ElementProcessor } from './element-processor';
import type { ImportSink } from './import-sink';
import type { BundleSource } from './index';
import { ParseWorker } from './parse-worker';

/** Batches with each worker at once: one being processed, one waiting, so it never idles. */
const BATCHES_PER_WORKER = 2;
/**
 * Parsing and validating cost several times what scanning and staging cost on this thread, so
 * every core gets a worker (this thread mostly waits on them), two at most: past that the
 * writing thread is the bottleneck.
 */
export const PARSE_WORKERS = Math.max(1, Math.min(2, availableParallelism()));

export class Pipeline {
  /** Whether a worker processed any batch. */
  usedWorker = false;
  private readonly workers: ParseWorker[] = [];
  private readonly local = new ElementProcessor();
  /** The worker of each batch sent and not yet received, oldest first. */
  private readonly inFlight: ParseWorker[] = [];
  private next = 0;
  private closed = false;

  constructor(parallel: boolean) {
    if (!parallel) return;
    for (let i = 0; i < PARSE_WORKERS; i++) {
      void ParseWorker.start().then((worker) => {
        if (worker === null) return;
        if (this.closed) worker.close();
        else this.workers.push(worker);
      });
    }
  }

  /** Reads the whole source, or up to the first problem that stops reading (`fatal`). */
  async run(reader: BundleReader, source: BundleSource, sink: ImportSink): Promise<void> {
    for await (const chunk of source) {
      reader.push(toBytes(chunk));
      await this.forward(reader.take(), sink);
      if (sink.fatal || reader.fatal) break;
    }
    if (!sink.fatal && !reader.fatal) reader.end();
    await this.forward(reader.take(), sink);
    while (this.inFlight.length > 0) await this.receive(sink);
  }

  close(): void {
    this.closed = true;
    for (const worker of this.workers) worker.close();
  }

  private async forward(events: ScanEvent[], sink: ImportSink): Promise<void> {
    if (events.length === 0 || sink.fatal) return;
    if (this.workers.length === 0) {
      // Outcomes of batches already with a worker come first: they are earlier in the bundle.
      while (this.inFlight.length > 0) await this.receive(sink);
      this.local.buildRecords = sink.problemCount === 0;
      sink.applyAll(this.local.process(events));
      return;
    }
    this.usedWorker = true;
    const worker = this.workers[this.next++ % this.workers.length];
    worker.send(events);
    this.inFlight.push(worker);
    while (this.inFlight.length >= BATCHES_PER_WORKER * this.workers.length) await this.receive(sink);
  }

  private async receive(sink: ImportSink): Promise<void> {
    const outcomes = await this.inFlight[0].next();
    this.inFlight.shift();
    sink.applyAll(outcomes);
  }
}

function toBytes(chunk: Buffer | Uint8Array | string): Uint8Array {
  return typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
}
