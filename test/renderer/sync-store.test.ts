/**
 * The window's sync store against two real services on loopback: a remote (startTestService)
 * behind a fault proxy, and a local service configured through the store as Settings › Sync
 * does it. Nothing is mocked; the store's one timer is run by hand so the polling rules are
 * checked without waiting for time.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApiClient } from '../../renderer/api/client';
import type { ApiClient } from '../../renderer/api/client';
import { createSyncStore } from '../../renderer/state/sync';
import type { KeyBridge, SyncStore, Timers, Visibility } from '../../renderer/state/sync';
import { startService, type RunningService } from '../../host/start-service';
import type { RemoteKeySaved } from '../../contract/ipc';
import { openService } from '../../host/open-service';
import { FaultProxy } from '../support/fault-proxy';
import { COMPANIES, makeReport, startTestService, type TestService } from '../support/service-fixture';

const IDS = ['sync-a', 'sync-b', 'sync-c'];

let remote: TestService;
let proxy: FaultProxy;
let local: RunningService;
let dir: string;
let managerKey: string;
let readerKey: string;

beforeAll(async () => {
  remote = await startTestService(IDS.map((id) => makeReport(id)));
  proxy = await FaultProxy.start(remote.url);
  dir = mkdtempSync(join(tmpdir(), 'labeldesk-sync-store-'));
  const dbFile = join(dir, 'local.sqlite');
  const service = openService(dbFile);
  try {
    // The desk's company exists before the first sync, as on a desktop set up for it.
    service.companies.upsert(COMPANIES.find((c) => c.id === 'acme')!);
    managerKey = service.apiKeys.create('acme', ['labelReports:read', 'labelReports:update', 'sync:manage'], 'desk').key;
    readerKey = service.apiKeys.create('acme', ['labelReports:read', 'labelReports:update'], 'no sync').key;
  } finally {
    service.close();
  }
  local = await startService({ dbFile, staticDir: join(dir, 'no-ui') });
});

afterAll(async () => {
  await local?.close();
  await proxy?.close();
  await remote?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Timers run by hand: what is pending, and a way to fire it. */
class ManualTimers implements Timers {
  pending: { run: () => void; ms: number; handle: object } | null = null;
  set(run: () => void, ms: number) {
    const handle = {};
    this.pending = { run, ms, handle };
    return handle;
  }
  clear(handle: unknown) {
    if (this.pending?.handle === handle) this.pending = null;
  }
  fire() {
    const p = this.pending;
    if (!p) throw new Error('no timer pending');
    this.pending = null;
    p.run();
  }
}

class TestVisibility implements Visibility {
  visible = true;
  private listeners = new Set<() => void>();
  isVisible() {
    return this.visible;
  }
  onChange(listener: () => void) {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }
  set(visible: boolean) {
    this.visible = visible;
    for (const l of this.listeners) l();
  }
  get listening() {
    return this.listeners.size;
  }
}

/** A client that counts the status reads, so a test knows when the store asked. */
function countingClient(key: string) {
  let reads = 0;
  const counted: typeof fetch = (input, init) => {
    if (String(input).endsWith('/local/sync')) reads++;
    return fetch(input, init);
  };
  const client = createApiClient({ baseUrl: local.url, apiKey: key, fetch: counted });
  return { client, reads: () => reads };
}

function makeStore(
  client: ApiClient,
  extra: { bridge?: KeyBridge; visibility?: Visibility; timers?: Timers; onMirrorChanged?: () => void } = {},
): SyncStore {
  return createSyncStore({
    getClient: () => client,
    getBridge: extra.bridge ? () => extra.bridge : undefined,
    visibility: extra.visibility,
    timers: extra.timers ?? new ManualTimers(),
    intervalMs: 5000,
    busyIntervalMs: 500,
    onMirrorChanged: extra.onMirrorChanged,
  });
}

/** Reads the status until `done` holds for it (the service's worker runs on its own). */
async function until(store: SyncStore, done: (s: ReturnType<SyncStore['getState']>) => boolean) {
  await expect
    .poll(
      async () => {
        await store.getState().refresh();
        return done(store.getState());
      },
      { timeout: 20_000, interval: 50 },
    )
    .toBe(true);
}

async function remoteReport(id: string) {
  const res = await fetch(`${remote.url}/v2/labelReports/${id}`, { headers: { 'x-api-key': remote.keys.acme } });
  expect(res.status).toBe(200);
  return (await res.json()) as { labelReference: string | null; hasFlag: boolean };
}

