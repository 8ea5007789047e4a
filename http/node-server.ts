/**
 * The Node server Fastify creates: what Node would refuse on its own with an empty answer or
 * Fastify's bare one is handed to http/errors.ts, so it gets the error body with a code.
 */
import { maxHeaderSize as NODE_MAX_HEADER_SIZE } from 'node:http';
import { clientErrorHandler } from './errors';

export function nodeServerOptions() {
  return {
    http: {
      // The local guard refuses an HTTP/1.1 request without Host instead, with the error body.
      requireHostHeader: false,
    },
    clientErrorHandler: clientErrorHandler(NODE_MAX_HEADER_SIZE),
  };
}
