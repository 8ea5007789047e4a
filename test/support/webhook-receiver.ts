/**
 * A webhook receiver on 127.0.0.1 for tests: records every request and answers as the test
 * says, request by request (a status, headers, or never). Waiting is by event: `waitFor(n)`
 * resolves once n requests have arrived.
 */
import { once } from 'node:events';
import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  /** The request's path. */
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** What to answer: a status with headers, or `hang` to keep the request waiting until closed. */
export type Answer = { status: number; headers?: Record<string, string> } | 'hang';

export class Receiver {
  readonly received: Received[] = [];
  private waiters: { count: number; resolve: () => void }[] = [];

  private constructor(
    private readonly server: http.Server,
    readonly port: number,
  ) {}

  /** `answer(request, index)` decides each answer; the default is 204. `port` reopens a known port. */
  static async start(answer: (request: Received, index: number) => Answer = () => ({ status: 204 }), port = 0): Promise<Receiver> {
    let receiver: Receiver | undefined;
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const request = { path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
        const index = receiver!.received.push(request) - 1;
        const reply = answer(request, index);
        if (reply !== 'hang') res.writeHead(reply.status, reply.headers).end();
        receiver!.notify();
      });
    });
    server.listen(port, '127.0.0.1');
    await once(server, 'listening');
    receiver = new Receiver(server, (server.address() as AddressInfo).port);
    return receiver;
  }

  url(path = '/hook'): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  /** Resolves once `count` requests have arrived in all. */
  waitFor(count: number): Promise<Received[]> {
    return new Promise((resolve) => {
      const done = () => resolve(this.received.slice(0, count));
      if (this.received.length >= count) done();
      else this.waiters.push({ count, resolve: done });
    });
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private notify(): void {
    const ready = this.waiters.filter((w) => this.received.length >= w.count);
    this.waiters = this.waiters.filter((w) => this.received.length < w.count);
    for (const waiter of ready) waiter.resolve();
  }
}

/** A port that was free a moment ago and on which nothing listens now: a receiver that is down. */
export async function closedPort(): Promise<number> {
  const receiver = await Receiver.start();
  await receiver.close();
  return receiver.port;
}
