/**
 * A stop that finishes what clients already sent. Node's `server.close()` closes "idle"
 * connections at once, and so loses requests of two kinds:
 * - one a client has sent on a keep-alive connection that the server has not read yet (it
 *   arrived with the stop): for Node that connection is idle;
 * - a large response still being written: for Node a connection is idle as soon as `res.end()`
 *   was called.
 * So here, once the listener is closed, open connections stay open while any response is owed,
 * each response not yet begun says `connection: close` (its client sends nothing more on that
 * connection), and the connections are closed only when nothing is owed after a whole turn of
 * the event loop, in which everything clients had sent has been read.
 *
 * Nor is the listener closed at once. Connections the system had completed before the stop wait
 * in its backlog with their requests already sent, and closing the listener resets them. Node
 * accepts about one of them a turn of the event loop while requests keep it busy, so the stop
 * keeps accepting until a whole turn accepts none, and only then closes the listener; what those
 * connections carry is answered with `connection: close`. The backlog holds at most
 * LISTEN_BACKLOG connections, so after that many the rest are new ones, and the listener closes
 * even while a flood of them goes on.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** How long a stop waits for requests in flight before it cuts the remaining connections. */
export const SHUTDOWN_GRACE_MS = 30_000;

/** The listener's backlog: Node's default, which the service's listen keeps. */
export const LISTEN_BACKLOG = 511;

export interface StopOptions {
  graceMs?: number;
  /** The grace period is over: the remaining connections are cut now. */
  onTimeout?: () => void;
  /** New connections are refused from now on; `inFlight` responses are still owed. */
  onDraining?: (inFlight: number) => void;
}

export class GracefulStop {
  private readonly connections = new Set<Socket>();
  /** Responses owed: requests read and not yet fully answered. */
  private readonly owed = new Set<ServerResponse>();
  private stopping: StopOptions | undefined;
  private listening = true;
  /** Connections accepted so far, those dropped over the limit included. */
  private accepted = 0;

  /** Before the server listens, so that it sees every connection. */
  constructor(server: Server) {
    server.on('drop', () => this.accepted++);
    server.on('connection', (socket: Socket) => {
      this.accepted++;
      this.connections.add(socket);
      socket.once('close', () => this.connections.delete(socket));
    });
    server.on('request', (_request: IncomingMessage, response: ServerResponse) => {
      this.owed.add(response);
      if (this.stopping) response.shouldKeepAlive = false;
      response.once('close', () => {
        this.owed.delete(response);
        if (!this.listening && this.owed.size === 0) afterOneTurn(() => this.closeConnectionsIfDone());
      });
    });
    // server.close() calls this as it stops listening.
    server.closeIdleConnections = () => {
      this.listening = false;
      afterOneTurn(() => {
        this.stopping?.onDraining?.(this.owed.size);
        this.closeConnectionsIfDone();
      });
    };
  }

  /** Runs `close` (which closes the server) with requests in flight given `graceMs` to finish. */
  async stop(close: () => Promise<void>, options: StopOptions = {}): Promise<void> {
    this.stopping = options;
    for (const response of this.owed) if (!response.headersSent) response.shouldKeepAlive = false;
    const timer = setTimeout(() => {
      options.onTimeout?.();
      for (const socket of this.connections) socket.destroy();
    }, options.graceMs ?? SHUTDOWN_GRACE_MS);
    timer.unref();
    try {
      await this.acceptBacklog();
      await close();
    } finally {
      clearTimeout(timer);
    }
  }

  /** Resolves once a whole turn of the event loop accepted no connection, or a whole backlog was taken. */
  private async acceptBacklog(): Promise<void> {
    const atStop = this.accepted;
    for (;;) {
      const before = this.accepted;
      await new Promise<void>((resolve) => afterOneTurn(resolve));
      if (this.accepted === before || this.accepted - atStop >= LISTEN_BACKLOG) return;
    }
  }

  /** A request read meanwhile owes a response again; when that is sent, this runs once more. */
  private closeConnectionsIfDone(): void {
    if (this.owed.size > 0) return;
    for (const socket of this.connections) socket.destroy();
  }
}

/**
 * Runs `then` after a whole turn of the event loop: its poll phase reads whatever clients had
 * sent by now, so when nothing is owed after it, nothing had been sent.
 */
function afterOneTurn(then: () => void): void {
  setImmediate(() => setImmediate(then));
}
