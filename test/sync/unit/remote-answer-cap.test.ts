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
