/**
 * A stop that lets requests in flight finish. Node's `server.close()` closes "idle" connections
 * at once, and for Node a connection is idle as soon as `res.end()` was called, even while a
 * large response is still being written: that would cut off the very requests a stop must
 * finish. So connections are tracked here, and one with a response still going is closed only
 * once that response is sent.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** How long a stop waits for requests in flight before it cuts the remaining connections. */
export const SHUTDOWN_GRACE_MS = 30_000;

export class GracefulStop {
  private readonly pending = new Map<Socket, number>();
  private stopping = false;

  constructor(private readonly server: Server) {
    server.on('connection', (socket: Socket) => {
      if (!this.pending.has(socket)) this.pending.set(socket, 0);
      socket.once('close', () => this.pending.delete(socket));
    });
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      const socket = req.socket;
      this.pending.set(socket, (this.pending.get(socket) ?? 0) + 1);
      let done = false;
      const finished = () => {
        if (done) return;
        done = true;
        const left = (this.pending.get(socket) ?? 1) - 1;
        if (this.pending.has(socket)) this.pending.set(socket, left);
        if (this.stopping && left === 0) socket.end();
      };
      res.once('finish', finished);
      res.once('close', finished);
    });
    // server.close() calls this; only connections with nothing in flight are closed.
    server.closeIdleConnections = () => {
      for (const [socket, inFlight] of this.pending) if (inFlight === 0) socket.destroy();
    };
  }

  /** Runs `close` (which stops the server) with requests in flight given `graceMs` to finish. */
  async stop(close: () => Promise<void>, options: { graceMs?: number; onTimeout?: () => void } = {}): Promise<void> {
    this.stopping = true;
    const timer = setTimeout(() => {
      options.onTimeout?.();
      this.server.closeAllConnections();
    }, options.graceMs ?? SHUTDOWN_GRACE_MS);
    timer.unref();
    try {
      await close();
    } finally {
      clearTimeout(timer);
    }
  }
}
