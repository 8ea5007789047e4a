/**
 * Settings: the company's webhook endpoints, the actions on them and the deliveries log of one
 * endpoint at a time. A secret is held only until the person dismisses it: the service shows it
 * when the endpoint is made and when it is rotated, never again.
 *
 * Delivery happens in the service after the request that queued it has been answered, so after
 * a test or a redelivery the open log is read again a few times until the message's attempt is
 * recorded: staff see the outcome without knowing to press Refresh.
 */
import { createStore } from 'zustand/vanilla';
import { ApiClientError, isAbortError } from '../api/client';
import type { ApiClient, CreatedWebhook, CreateWebhookBody, Delivery, UpdateWebhookBody, Webhook } from '../api/client';
import { webhookErrorText } from '../lib/webhook-text';

export type WebhookAction = 'save' | 'enable' | 'disable' | 'test' | 'rotate' | 'delete' | 'redeliver';

/** The result of the last action on one endpoint, shown in that endpoint's entry. */
export interface WebhookOutcome {
  webhookId: string;
  ok: boolean;
  message: string;
}

export interface DeliveryLog {
  webhookId: string;
  /** Counts from 1, as the API does. */
  pageNumber: number;
  deliveries: Delivery[] | null;
  totalDocuments: number;
  loading: boolean;
  error: string | null;
  /** The message whose attempt the log is waiting for, or null. */
  following: string | null;
}

export interface WebhooksStoreOptions {
  getClient(): ApiClient | null;
  /** Entries per page of the deliveries log. */
  pageSize?: number;
  /** Pauses before each re-read of the log while a message just sent waits for its attempt. */
  followDelaysMs?: readonly number[];
}

export type EndpointFields = Required<Pick<UpdateWebhookBody, 'url' | 'description' | 'events'>>;

export interface WebhooksState {
  webhooks: Webhook[] | null;
  loading: boolean;
  /** Why the list could not be read. */
  error: string | null;
  creating: boolean;
  createError: string | null;
  /** The endpoint just made, secret included; shown once. */
  created: CreatedWebhook | null;
  busy: { webhookId: string; action: WebhookAction } | null;
  outcome: WebhookOutcome | null;
  /** A new secret after rotation; shown once, in its endpoint's entry. */
  rotated: { webhookId: string; secret: string } | null;
  /** What happened to an endpoint that is no longer listed. */
  notice: string | null;
  log: DeliveryLog | null;
  pageSize: number;
  /** canManage false (the key lacks webhooks:manage): nothing is asked, nothing is kept. */
  load(canManage: boolean): Promise<void>;
  create(body: CreateWebhookBody): Promise<boolean>;
  update(webhookId: string, fields: EndpointFields): Promise<boolean>;
  setEnabled(webhookId: string, enabled: boolean): Promise<boolean>;
  remove(webhookId: string): Promise<boolean>;
  rotateSecret(webhookId: string): Promise<boolean>;
  sendTest(webhookId: string): Promise<boolean>;
  openLog(webhookId: string, pageNumber?: number): Promise<void>;
  closeLog(): void;
  redeliver(webhookId: string, messageId: string): Promise<boolean>;
  dismissCreated(): void;
  dismissRotated(): void;
  dismissError(): void;
  clearOutcome(): void;
  reset(): void;
}

const DEFAULT_FOLLOW_MS = [300, 700, 1000, 2000, 3000, 5000, 5000, 10_000, 10_000, 15_000];

const initial = {
  webhooks: null,
  loading: false,
  error: null,
  creating: false,
  createError: null,
  created: null,
  busy: null,
  outcome: null,
  rotated: null,
  notice: null,
  log: null,
};

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Ids of the attempts already made for a message, so a new one can be told apart. */
function attemptIds(deliveries: readonly Delivery[] | null | undefined, messageId: string): Set<string> {
  return new Set((deliveries ?? []).filter((d) => d.messageId === messageId && d.status !== 'pending').map((d) => d.id));
}

