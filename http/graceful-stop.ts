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
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** How long a stop waits for requests in flight before it cuts the remaining connections. */
export const SHUTDOWN_GRACE_MS = 30_000;

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

  /** Before the server listens, so that it sees every connection. */
  constructor(server: Server) {
    server.on('connection', (socket: Socket) => {
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
      await close();
    } finally {
      clearTimeout(timer);
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
