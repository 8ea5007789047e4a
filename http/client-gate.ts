/**
 * Database work only for a client that is still there.
 *
 * better-sqlite3 answers synchronously, so while one request reads, the others wait in the event
 * loop; a table being scrolled abandons most of the pages it asked for (the browser closes their
 * connections). So the reads of list and retrieve, and each chunk of a streamed page, wait their
 * turn here, first come first served, one piece of work per turn of the event loop, and run only
 * if their client is still connected. Between two turns Node polls the sockets, so a client that
 * went away while its request waited is known to be gone before that request's turn comes: a
 * burst of abandoned requests is dropped without a query and the next live one is answered at once.
 *
 * Gone means the connection is closed or closing: Node destroys the socket when its client closes
 * it, and a client that only half-closes gets the connection ended. (`request.raw`'s 'close' is no
 * sign: it also fires once a request body has been read.)
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { waitForDatabase } from '../db/busy';
import { NOT_WANTED } from '../service/reads';

/** What `run` answers when the client went away before the work's turn: the work did not run. */
export const CLIENT_GONE: unique symbol = Symbol('client gone');

export function clientGone(request: FastifyRequest): boolean {
  const socket = request.raw.socket;
  // Compared with true and false: `inject`'s stand-in socket has neither property, and its client stays.
  return !socket || socket.destroyed === true || socket.writable === false;
}

/** The error that stops a streamed answer whose client went away between two chunks. */
export class ClientGoneError extends Error {
  constructor() {
    super('the client closed the connection');
    this.name = 'ClientGoneError';
  }
}

interface Waiting {
  request: FastifyRequest;
  work: () => unknown;
  /** The turn during which it arrived: it runs in a later one, after the sockets were polled. */
  arrivedInTurn: number;
  resolve(value: unknown): void;
  reject(err: unknown): void;
}

export class ClientGate {
  private readonly waiting: Waiting[] = [];
  private turn = 0;
  private scheduled = false;

  /** onAbandoned: told of each request whose work was dropped because its client had gone (tests watch it). */
  constructor(private readonly onAbandoned: (request: FastifyRequest) => void = () => {}) {}

  /** Runs `work` at its turn if the client still waits; else CLIENT_GONE, and nothing ran. */
  run<T>(request: FastifyRequest, work: () => T): Promise<T | typeof CLIENT_GONE> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ request, work, arrivedInTurn: this.turn, resolve: resolve as (value: unknown) => void, reject });
      this.schedule();
    });
  }

  /**
   * The chunks of a streamed answer, each taken at its turn while the client reads; when the
   * client has gone the stream fails with ClientGoneError and no further chunk is taken.
   */
  async *stream<T>(request: FastifyRequest, chunks: Iterable<T>): AsyncGenerator<T> {
    const iterator = chunks[Symbol.iterator]();
    let ended = false;
    try {
      for (;;) {
        const step = await this.run(request, () => iterator.next());
        if (step === CLIENT_GONE) {
          ended = true; // run told onAbandoned
          throw new ClientGoneError();
        }
        if (step.done) {
          ended = true;
          return;
        }
        yield step.value;
      }
    } finally {
      iterator.return?.();
      // Closed early by the answer: its connection closed while it waited for the client to read.
      if (!ended) this.onAbandoned(request);
    }
  }

  /**
   * The chunks of an answer read elsewhere (service/reads.ts), each taken while the client still
   * reads; when the client has gone the stream fails with ClientGoneError and no further chunk is read.
   */
  async *streamFrom<T>(request: FastifyRequest, chunks: AsyncIterable<T>): AsyncGenerator<T> {
    const iterator = chunks[Symbol.asyncIterator]();
    let ended = false;
    try {
      for (;;) {
        if (clientGone(request)) {
          ended = true;
          this.onAbandoned(request);
          throw new ClientGoneError();
        }
        const step = await iterator.next();
        if (step.done) {
          ended = true;
          return;
        }
        yield step.value;
      }
    } finally {
      await iterator.return?.();
      if (!ended) this.onAbandoned(request);
    }
  }

  /**
   * A read done elsewhere (a read worker, service/read-pool.ts), for a client still there. A free
   * worker would take it the moment it arrives, before Node has seen that its client closed the
   * connection in the same breath; so it is handed over only once the sockets have been polled
   * since it arrived, and again not run if its client went while it waited for a worker.
   */
  async readElsewhere<T>(request: FastifyRequest, read: (stillWanted: () => boolean) => Promise<T | typeof NOT_WANTED>): Promise<T | typeof CLIENT_GONE> {
    await afterNextPoll();
    const result = clientGone(request) ? NOT_WANTED : await read(() => !clientGone(request));
    if (result !== NOT_WANTED) return result as T;
    this.onAbandoned(request);
    return CLIENT_GONE;
  }

  /**
   * Aborts when the client goes away: for work that waits in steps of its own (a write waiting
   * for a busy database). Tells onAbandoned when it aborts.
   */
  signal(request: FastifyRequest, reply: FastifyReply): AbortSignal {
    const controller = new AbortController();
    const abandon = () => {
      if (controller.signal.aborted) return;
      controller.abort(new ClientGoneError());
      this.onAbandoned(request);
    };
    if (clientGone(request)) {
      abandon();
      return controller.signal;
    }
    const socket = request.raw.socket;
    socket.once('close', abandon);
    socket.once('end', abandon);
    // A kept-alive connection serves more requests: the listeners go once this one is answered.
    reply.raw.once('finish', () => {
      socket.off('close', abandon);
      socket.off('end', abandon);
    });
    return controller.signal;
  }

  /** Sends what `read` returns at its turn; when the client has gone, nothing ran and nothing is sent. */
  async answer<T>(request: FastifyRequest, reply: FastifyReply, read: () => T): Promise<FastifyReply> {
    const result = await this.run(request, read);
    return result === CLIENT_GONE ? this.abandon(request, reply) : reply.send(result);
  }

  /** A write that waits up to budgetMs for a busy database, and stops waiting when its client goes. */
  write<T>(request: FastifyRequest, reply: FastifyReply, work: () => T, budgetMs: number): Promise<T> {
    return waitForDatabase(work, budgetMs, this.signal(request, reply));
  }

  /** Sends nothing for a request `run` answered CLIENT_GONE, and lets its connection go. */
  abandon(request: FastifyRequest, reply: FastifyReply): FastifyReply {
    request.raw.socket.destroy();
    return reply.hijack();
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => this.runNext());
  }

  private runNext(): void {
    this.scheduled = false;
    this.turn++;
    while (this.waiting.length > 0 && this.waiting[0].arrivedInTurn < this.turn - 1) {
      const next = this.waiting.shift()!;
      if (clientGone(next.request)) {
        this.onAbandoned(next.request);
        next.resolve(CLIENT_GONE);
        continue;
      }
      try {
        next.resolve(next.work());
      } catch (err) {
        next.reject(err);
      }
      break;
    }
    if (this.waiting.length > 0) this.schedule();
  }
}

/** Resolves after the event loop has polled its sockets once more: a setImmediate runs after this turn's poll, the second after the next one. */
function afterNextPoll(): Promise<void> {
  return new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
}
