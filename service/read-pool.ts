/**
 * The reads of service/reads.ts on a pool of worker threads, each with a read-only connection of
 * its own to the same file. better-sqlite3 answers synchronously, so on the main thread a page of
 * 100 000 reports, or a burst of writes, held up every other request; WAL lets these connections
 * read beside the one writer, which stays on the main thread.
 *
 * - Each worker runs the same read functions the rules have (LabelReportService, ReportCsvExport,
 *   InsightsService), one piece of work at a time: opening a list page or the list's CSV (the
 *   checks, ids and count), one batch of its chunks, one retrieve, one Insights figure. A streamed page stays on the worker that opened it (its ids are held there), but
 *   only one batch at a time: between two batches the worker serves anyone else.
 * - Each piece of work is its own read transaction, begun when it starts, so a read that starts
 *   after a write has answered sees that write (read-your-writes); no transaction stays open
 *   between two pieces.
 * - Work waits in one queue per caller (API key or session), taken round-robin: a caller who
 *   sends many heavy requests waits behind its own, and the others are served in turn. A request
 *   that waits longer than `waitMs` for a worker is answered 503 DATABASE_BUSY with Retry-After,
 *   never left hanging.
 * - Workers start when work first comes and more of them only while work waits (a test that lists
 *   once starts one). One that dies fails the work it held with a clean error and is replaced.
 *
 * Under tsx the worker registers tsx first, as workers do not inherit loaders; inside the
 * prebuilt command it loads the bundle, which exports `runReadWorker` (cli/bundle-entry.ts).
 */
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { pathToFileURL } from 'node:url';
import { parentPort, Worker, workerData } from 'node:worker_threads';
import { DataStore, DatabaseBusyError } from '../db/data-store';
import {
  ConflictError,
  ForbiddenError,
  InvalidInputError,
  NotFoundError,
  PermissionDeniedError,
  RoleForbiddenError,
  UnauthenticatedError,
  UnavailableError,
} from '../model/errors';
import type { ListQuery } from '../query/list-query';
import type { Permission } from '../schema/report';
import type { Caller } from './api-keys';
import { LabelReportService, type ReportRead } from './label-reports';
import { InsightsService } from './insights';
import { NOT_WANTED, type InsightsKind, type Reads, type StillWanted } from './reads';
import { ReportCsvExport } from './report-csv-export';
import type { ReviewCondition } from '../schema/review-list';
import { reportJson } from './report-json';
import { ReportWriter } from './report-writer';

/** How long a request waits for a read worker before its 503, by default: as long as a write waits for a busy database. */
export const READ_WAIT_MS = 10_000;
/** The Retry-After of a 503 for readers all busy. */
const READ_RETRY_AFTER_SECONDS = 2;
/** At most this many bytes of a page go in one batch: between two batches a worker serves others. */
const BATCH_BYTES = 128 * 1024;

/** Workers from the core count: one per core, at least 2 (one heavy read never holds up all), at most 8. */
export function defaultReaders(): number {
  return Math.max(2, Math.min(8, availableParallelism()));
}

export interface ReadPoolOptions {
  /** Workers at most (default defaultReaders()). */
  size?: number;
  /** How long a request waits for a worker before its 503 (default READ_WAIT_MS). */
  waitMs?: number;
  /** See OpenOptions.busyTimeoutMs: it blocks only the worker's thread. */
  busyTimeoutMs?: number;
  /** Told of each list and retrieve read (tests count them), as the rules tell of their own. */
  onRead?: (read: ReportRead) => void;
  /** The clock each read's reports are rendered at (the rules' own). */
  now?: () => Date;
  /** A worker asked to retrieve this report id dies in the middle: how tests see that the pool recovers. */
  dieOnRetrieveOf?: string;
}

