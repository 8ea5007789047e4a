/**
 * The Host and Origin guard (DNS rebinding, cross-site requests) holds on every loopback bind:
 * 127.0.0.0/8, ::1, the IPv4-mapped ::ffff:127.x.y.z and localhost. Each accepts the Host
 * values 127.0.0.1:PORT, localhost:PORT, [::1]:PORT and its own bound address.
 */
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { afterEach, describe, expect, test } from 'vitest';
import { exchange, expectErrorAnswer } from '../support/raw-http';
import { startTestService, type TestService } from '../support/service-fixture';

const IPV6_LOOPBACK = Object.values(networkInterfaces()).some((list) => list?.some((i) => i.address === '::1'));

let svc: TestService | undefined;
afterEach(async () => {
  await svc?.stop();
  svc = undefined;
});

describe.each([
  { bind: '127.0.0.1', ipv6: false },
  { bind: '127.0.0.2', ipv6: false },
  { bind: '::ffff:127.0.0.1', ipv6: true },
  { bind: '::1', ipv6: true },
  { bind: 'localhost', ipv6: false },
])('bound to $bind', ({ bind, ipv6 }) => {
  test.skipIf(ipv6 && !IPV6_LOOPBACK)('foreign Hosts and Origins are refused, the loopback names and the bound address accepted', async () => {
    svc = await startTestService([], { host: bind });
    const { address, port } = svc.app.server.address() as AddressInfo;
    const own = address.includes(':') ? `[${address}]` : address;
    const get = (headers: string[]) =>
      exchange(port, [`GET /v2/labelReports HTTP/1.1`, `x-api-key: ${svc!.keys.acme}`, ...headers, '', ''].join('\r\n'), address);

    expectErrorAnswer(await get(['Host: evil.com']), 403, 'HOST_FORBIDDEN');
    expectErrorAnswer(await get([`Host: evil.com:${port}`]), 403, 'HOST_FORBIDDEN');
    expectErrorAnswer(await get([`Host: 127.0.0.1:${port}`, 'Origin: http://evil.com']), 403, 'ORIGIN_FORBIDDEN');
    expectErrorAnswer(await get([`Host: ${own}:${port}`, `Origin: https://${own}:${port}`]), 403, 'ORIGIN_FORBIDDEN');
    for (const host of ['127.0.0.1', 'localhost', '[::1]', own]) {
      expect((await get([`Host: ${host}:${port}`]))?.status, host).toBe(200);
      expect((await get([`Host: ${host}:${port}`, `Origin: http://${host}:${port}`]))?.status, host).toBe(200);
    }
  });
});
