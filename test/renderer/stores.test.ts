/**
 * The renderer's stores against a REAL local service (no mocks): paging, filtering and sorting
 * as the API answers them, edits and their refusals, per-company flags, keys and connection.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient } from '../../renderer/api/client';
import type { ApiClient } from '../../renderer/api/client';
import { defaultFilters, toApiParams } from '../../renderer/lib/list-query';
import type { ListQuery } from '../../renderer/lib/list-query';
import { createAppStores } from '../../renderer/state/app-stores';
import { STORAGE_KEY, createConnectionStore } from '../../renderer/state/connection';
import type { ConnectionEnv } from '../../renderer/state/connection';
import { createDetailStore } from '../../renderer/state/detail';
import { createKeysStore } from '../../renderer/state/keys';
import { createListStore } from '../../renderer/state/list';
import type { MinimalLabelReport } from '../../schema/report';
import { KEYS, startFixtureServer } from './server-fixture';
import type { FixtureServer } from './server-fixture';

const COUNT = 250;
const PAGE = 20;
let server: FixtureServer;

beforeAll(async () => {
  server = await startFixtureServer(COUNT);
});
afterAll(async () => {
  await server?.close();
});

const client = (key: string): ApiClient => createApiClient({ baseUrl: server.url, apiKey: key });

function listStore(key: string) {
  const c = client(key);
  return createListStore({ getClient: () => c, pageSize: PAGE, debounceMs: 0, maxCachedPages: 100 });
}

/** Every row the store holds for the current query, after fetching them all. */
async function allRows(store: ReturnType<typeof listStore>): Promise<MinimalLabelReport[]> {
  await store.getState().ensureRange(0, 0);
  const total = store.getState().total ?? 0;
  await store.getState().ensureRange(0, total - 1);
  const rows: MinimalLabelReport[] = [];
  for (let i = 0; i < total; i++) {
    const row = store.getState().rowAt(i);
    if (!row) throw new Error(`row ${i} missing`);
    rows.push(row);
  }
  return rows;
}

/** The API's own answer for a query, in one big page. */
async function apiIds(key: string, query: ListQuery): Promise<{ ids: string[]; total: number }> {
  const page = await client(key).listReports({ ...toApiParams(query), pageSize: 5000, output: 'minimal' });
  return { ids: page.data.map((r) => r.id), total: page.totalDocuments };
}

function memoryStorage() {
  const map = new Map<string, string>();
  return {
    map,
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => void map.set(k, v),
    removeItem: (k: string) => void map.delete(k),
  };
}