type Work =
  | { op: 'list'; caller: Caller; query: ListQuery; wholeReportsBytes?: number }
  | { op: 'csv'; caller: Caller; query: ListQuery; review: readonly ReviewCondition[]; unset: readonly string[] }
  | { op: 'insights'; kind: InsightsKind; args: unknown[] }
  | { op: 'next'; stream: number }
  | { op: 'close'; stream: number }
  | { op: 'retrieve'; caller: Caller; id: string };

type ToWorker = Work & { job: number; nowMs: number };

interface WorkerError {
  name: string;
  code?: string;
  message: string;
  permission?: Permission;
  retryAfterSeconds?: number;
}

/** A piece of work's answer: a retrieve's JSON, a batch of a page, or a page opened. */
interface Answer {
  job: number;
  value?: string;
  /** An Insights answer; a CSV's count of reports. */
  result?: unknown;
  chunk?: Uint8Array;
  done?: boolean;
}

type FromWorker = { ready: true } | { read: ReportRead } | { job: number; error: WorkerError } | Answer;

interface Job {
  id: number;
  who: string;
  work: Work;
  /** The worker it must run on (a stream's batches); else any. */
  slot?: Slot;
  stillWanted?: StillWanted;
  timer?: NodeJS.Timeout;
  resolve(answer: (Answer & { slot: Slot }) | typeof NOT_WANTED): void;
  reject(err: unknown): void;
}

interface Slot {
  worker: Worker | null;
  ready: boolean;
  busy: Job | null;
  /** Set when the worker stops, so its `closed` flag is waited for. */
  closed: Int32Array;
}

/** Every worker is busy and the request waited its budget: nothing was read, try again. */
export class ReadersBusyError extends UnavailableError {
  constructor(waitedMs: number) {
    super(
      'DATABASE_BUSY',
      `every reader of the database was busy for ${Math.round(waitedMs / 1000)} s (other requests read large pages); nothing was changed, try again shortly`,
      READ_RETRY_AFTER_SECONDS,
    );
  }
}

/** The worker that held the read stopped; the pool starts another. */
export class ReaderFailedError extends UnavailableError {
  constructor() {
    super('READ_FAILED', 'the worker reading the database stopped in the middle of this read; nothing was changed, try again', 1);
  }
}

export class ReadPool implements Reads {
  private readonly slots: Slot[];
  private readonly waitMs: number;
  /** Queued work by caller, in the order the callers' turns come round. */
  private readonly queues = new Map<string, Job[]>();
  private nextJob = 1;
  private closed = false;

  constructor(
    private readonly file: string,
    private readonly options: ReadPoolOptions = {},
  ) {
    const size = Math.max(1, options.size ?? defaultReaders());
    this.slots = Array.from({ length: size }, () => ({ worker: null, ready: false, busy: null, closed: new Int32Array(new SharedArrayBuffer(4)) }));
    this.waitMs = options.waitMs ?? READ_WAIT_MS;
  }

  /** Workers running now (started lazily). */
  get started(): number {
    return this.slots.filter((s) => s.worker !== null).length;
  }

  async listJson(caller: Caller, q: ListQuery, wholeReportsBytes: number | undefined, stillWanted?: StillWanted) {
    const job = this.nextJob;
    const opened = await this.submit(caller, { op: 'list', caller, query: q, wholeReportsBytes }, undefined, stillWanted);
    if (opened === NOT_WANTED) return NOT_WANTED;
    return this.batches(caller, opened.slot, job);
  }

  async listCsv(caller: Caller, q: ListQuery, review: readonly ReviewCondition[], unset: readonly string[], stillWanted?: StillWanted) {
    const job = this.nextJob;
    const opened = await this.submit(caller, { op: 'csv', caller, query: q, review, unset }, undefined, stillWanted);
    if (opened === NOT_WANTED) return NOT_WANTED;
    return { reports: opened.result as number, chunks: this.batches(caller, opened.slot, job) };
  }

  async insights<K extends InsightsKind>(kind: K, args: Parameters<InsightsService[K]>, stillWanted?: StillWanted) {
    const answer = await this.submit(args[0], { op: 'insights', kind, args }, undefined, stillWanted);
    return answer === NOT_WANTED ? NOT_WANTED : (answer.result as ReturnType<InsightsService[K]>);
  }

