import { localZoneName } from './time-zone';

/** The signer's IANA time zone, as the browser knows it: what a signature records beside its time. */
export function signerZone(): string {
  return localZoneName() ?? 'UTC';
}