describe('list store', () => {
  it('pages through every report in the API order and shows the total', async () => {
    const store = listStore(KEYS.acme);
    store.getState().setQuery({ filters: defaultFilters(), sort: { column: 'created', direction: 'asc' } });
    const rows = await allRows(store);
    expect(store.getState().total).toBe(COUNT);
    expect(rows.map((r) => r.id)).toEqual(server.facts.map((f) => f.id));
  });

  it('filters and sorts through the API and agrees with its answer', async () => {
    const store = listStore(KEYS.acme);
    const query: ListQuery = {
      filters: { ...defaultFilters(), status: 'active', alert: 'moderateOrWorse', mode: 'roadTransport' },
      sort: { column: 'reference', direction: 'desc' },
    };
    store.getState().setQuery(query);
    const rows = await allRows(store);
    const expected = await apiIds(KEYS.acme, query);
    expect(rows.length).toBeGreaterThan(0);
    expect(store.getState().total).toBe(expected.total);
    expect(rows.map((r) => r.id)).toEqual(expected.ids);
    for (const r of rows) {
      expect(r.status).toBe('active');
      expect(r.alert.level).toBeGreaterThanOrEqual(1);
      expect(r.mode).toBe('roadTransport');
    }
    const refs = rows.map((r) => r.labelReference);
    expect([...refs].sort().reverse()).toEqual(refs);
  });

  it('searches text with commas, % and _ literally', async () => {
    const store = listStore(KEYS.acme);
    // Unescaped, ',' would split the filter and '0%_' would match every 'PO-0…' reference.
    for (const text of ['D,1', '0%_', '%_X']) {
      store.getState().setQuery({ filters: { ...defaultFilters(), search: text }, sort: { column: 'created', direction: 'asc' } });
      const rows = await allRows(store);
      const expected = server.facts.filter((f) => f.labelReference.toLowerCase().includes(text.toLowerCase())).map((f) => f.id);
      expect(expected.length).toBeGreaterThan(0);
      expect(expected.length).toBeLessThan(30);
      expect(rows.map((r) => r.id)).toEqual(expected);
    }

    store.getState().setFilters({ search: 'sq-000', searchField: 'label' });
    const byLabel = await allRows(store);
    expect(byLabel.map((r) => r.label.sequenceCode)).toEqual(server.facts.filter((f) => f.sequenceCode.startsWith('SQ-000')).map((f) => f.sequenceCode));
  });

  it('filters on custom fields, created days and flags', async () => {
    const store = listStore(KEYS.acme);
    store.getState().setQuery({
      filters: { ...defaultFilters(), customFields: [{ fieldId: 'carrier', op: 'eq', value: 'UPS, Express' }] },
      sort: { column: 'created', direction: 'asc' },
    });
    const rows = await allRows(store);
    expect(rows.length).toBe(server.facts.filter((_, i) => i % 3 !== 0).length);

    // The fixture creates one report an hour from 2026-01-01T00:00Z; a whole local day holds 24.
    const first = new Date(server.facts[48].created);
    const day = `${first.getFullYear()}-${String(first.getMonth() + 1).padStart(2, '0')}-${String(first.getDate()).padStart(2, '0')}`;
    store.getState().setQuery({ filters: { ...defaultFilters(), createdFrom: day, createdTo: day }, sort: { column: 'created', direction: 'asc' } });
    const dayRows = await allRows(store);
    expect(dayRows.length).toBe(24);
    for (const r of dayRows) expect(new Date(r.created).getDate()).toBe(first.getDate());
  });

  it('drops the cache on a query change and ignores answers to the old question', async () => {
    const store = listStore(KEYS.acme);
    store.getState().setQuery({ filters: defaultFilters(), sort: { column: 'created', direction: 'asc' } });
    const pending = store.getState().ensureRange(0, COUNT - 1);
    store.getState().setFilters({ status: 'completed' });
    await pending;
    const rows = await allRows(store);
    expect(rows.length).toBe(server.facts.filter((f) => f.status === 'completed').length);
    expect(rows.every((r) => r.status === 'completed')).toBe(true);
  });

  it('fetches only the pages asked for and keeps a bounded cache', async () => {
    const c = client(KEYS.acme);
    let requests = 0;
    const counting: ApiClient = { ...c, listReports: ((p: never, s?: AbortSignal) => (requests++, c.listReports(p, s))) as ApiClient['listReports'] };
    const store = createListStore({ getClient: () => counting, pageSize: PAGE, debounceMs: 0, maxCachedPages: 4 });
    store.getState().setQuery({ filters: defaultFilters(), sort: { column: 'created', direction: 'asc' } });
    await store.getState().ensureRange(0, 0);
    expect(requests).toBe(1);
    await store.getState().ensureRange(200, 219);
    expect(requests).toBe(2);
    expect(store.getState().rowAt(200)?.id).toBe(server.facts[200].id);
    expect(store.getState().rowAt(100)).toBeUndefined();
    for (const start of [40, 60, 80, 100, 120]) await store.getState().ensureRange(start, start + PAGE - 1);
    // Page 1 (rows 0–19) was farthest from the rows in view and has been evicted.
    expect(store.getState().rowAt(0)).toBeUndefined();
    expect(store.getState().rowAt(120)?.id).toBe(server.facts[120].id);
  });

  it('asks for the pages on screen first, then those around them outwards', async () => {
    const c = client(KEYS.acme);
    const asked: number[] = [];
    const recording: ApiClient = {
      ...c,
      listReports: ((p: never, s?: AbortSignal) => (asked.push((p as { pageNumber?: number }).pageNumber ?? 1), c.listReports(p, s))) as ApiClient['listReports'],
    };
    const store = createListStore({ getClient: () => recording, pageSize: PAGE, debounceMs: 0, maxConcurrent: 1 });
    store.getState().setQuery({ filters: defaultFilters(), sort: { column: 'created', direction: 'asc' } });
    await store.getState().ensureRange(0, 0);
    asked.length = 0;
    // Rows 60–199 (pages 4–10) around the rows on screen, 120–139 (page 7).
    store.getState().requestRange(60, 199);
    await expect.poll(() => asked.length).toBe(7);
    expect(asked[0]).toBe(7);
    const distances = asked.map((p) => Math.abs(p - 7));
    expect(distances).toEqual([...distances].sort((a, b) => a - b));
    await expect.poll(() => store.getState().loadingPages).toBe(0);
    expect(store.getState().rowAt(199)?.id).toBe(server.facts[199].id);
  });

  it('says in words why the service refused, and when it is unreachable', async () => {
    const refused = listStore('an-unknown-key-0123456789');
    refused.getState().setQuery({ filters: defaultFilters(), sort: { column: 'created', direction: 'asc' } });
    await refused.getState().ensureRange(0, 0);
    expect(refused.getState().error).toBe('This key is no longer accepted: it was revoked, or it never existed. Sign in with another key.');
    expect(refused.getState().unreachable).toBe(false);

    const dead = createApiClient({ baseUrl: 'http://127.0.0.1:9', apiKey: KEYS.acme });
    const offline = createListStore({ getClient: () => dead, debounceMs: 0 });
    offline.getState().setQuery({ filters: defaultFilters(), sort: { column: 'created', direction: 'asc' } });
    await offline.getState().ensureRange(0, 0);
    expect(offline.getState().error).toMatch(/not reachable/);
    expect(offline.getState().unreachable).toBe(true);
  });

  it('moves the selection within the list', async () => {
    const store = listStore(KEYS.acme);
    store.getState().setQuery({ filters: defaultFilters(), sort: { column: 'created', direction: 'asc' } });
    await store.getState().ensureRange(0, 0);
    store.getState().moveSelection(1);
    expect(store.getState().selectedIndex).toBe(0);
    store.getState().moveSelection(5);
    expect(store.getState().selectedIndex).toBe(5);
    store.getState().moveSelection(-100);
    expect(store.getState().selectedIndex).toBe(0);
    store.getState().select(COUNT + 10);
    expect(store.getState().selectedIndex).toBe(COUNT - 1);
  });
});

