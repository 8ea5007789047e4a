import { z } from 'zod';

/** An absolute http or https URL with a host: where webhooks are delivered and where sync finds its remote. */
export function httpUrlSchema(message = 'must be an http or https URL') {
  return z
    .string()
    .max(2000)
    .refine((text) => {
      try {
        const parsed = new URL(text);
        return (parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.hostname !== '';
      } catch {
        return false;
      }
    }, message);
}
