/**
 * SQL for webhooks: the registrations of each company, the outbox of messages owed to them and
 * the log of delivery attempts. Callers own transactions; the rules (schedules, leases' length,
 * when to disable) belong to the callers too.
 */
import type { Statement } from 'better-sqlite3';
import type { Delivery, ReportEventType, WebhookEventType } from '../schema/webhooks';
import type { Db } from './database';

export interface WebhookRecord {
  id: string;
  companyId: string;
  url: string;
  events: ReportEventType[];
  description: string;
  enabled: boolean;
  created: string;
  disabledReason: string | null;
  failingSince: string | null;
  secret: string;
  previousSecret: string | null;
  previousSecretExpires: string | null;
}

export interface NewMessage {
  id: string;
  webhookId: string;
  type: WebhookEventType;
  body: string;
  created: string;
}

/** A due message taken for delivery, with what sending it needs from its webhook. */
export interface ClaimedMessage {
  id: string;
  webhookId: string;
  body: string;
  /** Attempts recorded before this one. */
  attempts: number;
  url: string;
  secret: string;
  previousSecret: string | null;
  previousSecretExpires: string | null;
}

/** How one attempt ended, and what becomes of its message. */
export interface AttemptOutcome {
  messageId: string;
  status: 'succeeded' | 'failed';
  responseStatus: number | null;
  error: string | null;
  durationMs: number;
  at: string;
  /** The message's status after the attempt: pending again when a retry is scheduled. */
  messageStatus: 'pending' | 'succeeded' | 'failed';
  nextAttemptAt: string | null;
}

interface WebhookRow {
  id: string;
  company_id: string;
  url: string;
  events: string;
  description: string;
  enabled: number;
  created: string;
  disabled_reason: string | null;
  failing_since: string | null;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires: string | null;
}

interface DeliveryRow {
  message_id: string;
  type: string;
  attempt: number;
  status: Delivery['status'];
  response_status: number | null;
  error: string | null;
  duration_ms: number | null;
  at: string;
  next_attempt_at: string | null;
}

/** A webhook's deliveries: each attempt made, and each message's next attempt while it is pending. */
const DELIVERIES = `
  SELECT a.message_id, m.type, a.attempt, a.status, a.response_status, a.error, a.duration_ms, a.at, a.next_attempt_at
    FROM webhook_attempts a JOIN webhook_messages m ON m.id = a.message_id
   WHERE a.webhook_id = @webhookId
  UNION ALL
  SELECT id, type, attempts + 1, 'pending', NULL, NULL, NULL, next_attempt_at, next_attempt_at
    FROM webhook_messages
   WHERE webhook_id = @webhookId AND status = 'pending'`;

export class WebhookStore {
  private readonly saveRow: Statement;
  private readonly selectForCompany: Statement;
  private readonly selectOne: Statement;
  private readonly selectCompany: Statement;
  private readonly deleteRow: Statement;
  private readonly selectSubscribed: Statement;
  private readonly insertMessage: Statement;
  private readonly selectDue: Statement;
  private readonly leaseMessage: Statement;
  private readonly selectNextDue: Statement;
  private readonly selectMessage: Statement;
  private readonly clearFailing: Statement;
  private readonly setFailing: Statement;
  private readonly disableRow: Statement;
  private readonly insertAttempt: Statement;
  private readonly finishMessage: Statement;
  private readonly selectLeaseHolders: Statement;
  private readonly releaseLeasesOf: Statement;
  private readonly releaseLease: Statement;
  private readonly redeliverMessage: Statement;
  private readonly selectDeliveries: Statement;
  private readonly countDeliveries: Statement;
  private readonly deleteOldAttempts: Statement;
  private readonly deleteOldMessages: Statement;