describe('detail store and edits', () => {
  it('changes limits as owner and shows the recalculated alert at once; the list row follows', async () => {
    const stores = createAppStores({ pageSize: PAGE, debounceMs: 0 });
    const env = { ...nodeEnv(), href: `${server.url}/#key=${KEYS.acme}` };
    await stores.connection.getState().resolve(env);
    stores.list.getState().setQuery({ filters: defaultFilters(), sort: { column: 'created', direction: 'asc' } });
    await stores.list.getState().ensureRange(0, PAGE - 1);
    const id = server.facts[5].id; // a moderate excursion of 5 readings at 12 °C
    await stores.detail.getState().open(id);
    const before = stores.detail.getState().report!;
    expect(before.alert.level).toBe(1);

    expect(await stores.detail.getState().save('limits', { limits: { maxTemperature: 15 } }, 'wider limits')).toBe(true);
    const after = stores.detail.getState().report!;
    expect(after.senseConfig.limits.maxTemperature).toBe(15);
    expect(after.alert.level).toBe(0);
    expect(stores.detail.getState().outcome).toMatchObject({ section: 'limits', ok: true });
    const row = stores.list.getState().rowAt(5)!;
    expect(row.alert.level).toBe(0);
    expect(row.minimalSenseData.flattenedDatapoints.every((f) => f === 0)).toBe(true);

    // Back again, so other tests see the fixture as built.
    await stores.detail.getState().save('limits', { limits: { maxTemperature: 8 } }, 'back');
    expect(stores.detail.getState().report!.alert.level).toBe(1);
    expect(stores.list.getState().rowAt(5)!.alert.level).toBe(1);
  });

  it('shows an editor the server refusal of limits in words', async () => {
    const c = client(KEYS.nordic);
    const detail = createDetailStore({ getClient: () => c });
    await detail.getState().open(server.facts[0].id);
    expect(detail.getState().report).not.toBeNull();
    expect(await detail.getState().save('limits', { limits: { maxTemperature: 20 } })).toBe(false);
    expect(detail.getState().outcome).toEqual({
      section: 'limits',
      ok: false,
      message: 'Only the report owner can update limits.',
    });
    // An editor may set the reference and the trim.
    const ref = `${server.facts[0].labelReference} (nordic)`;
    expect(await detail.getState().save('bookkeeping', { labelReference: server.facts[0].labelReference })).toBe(true);
    expect(await detail.getState().save('bookkeeping', { labelReference: ref })).toBe(true);
    expect(detail.getState().report!.labelReference).toBe(ref);
    await detail.getState().save('bookkeeping', { labelReference: server.facts[0].labelReference });
  });

  it('refuses an invalid edit before sending it', async () => {
    const c = client(KEYS.acme);
    let patches = 0;
    const counting: ApiClient = { ...c, patchReport: (id, p) => (patches++, c.patchReport(id, p)) };
    const detail = createDetailStore({ getClient: () => counting });
    await detail.getState().open(server.facts[1].id);
    expect(await detail.getState().save('limits', { limits: { maxTemperature: Number.NaN } })).toBe(false);
    expect(await detail.getState().save('trim', { trim: { startTime: 10, endTime: 5 } })).toBe(false);
    expect(detail.getState().outcome?.message).toBe("The trim start must not be after the trim end.");
    expect(patches).toBe(0);
  });

  it('sets and clears the trim; the figures follow the trimmed range', async () => {
    const c = client(KEYS.acme);
    const detail = createDetailStore({ getClient: () => c });
    const f = server.facts[1]; // critical: readings 10–19 out of range
    await detail.getState().open(f.id);
    const start = detail.getState().report!.calculatedSenseData.datapoints[0].timestamp;
    expect(await detail.getState().save('trim', { trim: { startTime: start, endTime: start + 5 * 600 } }, 'dock readings')).toBe(true);
    const trimmed = detail.getState().report!;
    expect(trimmed.trimmedSenseData?.datapoints).toHaveLength(6);
    expect(trimmed.alert.level).toBe(0);
    expect(await detail.getState().save('trim', { trim: null }, 'whole run')).toBe(true);
    expect(detail.getState().report!.trimmedSenseData).toBeNull();
    expect(detail.getState().report!.alert.level).toBe(2);
  });

  it('keeps flag and archive per company', async () => {
    const acme = createDetailStore({ getClient: () => client(KEYS.acme) });
    const id = server.facts[2].id;
    await acme.getState().open(id);
    expect(await acme.getState().save('flags', { hasFlag: true, isArchived: true })).toBe(true);
    expect(acme.getState().report).toMatchObject({ hasFlag: true, isArchived: true });

    const nordic = createDetailStore({ getClient: () => client(KEYS.nordic) });
    await nordic.getState().open(id);
    expect(nordic.getState().report).toMatchObject({ hasFlag: false, isArchived: false });

    // A viewer may flag too, but nothing else.
    const fresh = createDetailStore({ getClient: () => client(KEYS.fresh) });
    await fresh.getState().open(id);
    expect(await fresh.getState().save('flags', { hasFlag: true })).toBe(true);
    expect(await fresh.getState().save('bookkeeping', { status: 'completed' })).toBe(false);
    expect(fresh.getState().outcome?.message).toBe("Viewers can only update Flagged and Archived.");
    await fresh.getState().save('flags', { hasFlag: false });
    await acme.getState().save('flags', { hasFlag: false, isArchived: false });
  });

  it('says so when a report is not visible to the company', async () => {
    const detail = createDetailStore({ getClient: () => client(KEYS.nordic) });
    await detail.getState().open(server.facts[1].id); // not shared with nordic
    expect(detail.getState().report).toBeNull();
    expect(detail.getState().error).toBeTruthy();
  });
});

