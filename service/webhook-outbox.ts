/**
 * The webhook outbox (docs/webhooks.md#delivery): what is owed to webhooks, written in the transaction of the
 * change that causes it, so a change that rolls back sends nothing and a committed one is sent
 * even after a crash. Each message holds the exact body every attempt sends: for a report event,
 * the full report as the webhook's company sees it through retrieve at that moment.
 */
import { randomBytes } from 'node:crypto';
import type { DataStore } from '../db/data-store';
import type { ReportEventType, WebhookEventType } from '../schema/webhooks';
import type { LabelReportService } from './label-reports';
import type { ReportEvents } from './report-events';
import { reportJson } from './report-json';

export class WebhookOutbox implements ReportEvents {
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly data: DataStore,
    private readonly reports: LabelReportService,
    private readonly now: () => Date,
  ) {}

  /**
   * One message per enabled webhook that takes `type`, of each company that can see the report:
   * a company hears nothing of reports it cannot see.
   */
  reportEvent(type: ReportEventType, reportId: string): void {
    if (!this.data.inTransaction) {
      throw new Error(`the ${type} event of label report '${reportId}' must be announced inside the transaction of its change`);
    }
    const access = this.data.reports.accessFor([reportId]).get(reportId);
    if (!access) throw new Error(`no label report '${reportId}' to announce`);
    const timestamp = this.now().toISOString();
    for (const { companyId } of access) {
      const webhookIds = this.data.webhooks.subscribed(companyId, type);
      if (webhookIds.length === 0) continue;
      const body = eventBody(type, timestamp, reportJson(this.reports.companyDocument(companyId, reportId)));
      for (const webhookId of webhookIds) this.enqueue(webhookId, type, timestamp, body);
    }
  }

  /** A webhook.test message to the webhook, inside the caller's transaction. Returns its id. */
  testEvent(webhookId: string): string {
    const timestamp = this.now().toISOString();
    return this.enqueue(webhookId, 'webhook.test', timestamp, eventBody('webhook.test', timestamp, JSON.stringify({ webhookId })));
  }

  /** `listener` runs whenever a message becomes due (the delivery worker wakes). Returns its removal. */
  onDue(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** A message became due (enqueued, or due again). Listeners only schedule their work, which runs after the transaction. */
  notify(): void {
    for (const listener of this.listeners) listener();
  }

  private enqueue(webhookId: string, type: WebhookEventType, created: string, body: string): string {
    const id = `msg_${randomBytes(16).toString('hex')}`;
    this.data.webhooks.enqueue({ id, webhookId, type, body, created });
    this.notify();
    return id;
  }
}

/** The Standard Webhooks body, with `data` already JSON text (a report is written from its columns). */
function eventBody(type: WebhookEventType, timestamp: string, dataJson: string): string {
  return `{"type":${JSON.stringify(type)},"timestamp":${JSON.stringify(timestamp)},"data":${dataJson}}`;
}