  async retrieveJson(caller: Caller, id: string, stillWanted?: StillWanted) {
    const answer = await this.submit(caller, { op: 'retrieve', caller, id }, undefined, stillWanted);
    return answer === NOT_WANTED ? NOT_WANTED : (answer.value as string);
  }

  warm(): void {
    if (!this.closed && this.started === 0) this.start(this.slots[0]);
  }

  /** Stops the workers and waits until each has closed its connection: the writer, closed after, is the last. */
  close(): void {
    this.closed = true;
    for (const queue of this.queues.values()) for (const job of queue) this.fail(job, new ReaderFailedError());
    this.queues.clear();
    for (const slot of this.slots) {
      const worker = slot.worker;
      if (!worker) continue;
      slot.worker = null;
      if (slot.busy) this.fail(slot.busy, new ReaderFailedError());
      slot.busy = null;
      if (slot.ready) {
        worker.postMessage('stop');
        Atomics.wait(slot.closed, 0, 0, 2000);
      }
      void worker.terminate();
    }
  }

  /**
   * A page's chunks, a batch at a time from the worker that opened it. The next batch is asked for
   * as soon as one arrives, so the worker reads it while this one is written to the client: one
   * batch ahead, no more.
   */
  private async *batches(caller: Caller, slot: Slot, stream: number): AsyncGenerator<Buffer> {
    let done = false;
    let ahead: ReturnType<ReadPool['submit']> | null = this.submit(caller, { op: 'next', stream }, slot);
    try {
      while (ahead) {
        const answer = await ahead;
        ahead = null;
        if (answer === NOT_WANTED) return;
        done = answer.done === true;
        if (!done) {
          ahead = this.submit(caller, { op: 'next', stream }, slot);
          // Not awaited when the client goes first; the worker's failure is then nobody's answer.
          ahead.catch(() => {});
        }
        if (answer.chunk && answer.chunk.byteLength > 0) yield Buffer.from(answer.chunk.buffer, answer.chunk.byteOffset, answer.chunk.byteLength);
      }
    } finally {
      // Stopped early (the client went away): the worker lets go of the page's ids, after the batch it may still be reading.
      if (!done && slot.worker && !this.closed) void this.submit(caller, { op: 'close', stream }, slot).catch(() => {});
    }
  }

  private submit(caller: Caller, work: Work, slot?: Slot, stillWanted?: StillWanted): Promise<(Answer & { slot: Slot }) | typeof NOT_WANTED> {
    if (this.closed) return Promise.reject(new ReaderFailedError());
    return new Promise((resolve, reject) => {
      const job: Job = { id: this.nextJob++, who: caller.keyId, work, slot, stillWanted, resolve: resolve as Job['resolve'], reject };
      // A stream's batches are not timed: its answer has begun, and its turn comes round fairly.
      if (work.op !== 'next' && work.op !== 'close') {
        job.timer = setTimeout(() => {
          if (this.unqueue(job)) reject(new ReadersBusyError(this.waitMs));
        }, this.waitMs);
      }
      const queue = this.queues.get(job.who);
      if (queue) queue.push(job);
      else this.queues.set(job.who, [job]);
      this.pump();
    });
  }

  private unqueue(job: Job): boolean {
    const queue = this.queues.get(job.who);
    const at = queue?.indexOf(job) ?? -1;
    if (!queue || at < 0) return false;
    queue.splice(at, 1);
    if (queue.length === 0) this.queues.delete(job.who);
    return true;
  }

  /** The next job `slot` may run: the first of the next caller in turn that has one for it. */
  private take(slot: Slot): Job | undefined {
    for (const [who, queue] of this.queues) {
      const at = queue.findIndex((job) => job.slot === undefined || job.slot === slot);
      if (at < 0) continue;
      const [job] = queue.splice(at, 1);
      // The caller's turn is over: it goes to the back of the round.
      this.queues.delete(who);
      if (queue.length > 0) this.queues.set(who, queue);
      return job;
    }
    return undefined;
  }

