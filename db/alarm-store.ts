/**
 * SQL for alarms: each company's rules, the alarms they raised, who was told, the queue of
 * e-mails, escalations and digests with its delivery log, the company's quiet hours and digest,
 * and the desk's SMTP relay. Callers own transactions; the rules (who, when, what a state means)
 * belong to the callers.
 */
import type { Statement } from 'better-sqlite3';
import type { AlarmAcknowledgement, AlarmCause, AlarmChannel, AlarmRecord, AlarmRule, AlarmSettings, AlarmState, AlarmStep } from '../model/alarm';
import type { Db } from './database';

export type AlarmJobKind = 'email' | 'escalation' | 'digest';
export type AlarmJobStatus = 'pending' | 'succeeded' | 'failed' | 'cancelled';

export interface NewAlarmJob {
  id: string;
  kind: AlarmJobKind;
  alarmId: string | null;
  companyId: string;
  step: number;
  recipients: string[];
  nextAttemptAt: string;
  created: string;
}

/** A due job taken for an attempt. */
export interface ClaimedAlarmJob {
  id: string;
  kind: AlarmJobKind;
  alarmId: string | null;
  companyId: string;
  step: number;
  recipients: string[];
  attempts: number;
  created: string;
}

export interface AlarmAttempt {
  jobId: string;
  status: 'succeeded' | 'failed';
  reply: string | null;
  error: string | null;
  durationMs: number;
  at: string;
  /** The job's status after the attempt: pending again when a retry is scheduled. */
  jobStatus: AlarmJobStatus;
  nextAttemptAt: string | null;
}

export interface SmtpRecord {
  host: string;
  port: number;
  security: 'none' | 'starttls' | 'tls';
  user: string | null;
  from: string;
  appUrl: string | null;
}

export interface AlarmRow extends AlarmRecord {
  ruleName: string | null;
  acknowledged: AlarmAcknowledgement | null;
  state: AlarmState;
}

export interface AlarmNotice {
  alarmId: string;
  step: number;
  channel: AlarmChannel;
  recipient: string;
  at: string;
}

export interface AlarmListFilter {
  state?: AlarmState;
  reportId?: string;
  level?: 1 | 2;
  limit: number;
  offset: number;
}

export interface DeliveryRow {
  job_id: string;
  alarm_id: string | null;
  kind: string;
  recipients: string;
  attempt: number;
  status: AlarmJobStatus;
  reply: string | null;
  error: string | null;
  duration_ms: number | null;
  at: string;
  next_attempt_at: string | null;
}

export interface PersonAddress {
  id: string;
  login: string;
  name: string;
  email: string | null;
}

interface RuleRow {
  id: string;
  company_id: string;
  name: string;
  min_level: 1 | 2;
  filter: string;
  custom_fields: string;
  steps: string;
  channels: string;
  escalate_after_minutes: number | null;
  enabled: number;
  created: string;
}

interface AlarmDbRow {
  id: string;
  rule_id: string;
  company_id: string;
  label_report_id: string;
  label_reference: string;
  level: 1 | 2;
  alert_timestamp: number;
  excursion: string;
  cause: AlarmCause;
  step: number;
  escalated_at: string | null;
  created: string;
  rule_name: string | null;
  ack: string | null;
}

/** The review's first acknowledgement of at least the alarm's level since it was raised, of its company. */
const ACKNOWLEDGEMENT = `(SELECT json_object('at', v.at, 'by', COALESCE(v.user_name, v.api_key_name, v.api_key_id, ''))
    FROM report_reviews v
   WHERE v.label_report_id = a.label_report_id AND v.company_id = a.company_id
     AND v.kind = 'acknowledgement' AND v.alert_level >= a.level AND v.at >= a.created
   ORDER BY v.id LIMIT 1)`;

