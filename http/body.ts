/**
 * Request bodies are read as they arrive but judged only when the route's checks get to them
 * (route-checks.ts), so that the key's permission (403) and the report's visibility (404) answer
 * before anything about the body (docs/api.md#errors: key → permission → visibility → validation → role).
 *
 * Where each body refusal sits:
 * - 413 (over 1 MiB) and a content-length that does not match stay where Fastify reads the
 *   body, after the key (401) and before everything else: Fastify stops reading such a body and
 *   closes the connection, so there is no request left to authorize.
 * - A content-type header that is not a media type at all is refused by Fastify before any
 *   parser runs (415); it cannot be deferred.
 * - 415 for a well-formed but non-JSON type comes when the checks judge the body: after 403 and
 *   404, and before every 400. A body in a type the service does not speak cannot be judged at
 *   all, so it is the first thing validation says, as it was when Fastify answered it up front.
 * - Then 400 for an empty or malformed JSON body; the checks read the query parameters after
 *   that, and the route the body's fields.
 */
import { errorCodes, type FastifyBodyParser, type FastifyInstance, type FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { describeZodError } from '../contract/zod-messages';
import { ApiError } from '../schema/api-error';

/** What a parser leaves in `request.body`: the verdict on the body, given when asked for. */
class UnjudgedBody {
  constructor(readonly judge: () => unknown) {}
}

/** The JSON bodies of the routes of `scope` are judged by `jsonBody`, when their checks come to them. */
export function judgeBodiesLate(scope: FastifyInstance): void {
  const { onProtoPoisoning, onConstructorPoisoning } = scope.initialConfig;
  // Fastify's own JSON parser, so every answer about the JSON stays what it was.
  const parseJson = scope.getDefaultJsonParser(onProtoPoisoning ?? 'error', onConstructorPoisoning ?? 'error');
  scope.removeContentTypeParser('application/json');
  scope.addContentTypeParser('application/json', { parseAs: 'string' }, (request, text, done) => {
    done(null, new UnjudgedBody(() => runParser(parseJson, request, text as string)));
  });
  // Any other type, or a body without one. Left unread: Node discards it after the answer.
  scope.addContentTypeParser('*', (_request, _payload, done) => {
    done(null, new UnjudgedBody(() => { throw new errorCodes.FST_ERR_CTP_INVALID_MEDIA_TYPE(); }));
  });
}

/** The request's JSON body (undefined when it has none); throws its 415 or 400. */
export function jsonBody(request: FastifyRequest): unknown {
  return request.body instanceof UnjudgedBody ? request.body.judge() : request.body;
}

/** The body read as `schema`; what does not fit is a 400 naming each problem by its path. */
export function parseBody<T extends z.ZodType>(schema: T, body: unknown): z.output<T> {
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new ApiError(400, 'INVALID_BODY', describeZodError(parsed.error));
  return parsed.data;
}

/** `parseBody` for a body that must be a JSON object, said plainly when it is not one. */
export function parseObjectBody<T extends z.ZodType>(schema: T, body: unknown): z.output<T> {
  // zod would describe a non-object body as a type mismatch at '$'.
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new ApiError(400, 'INVALID_BODY', 'the body must be a JSON object');
  }
  return parseBody(schema, body);
}

type CallbackParser = (request: FastifyRequest, text: string, done: (error: Error | null, value?: unknown) => void) => void;

function runParser(parser: FastifyBodyParser<string>, request: FastifyRequest, text: string): unknown {
  let outcome: { error: Error | null; value?: unknown } | undefined;
  // Fastify's default JSON parser is the callback kind, and answers before it returns.
  (parser as CallbackParser)(request, text, (error, value) => {
    outcome = { error, value };
  });
  if (!outcome) throw new Error('the JSON parser did not answer synchronously');
  if (outcome.error) throw outcome.error;
  return outcome.value;
}
