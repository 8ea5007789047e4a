/**
 * A service on 127.0.0.1 is reachable from every web page the user opens. Refusing foreign
 * Host headers stops DNS rebinding; refusing foreign Origins stops cross-site requests.
 */
import { BlockList, isIPv4, isIPv6, type AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../schema/api-error';

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/**
 * `localhost` or a loopback address in any of its forms, bracketed or not: 127.0.0.0/8, ::1, and
 * ::ffff:127.x.y.z, which is how Node reports an IPv6 socket bound to an IPv4 loopback address.
 */
export function isLoopback(host: string): boolean {
  const address = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (address === 'localhost') return true;
  if (isIPv4(address)) return LOOPBACK.check(address, 'ipv4');
  return isIPv6(address) && LOOPBACK.check(address, 'ipv6');
}

/** The Host values a request to this bound address may carry; null when it is not loopback. */
function allowedHosts({ address, port }: AddressInfo): ReadonlySet<string> | null {
  if (!isLoopback(address)) return null;
  const bound = address.includes(':') ? `[${address}]` : address;
  return new Set(['127.0.0.1', 'localhost', '[::1]', bound].map((host) => `${host}:${port}`));
}

export function registerLocalGuard(app: FastifyInstance): void {
  // Taken when listening starts, not per request: once a stop closes the listener the server has
  // no address, and the requests it still answers must be guarded all the same. Not listening
  // (app.inject), there is nothing to guard.
  let hosts: ReadonlySet<string> | null = null;
  let origins: ReadonlySet<string> = new Set();
  app.server.on('listening', () => {
    hosts = allowedHosts(app.server.address() as AddressInfo);
    origins = new Set([...(hosts ?? [])].map((host) => `http://${host}`));
  });

  app.addHook('onRequest', async (request) => {
    // Node's own refusal of this (requireHostHeader) is an empty 400; this one has the error body.
    if (request.headers.host === undefined && request.raw.httpVersion === '1.1') {
      throw new ApiError(400, 'HOST_MISSING', 'an HTTP/1.1 request must carry a Host header');
    }
    if (!hosts) return;
    const host = request.headers.host ?? '';
    if (!hosts.has(host.toLowerCase())) {
      throw new ApiError(403, 'HOST_FORBIDDEN', `requests must be addressed to this service (Host '${host}' is not allowed)`);
    }
    const origin = request.headers.origin;
    if (origin !== undefined && !origins.has(origin.toLowerCase())) {
      throw new ApiError(403, 'ORIGIN_FORBIDDEN', `requests from origin '${origin}' are not allowed`);
    }
  });
}
