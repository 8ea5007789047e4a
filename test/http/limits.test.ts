/**
 * The limits that keep the service answering: the largest valid list request fits the header
 * limit while absurd headers get a 431; a request that stalls is cut with a 408; connections
 * beyond the cap are closed at once while the others are served. Real sockets on loopback.
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { MAX_CONDITIONS_LENGTH } from '../../query/list-query';
import { closed, connect, exchange, expectErrorAnswer, readResponse } from '../support/raw-http';
import { makeReport, startTestService, type TestService } from '../support/service-fixture';

let svc: TestService | undefined;
const clients: Socket[] = [];
afterEach(async () => {
  for (const socket of clients.splice(0)) socket.destroy();
  await svc?.stop();
  svc = undefined;
});

function head(svc: TestService, requestLine: string, headers: string[] = []): string {
  return [requestLine, `Host: 127.0.0.1:${svc.port}`, `x-api-key: ${svc.keys.acme}`, ...headers, '', ''].join('\r\n');
}

/** Resolves once the server has emitted `count` more 'request' events. */
function requestsSeen(server: Server, count: number): Promise<void> {
  return new Promise((resolve) => {
    let seen = 0;
    const onRequest = () => {
      if (++seen < count) return;
      server.off('request', onRequest);
      resolve();
    };
    server.on('request', onRequest);
  });
}

describe('header size', () => {
  test('the largest valid list request fits: filter and customFields at 4 096 characters of 4 UTF-8 bytes each', async () => {
    svc = await startTestService([makeReport('r1')]);
    const ice = '🧊'; // 4 UTF-8 bytes, 12 characters once percent-encoded
    const filter = 'labelReference[eq]' + ice.repeat(MAX_CONDITIONS_LENGTH - 'labelReference[eq]'.length);
    const customFields = 'po[eq]' + ice.repeat(MAX_CONDITIONS_LENGTH - 'po[eq]'.length);
    const query = new URLSearchParams({ filter, customFields, order: 'created[desc]', pageNumber: '1', pageSize: '100', output: 'minimal' });
    const res = await fetch(`${svc.url}/v2/labelReports?${query}`, { headers: { 'x-api-key': svc.keys.acme } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ data: [], totalDocuments: 0 });

    // One character more is the query check's 400, not the header limit's 431.
    query.set('filter', filter + ice);
    const over = await fetch(`${svc.url}/v2/labelReports?${query}`, { headers: { 'x-api-key': svc.keys.acme } });
    expect(over.status).toBe(400);
    expect(await over.json()).toMatchObject({ code: 'INVALID_FILTER' });
  });

  test('a filter of 3 000 × ä is answered, not refused as too large', async () => {
    svc = await startTestService([makeReport('r1')]);
    const res = await fetch(`${svc.url}/v2/labelReports?filter=labelReference[eq]${'%C3%A4'.repeat(3000)}`, {
      headers: { 'x-api-key': svc.keys.acme },
    });
    expect(res.status).toBe(200);
  });

  test('absurd headers and URLs are refused with 431 and the error body', async () => {
    svc = await startTestService([]);
    expectErrorAnswer(await exchange(svc.port, head(svc, 'GET /v2/labelReports HTTP/1.1', [`X-Padding: ${'p'.repeat(1024 * 1024)}`])), 431, 'HEADERS_TOO_LARGE');
    expectErrorAnswer(await exchange(svc.port, head(svc, `GET /v2/labelReports?filter=${'%C3%A4'.repeat(100_000)} HTTP/1.1`)), 431, 'HEADERS_TOO_LARGE');
  });
});

describe('slow clients', () => {
  test('a request whose body or headers stall is cut after the request timeout with a 408 body', async () => {
    svc = await startTestService([makeReport('r1')], { limits: { requestTimeoutMs: 1000, headersTimeoutMs: 500 } });

    const slowBody = await connect(svc.port);
    clients.push(slowBody);
    const bodyAnswer = readResponse(slowBody);
    slowBody.write(head(svc, 'PATCH /v2/labelReports/r1 HTTP/1.1', ['Content-Type: application/json', 'Content-Length: 40']) + '{"labelRef');

    const slowHeaders = await connect(svc.port);
    clients.push(slowHeaders);
    const headersAnswer = readResponse(slowHeaders);
    slowHeaders.write(`GET /v2/labelReports HTTP/1.1\r\nHost: 127.0.0.1:${svc.port}\r\n`);

    expectErrorAnswer(await bodyAnswer, 408, 'REQUEST_TIMEOUT');
    expectErrorAnswer(await headersAnswer, 408, 'REQUEST_TIMEOUT');
    await Promise.all([closed(slowBody), closed(slowHeaders)]);
  });

  test('connections beyond the cap are closed at once; the others are served while slow ones hang', async () => {
    svc = await startTestService([makeReport('r1')], { limits: { maxConnections: 8 } });
    const server = svc.app.server;
    const serverSockets: Socket[] = [];
    server.on('connection', (socket: Socket) => serverSockets.push(socket));

    const patchesRead = requestsSeen(server, 7);
    for (let i = 0; i < 7; i++) {
      const socket = await connect(svc.port);
      clients.push(socket);
      socket.write(head(svc, 'PATCH /v2/labelReports/r1 HTTP/1.1', ['Content-Type: application/json', 'Content-Length: 40']) + '{');
    }
    await patchesRead;

    const normal = await connect(svc.port);
    clients.push(normal);
    const answer = readResponse(normal);
    normal.write(head(svc, 'GET /v2/labelReports/r1 HTTP/1.1'));
    expect((await answer)?.status).toBe(200);

    const dropped = new Promise((resolve) => server.once('drop', resolve));
    const extra = await connect(svc.port);
    clients.push(extra);
    const refused = readResponse(extra);
    extra.write(head(svc, 'GET /v2/labelReports/r1 HTTP/1.1'));
    expect(await refused).toBeNull();
    await dropped;

    // Once the slow ones are gone, new connections are served again.
    for (const socket of clients.splice(0)) socket.destroy();
    await Promise.all(serverSockets.map((socket) => closed(socket)));
    expect((await exchange(svc.port, head(svc, 'GET /v2/labelReports/r1 HTTP/1.1')))?.status).toBe(200);
  });
});