const ALARMS_WITH_STATE = `
  SELECT * FROM (
    SELECT a.*, r.name AS rule_name, ${ACKNOWLEDGEMENT} AS ack
      FROM alarms a LEFT JOIN alarm_rules r ON r.id = a.rule_id
     WHERE a.company_id = @companyId
       AND (@reportId IS NULL OR a.label_report_id = @reportId)
       AND (@level IS NULL OR a.level = @level))
  WHERE @state IS NULL OR (CASE WHEN ack IS NOT NULL THEN 'acknowledged' WHEN step > 0 THEN 'escalated' ELSE 'open' END) = @state`;

/** A company's e-mail log: each attempt made, and each job's next attempt while it is pending. */
const DELIVERIES = `
  SELECT t.job_id, j.alarm_id, j.kind, j.recipients, t.attempt, t.status, t.reply, t.error, t.duration_ms, t.at, t.next_attempt_at
    FROM alarm_attempts t JOIN alarm_jobs j ON j.id = t.job_id
   WHERE j.company_id = @companyId AND j.kind <> 'escalation'
  UNION ALL
  SELECT id, alarm_id, kind, recipients, attempts + 1, status, NULL, NULL, NULL, next_attempt_at,
         CASE WHEN status = 'pending' THEN next_attempt_at END
    FROM alarm_jobs
   WHERE company_id = @companyId AND kind <> 'escalation' AND (status = 'pending' OR (status = 'cancelled' AND attempts = 0))`;

export class AlarmStore {
  private readonly db: Db;
  private readonly statements = new Map<string, Statement>();
  /**
   * Every company's enabled rules, as of `version` (SQLite's data_version, which moves with
   * each commit of another connection: another process adding a rule) and this store's own
   * writes of rules (which drop it). A change that may raise an alarm reads them each time.
   */
  private enabled: { version: number; rules: AlarmRule[] } | undefined;

  constructor(db: Db) {
    this.db = db;
  }

  private statement(sql: string): Statement {
    let s = this.statements.get(sql);
    if (!s) {
      s = this.db.prepare(sql);
      this.statements.set(sql, s);
    }
    return s;
  }

  // Rules

  saveRule(rule: AlarmRule): void {
    this.enabled = undefined;
    this.statement(
      `INSERT INTO alarm_rules (id, company_id, name, min_level, filter, custom_fields, steps, channels, escalate_after_minutes, enabled, created)
       VALUES (@id, @companyId, @name, @minLevel, @filter, @customFields, @steps, @channels, @escalateAfterMinutes, @enabled, @created)
       ON CONFLICT (id) DO UPDATE SET name = excluded.name, min_level = excluded.min_level, filter = excluded.filter,
         custom_fields = excluded.custom_fields, steps = excluded.steps, channels = excluded.channels,
         escalate_after_minutes = excluded.escalate_after_minutes, enabled = excluded.enabled`,
    ).run({ ...rule, steps: JSON.stringify(rule.steps), channels: JSON.stringify(rule.channels), enabled: rule.enabled ? 1 : 0 });
  }

  rules(companyId: string): AlarmRule[] {
    return (this.statement('SELECT * FROM alarm_rules WHERE company_id = ? ORDER BY created, id').all(companyId) as RuleRow[]).map(toRule);
  }

  /** The enabled rules of each of these companies (not to be changed: they are shared). */
  enabledRules(companyIds: readonly string[]): AlarmRule[] {
    if (companyIds.length === 0) return [];
    const rules = this.allEnabledRules();
    if (rules.length === 0) return rules;
    const wanted = new Set(companyIds);
    return rules.filter((rule) => wanted.has(rule.companyId));
  }

  /** Every company's enabled rules (not to be changed: they are shared). */
  allEnabledRules(): AlarmRule[] {
    const version = this.statement('PRAGMA data_version').pluck().get() as number;
    if (this.enabled?.version !== version) {
      this.enabled = { version, rules: (this.statement('SELECT * FROM alarm_rules WHERE enabled = 1 ORDER BY created, id').all() as RuleRow[]).map(toRule) };
    }
    return this.enabled.rules;
  }

  /** Whether any company has an enabled rule: without one, no change needs a look. */
  anyEnabledRule(): boolean {
    return this.statement('SELECT 1 FROM alarm_rules WHERE enabled = 1 LIMIT 1').get() !== undefined;
  }

