/**
 * A service on 127.0.0.1 is reachable from every web page the user opens. Refusing foreign
 * Host headers stops DNS rebinding; refusing foreign Origins stops cross-site requests.
 */
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../schema/api-error';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

export function isLoopback(host: string): boolean {
  return LOOPBACK.has(host) || host.startsWith('127.');
}

export function registerLocalGuard(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    // Node's own refusal of this (requireHostHeader) is an empty 400; this one has the error body.
    if (request.headers.host === undefined && request.raw.httpVersion === '1.1') {
      throw new ApiError(400, 'HOST_MISSING', 'an HTTP/1.1 request must carry a Host header');
    }
    const address = app.server.address() as AddressInfo | null;
    if (!address || !isLoopback(address.address)) return;
    const port = address.port;
    const hosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]);
    const host = request.headers.host ?? '';
    if (!hosts.has(host.toLowerCase())) {
      throw new ApiError(403, 'HOST_FORBIDDEN', `requests must be addressed to this service (Host '${host}' is not allowed)`);
    }
    const origin = request.headers.origin;
    if (origin !== undefined && !hosts.has(origin.toLowerCase().replace(/^http:\/\//, ''))) {
      throw new ApiError(403, 'ORIGIN_FORBIDDEN', `requests from origin '${origin}' are not allowed`);
    }
  });
}
