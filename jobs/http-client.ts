/**
 * The one HTTP client of background work (sync with a remote, webhook delivery, alarm
 * e-mails' kin): node's own http on connections kept open between requests (a first mirror
 * makes tens of thousands of small requests, a webhook receiver gets message after message),
 * a deadline per exchange, an AbortSignal, and a cap on the answer's size, counted as it
 * streams in, so that a server answering without end cannot fill the memory.
 *
 * Where the connection may go is the caller's to say: `lookup` vets what DNS answers and
 * `vetSocket` the address actually connected to, before any of the request's body leaves.
 */
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction, Socket } from 'node:net';

/** What an answer may weigh unless the client is told otherwise. */
export const DEFAULT_MAX_ANSWER_BYTES = 64 * 1024 * 1024;

export interface HttpClientOptions {
  /** The deadline of one exchange, from sending to the answer's end. */
  timeoutMs: number;
  /** The most bytes of an answer's body read; past it the exchange fails with `AnswerTooLarge`. */
  maxAnswerBytes?: number;
  /** Connections kept open per host. */
  maxSockets?: number;
  /** DNS, vetted (webhooks/target-guard.ts). */
  lookup?: LookupFunction;
  /** Called once a connection is there and before the request's body is sent; an error refuses it. */
  vetSocket?: (socket: Socket) => Error | null;
}

export interface HttpRequest {
  url: URL;
  method: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Cuts the exchange short: it fails with kind 'aborted'. */
  signal?: AbortSignal;
  /**
   * Only the status and headers count: the promise resolves as soon as they arrive, and the
   * body is read to its end (within the deadline and the cap, silently) only so that the
   * connection can carry the next request.
   */
  discardBody?: boolean;
  /**
   * Sees each chunk of the answer's body as it arrives (jobs/json-budget.ts); a reason it
   * returns cuts the exchange there, failing with kind 'shape'.
   */
  inspect?: (chunk: Buffer) => string | null;
}

export interface HttpAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** Empty when the body was discarded. */
  body: Buffer;
}

export type HttpFailureKind = 'network' | 'timeout' | 'aborted' | 'too-large' | 'shape';

/** Every way an exchange fails before a whole answer is in. */
export class HttpFailure extends Error {
  constructor(
    readonly kind: HttpFailureKind,
    message: string,
    /** The answer had begun when it broke off. */
    readonly brokeOff: boolean,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'HttpFailure';
  }
}

export class HttpClient {
  readonly timeoutMs: number;
  readonly maxAnswerBytes: number;
  private readonly agents: { 'http:': http.Agent; 'https:': https.Agent };

  constructor(private readonly options: HttpClientOptions) {
    this.timeoutMs = options.timeoutMs;
    this.maxAnswerBytes = options.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES;
    const agentOptions = { keepAlive: true, maxSockets: options.maxSockets ?? 8, scheduling: 'lifo' as const };
    this.agents = { 'http:': new http.Agent(agentOptions), 'https:': new https.Agent(agentOptions) };
  }