  findRule(companyId: string, id: string): AlarmRule | undefined {
    const row = this.statement('SELECT * FROM alarm_rules WHERE id = ? AND company_id = ?').get(id, companyId) as RuleRow | undefined;
    return row && toRule(row);
  }

  ruleById(id: string): AlarmRule | undefined {
    const row = this.statement('SELECT * FROM alarm_rules WHERE id = ?').get(id) as RuleRow | undefined;
    return row && toRule(row);
  }

  removeRule(companyId: string, id: string): boolean {
    this.enabled = undefined;
    return this.statement('DELETE FROM alarm_rules WHERE id = ? AND company_id = ?').run(id, companyId).changes === 1;
  }

  /**
   * Whether the company's listing row of the report passes `where` (a compiled list filter,
   * its parameters in order): the rule's conditions judged exactly as the list judges them.
   */
  matches(companyId: string, reportId: string, where: string, params: readonly unknown[]): boolean {
    return (
      this.statement(
        `SELECT 1 FROM report_listing l WHERE l.ck = (SELECT k.ck FROM company_keys k WHERE k.company_id = ?) AND l.id = ? AND (${where})`,
      ).get(companyId, reportId, ...params) !== undefined
    );
  }

  /**
   * The reports created after the change log's entry `afterLogId` (a bulk write's) whose alert
   * is at least `minLevel` and whose listing row for the company passes `where`, by id: `matches`
   * for all of them in one query.
   */
  createdMatching(companyId: string, minLevel: number, afterLogId: number, where: string, params: readonly unknown[]): string[] {
    return this.statement(
      `SELECT l.id FROM report_listing l
        WHERE l.ck = (SELECT k.ck FROM company_keys k WHERE k.company_id = ?) AND l.alert_level >= ?
          AND l.id IN (SELECT c.label_report_id FROM change_log c WHERE c.seq > ? AND c.kind = 'create')
          AND (${where})
        ORDER BY l.id`,
    )
      .pluck()
      .all(companyId, minLevel, afterLogId, ...params) as string[];
  }

  // Alarms

  /** Writes the alarm unless the rule already raised one for the report at its level; returns whether it did. */
  insertAlarm(alarm: AlarmRecord): boolean {
    return (
      this.statement(
        `INSERT INTO alarms (id, rule_id, company_id, label_report_id, label_reference, level, alert_timestamp, excursion, cause, step, escalated_at, created)
         VALUES (@id, @ruleId, @companyId, @reportId, @labelReference, @level, @alertTimestamp, @excursion, @cause, @step, @escalatedAt, @created)
         ON CONFLICT (rule_id, label_report_id, level) DO NOTHING`,
      ).run(alarm).changes === 1
    );
  }

  findAlarm(id: string): AlarmRow | undefined {
    const row = this.statement(
      `SELECT a.*, r.name AS rule_name, ${ACKNOWLEDGEMENT} AS ack FROM alarms a LEFT JOIN alarm_rules r ON r.id = a.rule_id WHERE a.id = ?`,
    ).get(id) as AlarmDbRow | undefined;
    return row && toAlarm(row);
  }

  /** The alarm moved to `step` at `at`. */
  escalated(alarmId: string, step: number, at: string): void {
    this.statement('UPDATE alarms SET step = ?, escalated_at = ? WHERE id = ?').run(step, at, alarmId);
  }

  list(companyId: string, filter: AlarmListFilter): AlarmRow[] {
    return (
      this.statement(`${ALARMS_WITH_STATE} ORDER BY created DESC, id LIMIT @limit OFFSET @offset`).all(params(companyId, filter)) as AlarmDbRow[]
    ).map(toAlarm);
  }

  count(companyId: string, filter: Omit<AlarmListFilter, 'limit' | 'offset'>): number {
    return this.statement(`SELECT count(*) FROM (${ALARMS_WITH_STATE})`).pluck().get(params(companyId, { ...filter, limit: 0, offset: 0 })) as number;
  }

