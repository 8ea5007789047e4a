/**
 * Whatever refuses a request — Node's HTTP parser, Node's own checks, Fastify or the service —
 * the answer is the JSON error body with statusCode, error, code and message. Raw requests on
 * a loopback socket, as fetch would not send them.
 */
import { afterAll, beforeAll, test } from 'vitest';
import { exchange, expectErrorAnswer } from '../support/raw-http';
import { makeReport, startTestService, type TestService } from '../support/service-fixture';

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService([makeReport('r1')]);
});
afterAll(() => svc.stop());

/** A request with the service's own Host and a key, as a client would send it. */
function request(requestLine: string, headers: string[] = [], body = ''): Buffer {
  const head = [requestLine, `Host: 127.0.0.1:${svc.port}`, `x-api-key: ${svc.keys.acme}`, ...headers].join('\r\n');
  return Buffer.concat([Buffer.from(`${head}\r\n\r\n`, 'latin1'), Buffer.from(body)]);
}

test.each([
  ['a space in the URL', 'GET /v2/labelReports?filter=labelReference[eq]a b HTTP/1.1'],
  ['a raw byte in the URL', 'GET /v2/labelReports/r\xff1 HTTP/1.1'],
  ['a control character in the URL', 'GET /v2/labelReports/r\x011 HTTP/1.1'],
  ['a TLS handshake (https:// to the http port)', '\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03'],
])('%s → 400 MALFORMED_REQUEST', async (_what, requestLine) => {
  expectErrorAnswer(await exchange(svc.port, request(requestLine)), 400, 'MALFORMED_REQUEST');
});

test('headers far beyond the limit → 431 HEADERS_TOO_LARGE', async () => {
  const response = await exchange(svc.port, request('GET /v2/labelReports HTTP/1.1', [`X-Padding: ${'p'.repeat(1024 * 1024)}`]));
  expectErrorAnswer(response, 431, 'HEADERS_TOO_LARGE');
});

test('a proxy tunnel request → 405 METHOD_NOT_ALLOWED', async () => {
  expectErrorAnswer(await exchange(svc.port, request('CONNECT example.com:443 HTTP/1.1')), 405, 'METHOD_NOT_ALLOWED');
});

test('HTTP/1.1 without Host → 400 HOST_MISSING', async () => {
  const response = await exchange(svc.port, `GET /v2/labelReports HTTP/1.1\r\nx-api-key: ${svc.keys.acme}\r\n\r\n`);
  expectErrorAnswer(response, 400, 'HOST_MISSING');
});

test('an expectation the service cannot meet → 417 EXPECTATION_FAILED', async () => {
  const response = await exchange(svc.port, request('GET /v2/labelReports HTTP/1.1', ['Expect: 999-nope']));
  expectErrorAnswer(response, 417, 'EXPECTATION_FAILED');
});

test.each([
  ['a malformed percent-encoding', 'GET /v2/labelReports/%E0%A4%A HTTP/1.1', [], '', 400, 'INVALID_URL'],
  ['an unknown route', 'GET /v3/nothing HTTP/1.1', [], '', 404, 'ROUTE_NOT_FOUND'],
  ['a body of another type', 'PATCH /v2/labelReports/r1 HTTP/1.1', ['Content-Type: text/plain', 'Content-Length: 2'], 'hi', 415, 'UNSUPPORTED_MEDIA_TYPE'],
  ['a body that is not JSON', 'PATCH /v2/labelReports/r1 HTTP/1.1', ['Content-Type: application/json', 'Content-Length: 2'], '{x', 400, 'INVALID_JSON'],
  ['an empty JSON body', 'PATCH /v2/labelReports/r1 HTTP/1.1', ['Content-Type: application/json', 'Content-Length: 0'], '', 400, 'INVALID_BODY'],
  ['a body over 1 MiB', 'PATCH /v2/labelReports/r1 HTTP/1.1', ['Content-Type: application/json', `Content-Length: ${2 * 1024 * 1024}`], '', 413, 'BODY_TOO_LARGE'],
])("Fastify's own refusal of %s has the error body", async (_what, requestLine, headers, body, status, code) => {
  expectErrorAnswer(await exchange(svc.port, request(requestLine, headers, body)), status, code);
});
