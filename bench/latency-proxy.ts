/**
 * A slow link on loopback: a TCP proxy on 127.0.0.1 that holds every chunk for `oneWayMs` in
 * each direction before passing it on, so that a round trip (a request and its answer) costs
 * twice that, as a remote across a continent does, while bandwidth stays loopback's. Connection
 * set-up pays it too (the upstream connection opens only once the client's is there). Order
 * within a connection is kept: every chunk waits the same time, and timers of one duration fire
 * in the order they were set. The requests' Host header is rewritten to the target's, as a
 * LabelDesk service refuses requests addressed to another host; a header split across two
 * chunks would pass unchanged, which node's client, writing a request's head at once, does not do.
 */
import { once } from 'node:events';
import net, { type AddressInfo, type Socket } from 'node:net';

export class LatencyProxy {
  private readonly sockets = new Set<Socket>();
  private readonly timers = new Set<NodeJS.Timeout>();
  /** The Host header as the client sends it, and as the target wants it (lower case: node's client writes `Host`, compared without case). */
  private hostHeader: [Buffer, Buffer] = [Buffer.alloc(0), Buffer.alloc(0)];

  private constructor(
    private readonly server: net.Server,
    readonly port: number,
  ) {}

  /** A proxy to `targetUrl`'s host and port, listening on a free port of 127.0.0.1. */
  static async start(targetUrl: string, oneWayMs: number): Promise<LatencyProxy> {
    const target = new URL(targetUrl);
    let proxy!: LatencyProxy;
    const server = net.createServer((client) => proxy.connect(client, target, oneWayMs));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    proxy = new LatencyProxy(server, (server.address() as AddressInfo).port);
    proxy.hostHeader = [Buffer.from(`\r\nhost: 127.0.0.1:${proxy.port}\r\n`, 'latin1'), Buffer.from(`\r\nhost: ${target.host}\r\n`, 'latin1')];
    return proxy;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async close(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    for (const socket of this.sockets) socket.destroy();
    const closing = once(this.server, 'close');
    this.server.close();
    await closing;
  }

  private connect(client: Socket, target: URL, oneWayMs: number): void {
    const upstream = net.connect({ host: target.hostname, port: Number(target.port) });
    for (const socket of [client, upstream]) {
      socket.setNoDelay(true);
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
      socket.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    this.delayed(client, upstream, oneWayMs, (chunk) => this.readdressed(chunk));
    this.delayed(upstream, client, oneWayMs, (chunk) => chunk);
  }

  /** `chunk` with each Host header naming this proxy rewritten to name the target. */
  private readdressed(chunk: Buffer): Buffer {
    const [ours, theirs] = this.hostHeader;
    const lower = Buffer.from(chunk.toString('latin1').toLowerCase(), 'latin1');
    const parts: Buffer[] = [];
    let from = 0;
    for (let at = lower.indexOf(ours, from); at >= 0; at = lower.indexOf(ours, from)) {
      parts.push(chunk.subarray(from, at), theirs);
      from = at + ours.length;
    }
    if (from === 0) return chunk;
    parts.push(chunk.subarray(from));
    return Buffer.concat(parts);
  }

  /** Everything `from` sends reaches `to` `ms` later; an end too, after the last chunk. */
  private delayed(from: Socket, to: Socket, ms: number, rewrite: (chunk: Buffer) => Buffer): void {
    const later = (fn: () => void) => {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        fn();
      }, ms);
      this.timers.add(timer);
    };
    from.on('data', (chunk: Buffer) => {
      const passed = rewrite(chunk);
      later(() => to.destroyed || to.write(passed));
    });
    from.on('end', () => later(() => to.destroyed || to.end()));
  }
}