  private pump(): void {
    for (const slot of this.slots) {
      while (slot.ready && slot.busy === null) {
        const job = this.take(slot);
        if (!job) break;
        this.dispatch(slot, job);
      }
    }
    // More workers only while work waits that none starting will take.
    let waiting = 0;
    for (const queue of this.queues.values()) waiting += queue.filter((job) => job.slot === undefined).length;
    let starting = this.slots.filter((s) => s.worker !== null && !s.ready).length;
    for (const slot of this.slots) {
      if (waiting <= starting) break;
      if (slot.worker !== null) continue;
      this.start(slot);
      starting++;
    }
  }

  private dispatch(slot: Slot, job: Job): void {
    clearTimeout(job.timer);
    if (job.stillWanted && !job.stillWanted()) {
      job.resolve(NOT_WANTED);
      return;
    }
    slot.busy = job;
    const now = this.options.now?.() ?? new Date();
    slot.worker!.postMessage({ ...job.work, job: job.id, nowMs: now.getTime() } satisfies ToWorker);
  }

  private start(slot: Slot): void {
    Atomics.store(slot.closed, 0, 0);
    const worker = new Worker(bootstrapCode(), {
      eval: true,
      workerData: { file: this.file, busyTimeoutMs: this.options.busyTimeoutMs, dieOnRetrieveOf: this.options.dieOnRetrieveOf, closed: slot.closed },
    });
    slot.worker = worker;
    slot.ready = false;
    worker.on('message', (message: FromWorker) => {
      if (slot.worker !== worker) return;
      if ('ready' in message) {
        slot.ready = true;
        this.pump();
        return;
      }
      if ('read' in message) {
        this.options.onRead?.(message.read);
        return;
      }
      const job = slot.busy;
      if (!job || job.id !== message.job) return;
      slot.busy = null;
      if ('error' in message) job.reject(rebuilt(message.error));
      else job.resolve({ ...message, slot });
      this.pump();
    });
    const died = () => {
      if (slot.worker !== worker) return;
      slot.worker = null;
      slot.ready = false;
      const busy = slot.busy;
      slot.busy = null;
      if (busy) this.fail(busy, new ReaderFailedError());
      // Its streams are gone with it.
      for (const queue of [...this.queues.values()]) {
        for (const job of queue.filter((j) => j.slot === slot)) {
          this.unqueue(job);
          this.fail(job, new ReaderFailedError());
        }
      }
      if (!this.closed) this.pump();
    };
    worker.once('error', died);
    worker.once('exit', died);
  }

  private fail(job: Job, err: Error): void {
    clearTimeout(job.timer);
    job.reject(err);
  }
}

/** A refusal or fault thrown in the worker, as the error of the same kind here, so it is answered the same way. */
function rebuilt(e: WorkerError): Error {
  const code = e.code ?? 'READ_FAILED';
  switch (e.name) {
    case 'NotFoundError':
      return new NotFoundError(code, e.message);
    case 'InvalidInputError':
      return new InvalidInputError(code, e.message);
    case 'PermissionDeniedError':
      return new PermissionDeniedError(e.permission!);
    case 'RoleForbiddenError':
      return new RoleForbiddenError(e.message);
    case 'ForbiddenError':
      return new ForbiddenError(code, e.message);
    case 'ConflictError':
      return new ConflictError(code, e.message);
    case 'UnauthenticatedError':
      return new UnauthenticatedError(code, e.message);
    case 'UnavailableError':
      return new UnavailableError(code, e.message, e.retryAfterSeconds);
    case 'DatabaseBusyError':
      return new DatabaseBusyError(e.message);
    default:
      return new Error(`a read failed in its worker: ${e.message}`);
  }
}

