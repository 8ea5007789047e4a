/** Webhook secrets as Standard Webhooks writes them: `whsec_` and the base64 of their bytes. */
import { randomBytes } from 'node:crypto';

export const SECRET_PREFIX = 'whsec_';
/** How long the secret before a rotation keeps signing. */
export const PREVIOUS_SECRET_VALID_MS = 24 * 60 * 60 * 1000;

/** 32 random bytes, as receivers' libraries read them. */
export function newSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64');
}
