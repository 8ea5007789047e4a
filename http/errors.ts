/**
 * Every refusal answers the JSON error body of decisions §3; Fastify's own errors (body too
 * large, bad JSON, wrong content type) are translated so a client never sees another shape.
 */
import type { FastifyError, FastifyInstance } from 'fastify';
import { DatabaseBusyError } from '../db/data-store';
import { ApiError } from '../schema/api-error';

/** A client that met a busy database tries again after this long. */
const BUSY_RETRY_AFTER_SECONDS = 2;

const FASTIFY_ERRORS: Record<string, (err: FastifyError) => ApiError> = {
  FST_ERR_CTP_BODY_TOO_LARGE: () => new ApiError(413, 'BODY_TOO_LARGE', 'the request body is larger than 1 MiB'),
  FST_ERR_CTP_INVALID_MEDIA_TYPE: (err) =>
    new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', `send the body as content-type: application/json (${err.message})`),
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: () => new ApiError(400, 'INVALID_BODY', 'content-length does not match the body'),
  FST_ERR_CTP_EMPTY_JSON_BODY: () => new ApiError(400, 'INVALID_BODY', 'the body is empty; send a JSON object'),
  FST_ERR_CTP_INVALID_JSON_BODY: (err) => new ApiError(400, 'INVALID_JSON', `the body is not valid JSON: ${err.message}`),
};

export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof DatabaseBusyError) {
    return new ApiError(
      503,
      'DATABASE_BUSY',
      'the database is busy with another writer (an import, or another LabelDesk using the same file); nothing was changed, try again shortly',
      BUSY_RETRY_AFTER_SECONDS,
    );
  }
  const fastifyError = err as FastifyError;
  const translate = fastifyError?.code ? FASTIFY_ERRORS[fastifyError.code] : undefined;
  if (translate) return translate(fastifyError);
  if (fastifyError instanceof SyntaxError || fastifyError?.statusCode === 400) {
    return new ApiError(400, 'INVALID_BODY', `the body is not valid JSON: ${fastifyError.message}`);
  }
  if (typeof fastifyError?.statusCode === 'number' && fastifyError.statusCode >= 400 && fastifyError.statusCode < 500) {
    return new ApiError(fastifyError.statusCode, fastifyError.code ?? 'BAD_REQUEST', fastifyError.message);
  }
  return new ApiError(500, 'INTERNAL_ERROR', 'the service failed to answer');
}

/** `log` gets one line per unexpected error, starting with the request id its 500 names. */
export function registerErrorHandling(app: FastifyInstance, log: (line: string) => void): void {
  app.setErrorHandler((err, request, reply) => {
    let apiError = toApiError(err);
    if (apiError.statusCode === 500) {
      log(`${request.id} ${request.method} ${request.url.split('?')[0]} failed: ${(err as Error)?.stack ?? String(err)}`);
      apiError = new ApiError(500, apiError.code, `${apiError.message}; its log names the error under request id ${request.id}`);
    }
    if (apiError.retryAfterSeconds !== undefined) reply.header('Retry-After', String(apiError.retryAfterSeconds));
    return reply.code(apiError.statusCode).send(apiError.toBody());
  });
  app.setNotFoundHandler((request, reply) => {
    const apiError = new ApiError(404, 'ROUTE_NOT_FOUND', `no route ${request.method} ${request.url.split('?')[0]}`);
    return reply.code(404).send(apiError.toBody());
  });
}
