/** The signer's IANA time zone, as the browser knows it: what a signature records beside its time. */
export function signerZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}
