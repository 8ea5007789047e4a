/**
 * The webhooks store against a REAL local service and a real receiver on 127.0.0.1: endpoints
 * added, changed, disabled and deleted through /v2/webhooks, secrets shown once and checked
 * against what the receiver gets, test events and redeliveries followed into the deliveries log,
 * and every refusal said in words.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient } from '../../renderer/api/client';
import { deliveryErrorText } from '../../renderer/lib/webhook-text';
import { createWebhooksStore } from '../../renderer/state/webhooks';
import type { WebhooksState, WebhooksStore } from '../../renderer/state/webhooks';
import { Receiver } from '../support/webhook-receiver';
import type { Received } from '../support/webhook-receiver';
import { KEYS, startFixtureServer } from './server-fixture';
import type { FixtureServer } from './server-fixture';

let server: FixtureServer;
let receiver: Receiver;

beforeAll(async () => {
  server = await startFixtureServer(5);
  // The path says how to answer, so each test picks its receiver's behaviour by its URL.
  receiver = await Receiver.start((request) => ({ status: request.path === '/gone' ? 410 : request.path === '/fail' ? 500 : 204 }));
});
afterAll(async () => {
  await server?.close();
  await receiver?.close();
});

const BOTH = ['labelReport.activated', 'labelReport.tapped'] as const;

/** Re-reads follow each other quickly: the tests wait for the state they expect, not for time. */
function webhooksStore(key: string = KEYS.acme, pageSize = 10): WebhooksStore {
  const client = createApiClient({ baseUrl: server.url, apiKey: key });
  return createWebhooksStore({ getClient: () => client, pageSize, followDelaysMs: new Array(400).fill(25) });
}

/** Resolves with the state once `ready` holds, checked on every change of the store. */
function until(store: WebhooksStore, ready: (s: WebhooksState) => boolean): Promise<WebhooksState> {
  return new Promise((resolve) => {
    if (ready(store.getState())) return resolve(store.getState());
    const stop = store.subscribe((s) => {
      if (!ready(s)) return;
      stop();
      resolve(s);
    });
  });
}

const following = (store: WebhooksStore) => until(store, (s) => s.log?.following === null && !s.log.loading);

async function addEndpoint(store: WebhooksStore, path: string) {
  expect(await store.getState().create({ url: receiver.url(path), events: [...BOTH], description: `receiver ${path}` })).toBe(true);
  return store.getState().created!;
}

/** The next request the receiver gets, and its message id. */
async function nextRequest(): Promise<Received & { messageId: string }> {
  const [request] = (await receiver.waitFor(receiver.received.length + 1)).slice(-1);
  return { ...request, messageId: String(request.headers['webhook-id']) };
}

function verify(secret: string, request: { body: string; headers: IncomingHttpHeaders }) {
  const headers = Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, String(v)]));
  return new StandardWebhook(secret).verify(request.body, headers);
}