/** The worker's side: one read-only connection, the rules' read functions, one message at a time. */
export function runReadWorker(): void {
  const port = parentPort!;
  const setup = workerData as { file: string; busyTimeoutMs?: number; dieOnRetrieveOf?: string; closed: Int32Array };
  const data = DataStore.openReader(setup.file, { busyTimeoutMs: setup.busyTimeoutMs });
  let nowMs = Date.now();
  const now = () => new Date(nowMs);
  // The writer is never asked to write here: the reads only load through it.
  const reports = new LabelReportService(data, new ReportWriter(data, now), now, (read) => port.postMessage({ read } satisfies FromWorker));
  const csv = new ReportCsvExport(data);
  const insights = new InsightsService(data);
  const streams = new Map<number, Iterator<Buffer | string>>();
  port.on('message', (message: ToWorker | 'stop') => {
    if (message === 'stop') {
      for (const stream of streams.values()) stream.return?.();
      data.close();
      Atomics.store(setup.closed, 0, 1);
      Atomics.notify(setup.closed, 0);
      port.close();
      return;
    }
    nowMs = message.nowMs;
    try {
      switch (message.op) {
        case 'list': {
          const chunks = reports.listJson(message.caller, message.query, message.wholeReportsBytes);
          streams.set(message.job, chunks[Symbol.iterator]());
          port.postMessage({ job: message.job } satisfies FromWorker);
          break;
        }
        case 'csv': {
          const table = csv.table(message.caller, message.query, message.review, message.unset);
          streams.set(message.job, table[Symbol.iterator]());
          port.postMessage({ job: message.job, result: table.reports } satisfies FromWorker);
          break;
        }
        case 'insights': {
          const read = insights[message.kind] as (...args: unknown[]) => unknown;
          port.postMessage({ job: message.job, result: read.apply(insights, message.args) } satisfies FromWorker);
          break;
        }
        case 'next': {
          const stream = streams.get(message.stream);
          const parts: Buffer[] = [];
          let bytes = 0;
          let done = stream === undefined;
          while (!done && bytes < BATCH_BYTES) {
            const step = stream!.next();
            if (step.done) done = true;
            else {
              const part = typeof step.value === 'string' ? Buffer.from(step.value, 'utf8') : step.value;
              parts.push(part);
              bytes += part.length;
            }
          }
          if (done) streams.delete(message.stream);
          // Copied once into a buffer of its own, whose memory moves to the main thread without another copy.
          const chunk = new Uint8Array(bytes);
          let at = 0;
          for (const part of parts) {
            chunk.set(part, at);
            at += part.length;
          }
          port.postMessage({ job: message.job, chunk, done } satisfies FromWorker, [chunk.buffer]);
          break;
        }
        case 'close':
          streams.get(message.stream)?.return?.();
          streams.delete(message.stream);
          port.postMessage({ job: message.job, done: true } satisfies FromWorker);
          break;
        case 'retrieve':
          if (message.id === setup.dieOnRetrieveOf) process.exit(1);
          port.postMessage({ job: message.job, value: reportJson(reports.retrieveDocument(message.caller, message.id)) } satisfies FromWorker);
          break;
      }
    } catch (err) {
      if (message.op === 'next') streams.delete(message.stream);
      const e = err as Partial<WorkerError> & Error;
      port.postMessage({
        job: message.job,
        error: { name: e?.name ?? 'Error', code: e?.code, message: e?.message ?? String(err), permission: e?.permission, retryAfterSeconds: e?.retryAfterSeconds },
      } satisfies FromWorker);
    }
  });
  port.postMessage({ ready: true } satisfies FromWorker);
}

/** The worker's script: load this file (through tsx when it is TypeScript) and run `runReadWorker`. */
function bootstrapCode(): string {
  const self = import.meta.url;
  const run = `.then((pool) => pool.runReadWorker());`;
  if (!/\.[cm]?ts$/.test(new URL(self).pathname)) return `import(${JSON.stringify(self)})${run}`;
  const require = createRequire(self);
  const tsxApi = pathToFileURL(require.resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs')).href;
  return `import(${JSON.stringify(tsxApi)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(self)}); })${run}`;
}
