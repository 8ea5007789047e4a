/**
 * Settings: the local API keys of the signed-in company and where local tools reach the
 * service. A new key's secret is held only until the person dismisses it: the service shows it
 * once and stores only a hash.
 */
import { createStore } from 'zustand/vanilla';
import { ApiClientError, NETWORK_ERROR } from '../api/client';
import { plainProblem } from '../lib/problem-text';
import type { ApiClient, ApiKeyInfo, CreatedApiKey, ServiceInfo } from '../api/client';
import type { Permission } from '../../schema/report';

export interface KeysStoreOptions {
  getClient(): ApiClient | null;
}

export interface KeysState {
  keys: ApiKeyInfo[] | null;
  info: ServiceInfo | null;
  loading: boolean;
  error: string | null;
  infoError: string | null;
  /** The last load found no service (the header says so; the panels only wait). */
  unreachable: boolean;
  creating: boolean;
  /** The key just created, secret included; shown once. */
  created: CreatedApiKey | null;
  revoking: string | null;
  /** includeKeys false: only /local/info (the key lacks apiKeys:manage). */
  load(includeKeys?: boolean): Promise<void>;
  create(name: string, permissions: Permission[]): Promise<boolean>;
  /** signsOut: the key revoked is the one in use, so the list is not asked for again with it. */
  revoke(id: string, options?: { signsOut?: boolean }): Promise<boolean>;
  dismissCreated(): void;
  dismissError(): void;
  reset(): void;
}

const initial = {
  keys: null,
  info: null,
  loading: false,
  error: null,
  infoError: null,
  unreachable: false,
  creating: false,
  created: null,
  revoking: null,
};

export function createKeysStore(options: KeysStoreOptions) {
  return createStore<KeysState>()((set, get) => ({
    ...initial,

    async load(includeKeys = true) {
      const client = options.getClient();
      if (!client) return;
      set({ loading: true, error: null, infoError: null });
      // Info and keys are independent: a key without apiKeys:manage still sees the port.
      const [keys, info] = await Promise.allSettled([includeKeys ? client.listKeys() : Promise.resolve(null), client.info()]);
      const offline = (r: PromiseSettledResult<unknown>) => r.status === 'rejected' && r.reason instanceof ApiClientError && r.reason.code === NETWORK_ERROR;
      set({
        loading: false,
        keys: keys.status === 'fulfilled' ? keys.value : null,
        error: keys.status === 'rejected' ? plainProblem(keys.reason) : null,
        info: info.status === 'fulfilled' ? info.value : null,
        infoError: info.status === 'rejected' ? plainProblem(info.reason) : null,
        unreachable: offline(keys) || offline(info),
      });
    },

    async create(name, permissions) {
      const client = options.getClient();
      if (!client) return false;
      set({ creating: true, error: null, created: null });
      try {
        const created = await client.createKey({ name: name.trim(), permissions });
        set({ creating: false, created });
        const keys = await client.listKeys().catch(() => null);
        if (keys) set({ keys });
        return true;
      } catch (err) {
        set({ creating: false, error: plainProblem(err) });
        return false;
      }
    },

    async revoke(id, { signsOut = false } = {}) {
      const client = options.getClient();
      if (!client) return false;
      set({ revoking: id, error: null });
      try {
        await client.revokeKey(id);
        const keys = signsOut ? get().keys : await client.listKeys().catch(() => get().keys);
        set({ revoking: null, keys });
        return true;
      } catch (err) {
        set({ revoking: null, error: plainProblem(err) });
        return false;
      }
    },

    dismissCreated: () => set({ created: null }),
    dismissError: () => set({ error: null }),
    reset: () => set({ ...initial }),
  }));
}

export type KeysStore = ReturnType<typeof createKeysStore>;
