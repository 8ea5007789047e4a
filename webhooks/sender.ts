/**
 * One delivery attempt over HTTP (Standard Webhooks): a POST of the message's exact body with
 * its id, timestamp and signature headers. A 2xx within the timeout is a success; anything else,
 * a redirect included (it is never followed: a 3xx could point anywhere), is a failure with a
 * reason a person can read in the deliveries log.
 */
import http from 'node:http';
import https from 'node:https';
import type { Socket } from 'node:net';
import { VERSION } from '../contract/version';
import { guardedLookup, RefusedTargetError, refusedAddress, refusedUrl, systemResolve, type Resolve } from './target-guard';

export const DEFAULT_TIMEOUT_MS = 15_000;
export const USER_AGENT = `LabelDesk/${VERSION}`;
/** A receiver that keeps answering is cut off after this much body: only its status counts. */
const MAX_DRAIN_BYTES = 1024 * 1024;

export interface SendRequest {
  url: string;
  messageId: string;
  /** Unix seconds of this attempt. */
  timestamp: number;
  signature: string;
  body: string;
}

export interface SendResult {
  ok: boolean;
  /** The answer's status; null when none came. */
  status: number | null;
  /** Why it failed; null on success. */
  error: string | null;
  /** The answer's Retry-After header, as sent. */
  retryAfter: string | undefined;
  durationMs: number;
}

export interface SenderOptions {
  timeoutMs?: number;
  resolve?: Resolve;
  /** Connections kept open per receiver, for the next messages. */
  maxSockets?: number;
}

export class WebhookSender {
  private readonly timeoutMs: number;
  private readonly lookup: ReturnType<typeof guardedLookup>;
  private readonly agents: { 'http:': http.Agent; 'https:': https.Agent };

  constructor(options: SenderOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.lookup = guardedLookup(options.resolve ?? systemResolve);
    const agentOptions = { keepAlive: true, maxSockets: options.maxSockets ?? 8, scheduling: 'lifo' as const };
    this.agents = { 'http:': new http.Agent(agentOptions), 'https:': new https.Agent(agentOptions) };
  }

  /** Never rejects: every way an attempt can end is a result. `signal` cuts it short (a stop). */
  send(request: SendRequest, signal?: AbortSignal): Promise<SendResult> {
    const started = performance.now();
    const result = (status: number | null, error: string | null, retryAfter?: string): SendResult => ({
      ok: error === null,
      status,
      error,
      retryAfter,
      durationMs: Math.round(performance.now() - started),
    });
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return Promise.resolve(result(null, `'${request.url}' is not a URL`));
    }
    const refusal = refusedUrl(url);
    if (refusal !== null) return Promise.resolve(result(null, `refused target: ${refusal}`));

    return new Promise<SendResult>((resolve) => {
      const protocol = url.protocol as 'http:' | 'https:';
      const body = Buffer.from(request.body, 'utf8');
      const client = protocol === 'https:' ? https : http;
      const req = client.request(url, {
        method: 'POST',
        agent: this.agents[protocol],
        lookup: this.lookup,
        headers: {
          'content-type': 'application/json',
          'content-length': body.length,
          'user-agent': USER_AGENT,
          'webhook-id': request.messageId,
          'webhook-timestamp': String(request.timestamp),
          'webhook-signature': request.signature,
        },
      });
      let settled = false;
      const finish = (outcome: SendResult) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        resolve(outcome);
      };
      const timer = setTimeout(() => req.destroy(new Error(`no answer within ${this.timeoutMs / 1000} s`)), this.timeoutMs);
      const onAbort = () => req.destroy(new Error('the delivery was stopped'));
      signal?.addEventListener('abort', onAbort);
      if (signal?.aborted) onAbort();

      req.on('socket', (socket: Socket) => {
        // The body goes out only once the connected address is known to be allowed: the
        // lookup checked what DNS said, this checks where the connection actually went.
        const send = () => {
          const why = socket.remoteAddress === undefined ? 'no remote address' : refusedAddress(socket.remoteAddress);
          if (why !== null) req.destroy(new RefusedTargetError(`connected to ${socket.remoteAddress ?? 'nothing'}, ${why}`));
          else req.end(body);
        };
        if (socket.connecting) socket.once('connect', send);
        else send();
      });
      req.on('response', (res) => {
        const status = res.statusCode ?? 0;
        const retryAfter = res.headers['retry-after'];
        finish(result(status, failureOf(status, res.headers.location), retryAfter));
        // Read to its end so the connection can carry the next message, within the same deadline.
        let drained = 0;
        const cut = setTimeout(() => res.destroy(), this.timeoutMs);
        res.on('data', (chunk: Buffer) => {
          drained += chunk.length;
          if (drained > MAX_DRAIN_BYTES) res.destroy();
        });
        res.on('close', () => clearTimeout(cut));
        res.on('error', () => {});
      });
      req.on('error', (err: NodeJS.ErrnoException) => {
        finish(result(null, err instanceof RefusedTargetError ? `refused target: ${err.message}` : err.message));
      });
    });
  }

  /** Closes the connections kept for later messages. */
  close(): void {
    this.agents['http:'].destroy();
    this.agents['https:'].destroy();
  }
}

function failureOf(status: number, location: string | undefined): string | null {
  if (status >= 200 && status < 300) return null;
  if (status >= 300 && status < 400) return `answered ${status}, a redirect${location ? ` to ${location}` : ''}, which is not followed`;
  return `answered ${status}`;
}
