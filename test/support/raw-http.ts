/**
 * HTTP/1.1 on a raw loopback socket, for what fetch cannot send or does not show: malformed
 * requests, slow or half-sent requests, many connections, and the connection's own fate.
 */
import net from 'node:net';
import { expect } from 'vitest';
import { REASON_PHRASES } from '../../schema/api-error';

export interface RawResponse {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  body: string;
}

/** A connection to 127.0.0.1:port, once it is established. */
export function connect(port: number, host = '127.0.0.1'): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host }, () => {
      socket.off('error', reject);
      resolve(socket);
    });
    socket.once('error', reject);
  });
}

/**
 * The next response on `socket`: resolves once its body is complete (by content-length or the
 * last chunk), or when the server closes the connection; `null` when it closed (or was reset)
 * before a whole response arrived. Reads nothing past that response.
 */
export function readResponse(socket: net.Socket): Promise<RawResponse | null> {
  return new Promise((resolve) => {
    let received = Buffer.alloc(0);
    const finish = (response: RawResponse | null) => {
      socket.off('data', onData);
      socket.off('close', onClose);
      socket.off('error', onClose);
      resolve(response);
    };
    const onData = (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const response = parseResponse(received);
      if (response) finish(response);
    };
    const onClose = () => finish(parseResponse(received, true));
    socket.on('data', onData);
    socket.once('close', onClose);
    socket.once('error', onClose);
  });
}

/** Resolves once the server has closed the connection (or reset it). */
export function closed(socket: net.Socket): Promise<void> {
  if (socket.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    socket.once('close', () => resolve());
    socket.once('error', () => {
      /* the reset shows as close as well */
    });
    socket.resume();
  });
}

/** Sends `request` on a new connection and reads the one response (null when the connection closed without one). */
export async function exchange(port: number, request: string | Buffer, host = '127.0.0.1'): Promise<RawResponse | null> {
  const socket = await connect(port, host);
  try {
    const response = readResponse(socket);
    socket.write(request);
    return await response;
  } finally {
    socket.destroy();
  }
}

function parseResponse(data: Buffer, ended = false): RawResponse | null {
  const headEnd = data.indexOf('\r\n\r\n');
  if (headEnd < 0) return null;
  const [statusLine, ...lines] = data.subarray(0, headEnd).toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1]);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const rest = data.subarray(headEnd + 4);
  if (headers['transfer-encoding'] === 'chunked') {
    const body = dechunk(rest);
    return body === null ? null : { status, headers, body };
  }
  const length = headers['content-length'] === undefined ? undefined : Number(headers['content-length']);
  if (length === undefined) return ended ? { status, headers, body: rest.toString() } : null;
  return rest.length >= length ? { status, headers, body: rest.subarray(0, length).toString() } : null;
}

function dechunk(data: Buffer): string | null {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = data.indexOf('\r\n', at);
    if (lineEnd < 0) return null;
    const size = parseInt(data.subarray(at, lineEnd).toString(), 16);
    if (size === 0) return data.length >= lineEnd + 4 ? Buffer.concat(parts).toString() : null;
    const start = lineEnd + 2;
    if (data.length < start + size + 2) return null;
    parts.push(data.subarray(start, start + size));
    at = start + size + 2;
  }
}

/** The error body of docs/api.md#errors, every key present, and the headers every answer carries. */
export function expectErrorAnswer(response: RawResponse | null, status: number, code: string): void {
  expect(response, 'the connection closed without an answer').not.toBeNull();
  const { headers, body } = response!;
  expect({ status: response!.status, body }).toMatchObject({ status });
  expect(headers['content-type']).toMatch(/^application\/json/);
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(JSON.parse(body)).toEqual({ statusCode: status, error: REASON_PHRASES[status], code, message: expect.any(String) });
}
