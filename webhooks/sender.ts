/**
 * One delivery attempt over HTTP (Standard Webhooks): a POST of the message's exact body with
 * its id, timestamp and signature headers. A 2xx within the timeout is a success; anything else,
 * a redirect included (it is never followed: a 3xx could point anywhere), is a failure with a
 * reason a person can read in the deliveries log.
 */
import type { Socket } from 'node:net';
import { VERSION } from '../contract/version';
import { HttpClient, HttpFailure } from '../jobs/http-client';
import { refusedAddress, refusedUrl } from '../service/webhook-targets';
import { guardedLookup, RefusedTargetError, systemResolve, type Resolve } from './target-guard';

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
  private readonly http: HttpClient;

  constructor(options: SenderOptions = {}) {
    this.http = new HttpClient({
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      // Only the status counts: a receiver that keeps answering is cut off after this much.
      maxAnswerBytes: MAX_DRAIN_BYTES,
      maxSockets: options.maxSockets ?? 8,
      lookup: guardedLookup(options.resolve ?? systemResolve),
      // The lookup checked what DNS said; this checks where the connection actually went.
      vetSocket: (socket: Socket) => {
        const why = socket.remoteAddress === undefined ? 'no remote address' : refusedAddress(socket.remoteAddress);
        return why === null ? null : new RefusedTargetError(`connected to ${socket.remoteAddress ?? 'nothing'}, ${why}`);
      },
    });
  }

  /** Never rejects: every way an attempt can end is a result. `signal` cuts it short (a stop). */
  async send(request: SendRequest, signal?: AbortSignal): Promise<SendResult> {
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
      return result(null, `'${request.url}' is not a URL`);
    }
    const refusal = refusedUrl(url);
    if (refusal !== null) return result(null, `refused target: ${refusal}`);
    try {
      const answer = await this.http.request({
        url,
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': USER_AGENT,
          'webhook-id': request.messageId,
          'webhook-timestamp': String(request.timestamp),
          'webhook-signature': request.signature,
        },
        body: request.body,
        signal,
        discardBody: true,
      });
      const retryAfter = answer.headers['retry-after'];
      return result(answer.status, failureOf(answer.status, answer.headers.location), retryAfter);
    } catch (err) {
      if (!(err instanceof HttpFailure)) throw err;
      if (err.kind === 'aborted') return result(null, 'the delivery was stopped');
      if (err.cause instanceof RefusedTargetError) return result(null, `refused target: ${err.cause.message}`);
      return result(null, err.message);
    }
  }

  /** Closes the connections kept for later messages. */
  close(): void {
    this.http.close();
  }
}

function failureOf(status: number, location: string | undefined): string | null {
  if (status >= 200 && status < 300) return null;
  if (status >= 300 && status < 400) return `answered ${status}, a redirect${location ? ` to ${location}` : ''}, which is not followed`;
  return `answered ${status}`;
}
