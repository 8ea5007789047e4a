/**
 * Where webhooks may go: addresses judged one by one, URLs judged before anything is sent, and
 * host names judged by every address DNS gives (a stubbed lookup: no test asks a real DNS), both
 * by the sender alone and through delivery, where the refusal lands in the deliveries log.
 */
import type { LookupAddress } from 'node:dns';
import { afterEach, describe, expect, it } from 'vitest';
import { RetrySchedule } from '../../webhooks/retry-schedule';
import { WebhookSender } from '../../webhooks/sender';
import { refusedAddress, refusedUrl } from '../../service/webhook-targets';
import { guardedLookup, RefusedTargetError, type Resolve } from '../../webhooks/target-guard';
import { manager, openWebhookHarness, QUICK, type WebhookHarness } from '../support/webhook-fixture';
import { Receiver } from '../support/webhook-receiver';

const ALLOWED = [
  '127.0.0.1', '127.8.9.10', '10.1.2.3', '172.16.0.1', '172.31.255.254', '192.168.1.20', '100.64.0.1', '8.8.8.8',
  '::1', 'fd12:3456::1', 'fc00::1', '2606:4700:4700::1111', '::ffff:127.0.0.1', '::ffff:192.168.0.1', '64:ff9b::808:808',
];
const REFUSED: [string, RegExp][] = [
  ['169.254.169.254', /link-local/],
  ['169.254.0.1', /link-local/],
  ['0.0.0.0', /unspecified/],
  ['0.1.2.3', /unspecified/],
  ['224.0.0.251', /multicast/],
  ['239.255.255.250', /multicast/],
  ['240.0.0.1', /reserved/],
  ['255.255.255.255', /reserved/],
  ['192.0.2.10', /documentation/],
  ['198.18.0.1', /benchmarking/],
  ['fe80::1', /link-local/],
  ['fe80::1%eth0', /link-local/],
  ['febf:ffff::1', /link-local/],
  ['ff02::1', /multicast/],
  ['::', /unspecified/],
  ['::ffff:169.254.169.254', /link-local/],
  ['::ffff:a9fe:a9fe', /link-local/],
  ['64:ff9b::a9fe:a9fe', /link-local/],
  ['64:ff9b::169.254.169.254', /link-local/],
  ['2001:db8::1', /documentation/],
  ['fec0::1', /reserved/],
  ['100::1', /reserved/],
  ['::7f00:1', /reserved/],
];

const stub = (table: Record<string, string[]>): Resolve => async (hostname) => {
  const addresses = table[hostname];
  if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  return addresses.map((address): LookupAddress => ({ address, family: address.includes(':') ? 6 : 4 }));
};

function lookup(resolve: Resolve, hostname: string, options: { family?: number; all?: boolean }) {
  return new Promise<{ err: NodeJS.ErrnoException | null; address: unknown; family?: number }>((resolveResult) => {
    guardedLookup(resolve)(hostname, options, (err, address, family) => resolveResult({ err, address, family }));
  });
}

