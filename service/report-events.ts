/**
 * What taking in labels announces (docs/webhooks.md#events): a report activated or tapped. The intake
 * calls it inside the write transaction of the change, so an event is recorded exactly when
 * its change commits (the webhook outbox implements it).
 */
import type { ReportEventType } from '../schema/webhooks';

export interface ReportEvents {
  /** Must run inside the transaction that made the change. */
  reportEvent(type: ReportEventType, reportId: string): void;
}
