/**
 * The fault proxy the sync tests stand between two services: it forwards faithfully (the
 * remote's Host guard passes), and each fault does what it says, as seen from the client and
 * from the service behind it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FaultProxy } from '../support/fault-proxy';
import { makeReport, startTestService, type TestService } from '../support/service-fixture';

let remote: TestService;
beforeAll(async () => {
  remote = await startTestService([makeReport('r1'), makeReport('r2')]);
});
afterAll(async () => {
  await remote.stop();
});

async function withProxy(test: (proxy: FaultProxy) => Promise<void>): Promise<void> {
  const proxy = await FaultProxy.start(remote.url);
  try {
    await test(proxy);
  } finally {
    await proxy.close();
  }
}

/** A request through the proxy: its status, or the name of the network error. */
async function through(proxy: FaultProxy, path: string, init: { method?: string; body?: unknown } = {}): Promise<number | string> {
  try {
    const res = await fetch(proxy.url + path, {
      method: init.method ?? 'GET',
      headers: { 'x-api-key': remote.keys.acme, ...(init.body ? { 'content-type': 'application/json' } : {}) },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    await res.arrayBuffer();
    return res.status;
  } catch (err) {
    return ((err as Error).cause as NodeJS.ErrnoException | undefined)?.code ?? 'network error';
  }
}

async function remoteReference(id: string): Promise<string> {
  const res = await fetch(`${remote.url}/v2/labelReports/${id}`, { headers: { 'x-api-key': remote.keys.acme } });
  return ((await res.json()) as { labelReference: string }).labelReference;
}

describe('the fault proxy', () => {
  it('forwards requests and answers unchanged, and counts them by method and path', async () => {
    await withProxy(async (proxy) => {
      const res = await fetch(`${proxy.url}/v2/labelReports/r1`, { headers: { 'x-api-key': remote.keys.acme } });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { id: string }).id).toBe('r1');
      expect(await through(proxy, '/v2/labelReports?output=minimal')).toBe(200);
      expect(await through(proxy, '/v2/labelReports/nope')).toBe(404);
      expect(proxy.count({ method: 'GET', path: /^\/v2\/labelReports\// })).toBe(2);
      expect(proxy.count({ path: '/v2/labelReports' })).toBe(1);
      expect(proxy.requests.map((r) => r.outcome)).toEqual([
        { kind: 'answered', status: 200, injected: false },
        { kind: 'answered', status: 200, injected: false },
        { kind: 'answered', status: 404, injected: false },
      ]);
    });
  });

  it('fails every n-th request, and n requests in a row', async () => {
    await withProxy(async (proxy) => {
      proxy.failEvery(3, { kind: 'status', status: 503, headers: { 'retry-after': '1' } });
      const statuses = [];
      for (let i = 0; i < 6; i++) statuses.push(await through(proxy, '/v2/labelReports/r1'));
      expect(statuses).toEqual([200, 200, 503, 200, 200, 503]);
      await proxy.heal();
      proxy.failNext(2, { kind: 'reset' });
      const next = [];
      for (let i = 0; i < 3; i++) next.push(await through(proxy, '/v2/labelReports/r1'));
      expect(next.slice(0, 2).every((s) => typeof s === 'string')).toBe(true);
      expect(next[2]).toBe(200);
    });
  });

  it('loses the answer of a request the service applied', async () => {
    await withProxy(async (proxy) => {
      proxy.failNext(1, { kind: 'drop-response' }, { method: 'PATCH' });
      const outcome = await through(proxy, '/v2/labelReports/r2', { method: 'PATCH', body: { labelReference: 'DROPPED' } });
      expect(typeof outcome).toBe('string');
      expect(await remoteReference('r2')).toBe('DROPPED');
      expect(proxy.seen({ method: 'PATCH' })[0].outcome).toEqual({ kind: 'cut', reason: 'drop-response' });
    });
  });

  it('holds a request before forwarding it, and an answer after the service gave it', async () => {
    await withProxy(async (proxy) => {
      const before = proxy.hold({ method: 'PATCH' }, 'request');
      const sent = through(proxy, '/v2/labelReports/r1', { method: 'PATCH', body: { labelReference: 'HELD-1' } });
      await before.arrived;
      expect(await remoteReference('r1')).not.toBe('HELD-1');
      before.release();
      expect(await sent).toBe(200);
      expect(await remoteReference('r1')).toBe('HELD-1');

      const after = proxy.hold({ method: 'PATCH' }, 'response');
      const answered = through(proxy, '/v2/labelReports/r1', { method: 'PATCH', body: { labelReference: 'HELD-2' } });
      await after.arrived;
      expect(await remoteReference('r1')).toBe('HELD-2');
      after.drop();
      expect(typeof (await answered)).toBe('string');
    });
  });

  it('goes offline refusing or cutting connections, and comes back on the same port', async () => {
    await withProxy(async (proxy) => {
      await proxy.offline('refuse');
      expect(await through(proxy, '/v2/labelReports/r1')).toBe('ECONNREFUSED');
      await proxy.online();
      expect(await through(proxy, '/v2/labelReports/r1')).toBe(200);
      await proxy.offline('reset');
      expect(typeof (await through(proxy, '/v2/labelReports/r1'))).toBe('string');
      await proxy.online();
      expect(await through(proxy, '/v2/labelReports/r1')).toBe(200);
    });
  });

  it('adds latency, and leaves no timer behind when closed mid-delay', async () => {
    // The proxy's own timers: the process's count moves with every other timer of the worker.
    const proxy = await FaultProxy.start(remote.url);
    proxy.setLatency(60_000);
    const pending = through(proxy, '/v2/labelReports/r1');
    await proxy.waitFor({ path: '/v2/labelReports/r1' });
    expect(proxy.pendingDelays).toBe(1);
    await proxy.close();
    expect(typeof (await pending)).toBe('string');
    expect(proxy.pendingDelays).toBe(0);
  });
});