  constructor(db: Db) {
    this.saveRow = db.prepare(
      `INSERT INTO webhooks (id, company_id, url, events, description, enabled, created, disabled_reason,
                             failing_since, secret, previous_secret, previous_secret_expires)
       VALUES (@id, @company_id, @url, @events, @description, @enabled, @created, @disabled_reason,
               @failing_since, @secret, @previous_secret, @previous_secret_expires)
       ON CONFLICT (id) DO UPDATE SET url = excluded.url, events = excluded.events,
         description = excluded.description, enabled = excluded.enabled,
         disabled_reason = excluded.disabled_reason, failing_since = excluded.failing_since,
         secret = excluded.secret, previous_secret = excluded.previous_secret,
         previous_secret_expires = excluded.previous_secret_expires`,
    );
    this.selectForCompany = db.prepare('SELECT * FROM webhooks WHERE company_id = ? ORDER BY created, id');
    this.selectOne = db.prepare('SELECT * FROM webhooks WHERE id = ? AND company_id = ?');
    this.selectCompany = db.prepare('SELECT company_id FROM webhooks WHERE id = ?').pluck();
    this.deleteRow = db.prepare('DELETE FROM webhooks WHERE id = ?');
    this.selectSubscribed = db
      .prepare(
        `SELECT id FROM webhooks
          WHERE company_id = ? AND enabled = 1 AND EXISTS (SELECT 1 FROM json_each(events) WHERE value = ?)
          ORDER BY created, id`,
      )
      .pluck();
    this.insertMessage = db.prepare(
      `INSERT INTO webhook_messages (id, webhook_id, type, body, created, status, attempts, next_attempt_at)
       VALUES (@id, @webhookId, @type, @body, @created, 'pending', 0, @created)`,
    );
    this.selectDue = db.prepare(
      `SELECT m.id, m.webhook_id AS webhookId, m.body, m.attempts, w.url, w.secret,
              w.previous_secret AS previousSecret, w.previous_secret_expires AS previousSecretExpires
         FROM webhook_messages m JOIN webhooks w ON w.id = m.webhook_id
        WHERE m.status = 'pending' AND m.next_attempt_at <= @now
          AND (m.lease_until IS NULL OR m.lease_until <= @now) AND w.enabled = 1
          AND m.webhook_id NOT IN (SELECT value FROM json_each(@busy))
        ORDER BY m.next_attempt_at
        LIMIT @limit`,
    );
    this.leaseMessage = db.prepare('UPDATE webhook_messages SET lease_until = ?, lease_pid = ? WHERE id = ?');
    this.selectNextDue = db
      .prepare(
        `SELECT MIN(CASE WHEN m.lease_until > m.next_attempt_at THEN m.lease_until ELSE m.next_attempt_at END)
           FROM webhook_messages m JOIN webhooks w ON w.id = m.webhook_id
          WHERE m.status = 'pending' AND w.enabled = 1 AND NOT (m.lease_pid IS @pid AND m.lease_until > @now)
            AND m.webhook_id NOT IN (SELECT value FROM json_each(@busy))`,
      )
      .pluck();
    this.clearFailing = db.prepare('UPDATE webhooks SET failing_since = NULL WHERE id = ? AND failing_since IS NOT NULL');
    this.setFailing = db
      .prepare('UPDATE webhooks SET failing_since = COALESCE(failing_since, ?) WHERE id = ? RETURNING failing_since')
      .pluck();
    this.disableRow = db.prepare('UPDATE webhooks SET enabled = 0, disabled_reason = ? WHERE id = ? AND enabled = 1');
    this.selectMessage = db.prepare('SELECT id, status, attempts FROM webhook_messages WHERE id = ? AND webhook_id = ?');
    this.insertAttempt = db.prepare(
      `INSERT INTO webhook_attempts (message_id, attempt, webhook_id, status, response_status, error, duration_ms, at, next_attempt_at)
       SELECT id, attempts + 1, webhook_id, @status, @responseStatus, @error, @durationMs, @at, @nextAttemptAt
         FROM webhook_messages WHERE id = @messageId`,
    );
    this.finishMessage = db.prepare(
      `UPDATE webhook_messages
          SET attempts = attempts + 1, status = @messageStatus, next_attempt_at = @nextAttemptAt,
              lease_until = NULL, lease_pid = NULL
        WHERE id = @messageId`,
    );
    this.selectLeaseHolders = db.prepare('SELECT DISTINCT lease_pid FROM webhook_messages WHERE lease_pid IS NOT NULL').pluck();
    this.releaseLeasesOf = db.prepare('UPDATE webhook_messages SET lease_until = NULL, lease_pid = NULL WHERE lease_pid = ?');
    this.releaseLease = db.prepare('UPDATE webhook_messages SET lease_until = NULL, lease_pid = NULL WHERE id = ? AND lease_pid = ?');
    this.redeliverMessage = db.prepare(
      `UPDATE webhook_messages SET status = 'pending', next_attempt_at = ? WHERE id = ? AND webhook_id = ?`,
    );
    this.selectDeliveries = db.prepare(
      `${DELIVERIES} ORDER BY at DESC, message_id, attempt DESC LIMIT @limit OFFSET @offset`,
    );
    this.countDeliveries = db.prepare(`SELECT COUNT(*) FROM (${DELIVERIES})`).pluck();
    this.deleteOldAttempts = db.prepare('DELETE FROM webhook_attempts WHERE at < ?');
    this.deleteOldMessages = db.prepare(
      `DELETE FROM webhook_messages
        WHERE status <> 'pending' AND created < ?
          AND NOT EXISTS (SELECT 1 FROM webhook_attempts a WHERE a.message_id = webhook_messages.id)`,
    );
  }

  /** Creates the webhook, or replaces every value of the one with its id (its company and creation stay). */
  save(webhook: WebhookRecord): void {
    this.saveRow.run({
      id: webhook.id,
      company_id: webhook.companyId,
      url: webhook.url,
      events: JSON.stringify(webhook.events),
      description: webhook.description,
      enabled: webhook.enabled ? 1 : 0,
      created: webhook.created,
      disabled_reason: webhook.disabledReason,
      failing_since: webhook.failingSince,
      secret: webhook.secret,
      previous_secret: webhook.previousSecret,
      previous_secret_expires: webhook.previousSecretExpires,
    });
  }

