/**
 * The retrieve pool against a real remote (a LabelDesk service on loopback) behind the fault
 * proxy, on a clock the test moves: never more retrieves in flight than its bound, batches fed
 * one after another without waiting for the one before to finish, and a 429 or 503 pausing the
 * whole pool (until its Retry-After, else on a doubling backoff) so that no retrieve starts
 * until the clock has passed the time the remote allowed.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RemoteClient, RemoteFailure } from '../../sync/remote-client';
import { RETRIEVE_CONCURRENCY, RetrievePool, type RetrievePoolOptions } from '../../sync/retrieve-pool';
import { FaultProxy } from '../support/fault-proxy';
import { startTestService, type TestService } from '../support/service-fixture';
import { eventually } from '../support/sync-pair';
import { plainReports } from '../support/sync-reports';

/** Reports on the remote: enough for three times the bound. */
const SEEDED = 3 * RETRIEVE_CONCURRENCY;
const RETRIEVE = { method: 'GET', path: /^\/v2\/labelReports\/[^?]+$/ };
const retrieveOf = (id: string) => ({ method: 'GET', path: `/v2/labelReports/${id}` });
const ids = (from: number, count: number) => Array.from({ length: count }, (_, i) => `r-${String(from + i).padStart(3, '0')}`);

/** A clock that moves only when the test says: the pool's waits are recorded and end at `advance()`. */
class TestClock {
  ms = 1_800_000_000_000;
  readonly waits: number[] = [];
  private pending: { until: number; resolve(): void; reject(err: unknown): void }[] = [];

  now = (): number => this.ms;

  wait = (ms: number): Promise<void> => {
    this.waits.push(ms);
    return new Promise((resolve, reject) => this.pending.push({ until: this.ms + ms, resolve, reject }));
  };

  get waiting(): number {
    return this.pending.length;
  }

  /** Moves the clock to the end of the earliest wait and ends the waits due by then. */
  advance(): void {
    const until = Math.min(...this.pending.map((p) => p.until));
    this.ms = Math.max(this.ms, until);
    const due = this.pending.filter((p) => p.until <= this.ms);
    this.pending = this.pending.filter((p) => p.until > this.ms);
    for (const p of due) p.resolve();
  }

  /** Ends every wait with `err`, as a worker asked to stop does. */
  stop(err: unknown): void {
    for (const p of this.pending.splice(0)) p.reject(err);
  }
}

let remote: TestService;
let proxy: FaultProxy;
let client: RemoteClient;
let clock: TestClock;
/** What the pool did, in order: `start <id>` as each retrieve is sent, `pause <ms>` as a pause begins. */
let events: string[];

beforeEach(async () => {
  remote = await startTestService(plainReports(SEEDED));
  proxy = await FaultProxy.start(remote.url);
  client = new RemoteClient(proxy.url, remote.keys.acme, 10_000);
  clock = new TestClock();
  events = [];
});

afterEach(async () => {
  client?.close();
  await proxy?.close();
  await remote?.stop();
});

function pool(options: Partial<RetrievePoolOptions> = {}): RetrievePool {
  return new RetrievePool({
    retrieve: (id) => {
      events.push(`start ${id}`);
      return client.retrieve(id);
    },
    wait: clock.wait,
    now: clock.now,
    random: () => 0,
    retryWait: async () => false,
    onPause: (ms) => events.push(`pause ${ms}`),
    ...options,
  });
}

const idsOf = (reports: readonly { id: string }[]) => reports.map((r) => r.id);
const pending = () => proxy.requests.filter((r) => r.outcome.kind === 'pending').length;
/** The ids retrieved at the remote, in the order they arrived (connections side by side may overtake one another). */
const arrived = () => proxy.seen(RETRIEVE).map((r) => decodeURIComponent(r.path.slice('/v2/labelReports/'.length)));
const started = () => events.filter((e) => e.startsWith('start ')).length;