  /** Alarms raised since `since`, for the digest, oldest first. */
  raisedSince(companyId: string, since: string): AlarmRow[] {
    return (
      this.statement(
        `SELECT a.*, r.name AS rule_name, ${ACKNOWLEDGEMENT} AS ack FROM alarms a LEFT JOIN alarm_rules r ON r.id = a.rule_id
          WHERE a.company_id = ? AND a.created >= ? ORDER BY a.created, a.id`,
      ).all(companyId, since) as AlarmDbRow[]
    ).map(toAlarm);
  }

  addNotice(notice: AlarmNotice): void {
    this.statement('INSERT INTO alarm_notices (alarm_id, step, channel, recipient, at) VALUES (@alarmId, @step, @channel, @recipient, @at)').run(notice);
  }

  noticesFor(alarmIds: readonly string[]): Map<string, AlarmNotice[]> {
    const byAlarm = new Map<string, AlarmNotice[]>();
    if (alarmIds.length === 0) return byAlarm;
    const rows = this.statement(
      `SELECT alarm_id AS alarmId, step, channel, recipient, at FROM alarm_notices
        WHERE alarm_id IN (SELECT value FROM json_each(?)) ORDER BY id`,
    ).all(JSON.stringify(alarmIds)) as AlarmNotice[];
    for (const row of rows) {
      const list = byAlarm.get(row.alarmId) ?? [];
      list.push(row);
      byAlarm.set(row.alarmId, list);
    }
    return byAlarm;
  }

  // The queue's jobs

  enqueue(job: NewAlarmJob): void {
    this.statement(
      `INSERT INTO alarm_jobs (id, kind, alarm_id, company_id, step, recipients, status, attempts, next_attempt_at, created)
       VALUES (@id, @kind, @alarmId, @companyId, @step, @recipients, 'pending', 0, @nextAttemptAt, @created)`,
    ).run({ ...job, recipients: JSON.stringify(job.recipients) });
  }

  due(now: string, limit: number, busy: readonly string[]): ClaimedAlarmJob[] {
    // Mostly no kind is busy: without the list the query costs a fraction (no table of the JSON to scan).
    const rows = this.statement(
      `SELECT id, kind, alarm_id AS alarmId, company_id AS companyId, step, recipients, attempts, created
         FROM alarm_jobs
        WHERE status = 'pending' AND next_attempt_at <= @now AND (lease_until IS NULL OR lease_until <= @now)
          ${busy.length === 0 ? '' : 'AND kind NOT IN (SELECT value FROM json_each(@busy))'}
        ORDER BY next_attempt_at
        LIMIT @limit`,
    ).all(busy.length === 0 ? { now, limit } : { now, limit, busy: JSON.stringify(busy) }) as (Omit<ClaimedAlarmJob, 'recipients'> & { recipients: string })[];
    return rows.map((row) => ({ ...row, recipients: JSON.parse(row.recipients) as string[] }));
  }

  lease(jobId: string, until: string, pid: number): void {
    this.statement('UPDATE alarm_jobs SET lease_until = ?, lease_pid = ? WHERE id = ?').run(until, pid, jobId);
  }

  /** When the job is due (ISO), while it is pending; undefined once it is settled or gone. */
  pendingDueAt(id: string): string | undefined {
    return (this.statement("SELECT next_attempt_at FROM alarm_jobs WHERE id = ? AND status = 'pending'").pluck().get(id) as string | undefined) ?? undefined;
  }

  setDueAt(id: string, at: string): void {
    this.statement("UPDATE alarm_jobs SET next_attempt_at = ? WHERE id = ? AND status = 'pending'").run(at, id);
  }

  nextDueAt(pid: number, now: string, busy: readonly string[]): string | undefined {
    return (
      (this.statement(
        `SELECT MIN(CASE WHEN lease_until > next_attempt_at THEN lease_until ELSE next_attempt_at END)
           FROM alarm_jobs
          WHERE status = 'pending' AND NOT (lease_pid IS @pid AND lease_until > @now)
            AND kind NOT IN (SELECT value FROM json_each(@busy))`,
      )
        .pluck()
        .get({ pid, now, busy: JSON.stringify(busy) }) as string | null) ?? undefined
    );
  }