describe('webhooks store', () => {
  it('adds an endpoint and shows its secret once; the list never carries it', async () => {
    const store = webhooksStore();
    await store.getState().load(true);
    const before = store.getState().webhooks!.length;
    const created = await addEndpoint(store, '/added');
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/=]{40,}$/);
    expect(store.getState().webhooks!.length).toBe(before + 1);
    const listed = store.getState().webhooks!.find((w) => w.id === created.id)!;
    expect(listed).toMatchObject({ url: receiver.url('/added'), events: [...BOTH], description: 'receiver /added', enabled: true, disabledReason: null });
    expect(JSON.stringify(store.getState().webhooks)).not.toContain(created.secret);

    store.getState().dismissCreated();
    expect(store.getState().created).toBeNull();
    const another = webhooksStore();
    await another.getState().load(true);
    expect(JSON.stringify(another.getState())).not.toContain(created.secret);
  });

  it('edits an endpoint, disables it (no test event then) and enables it again', async () => {
    const store = webhooksStore();
    const { id } = await addEndpoint(store, '/edited');
    expect(await store.getState().update(id, { url: receiver.url('/edited-2'), description: 'Dock 3', events: ['labelReport.tapped'] })).toBe(true);
    expect(store.getState().webhooks!.find((w) => w.id === id)).toMatchObject({ url: receiver.url('/edited-2'), description: 'Dock 3', events: ['labelReport.tapped'] });
    expect(store.getState().outcome).toEqual({ webhookId: id, ok: true, message: 'Changes saved.' });

    expect(await store.getState().setEnabled(id, false)).toBe(true);
    expect(store.getState().webhooks!.find((w) => w.id === id)?.enabled).toBe(false);
    const received = receiver.received.length;
    expect(await store.getState().sendTest(id)).toBe(false);
    expect(store.getState().outcome).toEqual({ webhookId: id, ok: false, message: 'This endpoint is disabled. Enable it first, then try again.' });
    expect(receiver.received.length).toBe(received);

    expect(await store.getState().setEnabled(id, true)).toBe(true);
    expect(store.getState().webhooks!.find((w) => w.id === id)?.enabled).toBe(true);
    expect(store.getState().outcome?.message).toMatch(/^Enabled/);
  });

  it('sends a test event signed with the shown secret and follows it into the log', async () => {
    const store = webhooksStore();
    const { id, secret } = await addEndpoint(store, '/tested');
    const arriving = nextRequest();
    expect(await store.getState().sendTest(id)).toBe(true);
    expect(store.getState().outcome).toMatchObject({ webhookId: id, ok: true });
    const request = await arriving;
    expect(request.path).toBe('/tested');
    expect(verify(secret, request)).toMatchObject({ type: 'webhook.test', data: { webhookId: id } });

    const state = await until(store, (s) => s.log?.webhookId === id && s.log.following === null && (s.log.deliveries ?? []).some((d) => d.status === 'succeeded'));
    expect(state.log!.deliveries).toEqual([
      expect.objectContaining({ messageId: request.messageId, type: 'webhook.test', attempt: 1, status: 'succeeded', responseStatus: 204, error: null, nextAttemptAt: null }),
    ]);
    expect(state.log!.totalDocuments).toBe(1);
  });

  it('rotates the secret: messages carry the new signature beside the old one', async () => {
    const store = webhooksStore();
    const { id, secret: old } = await addEndpoint(store, '/rotated');
    expect(await store.getState().rotateSecret(id)).toBe(true);
    const rotated = store.getState().rotated!;
    expect(rotated.webhookId).toBe(id);
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(old);

    const arriving = nextRequest();
    await store.getState().sendTest(id);
    const request = await arriving;
    expect(String(request.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verify(rotated.secret, request)).toMatchObject({ type: 'webhook.test' });
    expect(verify(old, request)).toMatchObject({ type: 'webhook.test' });
    store.getState().dismissRotated();
    expect(store.getState().rotated).toBeNull();
  });

  it('redelivers a message under its webhook-id and shows the new attempt', async () => {
    const store = webhooksStore();
    const { id } = await addEndpoint(store, '/redelivered');
    const first = nextRequest();
    await store.getState().sendTest(id);
    const { messageId } = await first;
    await following(store);

    const again = nextRequest();
    expect(await store.getState().redeliver(id, messageId)).toBe(true);
    expect((await again).messageId).toBe(messageId);
    const state = await until(store, (s) => s.log?.following === null && (s.log.deliveries ?? []).some((d) => d.attempt === 2 && d.status === 'succeeded'));
    expect(state.log!.deliveries!.map((d) => [d.messageId, d.attempt, d.status])).toEqual([
      [messageId, 2, 'succeeded'],
      [messageId, 1, 'succeeded'],
    ]);
  });

  it('pages the log newest first', async () => {
    const store = webhooksStore(KEYS.acme, 2);
    const { id } = await addEndpoint(store, '/paged');
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const arriving = nextRequest();
      await store.getState().sendTest(id);
      ids.push((await arriving).messageId);
      await following(store);
    }
    await store.getState().openLog(id, 1);
    const first = store.getState().log!;
    expect(first.totalDocuments).toBe(3);
    expect(first.deliveries!.map((d) => d.messageId)).toEqual([ids[2], ids[1]]);
    await store.getState().openLog(id, 2);
    expect(store.getState().log!.deliveries!.map((d) => d.messageId)).toEqual([ids[0]]);
    expect(store.getState().log!.pageNumber).toBe(2);
  });

  it('logs a refused message as failed with its response code and its next attempt', async () => {
    const store = webhooksStore();
    const { id } = await addEndpoint(store, '/fail');
    await store.getState().sendTest(id);
    const state = await until(store, (s) => s.log?.following === null && (s.log.deliveries ?? []).some((d) => d.status === 'failed'));
    const [pending, failed] = state.log!.deliveries!;
    expect(failed).toMatchObject({ status: 'failed', attempt: 1, responseStatus: 500 });
    expect(deliveryErrorText(failed.error)?.text).toBe('The receiver did not accept the message (it answered 500).');
    expect(failed.nextAttemptAt).not.toBeNull();
    expect(pending).toMatchObject({ status: 'pending', attempt: 2, messageId: failed.messageId, nextAttemptAt: failed.nextAttemptAt });
    // The endpoint stays enabled: it is retried.
    expect(state.webhooks!.find((w) => w.id === id)?.enabled).toBe(true);
    await store.getState().remove(id);
  });

  it('shows an endpoint the service disabled after a 410, with the reason', async () => {
    const store = webhooksStore();
    const { id } = await addEndpoint(store, '/gone');
    await store.getState().sendTest(id);
    const state = await until(store, (s) => s.webhooks?.find((w) => w.id === id)?.enabled === false);
    expect(state.webhooks!.find((w) => w.id === id)!.disabledReason).toMatch(/410/);
  });

  it('deletes an endpoint with its log; another window is told in words that it is gone', async () => {
    const store = webhooksStore();
    const { id } = await addEndpoint(store, '/deleted');
    const other = webhooksStore();
    await other.getState().load(true);
    await store.getState().openLog(id);

    expect(await store.getState().remove(id)).toBe(true);
    expect(store.getState().webhooks!.some((w) => w.id === id)).toBe(false);
    expect(store.getState().log).toBeNull();
    expect(store.getState().notice).toBe(`${receiver.url('/deleted')} deleted: nothing more is sent there.`);

    expect(other.getState().webhooks!.some((w) => w.id === id)).toBe(true);
    expect(await other.getState().setEnabled(id, false)).toBe(false);
    expect(other.getState().outcome?.message).toMatch(/^This endpoint no longer exists/);
    expect(other.getState().webhooks!.some((w) => w.id === id)).toBe(false);
  });

  it('says in words which addresses cannot receive webhooks, before or after sending', async () => {
    const store = webhooksStore();
    expect(await store.getState().create({ url: 'ftp://files.example/in', events: [...BOTH] })).toBe(false);
    expect(store.getState().createError).toBe('That address cannot receive webhooks (must be an http or https URL).');
    // Refused by the service: link-local addresses are where cloud metadata lives.
    expect(await store.getState().create({ url: 'http://169.254.169.254/latest', events: [...BOTH] })).toBe(false);
    expect(store.getState().createError).toBe('That address cannot receive webhooks (169.254.169.254 is a link-local address).');
    expect(store.getState().created).toBeNull();
  });

  it('asks nothing for a key that may not manage webhooks, and says so plainly when refused', async () => {
    const store = webhooksStore(KEYS.acmeReadOnly);
    await store.getState().load(false);
    expect(store.getState()).toMatchObject({ webhooks: null, loading: false, error: null });

    await store.getState().load(true);
    expect(store.getState().error).toBe('This key cannot manage webhooks. Use the desktop app’s own key, or a key that is allowed to manage webhooks.');
    expect(store.getState().error).not.toMatch(/webhooks:manage/);
  });
});
