/**
 * A stop finishes what clients already sent: requests on open keep-alive connections that the
 * server has not read yet are read and answered with `connection: close`, idle connections then
 * close, new connections are refused, and only the grace period cuts what is still unfinished.
 * Real sockets on loopback.
 */
import type { Socket } from 'node:net';
import { afterEach, expect, test } from 'vitest';
import { closed, connect, readResponse } from '../support/raw-http';
import { makeReport, startTestService, type TestService } from '../support/service-fixture';

let svc: TestService | undefined;
const clients: Socket[] = [];
afterEach(async () => {
  for (const socket of clients.splice(0)) socket.destroy();
  await svc?.stop();
  svc = undefined;
});

async function keptAlive(svc: TestService, count: number, request: string): Promise<Socket[]> {
  const sockets: Socket[] = [];
  for (let i = 0; i < count; i++) {
    const socket = await connect(svc.port);
    clients.push(socket);
    const answer = readResponse(socket);
    socket.write(request);
    expect((await answer)?.headers.connection).toBe('keep-alive');
    sockets.push(socket);
  }
  return sockets;
}

test('requests sent on keep-alive connections right before the stop are all answered, then the connections close', async () => {
  svc = await startTestService([makeReport('r1')]);
  const request = `GET /v2/labelReports/r1 HTTP/1.1\r\nHost: 127.0.0.1:${svc.port}\r\nx-api-key: ${svc.keys.acme}\r\n\r\n`;
  const sockets = await keptAlive(svc, 22, request);
  const idle = (await keptAlive(svc, 1, request))[0];

  const answers = sockets.map((socket) => readResponse(socket));
  for (const socket of sockets) socket.write(request);
  // In the same tick as the writes: the server has read none of these requests yet.
  const stopped = svc.close();

  for (const answer of await Promise.all(answers)) {
    expect(answer?.status).toBe(200);
    expect(answer?.headers.connection).toBe('close');
  }
  await Promise.all([...sockets, idle].map((socket) => closed(socket)));
  await stopped;
  await expect(connect(svc.port)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
});

test('a request still unfinished when the grace period ends is cut, and the stop completes', async () => {
  svc = await startTestService([makeReport('r1')]);
  const socket = await connect(svc.port);
  clients.push(socket);
  const read = new Promise((resolve) => svc!.app.server.once('request', resolve));
  socket.write(
    `PATCH /v2/labelReports/r1 HTTP/1.1\r\nHost: 127.0.0.1:${svc.port}\r\nx-api-key: ${svc.keys.acme}\r\n` +
      'Content-Type: application/json\r\nContent-Length: 40\r\n\r\n{"hasFl',
  );
  await read;
  let cut = false;
  await svc.close({ graceMs: 200, onTimeout: () => (cut = true) });
  expect(cut).toBe(true);
  await closed(socket);
});
