/**
 * Webhook delivery end to end against real receivers on 127.0.0.1: what is sent to whom, signed
 * as the Standard Webhooks reference implementation verifies, and what each kind of answer
 * leads to (retries under the same webhook-id, a timeout, 410, 429 with Retry-After, a redirect
 * never followed), rotation, rollback, leases after a crash and a stop, and pruning.
 */
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { toApiError } from '../../http/errors';
import type { Delivery } from '../../schema/webhooks';
import { RetrySchedule } from '../../webhooks/retry-schedule';
import { closedPort, Receiver, type Received } from '../support/webhook-receiver';
import { manager, openWebhookHarness, QUICK, type WebhookHarness } from '../support/webhook-fixture';
import { makeReport } from '../support/service-fixture';

const ACME = manager('acme');
const DAY_MS = 24 * 60 * 60 * 1000;

let harness: WebhookHarness | undefined;
let receivers: Receiver[] = [];
afterEach(async () => {
  await harness?.stop();
  harness = undefined;
  await Promise.all(receivers.map((r) => r.close()));
  receivers = [];
});

async function receiver(...args: Parameters<typeof Receiver.start>): Promise<Receiver> {
  const started = await Receiver.start(...args);
  receivers.push(started);
  return started;
}

function open(...args: Parameters<typeof openWebhookHarness>): WebhookHarness {
  harness = openWebhookHarness(...args);
  return harness;
}

/** A harness whose clock the test moves: `skew.ms` ahead of the real one. */
function openSkewed(): { h: WebhookHarness; skew: { ms: number } } {
  const skew = { ms: 0 };
  return { h: open([], { now: () => new Date(Date.now() + skew.ms) }), skew };
}

/** acme's webhook for taps, sent to `rx`. */
function hookTo(h: WebhookHarness, rx: Receiver) {
  return h.webhooks.create(ACME, { url: rx.url(), events: ['labelReport.tapped'] });
}

function deliveries(h: WebhookHarness, webhookId: string, who = ACME): Delivery[] {
  return h.webhooks.deliveries(who, webhookId, { pageNumber: 1, pageSize: 100 }).data;
}

/**
 * Waits until the webhook's log satisfies `done`; returns the log, newest first. The wait ends
 * at the suite's poll deadline (vitest.config.ts), never a shorter one of its own: on a busy
 * machine deliveries take longer, not differently.
 */
async function logUntil(h: WebhookHarness, webhookId: string, done: (log: Delivery[]) => boolean): Promise<Delivery[]> {
  let log: Delivery[] = [];
  await expect
    .poll(() => {
      log = deliveries(h, webhookId);
      return done(log) ? 'done' : `not yet: ${JSON.stringify(log.map((d) => [d.attempt, d.status, d.responseStatus, d.error]))}`;
    }, { interval: 20 })
    .toBe('done');
  return log;
}

const settled = (log: Delivery[]) => log.length > 0 && log.every((d) => d.status !== 'pending');

/** The error `fn` throws, as the API answers it. */
function refusal(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return toApiError(err);
  }
  throw new Error('nothing was refused');
}

function verify(secret: string, request: Received): unknown {
  return new Webhook(secret).verify(request.body, request.headers as Record<string, string>);
}

