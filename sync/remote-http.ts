/**
 * One HTTP exchange with the remote over connections kept open between requests. A first
 * mirror asks for a list page and a retrieve per report, tens of thousands of small requests:
 * node's own http client on kept-alive connections costs a fraction of what `fetch` costs per
 * request, and the agent bounds how many connections the concurrent retrieves open.
 */
import http from 'node:http';
import https from 'node:https';

export interface Exchange {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

/** A failure before a whole answer arrived: no connection, a cut, or the deadline. */
export class ExchangeFailure extends Error {
  constructor(
    message: string,
    /** The answer had begun when it broke off. */
    readonly brokeOff: boolean,
  ) {
    super(message);
    this.name = 'ExchangeFailure';
  }
}

export class RemoteHttp {
  private readonly agent: http.Agent;
  private readonly client: typeof http | typeof https;

  constructor(
    private readonly base: URL,
    private readonly timeoutMs: number,
    /** Connections kept open at most. */
    maxSockets: number,
  ) {
    const secure = base.protocol === 'https:';
    const options = { keepAlive: true, maxSockets, scheduling: 'lifo' as const };
    this.agent = secure ? new https.Agent(options) : new http.Agent(options);
    this.client = secure ? https : http;
  }

  /** `path` with its query, after the base URL's own path. Resolves with any status; rejects with `ExchangeFailure`. */
  send(method: string, path: string, headers: Record<string, string>, body?: string): Promise<Exchange> {
    const payload = body === undefined ? undefined : Buffer.from(body, 'utf8');
    const url = new URL(this.base.pathname.replace(/\/+$/, '') + path, this.base);
    return new Promise<Exchange>((resolve, reject) => {
      let answered = false;
      let settled = false;
      const fail = (message: string) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        reject(new ExchangeFailure(message, answered));
      };
      const req = this.client.request(url, {
        method,
        agent: this.agent,
        headers: payload ? { ...headers, 'content-length': String(payload.length) } : headers,
      });
      const timer = setTimeout(() => {
        fail(`no answer within ${this.timeoutMs / 1000} s`);
        req.destroy();
      }, this.timeoutMs);
      req.on('error', (err: NodeJS.ErrnoException) => fail(networkMessage(err)));
      req.on('response', (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', (err: NodeJS.ErrnoException) => fail(networkMessage(err)));
        res.on('aborted', () => fail('the connection was reset'));
        res.on('end', () => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') });
        });
      });
      req.end(payload);
    });
  }

  /** Closes the connections kept open. */
  close(): void {
    this.agent.destroy();
  }
}

function networkMessage(err: NodeJS.ErrnoException): string {
  if (err.code === 'ECONNREFUSED') return 'the connection was refused (is it running?)';
  if (err.code === 'ENOTFOUND') return 'no such host';
  if (err.code === 'ECONNRESET' || err.message === 'socket hang up') return 'the connection was reset';
  return err.message;
}
