/**
 * Standard Webhooks signatures: `v1,` + base64 HMAC-SHA256 over `{id}.{timestamp}.{body}`, keyed
 * with the bytes the secret encodes after `whsec_`. While a rotated secret is still valid both
 * sign, space separated, so a receiver that has not switched yet keeps verifying.
 */
import { createHmac } from 'node:crypto';
import { SECRET_PREFIX } from '../service/webhook-secrets';

export function sign(secret: string, messageId: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
  return 'v1,' + createHmac('sha256', key).update(`${messageId}.${timestamp}.${body}`).digest('base64');
}

/** The webhook-signature header: the current secret's signature, then the previous one's while valid. */
export function signatureHeader(secrets: readonly string[], messageId: string, timestamp: number, body: string): string {
  return secrets.map((secret) => sign(secret, messageId, timestamp, body)).join(' ');
}

/** The secrets that sign at `now`: the current one, and the previous one until it expires. */
export function signingSecrets(
  webhook: { secret: string; previousSecret: string | null; previousSecretExpires: string | null },
  now: Date,
): string[] {
  const { secret, previousSecret, previousSecretExpires } = webhook;
  const previousValid = previousSecret !== null && previousSecretExpires !== null && Date.parse(previousSecretExpires) > now.getTime();
  return previousValid ? [secret, previousSecret] : [secret];
}