  list(companyId: string): WebhookRecord[] {
    return (this.selectForCompany.all(companyId) as WebhookRow[]).map(toRecord);
  }

  /** The company's webhook; another company's is as absent as an unknown one. */
  find(companyId: string, id: string): WebhookRecord | undefined {
    const row = this.selectOne.get(id, companyId) as WebhookRow | undefined;
    return row && toRecord(row);
  }

  companyOf(id: string): string | undefined {
    return this.selectCompany.get(id) as string | undefined;
  }

  /** Removes the webhook with its messages and their attempts. */
  remove(id: string): boolean {
    return this.deleteRow.run(id).changes === 1;
  }

  /** Ids of the company's enabled webhooks that take this type of event. */
  subscribed(companyId: string, type: WebhookEventType): string[] {
    return this.selectSubscribed.all(companyId, type) as string[];
  }

  /** A message due at once. */
  enqueue(message: NewMessage): void {
    this.insertMessage.run(message);
  }

  /**
   * Up to `limit` messages due at `now` that no lease holds, oldest due first, leaving out the
   * webhooks named in `busy`. Messages of a disabled webhook wait.
   */
  due(now: string, limit: number, busy: readonly string[]): ClaimedMessage[] {
    return this.selectDue.all({ now, limit, busy: JSON.stringify(busy) }) as ClaimedMessage[];
  }

  /** The message is `pid`'s to deliver until `until`. */
  lease(messageId: string, until: string, pid: number): void {
    this.leaseMessage.run(until, pid, messageId);
  }

  /**
   * When the next message becomes due or its lease runs out, leaving out those `pid` holds and
   * those of the webhooks in `busy` (the end of a delivery in that process says when to look
   * again); undefined when no message waits.
   */
  nextDueAt(pid: number, now: string, busy: readonly string[]): string | undefined {
    return (this.selectNextDue.get({ pid, now, busy: JSON.stringify(busy) }) as string | null) ?? undefined;
  }

  /** The processes holding leases. */
  leaseHolders(): number[] {
    return this.selectLeaseHolders.all() as number[];
  }

  /** Every lease of a process that no longer runs: its messages are due again at once. */
  releaseLeases(pid: number): number {
    return this.releaseLeasesOf.run(pid).changes;
  }

  /** A lease given back without an attempt recorded (a delivery cut short by a stop). */
  release(messageId: string, pid: number): void {
    this.releaseLease.run(messageId, pid);
  }

  /** The attempt's log entry and its message's new state; nothing when the message is gone. */
  recordAttempt(outcome: AttemptOutcome): void {
    if (this.insertAttempt.run(outcome).changes === 0) return;
    this.finishMessage.run(outcome);
  }

  /** A success ends the webhook's run of failures. */
  markSucceeded(webhookId: string): void {
    this.clearFailing.run(webhookId);
  }

  /** Returns since when every attempt of the webhook has failed. */
  markFailed(webhookId: string, at: string): string | undefined {
    return this.setFailing.get(at, webhookId) as string | undefined;
  }

  /** Delivery stops for the webhook until someone enables it again. */
  disable(webhookId: string, reason: string): void {
    this.disableRow.run(reason, webhookId);
  }

  findMessage(webhookId: string, messageId: string): { id: string; status: string; attempts: number } | undefined {
    return this.selectMessage.get(messageId, webhookId) as { id: string; status: string; attempts: number } | undefined;
  }

  /** The message is pending again and due at `at`. */
  redeliver(webhookId: string, messageId: string, at: string): boolean {
    return this.redeliverMessage.run(at, messageId, webhookId).changes === 1;
  }

  /** Newest first; a pending entry's time is that of its next attempt. */
  deliveries(webhookId: string, limit: number, offset: number): Delivery[] {
    return (this.selectDeliveries.all({ webhookId, limit, offset }) as DeliveryRow[]).map((row) => ({
      id: `${row.message_id}.${row.attempt}`,
      messageId: row.message_id,
      type: row.type,
      attempt: row.attempt,
      status: row.status,
      responseStatus: row.response_status,
      error: row.error,
      durationMs: row.duration_ms,
      at: row.at,
      nextAttemptAt: row.next_attempt_at,
    }));
  }

  countDeliveriesOf(webhookId: string): number {
    return this.countDeliveries.get({ webhookId }) as number;
  }

  /** Attempts made before `before`, then finished messages left without any. */
  prune(before: string): { attempts: number; messages: number } {
    const attempts = this.deleteOldAttempts.run(before).changes;
    const messages = this.deleteOldMessages.run(before).changes;
    return { attempts, messages };
  }
}

function toRecord(row: WebhookRow): WebhookRecord {
  return {
    id: row.id,
    companyId: row.company_id,
    url: row.url,
    events: JSON.parse(row.events) as ReportEventType[],
    description: row.description,
    enabled: row.enabled === 1,
    created: row.created,
    disabledReason: row.disabled_reason,
    failingSince: row.failing_since,
    secret: row.secret,
    previousSecret: row.previous_secret,
    previousSecretExpires: row.previous_secret_expires,
  };
}