describe('webhook delivery', () => {
  it('sends each company that can see the report its own view of it, signed, and nothing to a company that cannot', async () => {
    const h = open([
      makeReport('r1', {
        access: [{ companyId: 'nordic', role: 'viewer' }],
        companyState: [{ companyId: 'nordic', hasFlag: true, isArchived: false }],
      }),
    ]);
    const rx = await receiver();
    const acme = h.webhooks.create(ACME, { url: rx.url('/acme'), events: ['labelReport.tapped'] });
    const acmeActivated = h.webhooks.create(ACME, { url: rx.url('/acme-activated'), events: ['labelReport.activated'] });
    const nordic = h.webhooks.create(manager('nordic'), { url: rx.url('/nordic'), events: ['labelReport.activated', 'labelReport.tapped'] });
    const fresh = h.webhooks.create(manager('fresh'), { url: rx.url('/fresh'), events: ['labelReport.tapped'] });
    h.deliver();

    h.announce('labelReport.tapped', 'r1');
    const arrived = await rx.waitFor(2);
    const byPath = new Map(arrived.map((r) => [r.path, r]));
    expect([...byPath.keys()].sort()).toEqual(['/acme', '/nordic']);
    for (const [path, hook, company] of [['/acme', acme, 'acme'], ['/nordic', nordic, 'nordic']] as const) {
      const request = byPath.get(path)!;
      const payload = verify(hook.secret, request) as { type: string; timestamp: string; data: unknown };
      expect(payload.type).toBe('labelReport.tapped');
      expect(new Date(payload.timestamp).toISOString()).toBe(payload.timestamp);
      const caller = { keyId: 'test', companyId: company, permissions: new Set(['labelReports:read'] as const) };
      expect(payload.data).toEqual(h.reports.retrieve(caller, 'r1'));
      expect(request.headers['content-type']).toBe('application/json');
      expect(request.headers['user-agent']).toMatch(/^LabelDesk\/\d+\.\d+\.\d+/);
      expect(request.headers['webhook-id']).toMatch(/^msg_/);
    }
    expect((JSON.parse(byPath.get('/nordic')!.body) as { data: { hasFlag: boolean } }).data.hasFlag).toBe(true);
    expect((JSON.parse(byPath.get('/acme')!.body) as { data: { hasFlag: boolean } }).data.hasFlag).toBe(false);
    // Written in the transaction or never: nothing was owed to these two.
    expect(h.webhooks.deliveries(manager('fresh'), fresh.id, { pageNumber: 1, pageSize: 10 }).totalDocuments).toBe(0);
    expect(deliveries(h, acmeActivated.id)).toEqual([]);
    await logUntil(h, acme.id, settled);
  });

  it('a change that rolls back sends nothing; announcing outside a transaction is a programming error', async () => {
    const h = open([makeReport('r1')]);
    const rx = await receiver();
    const hook = hookTo(h, rx);
    h.deliver();
    expect(() =>
      h.data.write(() => {
        const r1 = h.writer.load('r1')!;
        h.writer.edit(r1, { ...r1, numberOfTaps: 2 }, { kind: 'import' });
        h.outbox.reportEvent('labelReport.tapped', 'r1');
        throw new Error('the tap failed after its announcement');
      }),
    ).toThrow('the tap failed');
    expect(deliveries(h, hook.id)).toEqual([]);
    expect(() => h.outbox.reportEvent('labelReport.tapped', 'r1')).toThrow(/inside the transaction/);

    h.announce('labelReport.tapped', 'r1');
    const log = await logUntil(h, hook.id, settled);
    expect(log).toHaveLength(1);
    expect(rx.received.map((r) => r.headers['webhook-id'])).toEqual([log[0].messageId]);
  });

  it('retries a receiver that is down until it is up, under the same webhook-id', async () => {
    const h = open();
    const port = await closedPort();
    const hook = h.webhooks.create(ACME, { url: `http://127.0.0.1:${port}/hook`, events: ['labelReport.tapped'] });
    h.deliver({ ...QUICK, schedule: new RetrySchedule(Array(50).fill(0.05), () => 0.5) });
    const { messageId } = h.webhooks.test(ACME, hook.id);
    await logUntil(h, hook.id, (log) => log.some((d) => d.status === 'failed'));

    const rx = await receiver(undefined, port);
    const [request] = await rx.waitFor(1);
    expect(request.headers['webhook-id']).toBe(messageId);
    expect(verify(hook.secret, request)).toEqual({ type: 'webhook.test', timestamp: expect.any(String), data: { webhookId: hook.id } });
    const log = await logUntil(h, hook.id, (l) => l[0]?.status === 'succeeded');
    expect(log.every((d) => d.messageId === messageId)).toBe(true);
    const failed = log.filter((d) => d.status === 'failed');
    expect(failed.length).toBeGreaterThan(0);
    expect(failed[0]).toMatchObject({ responseStatus: null, error: expect.stringMatching(/ECONNREFUSED/), nextAttemptAt: expect.any(String) });
    expect(log.map((d) => d.attempt)).toEqual(log.map((_, i) => log.length - i));
  });

  it('a receiver slower than the timeout fails that attempt; the retry carries the same webhook-id', async () => {
    const h = open();
    const rx = await receiver((_request, index) => (index === 0 ? 'hang' : { status: 200 }));
    const hook = hookTo(h, rx);
    // The first attempt hangs until the deadline; the deadline leaves the second, answered at
    // once, seconds to spare on a busy machine.
    h.deliver({ ...QUICK, timeoutMs: 5_000 });
    h.webhooks.test(ACME, hook.id);
    const [first, second] = await rx.waitFor(2);
    expect(second.headers['webhook-id']).toBe(first.headers['webhook-id']);
    expect(second.body).toBe(first.body);
    verify(hook.secret, second);
    const log = await logUntil(h, hook.id, settled);
    // Newest first: the retry that was answered, after the attempt that hung. A retry the busy
    // machine kept past the deadline too is one more timed-out attempt, not a different outcome.
    expect(log[0]).toMatchObject({ status: 'succeeded', responseStatus: 200 });
    expect(log.at(-1)).toMatchObject({ attempt: 1, status: 'failed', responseStatus: null, error: 'no answer within 5 s' });
    for (const d of log.slice(1)) expect(d).toMatchObject({ status: 'failed', error: 'no answer within 5 s' });
    expect(log.map((d) => d.attempt)).toEqual(log.map((_, i) => log.length - i));
  });

  it('500, 500, then 200: two failed attempts with their next attempt, then a success', async () => {
    const h = open();
    const rx = await receiver((_request, index) => ({ status: index < 2 ? 500 : 200 }));
    const hook = hookTo(h, rx);
    h.deliver();
    const { messageId } = h.webhooks.test(ACME, hook.id);
    const log = await logUntil(h, hook.id, settled);
    expect(log.map((d) => [d.attempt, d.status, d.responseStatus, d.error])).toEqual([
      [3, 'succeeded', 200, null],
      [2, 'failed', 500, 'answered 500'],
      [1, 'failed', 500, 'answered 500'],
    ]);
    expect(log[0].nextAttemptAt).toBeNull();
    for (const failed of log.slice(1)) expect(Date.parse(failed.nextAttemptAt!)).toBeGreaterThan(Date.parse(failed.at));
    expect(new Set(rx.received.map((r) => r.headers['webhook-id']))).toEqual(new Set([messageId]));
  });

  it('a message fails for good after the last retry of the schedule', async () => {
    const h = open();
    const rx = await receiver(() => ({ status: 502 }));
    const hook = hookTo(h, rx);
    h.deliver({ ...QUICK, schedule: new RetrySchedule([0.01], () => 0.5) });
    h.webhooks.test(ACME, hook.id);
    const log = await logUntil(h, hook.id, settled);
    expect(log.map((d) => [d.attempt, d.status, d.nextAttemptAt === null])).toEqual([
      [2, 'failed', true],
      [1, 'failed', false],
    ]);
    expect(h.webhooks.get(ACME, hook.id).enabled).toBe(true);
  });

  it('410 disables the webhook, says why, and stops its messages', async () => {
    const h = open([makeReport('r1')]);
    const rx = await receiver(() => ({ status: 410 }));
    const hook = hookTo(h, rx);
    h.deliver();
    h.webhooks.test(ACME, hook.id);
    const log = await logUntil(h, hook.id, settled);
    expect(log).toMatchObject([{ attempt: 1, status: 'failed', responseStatus: 410, nextAttemptAt: null }]);
    expect(h.webhooks.get(ACME, hook.id)).toMatchObject({ enabled: false, disabledReason: expect.stringMatching(/410/) });
    h.announce('labelReport.tapped', 'r1');
    expect(deliveries(h, hook.id)).toHaveLength(1);
    expect(refusal(() => h.webhooks.test(ACME, hook.id))).toMatchObject({ statusCode: 409, code: 'WEBHOOK_DISABLED' });

    // Enabled again by hand, it takes events again and forgets why it was disabled.
    expect(h.webhooks.update(ACME, hook.id, { enabled: true })).toMatchObject({ enabled: true, disabledReason: null });
  });

  it('429 with Retry-After waits at least that long before the next attempt', async () => {
    // The service's clock is moved past the Retry-After instead of the test sleeping through it:
    // both attempts' times are the ones the worker itself recorded.
    const { h, skew } = openSkewed();
    const rx = await receiver((_request, index) => (index === 0 ? { status: 429, headers: { 'retry-after': '60' } } : { status: 204 }));
    const hook = hookTo(h, rx);
    h.deliver();
    h.webhooks.test(ACME, hook.id);
    const failed = (l: Delivery[]) => l.find((d) => d.attempt === 1 && d.status === 'failed' && d.nextAttemptAt !== null);
    const waiting = failed(await logUntil(h, hook.id, (l) => failed(l) !== undefined))!;
    skew.ms = Date.parse(waiting.nextAttemptAt!) - Date.now() + 1;
    h.worker!.wake();
    const log = await logUntil(h, hook.id, (l) => l.length === 2 && settled(l));
    const [second, first] = log;
    expect(first).toMatchObject({ status: 'failed', responseStatus: 429 });
    expect(Date.parse(first.nextAttemptAt!) - Date.parse(first.at)).toBeGreaterThanOrEqual(60_000);
    expect(Date.parse(second.at)).toBeGreaterThanOrEqual(Date.parse(first.nextAttemptAt!));
    expect(second).toMatchObject({ status: 'succeeded', responseStatus: 204 });
  });

  it('a 301 is a failure and is never followed', async () => {
    const h = open();
    const rx = await receiver((request) =>
      request.path === '/hook' ? { status: 301, headers: { location: rx.url('/elsewhere') } } : { status: 200 },
    );
    const hook = h.webhooks.create(ACME, { url: rx.url('/hook'), events: ['labelReport.tapped'] });
    h.deliver({ ...QUICK, schedule: new RetrySchedule([0.01], () => 0.5) });
    h.webhooks.test(ACME, hook.id);
    const log = await logUntil(h, hook.id, settled);
    expect(log.map((d) => [d.status, d.responseStatus])).toEqual([
      ['failed', 301],
      ['failed', 301],
    ]);
    expect(log[0].error).toBe(`answered 301, a redirect to ${rx.url('/elsewhere')}, which is not followed`);
    expect(rx.received.map((r) => r.path)).toEqual(['/hook', '/hook']);
  });

  it('during a rotation both secrets sign, each verifying on its own; the old one stops after 24 hours', async () => {
    const { h, skew } = openSkewed();
    const rx = await receiver();
    const hook = hookTo(h, rx);
    const { secret } = h.webhooks.rotateSecret(ACME, hook.id);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(secret).not.toBe(hook.secret);
    h.deliver();
    h.webhooks.test(ACME, hook.id);
    const [during] = await rx.waitFor(1);
    expect(String(during.headers['webhook-signature']).split(' ')).toHaveLength(2);
    verify(hook.secret, during);
    verify(secret, during);
    await logUntil(h, hook.id, settled);

    // A day later by the service's clock; its webhook-timestamp is a day ahead, so the
    // signatures are checked against what the reference implementation signs for it.
    skew.ms = DAY_MS + 1000;
    h.webhooks.test(ACME, hook.id);
    const [, after] = await rx.waitFor(2);
    const signed = (key: string) =>
      new Webhook(key).sign(String(after.headers['webhook-id']), new Date(Number(after.headers['webhook-timestamp']) * 1000), after.body);
    expect(after.headers['webhook-signature']).toBe(signed(secret));
    expect(signed(hook.secret)).not.toBe(signed(secret));
  });

  it('redelivers a delivered message under the same webhook-id', async () => {
    const h = open();
    const rx = await receiver();
    const hook = hookTo(h, rx);
    h.deliver();
    const { messageId } = h.webhooks.test(ACME, hook.id);
    await logUntil(h, hook.id, settled);
    expect(h.webhooks.redeliver(ACME, hook.id, messageId)).toEqual({ messageId });
    const log = await logUntil(h, hook.id, (l) => l.length === 2 && settled(l));
    expect(log.map((d) => [d.messageId, d.attempt, d.status])).toEqual([
      [messageId, 2, 'succeeded'],
      [messageId, 1, 'succeeded'],
    ]);
    expect(rx.received.map((r) => r.headers['webhook-id'])).toEqual([messageId, messageId]);
    expect(refusal(() => h.webhooks.redeliver(ACME, hook.id, 'msg_unknown'))).toMatchObject({ statusCode: 404, code: 'MESSAGE_NOT_FOUND' });
  });
});