describe('the target guard', () => {
  it.each(ALLOWED)('allows %s', (address) => {
    expect(refusedAddress(address)).toBeNull();
  });

  it.each(REFUSED)('refuses %s', (address, why) => {
    expect(refusedAddress(address)).toMatch(why);
  });

  it('judges URLs by their scheme and by an IP literal host, leaving host names to the lookup', () => {
    expect(refusedUrl(new URL('ftp://127.0.0.1/hook'))).toMatch(/use http or https/);
    expect(refusedUrl(new URL('file:///etc/passwd'))).toMatch(/use http or https/);
    expect(refusedUrl(new URL('http://169.254.169.254/latest/meta-data'))).toBe('169.254.169.254 is a link-local address');
    expect(refusedUrl(new URL('http://[fe80::1]:8080/'))).toMatch(/link-local/);
    expect(refusedUrl(new URL('http://[::ffff:169.254.169.254]/'))).toMatch(/link-local/);
    // Spellings the URL parser turns into addresses are judged as those.
    expect(refusedUrl(new URL('http://0/'))).toMatch(/unspecified/);
    expect(refusedUrl(new URL('http://0xa9fea9fe/'))).toMatch(/link-local/);
    expect(refusedUrl(new URL('https://[::1]:4317/hook'))).toBeNull();
    expect(refusedUrl(new URL('http://192.168.10.5/erp'))).toBeNull();
    expect(refusedUrl(new URL('http://metadata.google.internal/'))).toBeNull();
  });

  it('a lookup fails when any address of the name is refused, and answers in the form asked for', async () => {
    const resolve = stub({
      'erp.lan': ['192.168.1.5', 'fd00::5'],
      'rebind.test': ['93.184.216.34', '169.254.169.254'],
      'v6.test': ['fd00::5'],
    });
    const refused = await lookup(resolve, 'rebind.test', { all: true });
    expect(refused.err).toBeInstanceOf(RefusedTargetError);
    expect(refused.err!.message).toBe('rebind.test resolves to 169.254.169.254, a link-local address');
    expect(await lookup(resolve, 'erp.lan', { all: true })).toMatchObject({
      err: null,
      address: [{ address: '192.168.1.5', family: 4 }, { address: 'fd00::5', family: 6 }],
    });
    expect(await lookup(resolve, 'erp.lan', { family: 6 })).toMatchObject({ err: null, address: 'fd00::5', family: 6 });
    expect((await lookup(resolve, 'v6.test', { family: 4 })).err?.code).toBe('ENOTFOUND');
    expect((await lookup(resolve, 'nowhere.test', {})).err?.code).toBe('ENOTFOUND');
  });
});

describe('the sender and delivery behind the guard', () => {
  let harness: WebhookHarness | undefined;
  let receiver: Receiver | undefined;
  afterEach(async () => {
    await harness?.stop();
    await receiver?.close();
    harness = receiver = undefined;
  });

  const request = (url: string) => ({ url, messageId: 'msg_guard', timestamp: 1_780_000_000, signature: 'v1,x', body: '{}' });

  it('connects through the stubbed lookup to an allowed address, and refuses a name that resolves to a refused one', async () => {
    receiver = await Receiver.start();
    const sender = new WebhookSender({ resolve: stub({ 'receiver.test': ['127.0.0.1'], 'metadata.test': ['169.254.169.254'] }) });
    try {
      const ok = await sender.send(request(`http://receiver.test:${receiver.port}/hook`));
      expect(ok).toMatchObject({ ok: true, status: 204, error: null });
      expect(receiver.received).toHaveLength(1);

      const refused = await sender.send(request(`http://metadata.test:${receiver.port}/latest/meta-data`));
      expect(refused).toMatchObject({ ok: false, status: null, error: 'refused target: metadata.test resolves to 169.254.169.254, a link-local address' });
      const literal = await sender.send(request('http://[fe80::1]:80/'));
      expect(literal).toMatchObject({ ok: false, status: null, error: 'refused target: fe80::1 is a link-local address' });
      expect(receiver.received).toHaveLength(1);
    } finally {
      sender.close();
    }
  });

  it('refuses a literal refused address at registration, and records a refused name as a failed attempt', async () => {
    const h = (harness = openWebhookHarness());
    const acme = manager('acme');
    for (const url of ['http://169.254.169.254/latest/meta-data', 'http://[::]:80/', 'http://224.0.0.1/']) {
      expect(() => h.webhooks.create(acme, { url, events: ['labelReport.tapped'] })).toThrow(/webhooks cannot be sent there/);
    }
    const hook = h.webhooks.create(acme, { url: 'http://metadata.test/latest/meta-data', events: ['labelReport.tapped'] });
    expect(() => h.webhooks.update(acme, hook.id, { url: 'http://0.0.0.0:4317/' })).toThrow(/0\.0\.0\.0 is an unspecified address/);
    h.deliver({ ...QUICK, schedule: new RetrySchedule([]), resolve: stub({ 'metadata.test': ['169.254.169.254'] }) });
    h.webhooks.test(acme, hook.id);
    await expect
      .poll(() => h.webhooks.deliveries(acme, hook.id, { pageNumber: 1, pageSize: 10 }).data[0]?.status, { timeout: 10_000, interval: 20 })
      .toBe('failed');
    expect(h.webhooks.deliveries(acme, hook.id, { pageNumber: 1, pageSize: 10 }).data[0]).toMatchObject({
      attempt: 1,
      responseStatus: null,
      error: 'refused target: metadata.test resolves to 169.254.169.254, a link-local address',
    });
  });
});