  leaseHolders(): number[] {
    return this.statement('SELECT DISTINCT lease_pid FROM alarm_jobs WHERE lease_pid IS NOT NULL').pluck().all() as number[];
  }

  releaseLeases(pid: number): number {
    return this.statement('UPDATE alarm_jobs SET lease_until = NULL, lease_pid = NULL WHERE lease_pid = ?').run(pid).changes;
  }

  release(jobId: string, pid: number): void {
    this.statement('UPDATE alarm_jobs SET lease_until = NULL, lease_pid = NULL WHERE id = ? AND lease_pid = ?').run(jobId, pid);
  }

  /** The attempt's log entry and its job's new state. */
  recordAttempt(attempt: AlarmAttempt): void {
    const logged = this.statement(
      `INSERT INTO alarm_attempts (job_id, attempt, status, reply, error, duration_ms, at, next_attempt_at)
       SELECT id, attempts + 1, @status, @reply, @error, @durationMs, @at, @nextAttemptAt FROM alarm_jobs WHERE id = @jobId`,
    ).run(attempt);
    if (logged.changes === 0) return;
    this.finish(attempt.jobId, attempt.jobStatus, attempt.nextAttemptAt, true);
  }

  /** The job's new state without a log entry (an escalation, a mail no longer owed). */
  finish(jobId: string, status: AlarmJobStatus, nextAttemptAt: string | null, counted = false): void {
    this.statement(
      `UPDATE alarm_jobs SET attempts = attempts + @add, status = @status, next_attempt_at = COALESCE(@nextAttemptAt, next_attempt_at),
              lease_until = NULL, lease_pid = NULL
        WHERE id = @jobId`,
    ).run({ jobId, status, nextAttemptAt, add: counted ? 1 : 0 });
  }

  /** The pending jobs of a kind for a company (a digest to move when its hour changes). */
  pendingOf(companyId: string, kind: AlarmJobKind): string[] {
    return this.statement("SELECT id FROM alarm_jobs WHERE company_id = ? AND kind = ? AND status = 'pending'").pluck().all(companyId, kind) as string[];
  }

  jobStatus(jobId: string): { status: AlarmJobStatus; attempts: number } | undefined {
    return this.statement('SELECT status, attempts FROM alarm_jobs WHERE id = ?').get(jobId) as { status: AlarmJobStatus; attempts: number } | undefined;
  }

  deliveries(companyId: string, limit: number, offset: number): DeliveryRow[] {
    return this.statement(`${DELIVERIES} ORDER BY at DESC, job_id, attempt DESC LIMIT @limit OFFSET @offset`).all({ companyId, limit, offset }) as DeliveryRow[];
  }

  countDeliveries(companyId: string): number {
    return this.statement(`SELECT count(*) FROM (${DELIVERIES})`).pluck().get({ companyId }) as number;
  }

  /** Attempts before `before`, then finished jobs left without any. */
  prune(before: string): void {
    this.statement('DELETE FROM alarm_attempts WHERE at < ?').run(before);
    this.statement(
      `DELETE FROM alarm_jobs WHERE status <> 'pending' AND created < ?
         AND NOT EXISTS (SELECT 1 FROM alarm_attempts t WHERE t.job_id = alarm_jobs.id)`,
    ).run(before);
  }

  // Settings

  settings(companyId: string): AlarmSettings | undefined {
    const row = this.statement('SELECT * FROM alarm_settings WHERE company_id = ?').get(companyId) as
      | { zone: string; quiet_from: string | null; quiet_to: string | null; digest_at: string | null; digest_to: string }
      | undefined;
    if (!row) return undefined;
    return {
      zone: row.zone,
      quietHours: row.quiet_from !== null && row.quiet_to !== null ? { from: row.quiet_from, to: row.quiet_to } : null,
      digest: row.digest_at !== null ? { at: row.digest_at, to: JSON.parse(row.digest_to) as string[] } : null,
    };
  }