function nodeEnv(): ConnectionEnv & { storage: ReturnType<typeof memoryStorage>; replaced: string[] } {
  const replaced: string[] = [];
  return {
    href: `${server.url}/`,
    origin: server.url,
    storage: memoryStorage(),
    replaceUrl: (u) => void replaced.push(u),
    replaced,
  };
}

describe('connection store', () => {
  it('takes a key from the #key= link, removes it from the address and keeps it for reloads', async () => {
    const store = createConnectionStore();
    const env = { ...nodeEnv(), href: `${server.url}/?status=active#key=${KEYS.nordic}` };
    await store.getState().resolve(env);
    expect(store.getState().phase).toBe('ready');
    expect(store.getState().session).toMatchObject({ companyId: 'nordic', companyName: 'Nordic Logistics' });
    expect(store.getState().source).toBe('link');
    expect(env.replaced).toEqual([`${server.url}/?status=active`]);
    expect(env.storage.map.get(STORAGE_KEY)).toBe(KEYS.nordic);

    // A reload finds it in sessionStorage.
    const again = createConnectionStore();
    await again.getState().resolve({ ...env, href: `${server.url}/` });
    expect(again.getState().source).toBe('storage');
  });

  it('prefers the desktop bridge and switches keys on request', async () => {
    const store = createConnectionStore();
    const env = {
      ...nodeEnv(),
      bridge: { getConnection: async () => ({ baseUrl: server.url, apiKey: KEYS.acme }) },
    };
    env.storage.setItem(STORAGE_KEY, KEYS.fresh);
    await store.getState().resolve(env);
    expect(store.getState().session?.companyId).toBe('acme');
    expect(store.getState().source).toBe('bridge');

    store.getState().useAnotherKey(env);
    expect(store.getState().phase).toBe('connect');
    expect(env.storage.map.has(STORAGE_KEY)).toBe(false);
    expect(await store.getState().connectWithKey(KEYS.fresh, env)).toBe(true);
    expect(store.getState().session?.companyId).toBe('fresh');
  });

  it('asks for a key when there is none, and explains a refused key', async () => {
    const store = createConnectionStore();
    const env = nodeEnv();
    await store.getState().resolve(env);
    expect(store.getState().phase).toBe('connect');
    expect(await store.getState().connectWithKey('not-a-real-key-at-all', env)).toBe(false);
    expect(store.getState().error).toMatch(/^That key was not accepted: /);
    expect(env.storage.map.has(STORAGE_KEY)).toBe(false);
  });

  it('signs out, saying why, when the key stops being accepted mid-session', async () => {
    const stores = createAppStores({ pageSize: PAGE, debounceMs: 0 });
    const env = nodeEnv();
    const admin = client(KEYS.acme);
    const made = await admin.createKey({ name: 'short-lived', permissions: ['labelReports:read'] });
    await stores.connection.getState().connectWithKey(made.key, env);
    expect(stores.connection.getState().session?.keyId).toBe(made.id);
    await admin.revokeKey(made.id);
    await stores.list.getState().reload();
    expect(stores.connection.getState().phase).toBe('connect');
    expect(stores.connection.getState().notice).toMatch(/no longer accepted/);
    expect(stores.connection.getState().error).toBeNull();
    expect(env.storage.map.has(STORAGE_KEY)).toBe(false);
  });

  it('knows when the service stops answering, and when it answers again', async () => {
    const stores = createAppStores({ pageSize: PAGE, debounceMs: 0 });
    let down = false;
    const env = { ...nodeEnv(), fetch: ((input: RequestInfo | URL, init?: RequestInit) => (down ? Promise.reject(new TypeError('fetch failed')) : fetch(input, init))) as typeof fetch };
    await stores.connection.getState().connectWithKey(KEYS.acme, env);
    await stores.list.getState().ensureRange(0, 0);
    expect(stores.connection.getState().reachable).toBe(true);
    down = true;
    await stores.list.getState().reload();
    expect(stores.connection.getState().reachable).toBe(false);
    expect(stores.list.getState().unreachable).toBe(true);
    // No count is made up while there is no answer.
    expect(stores.list.getState().total).toBeNull();
    down = false;
    await stores.connection.getState().client!.info();
    expect(stores.connection.getState().reachable).toBe(true);
    await expect.poll(() => stores.list.getState().total).toBe(COUNT);
  });

  it('says the service is unreachable and keeps the key for a retry', async () => {
    const store = createConnectionStore();
    const env = { ...nodeEnv(), href: 'http://127.0.0.1:9/', origin: 'http://127.0.0.1:9' };
    env.storage.setItem(STORAGE_KEY, KEYS.acme);
    await store.getState().resolve(env);
    expect(store.getState().phase).toBe('connect');
    expect(store.getState().unreachable).toBe(true);
    expect(store.getState().error).toMatch(/not reachable/);
    expect(env.storage.map.get(STORAGE_KEY)).toBe(KEYS.acme);
  });

  it('starts over when the company changes: new rows, detail closed, webhooks forgotten', async () => {
    const stores = createAppStores({ pageSize: PAGE, debounceMs: 0 });
    const env = nodeEnv();
    await stores.connection.getState().connectWithKey(KEYS.acme, env);
    await stores.list.getState().ensureRange(0, 0);
    expect(stores.list.getState().total).toBe(COUNT);
    await stores.detail.getState().open(server.facts[1].id);
    await stores.webhooks.getState().load(true);
    expect(stores.webhooks.getState().webhooks).toEqual([]);
    stores.connection.getState().useAnotherKey(env);
    expect(stores.detail.getState().id).toBeNull();
    expect(stores.webhooks.getState().webhooks).toBeNull();
    await stores.connection.getState().connectWithKey(KEYS.nordic, env);
    await stores.list.getState().ensureRange(0, 0);
    expect(stores.list.getState().total).toBe(server.facts.filter((f) => f.sharedWithNordic).length);
  });
});

