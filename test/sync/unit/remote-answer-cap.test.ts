/**
 * The remote client on the shared HTTP client: an answer past its cap (a remote streaming a
 * list without end) fails the request as offline, naming the cap, and is not asked again at
 * once inside the cycle, as the same answer would come back.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { RemoteClient, RemoteFailure } from '../../../sync/remote-client';

let server: http.Server | undefined;
let client: RemoteClient | undefined;
afterEach(async () => {
  client?.close();
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
});

it('refuses an answer past the cap as offline, not to be asked again inside the cycle', async () => {
  const chunk = Buffer.alloc(16 * 1024, ' ');
  server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"data":[');
    const pump = () => {
      while (!res.destroyed && res.write(chunk));
    };
    res.on('drain', pump);
    pump();
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  client = new RemoteClient(`http://127.0.0.1:${port}`, 'ldk_test', 60_000, 256 * 1024);
  const failure = await client.list({ pageSize: '100' }).then(
    () => null,
    (err: unknown) => err,
  );
  expect(failure).toBeInstanceOf(RemoteFailure);
  expect(failure).toMatchObject({ kind: 'offline', transient: false });
  expect((failure as RemoteFailure).message).toMatch(/^the answer from http:\/\/127\.0\.0\.1:\d+ broke off: the answer is larger than the 256 KiB/);
});

it('cuts off a list of tiny values early, and refuses a report with a huge string on its own', async () => {
  const tiny = Buffer.from('0,'.repeat(128 * 1024));
  server = http.createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    if (req.url!.startsWith('/v2/labelReports?')) {
      res.write('{"data":[');
      const pump = () => {
        while (!res.destroyed && res.write(tiny));
      };
      res.on('drain', pump);
      pump();
      return;
    }
    res.end(`{"id":"big","labelReference":"${'x'.repeat(200 * 1024)}"}`);
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  client = new RemoteClient(`http://127.0.0.1:${port}`, 'ldk_test', 60_000, 64 * 1024 * 1024);
  const failure = await client.list({ pageSize: '100' }).then(
    () => null,
    (err: unknown) => err,
  );
  expect(failure).toBeInstanceOf(RemoteFailure);
  expect(failure).toMatchObject({ kind: 'offline', transient: false });
  expect((failure as RemoteFailure).message).toMatch(/was cut off: it holds more JSON values than an honest answer/);

  expect(await client.retrieve('big')).toEqual({
    id: 'big',
    reason: expect.stringMatching(/^the answer to GET \/v2\/labelReports\/big from .* was cut off: it holds a string of more than 64 KiB$/),
  });
});