describe('the retrieve pool', () => {
  it(`keeps at most its bound (${RETRIEVE_CONCURRENCY} by default, one per connection) in flight, and fills it across batches`, async () => {
    const all = ids(0, SEEDED);
    const holds = all.map(() => proxy.hold(RETRIEVE));
    const p = pool();
    // Three batches handed in at once, as a pull hands in the pages it has listed; the first smaller than the bound.
    const cuts = [RETRIEVE_CONCURRENCY - 3, 2 * RETRIEVE_CONCURRENCY];
    const batches = [p.fetch(all.slice(0, cuts[0])), p.fetch(all.slice(cuts[0], cuts[1])), p.fetch(all.slice(cuts[1]))];

    await proxy.waitFor(RETRIEVE, RETRIEVE_CONCURRENCY);
    expect(pending()).toBe(RETRIEVE_CONCURRENCY);
    expect(p.inFlight).toBe(RETRIEVE_CONCURRENCY);
    // The first batch is not yet answered, yet the second's retrieves are on their way: the pool does not run dry between batches.
    expect(arrived().sort()).toEqual(all.slice(0, RETRIEVE_CONCURRENCY));
    for (let k = 0; k < all.length - RETRIEVE_CONCURRENCY; k++) {
      holds[k].release();
      await proxy.waitFor(RETRIEVE, RETRIEVE_CONCURRENCY + k + 1);
      expect(pending()).toBeLessThanOrEqual(RETRIEVE_CONCURRENCY);
      expect(p.inFlight).toBeLessThanOrEqual(RETRIEVE_CONCURRENCY);
    }
    for (const hold of holds) hold.release();

    expect((await Promise.all(batches)).map(idsOf)).toEqual([all.slice(0, cuts[0]), all.slice(cuts[0], cuts[1]), all.slice(cuts[1])]);
    // Sent in the order handed in, each once.
    expect(events).toEqual(all.map((id) => `start ${id}`));
    expect(arrived().sort()).toEqual(all);
  });

  it('a smaller bound holds too', async () => {
    const all = ids(0, 10);
    const holds = all.map(() => proxy.hold(RETRIEVE));
    const p = pool({ concurrency: 3 });
    const batch = p.fetch(all);
    await proxy.waitFor(RETRIEVE, 3);
    for (let k = 0; k < all.length - 3; k++) {
      holds[k].release();
      await proxy.waitFor(RETRIEVE, 3 + k + 1);
      expect(pending()).toBeLessThanOrEqual(3);
    }
    for (const hold of holds) hold.release();
    expect(idsOf(await batch)).toEqual(all);
  });

  it('a 429 with Retry-After pauses the whole pool: the retrieves in flight finish, none starts until the time the remote allowed', async () => {
    const all = ids(0, 12);
    const limited = proxy.failNext(1, { kind: 'status', status: 429, headers: { 'retry-after': '3' } }, RETRIEVE);
    const p = pool({ concurrency: 4 });
    const batch = p.fetch(all);

    // The first retrieve is answered 429: the pool pauses for the 3 s asked, as one wait.
    await eventually(() => expect(clock.waiting).toBe(1));
    expect(clock.waits).toEqual([3000]);
    expect(limited.fired).toBe(1);
    // The three sent with it finish; nothing else starts while the clock stands before the allowed time.
    await eventually(() => expect(p.inFlight).toBe(0));
    expect(p.paused).toBe(true);
    const before = started();
    expect(events.indexOf('pause 3000')).toBeGreaterThan(-1);
    expect(events.slice(events.indexOf('pause 3000') + 1).filter((e) => e.startsWith('start '))).toEqual([]);
    expect(proxy.count(RETRIEVE)).toBe(before);
    expect(before).toBeLessThanOrEqual(4);

    clock.advance();
    const reports = await batch;
    expect(idsOf(reports)).toEqual(all);
    // The refused one asked again after the pause, first; each of the others once.
    const afterPause = events.slice(events.indexOf('pause 3000') + 1);
    expect(afterPause[0]).toBe(`start ${all[0]}`);
    expect(proxy.count(RETRIEVE)).toBe(all.length + 1);
    expect(proxy.count(retrieveOf(all[0]))).toBe(2);
  });

  it('a 503 with Retry-After pauses it the same way; answers to retrieves sent before the pause do not pause it again', async () => {
    const all = ids(0, 8);
    // All four first retrieves answered 503: one pause, not four.
    proxy.failNext(4, { kind: 'status', status: 503, headers: { 'retry-after': '2' } }, RETRIEVE);
    const p = pool({ concurrency: 4 });
    const batch = p.fetch(all);
    await eventually(() => expect(p.inFlight).toBe(0));
    expect(proxy.count(RETRIEVE)).toBe(4);
    expect(clock.waits).toEqual([2000]);
    clock.advance();
    expect(idsOf(await batch)).toEqual(all);
    expect(clock.waits).toEqual([2000]);
    expect(proxy.count(RETRIEVE)).toBe(12);
  });

  it('a 429 without Retry-After pauses on a backoff that doubles while the remote keeps answering so', async () => {
    const all = ids(0, 3);
    proxy.failNext(3, { kind: 'status', status: 429 }, RETRIEVE);
    const p = pool({ concurrency: 1 });
    const batch = p.fetch(all);
    for (const ms of [500, 1000, 2000]) {
      await eventually(() => expect(clock.waiting).toBe(1));
      expect(clock.waits.at(-1)).toBe(ms);
      expect(p.inFlight).toBe(0);
      clock.advance();
    }
    expect(idsOf(await batch)).toEqual(all);
    expect(proxy.count(retrieveOf(all[0]))).toBe(4);
  });

  it('a Retry-After longer than a cycle should wait fails the batch with it, for the cycle\'s backoff to honour', async () => {
    proxy.failNext(1, { kind: 'status', status: 429, headers: { 'retry-after': '3600' } }, RETRIEVE);
    const p = pool({ concurrency: 1 });
    const failure = await p.fetch(ids(0, 3)).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(RemoteFailure);
    expect(failure).toMatchObject({ status: 429, retryAfterMs: 3_600_000 });
    expect(clock.waits).toEqual([]);
    expect(proxy.count(RETRIEVE)).toBe(1);
  });

  it('a remote that keeps answering 429 fails the batch after the pauses in a row it is allowed', async () => {
    proxy.failAll({ kind: 'status', status: 429, headers: { 'retry-after': '1' } }, RETRIEVE);
    const p = pool({ concurrency: 1, pauses: { firstPauseMs: 100, longestPauseMs: 1000, longestRetryAfterMs: 5000, pausesInARow: 2 } });
    const batch = p.fetch(ids(0, 2));
    batch.catch(() => undefined);
    for (let k = 0; k < 2; k++) {
      await eventually(() => expect(clock.waiting).toBe(1));
      clock.advance();
    }
    await expect(batch).rejects.toMatchObject({ status: 429 });
    expect(clock.waits).toEqual([1000, 1000]);
    expect(proxy.count(RETRIEVE)).toBe(3);
  });

  it('a retrieve that fails for good fails its batch and those handed in after it; the batches before it complete', async () => {
    proxy.failAll({ kind: 'status', status: 400, body: { message: 'no' } }, retrieveOf('r-005'));
    // Keeps a slot busy, should it start before the failure comes, so the pool has not reached the third batch by then.
    const held = proxy.hold(retrieveOf('r-006'));
    const p = pool({ concurrency: 2 });
    const [a, b, c] = [p.fetch(ids(0, 4)), p.fetch(ids(4, 4)), p.fetch(ids(8, 4))];
    b.catch(() => undefined);
    c.catch(() => undefined);
    expect(idsOf(await a)).toEqual(ids(0, 4));
    await expect(b).rejects.toMatchObject({ kind: 'refused', status: 400 });
    await expect(c).rejects.toMatchObject({ kind: 'refused', status: 400 });
    held.release();
    await eventually(() => expect(p.inFlight).toBe(0));
    // Nothing of the failed batch's rest, nor of the batch after it, was asked for.
    for (const id of [...ids(7, 1), ...ids(8, 4)]) expect(proxy.count(retrieveOf(id)), id).toBe(0);
  });

  it('a transient failure other than a slow-down is asked again on the read retry, without pausing the others', async () => {
    proxy.failNext(1, { kind: 'reset' }, retrieveOf('r-000'));
    const retried: number[] = [];
    const p = pool({
      concurrency: 2,
      retryWait: async (attempt) => {
        retried.push(attempt);
        return true;
      },
    });
    expect(idsOf(await p.fetch(ids(0, 4)))).toEqual(ids(0, 4));
    expect(retried).toEqual([1]);
    expect(clock.waits).toEqual([]);
    expect(proxy.count(retrieveOf('r-000'))).toBe(2);
  });

  it('stopped during a pause: the batches reject with the stop, and nothing more is asked for', async () => {
    proxy.failNext(1, { kind: 'status', status: 429, headers: { 'retry-after': '5' } }, RETRIEVE);
    const p = pool({ concurrency: 1 });
    const batch = p.fetch(ids(0, 3));
    batch.catch(() => undefined);
    await eventually(() => expect(clock.waiting).toBe(1));
    const stop = new Error('sync stopped');
    clock.stop(stop);
    await expect(batch).rejects.toBe(stop);
    expect(proxy.count(RETRIEVE)).toBe(1);
  });
});