describe('keys store', () => {
  it('creates a key (shown once), lists and revokes it', async () => {
    const c = client(KEYS.acme);
    const keys = createKeysStore({ getClient: () => c });
    await keys.getState().load();
    expect(keys.getState().info?.baseUrl).toBe(server.url);
    const before = keys.getState().keys!.length;
    expect(await keys.getState().create('  export script ', ['labelReports:read'])).toBe(true);
    const created = keys.getState().created!;
    expect(created.name).toBe('export script');
    expect(keys.getState().keys!.length).toBe(before + 1);
    // The new key works.
    expect((await client(created.key).session()).companyId).toBe('acme');
    expect(await keys.getState().revoke(created.id)).toBe(true);
    expect(keys.getState().keys!.find((k) => k.id === created.id)?.revoked).not.toBeNull();
    await expect(client(created.key).session()).rejects.toMatchObject({ status: 401 });
    keys.getState().dismissCreated();
    expect(keys.getState().created).toBeNull();
  });

  it('refuses invalid input before sending and explains a missing permission', async () => {
    const keys = createKeysStore({ getClient: () => client(KEYS.acme) });
    expect(await keys.getState().create(' ', ['labelReports:read'])).toBe(false);
    expect(keys.getState().error).toMatch(/name/);
    expect(await keys.getState().create('x', [])).toBe(false);
    expect(keys.getState().error).toMatch(/permission/);

    const nordic = createKeysStore({ getClient: () => client(KEYS.nordic) });
    await nordic.getState().load();
    expect(nordic.getState().error).toBe('This key may not manage API keys.');
    expect(nordic.getState().info).not.toBeNull();
  });
});