export function createWebhooksStore(options: WebhooksStoreOptions) {
  const pageSize = options.pageSize ?? 10;
  const followDelays = options.followDelaysMs ?? DEFAULT_FOLLOW_MS;
  /** Replaced whenever the log shows something else, so late answers and old follows stop. */
  let logToken = {};
  let logController: AbortController | null = null;

  return createStore<WebhooksState>()((set, get) => {
    const replace = (webhook: Webhook) => set({ webhooks: get().webhooks?.map((w) => (w.id === webhook.id ? webhook : w)) ?? null });

    /** Reads the list again without touching what is shown on failure (the action's own error says enough). */
    async function refreshList(client: ApiClient) {
      const webhooks = await client.listWebhooks().catch(() => null);
      if (webhooks) set({ webhooks });
    }

    /**
     * One action on one endpoint: busy while it runs, then its outcome in words in that
     * endpoint's entry. An endpoint deleted meanwhile (404) makes the list be read again.
     */
    async function act<T>(
      webhookId: string,
      action: WebhookAction,
      run: (client: ApiClient) => Promise<T>,
      done: (result: T) => string | null,
    ): Promise<boolean> {
      const client = options.getClient();
      if (!client) return false;
      set({ busy: { webhookId, action }, outcome: null, notice: null });
      try {
        const result = await run(client);
        const message = done(result);
        set({ busy: null, outcome: message === null ? null : { webhookId, ok: true, message } });
        return true;
      } catch (err) {
        set({ busy: null, outcome: { webhookId, ok: false, message: webhookErrorText(err) } });
        if (err instanceof ApiClientError && err.code === 'WEBHOOK_NOT_FOUND') await refreshList(client);
        return false;
      }
    }

    async function readLog(token: object) {
      const log = get().log;
      const client = options.getClient();
      if (!log || !client || token !== logToken) return;
      logController?.abort();
      const own = new AbortController();
      logController = own;
      set({ log: { ...log, loading: true, error: null } });
      try {
        const page = await client.listDeliveries(log.webhookId, { pageNumber: log.pageNumber, pageSize }, own.signal);
        if (token !== logToken) return;
        set({ log: { ...get().log!, deliveries: page.data, totalDocuments: page.totalDocuments, loading: false } });
      } catch (err) {
        if (isAbortError(err) || token !== logToken) return;
        set({ log: { ...get().log!, loading: false, error: webhookErrorText(err) } });
      }
    }

    /** Puts a page of an endpoint's log on show, to be read; the token stands for this showing. */
    function showLog(webhookId: string, pageNumber: number, following: string | null): object {
      const token = {};
      logToken = token;
      const same = get().log?.webhookId === webhookId ? get().log : null;
      set({
        log: {
          webhookId,
          pageNumber: Math.max(1, Math.floor(pageNumber)),
          // The page shown stays until the next one arrives, so the table does not jump.
          deliveries: same?.deliveries ?? null,
          totalDocuments: same?.totalDocuments ?? 0,
          loading: true,
          error: null,
          following,
        },
      });
      return token;
    }

    /** Shows page 1 of an endpoint's log and reads it until a new attempt of the message is there. */
    async function follow(webhookId: string, messageId: string, known: Set<string>) {
      const token = showLog(webhookId, 1, messageId);
      await readLog(token);
      const arrived = () => [...attemptIds(get().log?.deliveries, messageId)].some((id) => !known.has(id));
      for (const delay of followDelays) {
        if (token !== logToken || arrived()) break;
        await sleep(delay);
        if (token !== logToken) return;
        await readLog(token);
      }
      if (token !== logToken) return;
      set({ log: { ...get().log!, following: null } });
      // A 410 or days of failures disable the endpoint; its entry should say so now.
      const client = options.getClient();
      if (client) await refreshList(client);
    }

    return {
      ...initial,
      pageSize,

      async load(canManage) {
        const client = options.getClient();
        if (!client || !canManage) {
          get().reset();
          return;
        }
        set({ loading: true, error: null });
        try {
          set({ loading: false, webhooks: await client.listWebhooks() });
        } catch (err) {
          set({ loading: false, error: webhookErrorText(err) });
        }
      },

      async create(body) {
        const client = options.getClient();
        if (!client) return false;
        set({ creating: true, createError: null, created: null, notice: null });
        try {
          const created = await client.createWebhook(body);
          set({ creating: false, created });
          await refreshList(client);
          return true;
        } catch (err) {
          set({ creating: false, createError: webhookErrorText(err) });
          return false;
        }
      },

      update: (webhookId, fields) =>
        act(
          webhookId,
          'save',
          (client) => client.updateWebhook(webhookId, fields),
          (webhook) => {
            replace(webhook);
            return 'Changes saved.';
          },
        ),

      setEnabled: (webhookId, enabled) =>
        act(
          webhookId,
          enabled ? 'enable' : 'disable',
          (client) => client.updateWebhook(webhookId, { enabled }),
          (webhook) => {
            replace(webhook);
            return enabled ? 'Enabled: events are sent to this endpoint again.' : 'Disabled: nothing is sent to this endpoint until it is enabled again.';
          },
        ),

      remove: async (webhookId) => {
        const url = get().webhooks?.find((w) => w.id === webhookId)?.url ?? 'The endpoint';
        // The log must stop reading first: a read arriving after the delete would be answered 404.
        if (get().log?.webhookId === webhookId) get().closeLog();
        const removed = await act(
          webhookId,
          'delete',
          (client) => client.deleteWebhook(webhookId),
          () => null,
        );
        if (removed) {
          set({
            webhooks: get().webhooks?.filter((w) => w.id !== webhookId) ?? null,
            rotated: get().rotated?.webhookId === webhookId ? null : get().rotated,
            notice: `${url} deleted: nothing more is sent there.`,
          });
        }
        return removed;
      },

      rotateSecret: (webhookId) =>
        act(
          webhookId,
          'rotate',
          (client) => client.rotateWebhookSecret(webhookId),
          ({ secret }) => {
            set({ rotated: { webhookId, secret } });
            return null;
          },
        ),

      sendTest: (webhookId) =>
        act(
          webhookId,
          'test',
          (client) => client.testWebhook(webhookId),
          ({ messageId }) => {
            void follow(webhookId, messageId, new Set());
            return 'Test event sent. Its delivery shows in the log below.';
          },
        ),

      redeliver: (webhookId, messageId) => {
        const known = attemptIds(get().log?.deliveries, messageId);
        return act(
          webhookId,
          'redeliver',
          (client) => client.redeliver(webhookId, messageId),
          () => {
            void follow(webhookId, messageId, known);
            return 'Sent again. The new attempt shows at the top of the log.';
          },
        );
      },

      async openLog(webhookId, pageNumber = 1) {
        await readLog(showLog(webhookId, pageNumber, null));
      },

      closeLog() {
        logToken = {};
        logController?.abort();
        set({ log: null });
      },

      dismissCreated: () => set({ created: null }),
      dismissRotated: () => set({ rotated: null }),
      dismissError: () => set({ error: null }),
      clearOutcome: () => set({ outcome: null }),
      reset() {
        logToken = {};
        logController?.abort();
        set({ ...initial });
      },
    };
  });
}

export type WebhooksStore = ReturnType<typeof createWebhooksStore>;
