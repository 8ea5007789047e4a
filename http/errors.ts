/**
 * Every refusal answers the JSON error body of docs/api.md#errors; Fastify's own errors (body too
 * large, bad JSON, wrong content type) and Node's (malformed requests, headers too large,
 * timeouts, expectations) are translated so a client never sees another shape.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { ConnectionError, FastifyError, FastifyInstance } from 'fastify';
import { DatabaseBusyError } from '../db/data-store';
import { DatabaseDamagedError, DiskFullError, FolderNotWritableError } from '../db/faults';
import { ApiError } from '../schema/api-error';
import { Refusal, UnavailableError, type RefusalKind } from '../model/errors';
import { ANSWER_HEADERS } from './answer-headers';
import { ClientGoneError } from './client-gate';

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

/** The one place the rules' refusals meet HTTP: the status each kind answers. */
const STATUS_OF: Readonly<Record<RefusalKind, number>> = {
  unauthenticated: 401,
  permissionDenied: 403,
  roleForbidden: 403,
  notFound: 404,
  invalidInput: 400,
  conflict: 409,
  unavailable: 503,
};

export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof Refusal) {
    const retryAfter = err instanceof UnavailableError ? err.retryAfterSeconds : undefined;
    return new ApiError(STATUS_OF[err.kind], err.code, err.message, retryAfter);
  }
  if (err instanceof DatabaseBusyError) {
    return new ApiError(
      503,
      'DATABASE_BUSY',
      'the database is busy with another writer (an import, or another LabelDesk using the same file); nothing was changed, try again shortly',
      BUSY_RETRY_AFTER_SECONDS,
    );
  }
  // The disk's and the file's faults (docs/operations.md#when-things-go-wrong): their messages name the folder or file.
  if (err instanceof DiskFullError) return new ApiError(507, 'DISK_FULL', err.message);
  if (err instanceof FolderNotWritableError) return new ApiError(507, 'FOLDER_NOT_WRITABLE', err.message);
  if (err instanceof DatabaseDamagedError) return new ApiError(503, 'DATABASE_DAMAGED', err.message);
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
    // No one to answer: the work stopped because its client went away (client-gate.ts).
    if (err instanceof ClientGoneError) {
      request.raw.socket?.destroy();
      return reply.hijack();
    }
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
  // Without a listener Node answers an Expect it cannot meet with an empty 417.
  app.server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) => {
    const answer = closingAnswer(
      new ApiError(417, 'EXPECTATION_FAILED', `the service cannot meet 'Expect: ${request.headers.expect}'; only 100-continue is understood`),
    );
    response.writeHead(answer.statusCode, answer.headers).end(answer.body);
  });
  // Without a listener Node drops a CONNECT (a proxy tunnel request) without a word.
  app.server.on('connect', (request: IncomingMessage, socket: Socket) => {
    writeOnSocket(socket, new ApiError(405, 'METHOD_NOT_ALLOWED', `${request.method} is not supported: this is no proxy`));
    socket.destroy();
  });
}

/**
 * Node's refusals of what never became a request (a malformed request, headers over
 * `maxHeaderSize`, a request that did not arrive in time) have no reply to send: the answer is
 * written on the socket itself, and the connection closed, as Node does with its own answer.
 */
export function clientErrorHandler(maxHeaderSize: number): (err: ConnectionError, socket: Socket) => void {
  return (err, socket) => {
    // A reset connection has nobody left to answer.
    if (err.code === 'ECONNRESET' || socket.destroyed) return;
    // As in Node: a second answer would corrupt one already under way on this connection.
    const underWay = (socket as Socket & { _httpMessage?: ServerResponse })._httpMessage?.headersSent;
    if (!underWay) writeOnSocket(socket, clientErrorToApiError(err, maxHeaderSize));
    socket.destroy();
  };
}

function writeOnSocket(socket: Socket, apiError: ApiError): void {
  if (!socket.writable) return;
  const answer = closingAnswer(apiError);
  const head = Object.entries(answer.headers).map(([name, value]) => `${name}: ${value}\r\n`);
  socket.write(`HTTP/1.1 ${answer.statusCode} ${answer.reason}\r\n${head.join('')}\r\n${answer.body}`);
}

function clientErrorToApiError(err: ConnectionError & { reason?: string }, maxHeaderSize: number): ApiError {
  switch (err.code) {
    case 'HPE_HEADER_OVERFLOW':
      return new ApiError(431, 'HEADERS_TOO_LARGE', `the request line and headers are over ${maxHeaderSize} bytes`);
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return new ApiError(413, 'BODY_TOO_LARGE', 'the chunk extensions of the body are too large');
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new ApiError(408, 'REQUEST_TIMEOUT', 'the request did not arrive in time; send its headers and body without pausing');
    default: {
      // A space in a URL ends it early, so the parser stumbles on what follows rather than on the space.
      const inUrl = err.code === 'HPE_INVALID_URL' || err.code === 'HPE_INVALID_CONSTANT';
      const hint = inUrl ? '; spaces and bytes outside ASCII in a URL must be percent-encoded' : '';
      return new ApiError(400, 'MALFORMED_REQUEST', `the request is not valid HTTP/1.1 (${err.reason ?? err.message})${hint}`);
    }
  }
}

/** An error answer after which the connection closes: what is left of the request is not read. */
function closingAnswer(apiError: ApiError) {
  const body = JSON.stringify(apiError.toBody());
  return {
    statusCode: apiError.statusCode,
    reason: apiError.toBody().error,
    headers: {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': String(Buffer.byteLength(body)),
      ...ANSWER_HEADERS,
      Connection: 'close',
    },
    body,
  };
}
