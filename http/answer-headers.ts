/**
 * Headers on every answer, whichever part of the service writes it: Fastify's replies, the
 * static UI, and the refusals written before a request exists (http/errors.ts).
 */
import type { Server } from 'node:http';

export const ANSWER_HEADERS: Readonly<Record<string, string>> = {
  // A browser takes each answer for the type it declares: JSON is never run as a script or shown as a page.
  'X-Content-Type-Options': 'nosniff',
};

export function addAnswerHeaders(server: Server): void {
  // First in line, because Fastify answers some requests (a malformed URL) before any hook of its own runs.
  server.prependListener('request', (_request, response) => {
    for (const [name, value] of Object.entries(ANSWER_HEADERS)) response.setHeader(name, value);
  });
}