  /** Resolves with any status; rejects with `HttpFailure`. */
  request(request: HttpRequest): Promise<HttpAnswer> {
    const { url, signal } = request;
    const protocol = url.protocol;
    if (protocol !== 'http:' && protocol !== 'https:') {
      return Promise.reject(new HttpFailure('network', `'${url.href}' is neither http nor https`, false));
    }
    const payload = request.body === undefined ? undefined : Buffer.isBuffer(request.body) ? request.body : Buffer.from(request.body, 'utf8');
    const headers = { ...request.headers };
    if (payload) headers['content-length'] = String(payload.length);

    return new Promise<HttpAnswer>((resolve, reject) => {
      let answered = false;
      let settled = false;
      const settle = (outcome: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        outcome();
      };
      const fail = (failure: HttpFailure) => {
        settle(() => reject(failure));
        req.destroy();
      };
      const client = protocol === 'https:' ? https : http;
      const req = client.request(url, {
        method: request.method,
        agent: this.agents[protocol],
        headers,
        ...(this.options.lookup ? { lookup: this.options.lookup } : {}),
      });
      const timer = setTimeout(() => fail(new HttpFailure('timeout', `no answer within ${this.timeoutMs / 1000} s`, answered)), this.timeoutMs);
      const onAbort = () => fail(new HttpFailure('aborted', 'the request was stopped', answered, { cause: signal?.reason }));
      signal?.addEventListener('abort', onAbort);

      req.on('error', (err: Error) => {
        if (!settled) settle(() => reject(new HttpFailure('network', err.message, answered, { cause: err })));
      });
      req.on('response', (res) => {
        answered = true;
        const status = res.statusCode ?? 0;
        const declared = Number(res.headers['content-length']);
        if (request.discardBody) {
          settle(() => resolve({ status, headers: res.headers, body: Buffer.alloc(0) }));
          this.drain(res);
          return;
        }
        if (declared > this.maxAnswerBytes) return fail(this.tooLarge(`says it is ${declared} bytes`));
        // With its length said, the body goes straight into one buffer of that length: a large
        // answer is not held twice, once in pieces and once joined.
        const whole = Number.isSafeInteger(declared) && declared >= 0 ? Buffer.allocUnsafe(declared) : null;
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          if (settled) return;
          const refusal = request.inspect?.(chunk) ?? null;
          if (refusal !== null) {
            chunks.length = 0;
            fail(new HttpFailure('shape', refusal, true));
            res.destroy();
            return;
          }
          if (size + chunk.length > this.maxAnswerBytes || (whole && size + chunk.length > whole.length)) {
            chunks.length = 0;
            fail(whole && size + chunk.length > whole.length ? new HttpFailure('network', 'the answer went on past the length it said', true) : this.tooLarge(`went on past it`));
            res.destroy();
            return;
          }
          if (whole) chunk.copy(whole, size);
          else chunks.push(chunk);
          size += chunk.length;
        });
        res.on('error', (err: Error) => fail(new HttpFailure('network', err.message, true, { cause: err })));
        res.on('aborted', () => fail(new HttpFailure('network', 'the connection was reset', true)));
        res.on('end', () => settle(() => resolve({ status, headers: res.headers, body: whole ? whole.subarray(0, size) : Buffer.concat(chunks) })));
      });

      if (signal?.aborted) return onAbort();
      const vet = this.options.vetSocket;
      if (!vet) {
        req.end(payload);
        return;
      }
      req.on('socket', (socket: Socket) => {
        const send = () => {
          const refusal = vet(socket);
          if (refusal) req.destroy(refusal);
          else req.end(payload);
        };
        if (socket.connecting) socket.once('connect', send);
        else send();
      });
    });
  }

  /** Closes the connections kept open for later requests. */
  close(): void {
    this.agents['http:'].destroy();
    this.agents['https:'].destroy();
  }

  private tooLarge(how: string): HttpFailure {
    return new HttpFailure('too-large', `the answer is larger than the ${formatBytes(this.maxAnswerBytes)} an answer may have (maxAnswerBytes): it ${how}`, true);
  }

  /** Reads a discarded body to its end so its connection can be kept; a body past the cap or the deadline costs the connection instead. */
  private drain(res: http.IncomingMessage): void {
    let drained = 0;
    const cut = setTimeout(() => res.destroy(), this.timeoutMs);
    res.on('data', (chunk: Buffer) => {
      drained += chunk.length;
      if (drained > this.maxAnswerBytes) res.destroy();
    });
    res.on('close', () => clearTimeout(cut));
    res.on('error', () => {});
  }
}

export function formatBytes(bytes: number): string {
  for (const [unit, size] of [['GiB', 2 ** 30], ['MiB', 2 ** 20], ['KiB', 2 ** 10]] as const) {
    if (bytes >= size && bytes % size === 0) return `${bytes / size} ${unit}`;
  }
  return `${bytes} bytes`;
}