describe('the worker between events', () => {
  it('a webhook with its attempts in flight holds back its own messages without spinning, and not the others', async () => {
    const h = open();
    const slow = await receiver(() => 'hang');
    const quick = await receiver();
    const held = h.webhooks.create(ACME, { url: slow.url(), events: ['labelReport.tapped'] });
    const other = h.webhooks.create(ACME, { url: quick.url(), events: ['labelReport.tapped'] });
    h.deliver({ ...QUICK, timeoutMs: 60_000, perWebhook: 1 });
    for (let i = 0; i < 3; i++) h.webhooks.test(ACME, held.id);
    await slow.waitFor(1);
    h.webhooks.test(ACME, other.id);
    await quick.waitFor(1);
    await logUntil(h, other.id, settled);
    expect(slow.received).toHaveLength(1);
    // The two messages behind the one in flight are due, but only the end of that attempt can
    // let them go: the worker sleeps instead of looking again on every turn of the event loop.
    // Another webhook's message wakes it, and its whole delivery (many turns) takes a few looks.
    const looks = vi.spyOn(h.data.webhooks, 'due');
    onTestFinished(() => looks.mockRestore());
    h.webhooks.test(ACME, other.id);
    await quick.waitFor(2);
    await logUntil(h, other.id, (log) => log.length === 2 && settled(log));
    expect(slow.received).toHaveLength(1);
    expect(looks.mock.calls.length).toBeLessThan(5);
  });
});

