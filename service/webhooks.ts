/**
 * Registering webhooks (docs/webhooks.md#registering-endpoints), for a caller with `webhooks:manage`: a webhook belongs to
 * the key's company, and another company's is as unknown as one that never existed (404). The
 * secret is shown when made and when rotated, never again.
 */
import { randomUUID } from 'node:crypto';
import type { DataStore } from '../db/data-store';
import type { WebhookRecord } from '../db/webhook-store';
import type { Page } from '../schema/report';
import type {
  CreatedWebhook,
  CreateWebhookBody,
  Delivery,
  UpdateWebhookBody,
  Webhook,
} from '../schema/webhooks';
import { newSecret, PREVIOUS_SECRET_VALID_MS } from './webhook-secrets';
import { refusedUrl } from './webhook-targets';
import { requirePermission, type Caller } from './api-keys';
import { ConflictError, InvalidInputError, NotFoundError } from '../model/errors';
import type { WebhookOutbox } from './webhook-outbox';

/** Who manages webhooks: an API key's caller, or the command line acting for a company. */
export type WebhookManager = Pick<Caller, 'companyId' | 'permissions'>;

export class Webhooks {
  constructor(
    private readonly data: DataStore,
    private readonly outbox: WebhookOutbox,
    private readonly now: () => Date,
  ) {}

  private get store() {
    return this.data.webhooks;
  }

  /**
   * The checks a route makes before it reads the request: the key's permission (403), then
   * whether the webhook is the company's (404). The operations make them again.
   */
  authorize(caller: WebhookManager, id?: string): void {
    requirePermission(caller, 'webhooks:manage');
    if (id !== undefined) this.owned(caller, id);
  }

  create(caller: WebhookManager, body: CreateWebhookBody): CreatedWebhook {
    this.authorize(caller);
    checkTarget(body.url);
    const record: WebhookRecord = {
      id: randomUUID(),
      companyId: caller.companyId,
      url: body.url,
      events: [...new Set(body.events)],
      description: body.description ?? '',
      enabled: true,
      created: this.now().toISOString(),
      disabledReason: null,
      failingSince: null,
      secret: newSecret(),
      previousSecret: null,
      previousSecretExpires: null,
    };
    this.data.write(() => {
      if (!this.data.companies.find(record.companyId)) {
        throw new InvalidInputError('UNKNOWN_COMPANY', `unknown company '${record.companyId}'`);
      }
      this.store.save(record);
    });
    return { ...answer(record), secret: record.secret };
  }

  list(caller: WebhookManager): Webhook[] {
    this.authorize(caller);
    return this.store.list(caller.companyId).map(answer);
  }

  get(caller: WebhookManager, id: string): Webhook {
    this.authorize(caller);
    return answer(this.owned(caller, id));
  }

  /** Only the fields given change. Enabling again forgets why delivery had disabled it. */
  update(caller: WebhookManager, id: string, body: UpdateWebhookBody): Webhook {
    this.authorize(caller);
    if (body.url !== undefined) checkTarget(body.url);
    return this.data.write(() => {
      const record = { ...this.owned(caller, id) };
      if (body.url !== undefined) record.url = body.url;
      if (body.events !== undefined) record.events = [...new Set(body.events)];
      if (body.description !== undefined) record.description = body.description;
      if (body.enabled !== undefined && body.enabled !== record.enabled) {
        record.enabled = body.enabled;
        record.disabledReason = null;
        record.failingSince = null;
      }
      this.store.save(record);
      return answer(record);
    });
  }

  /** The webhook goes with its messages and their log. */
  remove(caller: WebhookManager, id: string): void {
    this.authorize(caller);
    this.data.write(() => this.store.remove(this.owned(caller, id).id));
  }

  /** A new secret; the one it replaces keeps signing beside it for 24 hours. */
  rotateSecret(caller: WebhookManager, id: string): { secret: string } {
    this.authorize(caller);
    return this.data.write(() => {
      const record = this.owned(caller, id);
      const secret = newSecret();
      this.store.save({
        ...record,
        secret,
        previousSecret: record.secret,
        previousSecretExpires: new Date(this.now().getTime() + PREVIOUS_SECRET_VALID_MS).toISOString(),
      });
      return { secret };
    });
  }

  /** Enqueues a webhook.test message, delivered and retried like any other. */
  test(caller: WebhookManager, id: string): { messageId: string } {
    this.authorize(caller);
    return this.data.write(() => {
      const record = this.owned(caller, id);
      requireEnabled(record);
      return { messageId: this.outbox.testEvent(record.id) };
    });
  }

  /** Every attempt made, and each pending message's next attempt, newest first. */
  deliveries(caller: WebhookManager, id: string, page: { pageNumber: number; pageSize: number }): Page<Delivery> {
    this.authorize(caller);
    return this.data.read(() => {
      const { id: webhookId } = this.owned(caller, id);
      const totalDocuments = this.store.countDeliveriesOf(webhookId);
      const offset = (page.pageNumber - 1) * page.pageSize;
      // Pages have no upper bound, but no page past 2^53 deliveries can hold any.
      const data = offset >= totalDocuments ? [] : this.store.deliveries(webhookId, page.pageSize, offset);
      return { data, totalDocuments };
    });
  }

  /** The message is due again at once; the retry schedule goes on from the attempts it had. */
  redeliver(caller: WebhookManager, id: string, messageId: string): { messageId: string } {
    this.authorize(caller);
    return this.data.write(() => {
      const record = this.owned(caller, id);
      requireEnabled(record);
      if (!this.store.redeliver(record.id, messageId, this.now().toISOString())) {
        throw new NotFoundError('MESSAGE_NOT_FOUND', `no message '${messageId}' of webhook '${id}'`);
      }
      this.outbox.notify();
      return { messageId };
    });
  }

  /** The company a webhook belongs to, for the command line, which manages every company's. */
  companyOf(id: string): string | undefined {
    return this.store.companyOf(id);
  }

  private owned(caller: WebhookManager, id: string): WebhookRecord {
    const record = this.store.find(caller.companyId, id);
    if (!record) throw new NotFoundError('WEBHOOK_NOT_FOUND', `no webhook '${id}' of this company`);
    return record;
  }
}

function answer(record: WebhookRecord): Webhook {
  const { id, url, events, description, enabled, created, disabledReason } = record;
  return { id, url, events, description, enabled, created, disabledReason };
}

/** An address the guard refuses is refused up front when the URL names it; host names are judged when sent to. */
function checkTarget(url: string): void {
  const why = refusedUrl(new URL(url));
  if (why !== null) throw new InvalidInputError('INVALID_BODY', `url: ${why}; webhooks cannot be sent there`);
}

function requireEnabled(record: WebhookRecord): void {
  if (!record.enabled) {
    throw new ConflictError('WEBHOOK_DISABLED', `the webhook '${record.id}' is disabled: enable it first (PATCH enabled: true)`);
  }
}
