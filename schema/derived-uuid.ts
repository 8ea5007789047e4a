/**
 * Ids derived from their inputs and UUID-shaped, so that importing twice gives the same rows
 * (API keys new to the database; the demo data uses them too).
 */
import { createHash } from 'node:crypto';

export function derivedUuid(...parts: (string | number)[]): string {
  const h = createHash('sha256').update(parts.join('\0')).digest('hex');
  const variant = ((parseInt(h[16], 16) & 3) | 8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
