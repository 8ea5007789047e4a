/**
 * The pipeline: moves the reader's events through the processor into the sink. This thread
 * reads, scans and writes; with a worker, the worker parses, validates and computes the rows in
 * between. Until the worker is ready (it takes a moment to start), this thread processes the
 * events itself, so a worker never delays an import.
 */
import type { BundleReader, ScanEvent } from './bundle-reader';
import { ElementProcessor } from './element-processor';
import type { ImportSink } from './import-sink';
import type { BundleSource } from './index';
import { ParseWorker } from './parse-worker';

/** At most this many batches are with the worker at once: enough to overlap, little to hold. */
const BATCHES_IN_FLIGHT = 2;

export class Pipeline {
  /** Whether the worker processed any batch. */
  usedWorker = false;
  private worker: ParseWorker | null = null;
  private readonly local = new ElementProcessor();
  private inFlight = 0;
  private closed = false;

  constructor(parallel: boolean) {
    if (!parallel) return;
    void ParseWorker.start().then((worker) => {
      if (this.closed) worker?.close();
      else this.worker = worker;
    });
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
    while (this.inFlight > 0) await this.receive(sink);
  }

  close(): void {
    this.closed = true;
    this.worker?.close();
  }

  private async forward(events: ScanEvent[], sink: ImportSink): Promise<void> {
    if (events.length === 0 || sink.fatal) return;
    const worker = this.worker;
    if (worker === null) {
      this.local.buildRecords = sink.problemCount === 0;
      sink.applyAll(this.local.process(events));
      return;
    }
    this.usedWorker = true;
    worker.send(events);
    this.inFlight++;
    while (this.inFlight >= BATCHES_IN_FLIGHT) await this.receive(sink);
  }

  private async receive(sink: ImportSink): Promise<void> {
    const outcomes = await this.worker!.next();
    this.inFlight--;
    sink.applyAll(outcomes);
  }
}

function toBytes(chunk: Buffer | Uint8Array | string): Uint8Array {
  return typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
}