async function remotePatch(id: string, body: object) {
  const res = await fetch(`${remote.url}/v2/labelReports/${id}`, {
    method: 'PATCH',
    headers: { 'x-api-key': remote.keys.acme, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
}

describe('the sync store against two real services', () => {
  const desk = () => createApiClient({ baseUrl: local.url, apiKey: managerKey });

  test('reads the status at start and on its timer, never while hidden, at once when shown again', async () => {
    const { client, reads } = countingClient(managerKey);
    const timers = new ManualTimers();
    const visibility = new TestVisibility();
    const store = makeStore(client, { timers, visibility });
    const stop = store.getState().start();
    await store.getState().refresh();
    expect(store.getState().status).toMatchObject({ configured: false, state: 'off' });
    expect(store.getState().statusError).toBeNull();
    expect(timers.pending?.ms).toBe(5000);

    const before = reads();
    timers.fire();
    await store.getState().refresh();
    expect(reads()).toBeGreaterThan(before);

    // Hidden: nothing stays scheduled; shown again: read at once.
    visibility.set(false);
    expect(timers.pending).toBeNull();
    const hiddenReads = reads();
    visibility.set(true);
    await store.getState().refresh();
    expect(reads()).toBeGreaterThan(hiddenReads);
    expect(timers.pending).not.toBeNull();

    stop();
    expect(timers.pending).toBeNull();
    expect(visibility.listening).toBe(0);
  });

  test('a key without sync:manage sees the status and is refused the settings, in words', async () => {
    const store = makeStore(createApiClient({ baseUrl: local.url, apiKey: readerKey }));
    await store.getState().refresh();
    expect(store.getState().status?.state).toBe('off');
    expect(await store.getState().save({ remoteUrl: proxy.url, remoteKey: remote.keys.acme, companyId: '' })).toBe(false);
    expect(store.getState().notice).toMatchObject({ ok: false, text: expect.stringMatching(/sync:manage/) });
  });

  test('a malformed address is refused before anything is sent', async () => {
    const store = makeStore(desk());
    expect(await store.getState().save({ remoteUrl: 'labels.example.com', remoteKey: '', companyId: '' })).toBe(false);
    expect(store.getState().notice).toMatchObject({ ok: false, text: expect.stringMatching(/http or https URL/) });
  });

  test('test, save, sync, pending marks, a conflict kept mine, a refused edit, turned off', async () => {
    const saved: (string | null)[] = [];
    const bridge: KeyBridge = {
      saveRemoteKey: async (key): Promise<RemoteKeySaved> => (saved.push(key), { saved: true }),
      hasRemoteKey: async () => saved.at(-1) != null,
    };
    const timers = new ManualTimers();
    let mirrorChanges = 0;
    const store = makeStore(desk(), { bridge, timers, onMirrorChanged: () => mirrorChanges++ });
    const stop = store.getState().start();
    expect(store.getState().keyStorage).toBe('desktop');
    await store.getState().loadSettings();
    expect(store.getState().settings).toEqual({ remoteUrl: null, companyId: null, hasKey: false });
    expect(store.getState().keyKept).toBe(false);

    // A wrong key is told in words; the right one names the company.
    const wrong = await store.getState().test({ remoteUrl: proxy.url, remoteKey: 'ldk_not_a_key', companyId: '' });
    expect(wrong?.ok).toBe(false);
    expect(wrong?.message).toMatch(/\w/);
    const right = await store.getState().test({ remoteUrl: proxy.url, remoteKey: remote.keys.acme, companyId: '' });
    expect(right).toMatchObject({ ok: true, companyId: 'acme' });

    expect(await store.getState().save({ remoteUrl: proxy.url, remoteKey: ` ${remote.keys.acme} `, companyId: 'acme' })).toBe(true);
    expect(saved).toEqual([remote.keys.acme]);
    expect(store.getState().notice).toMatchObject({ ok: true, text: expect.stringContaining('kept encrypted on this computer') });
    expect(store.getState().settings).toEqual({ remoteUrl: proxy.url, companyId: 'acme', hasKey: true });
    expect(store.getState().keyKept).toBe(true);
    // After an action the status is read often, so the window follows the cycle it starts.
    expect(timers.pending?.ms).toBe(500);

    expect(await store.getState().syncNow()).toBe(true);
    await until(store, (s) => s.status?.state === 'idle' && s.status.lastSuccessAt !== null);
    const page = await desk().listReports({ output: 'minimal', order: 'id[asc]' });
    expect(page.data.map((r) => r.id)).toEqual(IDS);
    // The reports that arrived make the list be read again.
    expect(mirrorChanges).toBeGreaterThan(0);
    expect(store.getState().pendingIds.size).toBe(0);

    // Offline: a local edit waits and its report is marked.
    await proxy.offline();
    await desk().patchReport('sync-a', { labelReference: 'MINE' });
    await until(store, (s) => s.pendingIds.has('sync-a') && s.status?.pending === 1);
    expect([...store.getState().pendingIds]).toEqual(['sync-a']);

    // The same field changed on the remote meanwhile: back online, one conflict, theirs in force.
    await remotePatch('sync-a', { labelReference: 'THEIRS' });
    const stopLists = store.getState().watchLists();
    await proxy.online();
    await store.getState().syncNow();
    await until(store, (s) => s.status?.conflicts === 1 && s.conflicts?.length === 1);
    const [conflict] = store.getState().conflicts!;
    expect(conflict).toMatchObject({ labelReportId: 'sync-a', field: 'labelReference', kind: 'field', base: 'REF-sync-a', local: 'MINE', remote: 'THEIRS' });
    expect((await desk().getReport('sync-a')).labelReference).toBe('THEIRS');

    // Keep mine: the remote gets it, the conflict and the mark go.
    expect(await store.getState().resolveConflict(conflict.id, 'local')).toBe(true);
    expect(store.getState().conflicts).toEqual([]);
    await expect.poll(async () => (await remoteReport('sync-a')).labelReference, { timeout: 20_000 }).toBe('MINE');
    await until(store, (s) => s.status?.pending === 0 && s.pendingIds.size === 0 && s.status.conflicts === 0);

    // A refusal: a dead letter with the remote's answer; retry sends it again, discard drops it.
    const refusal = proxy.failNext(1, { kind: 'status', status: 422, body: { statusCode: 422, error: 'Unprocessable Entity', code: 'TEST_REFUSAL', message: 'refused for the test' } }, { method: 'PATCH' });
    await desk().patchReport('sync-b', { hasFlag: true });
    await until(store, (s) => s.status?.deadLetters === 1 && s.deadLetters?.length === 1);
    expect(refusal.fired).toBe(1);
    const [letter] = store.getState().deadLetters!;
    expect(letter).toMatchObject({ labelReportId: 'sync-b', fields: ['hasFlag'], status: 422, message: 'refused for the test' });
    expect(await store.getState().actOnDeadLetter(letter.id, 'retry')).toBe(true);
    await expect.poll(async () => (await remoteReport('sync-b')).hasFlag, { timeout: 20_000 }).toBe(true);
    await until(store, (s) => s.status?.deadLetters === 0 && s.deadLetters?.length === 0);

    proxy.failNext(1, { kind: 'status', status: 404, body: { statusCode: 404, error: 'Not Found', code: 'NOT_FOUND', message: 'gone for the test' } }, { method: 'PATCH' });
    await desk().patchReport('sync-c', { hasFlag: true });
    await until(store, (s) => s.deadLetters?.length === 1);
    expect(await store.getState().actOnDeadLetter(store.getState().deadLetters![0].id, 'discard')).toBe(true);
    expect(store.getState().deadLetters).toEqual([]);
    expect((await remoteReport('sync-c')).hasFlag).toBe(false);
    stopLists();

    // Turned off: the remote and the kept key are forgotten; the reports stay.
    expect(await store.getState().turnOff()).toBe(true);
    expect(saved.at(-1)).toBeNull();
    expect(store.getState().notice?.text).toMatch(/kept on this computer has been removed/);
    expect(store.getState().settings).toMatchObject({ remoteUrl: null, companyId: null });
    expect(store.getState().keyKept).toBe(false);
    await until(store, (s) => s.status?.state === 'off');
    expect((await desk().listReports({ output: 'minimal' })).totalDocuments).toBe(3);
    stop();
  });

  test('outside the desktop app the key goes to the service only, and the notice says so', async () => {
    const store = makeStore(desk());
    expect(store.getState().keyStorage).toBe('service');
    expect(await store.getState().save({ remoteUrl: proxy.url, remoteKey: remote.keys.acme, companyId: 'acme' })).toBe(true);
    expect(store.getState().notice?.text).toMatch(/in memory only/);
    expect(store.getState().keyKept).toBeNull();
    await until(store, (s) => s.status?.state === 'idle');
    await store.getState().turnOff();
  });

  test("a service that does not answer is left to the header's offline indicator: no second message", async () => {
    const store = makeStore(createApiClient({ baseUrl: 'http://127.0.0.1:9', apiKey: managerKey }));
    await store.getState().refresh();
    await store.getState().loadSettings();
    store.getState().watchLists()();
    await store.getState().refresh();
    expect(store.getState()).toMatchObject({ unreachable: true, statusError: null, settingsError: null, listsError: null, status: null });
    // An action asked for explicitly still says why it failed.
    expect(await store.getState().syncNow()).toBe(false);
    expect(store.getState().notice).toMatchObject({ ok: false, text: expect.stringMatching(/unreachable/) });
  });

  test('answers for a previous key are dropped after a reset', async () => {
    const store = makeStore(desk());
    const reading = store.getState().refresh();
    store.getState().reset();
    await reading;
    expect(store.getState().status).toBeNull();
  });
});
