/**
 * The Node server Fastify creates: limits that keep slow or numerous clients from starving the
 * rest, and Node's own refusals handed to http/errors.ts so that they get the error body.
 */
import { maxHeaderSize as NODE_MAX_HEADER_SIZE, type ServerOptions } from 'node:http';
import { clientErrorHandler } from './errors';

export interface ServerLimits {
  /** The whole request, headers and body, must arrive within this; else a 408 and the connection closes. */
  requestTimeoutMs: number;
  /** The request line and headers must arrive within this (at most requestTimeoutMs); else a 408. */
  headersTimeoutMs: number;
  /** Connections beyond this many are closed as they arrive, before they take the last file descriptors. */
  maxConnections: number;
  /** Bytes of request line and headers; beyond this, a 431. */
  maxHeaderSize: number;
}

/** Without `limits` (an app that only answers inject), Node's own limits stay. */
export function nodeServerOptions(limits?: ServerLimits) {
  return {
    http: {
      // The local guard refuses an HTTP/1.1 request without Host instead, with the error body.
      requireHostHeader: false,
      ...(limits && nodeLimits(limits)),
    },
    // Fastify copies its own option onto the Node server, and that is 0 (never) unless given.
    requestTimeout: limits?.requestTimeoutMs,
    clientErrorHandler: clientErrorHandler(limits?.maxHeaderSize ?? NODE_MAX_HEADER_SIZE),
    // What a stop closes, and when, is http/graceful-stop.ts's to decide: Fastify neither closes
    // connections itself nor refuses with a 503 the requests still read while stopping.
    forceCloseConnections: false,
    return503OnClosing: false,
  };
}

function nodeLimits(limits: ServerLimits): ServerOptions {
  // Node refuses a headers timeout longer than the request timeout.
  const headersTimeout = Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs);
  return {
    maxHeaderSize: limits.maxHeaderSize,
    requestTimeout: limits.requestTimeoutMs,
    headersTimeout,
    // Node looks for stalled requests only this often (every 30 s by default), which would let
    // one hold its connection for up to twice its timeout.
    connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(headersTimeout / 4))),
  };
}