  saveSettings(companyId: string, settings: AlarmSettings): void {
    this.statement(
      `INSERT INTO alarm_settings (company_id, zone, quiet_from, quiet_to, digest_at, digest_to) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (company_id) DO UPDATE SET zone = excluded.zone, quiet_from = excluded.quiet_from, quiet_to = excluded.quiet_to,
         digest_at = excluded.digest_at, digest_to = excluded.digest_to`,
    ).run(
      companyId,
      settings.zone,
      settings.quietHours?.from ?? null,
      settings.quietHours?.to ?? null,
      settings.digest?.at ?? null,
      JSON.stringify(settings.digest?.to ?? []),
    );
  }

  smtp(): SmtpRecord | undefined {
    const row = this.statement('SELECT host, port, security, user, from_address, app_url FROM smtp_settings WHERE id = 1').get() as
      | { host: string; port: number; security: SmtpRecord['security']; user: string | null; from_address: string; app_url: string | null }
      | undefined;
    return row && { host: row.host, port: row.port, security: row.security, user: row.user, from: row.from_address, appUrl: row.app_url };
  }

  saveSmtp(smtp: SmtpRecord): void {
    this.statement(
      `INSERT INTO smtp_settings (id, host, port, security, user, from_address, app_url) VALUES (1, @host, @port, @security, @user, @from, @appUrl)
       ON CONFLICT (id) DO UPDATE SET host = excluded.host, port = excluded.port, security = excluded.security, user = excluded.user,
         from_address = excluded.from_address, app_url = excluded.app_url`,
    ).run(smtp);
  }

  // People's addresses

  /** The company's people among `ids` who may still sign in, with their addresses. */
  people(companyId: string, ids: readonly string[]): PersonAddress[] {
    if (ids.length === 0) return [];
    return this.statement(
      `SELECT id, login, name, email FROM users
        WHERE company_id = ? AND disabled_at IS NULL AND id IN (SELECT value FROM json_each(?)) ORDER BY login`,
    ).all(companyId, JSON.stringify(ids)) as PersonAddress[];
  }

  personByLogin(login: string): PersonAddress & { companyId: string } | undefined {
    return this.statement('SELECT id, login, name, email, company_id AS companyId FROM users WHERE login = ?').get(login) as
      | (PersonAddress & { companyId: string })
      | undefined;
  }

  emailOf(userId: string): string | null {
    return (this.statement('SELECT email FROM users WHERE id = ?').pluck().get(userId) as string | null | undefined) ?? null;
  }

  setEmail(userId: string, email: string | null): boolean {
    return this.statement('UPDATE users SET email = ? WHERE id = ?').run(email, userId).changes === 1;
  }
}

function params(companyId: string, filter: AlarmListFilter): Record<string, unknown> {
  return {
    companyId,
    state: filter.state ?? null,
    reportId: filter.reportId ?? null,
    level: filter.level ?? null,
    limit: filter.limit,
    offset: filter.offset,
  };
}

function toRule(row: RuleRow): AlarmRule {
  return {
    id: row.id,
    companyId: row.company_id,
    name: row.name,
    minLevel: row.min_level,
    filter: row.filter,
    customFields: row.custom_fields,
    steps: JSON.parse(row.steps) as AlarmStep[],
    channels: JSON.parse(row.channels) as AlarmChannel[],
    escalateAfterMinutes: row.escalate_after_minutes,
    enabled: row.enabled === 1,
    created: row.created,
  };
}

function toAlarm(row: AlarmDbRow): AlarmRow {
  const acknowledged = row.ack === null ? null : (JSON.parse(row.ack) as AlarmAcknowledgement);
  return {
    id: row.id,
    ruleId: row.rule_id,
    ruleName: row.rule_name,
    companyId: row.company_id,
    reportId: row.label_report_id,
    labelReference: row.label_reference,
    level: row.level,
    alertTimestamp: row.alert_timestamp,
    excursion: row.excursion,
    cause: row.cause,
    step: row.step,
    escalatedAt: row.escalated_at,
    created: row.created,
    acknowledged,
    state: acknowledged ? 'acknowledged' : row.step > 0 ? 'escalated' : 'open',
  };
}
