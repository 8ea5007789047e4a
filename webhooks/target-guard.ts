/**
 * Where webhooks may be sent (docs/webhooks.md#where-webhooks-may-be-sent): http and https only; loopback and private LAN
 * addresses are allowed (local tools, a warehouse system on the LAN), while link-local (cloud
 * metadata lives there), multicast, unspecified and other reserved addresses are refused.
 *
 * A URL's host name says nothing about where a connection goes, so the check is made on the
 * addresses DNS gives (every one of them, `guardedLookup`) and again on the socket's remote
 * address once connected (`refusedAddress` via the sender): a name that resolves to a refused
 * address, or changes its answer between two look-ups, cannot reach one. Which addresses are
 * refused is the registration's rule too (service/webhook-targets.ts).
 */
import { promises as dns, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { refusedAddress } from '../service/webhook-targets';

/** Resolves a host name to its addresses; injected so that tests never ask a real DNS. */
export type Resolve = (hostname: string) => Promise<readonly LookupAddress[]>;

export const systemResolve: Resolve = (hostname) => dns.lookup(hostname, { all: true, verbatim: true });

/** A target the rules refuse: never retried into success, but recorded like any failure. */
export class RefusedTargetError extends Error {
  readonly code = 'WEBHOOK_TARGET_REFUSED';
  constructor(message: string) {
    super(message);
    this.name = 'RefusedTargetError';
  }
}

/**
 * A `lookup` for node:http(s) that resolves with `resolve` and fails unless every address the
 * name has is allowed: a name with one refused address among allowed ones is refused whole,
 * so which one the connection picks cannot matter.
 */
export function guardedLookup(resolve: Resolve): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (addresses) => {
        for (const { address } of addresses) {
          const why = refusedAddress(address);
          if (why !== null) return callback(new RefusedTargetError(`${hostname} resolves to ${address}, ${why}`), '', 0);
        }
        const wanted = options.family === 4 || options.family === 6 ? addresses.filter((a) => a.family === options.family) : [...addresses];
        if (wanted.length === 0) {
          const err: NodeJS.ErrnoException = new Error(`${hostname} has no address`);
          err.code = 'ENOTFOUND';
          return callback(err, '', 0);
        }
        if (options.all) return callback(null, wanted);
        return callback(null, wanted[0].address, wanted[0].family);
      },
      (err: NodeJS.ErrnoException) => callback(err, '', 0),
    );
  };
}