describe('leases, stops, long failures and pruning', () => {
  it('a lease held by a process that no longer runs is given back at start', async () => {
    const h = open();
    const rx = await receiver();
    const hook = hookTo(h, rx);
    const dead = h.webhooks.test(ACME, hook.id).messageId;
    const own = h.webhooks.test(ACME, hook.id).messageId;
    const inAnHour = new Date(Date.now() + 3_600_000).toISOString();
    h.data.write(() => {
      h.data.webhooks.lease(dead, inAnHour, 424_242);
      // Left by an earlier process under the same pid (a container's pid 1).
      h.data.webhooks.lease(own, inAnHour, process.pid);
    });
    h.deliver({ ...QUICK, isRunning: (pid) => pid !== 424_242 });
    await rx.waitFor(2);
    expect(rx.received.map((r) => r.headers['webhook-id']).sort()).toEqual([dead, own].sort());
  });

  it('a lease held by a running process is respected until it runs out', async () => {
    const { h, skew } = openSkewed();
    const rx = await receiver();
    const hook = hookTo(h, rx);
    const { messageId } = h.webhooks.test(ACME, hook.id);
    h.data.write(() => h.data.webhooks.lease(messageId, new Date(Date.now() + 60_000).toISOString(), 424_242));
    const worker = h.deliver({ ...QUICK, isRunning: () => true });
    // Claiming is synchronous: had the worker taken it, the lease would be this process's now.
    expect(h.data.webhooks.leaseHolders()).toEqual([424_242]);
    skew.ms = 61_000;
    worker.wake();
    const [request] = await rx.waitFor(1);
    expect(request.headers['webhook-id']).toBe(messageId);
  });

  it('a stop cuts an attempt in flight short and gives its lease back; the next start sends it again', async () => {
    const h = open();
    const rx = await receiver((_request, index) => (index === 0 ? 'hang' : { status: 200 }));
    const hook = hookTo(h, rx);
    const worker = h.deliver({ ...QUICK, timeoutMs: 60_000 });
    const { messageId } = h.webhooks.test(ACME, hook.id);
    await rx.waitFor(1);
    expect(h.data.webhooks.leaseHolders()).toEqual([process.pid]);
    await worker.stop(10);
    expect(h.data.webhooks.leaseHolders()).toEqual([]);
    expect(deliveries(h, hook.id)).toMatchObject([{ messageId, attempt: 1, status: 'pending' }]);

    h.deliver();
    const [, again] = await rx.waitFor(2);
    expect(again.headers['webhook-id']).toBe(messageId);
    await logUntil(h, hook.id, settled);
  });

  it('a webhook whose every attempt failed for 5 days is disabled', async () => {
    const { h, skew } = openSkewed();
    const rx = await receiver(() => ({ status: 500 }));
    const hook = hookTo(h, rx);
    // The retry an hour later comes only when the clock jumps.
    const worker = h.deliver({ ...QUICK, schedule: new RetrySchedule([3600, 3600], () => 0.5) });
    h.webhooks.test(ACME, hook.id);
    await logUntil(h, hook.id, (log) => log.some((d) => d.status === 'failed'));
    expect(h.webhooks.get(ACME, hook.id).enabled).toBe(true);
    skew.ms = 5 * DAY_MS;
    worker.wake();
    await expect.poll(() => h.webhooks.get(ACME, hook.id).enabled, { interval: 20 }).toBe(false);
    expect(h.webhooks.get(ACME, hook.id).disabledReason).toMatch(/^every delivery failed from /);
  });

  it('attempts older than 30 days are pruned, with the finished messages they leave behind', async () => {
    const { h, skew } = openSkewed();
    const rx = await receiver();
    const hook = hookTo(h, rx);
    const worker = h.deliver();
    h.webhooks.test(ACME, hook.id);
    await logUntil(h, hook.id, settled);
    await worker.stop();

    skew.ms = 31 * DAY_MS;
    const { messageId } = h.webhooks.test(ACME, hook.id);
    h.deliver();
    const log = await logUntil(h, hook.id, settled);
    expect(log.map((d) => d.messageId)).toEqual([messageId]);
  });
});
