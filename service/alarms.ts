/**
 * Alarms (README "Alarms"): each company's rules, the alarms they raise and who is told. An
 * alarm is raised by the one writer's listener, inside the transaction of the change that made
 * a report's alert rise: a change that rolls back raises nothing, and a committed one has its
 * alarm, its e-mails and its webhook messages written with it. Once per rule, report and
 * level: a second tap that keeps a report critical raises nothing new.
 *
 * The review's acknowledgement is what stops an alarm: its state is read from the review's
 * entries (an acknowledgement of at least the alarm's level, of its company, since it was
 * raised), so acknowledging needs nothing from here, and the queue reads it again when it
 * takes each e-mail and escalation.
 */
import { monotonicFor, STEP_TOLERANCE_MS, type Monotonic, type WallClock } from './clock';
import { randomBytes, randomUUID } from 'node:crypto';
import type { DataStore } from '../db/data-store';
import type { AlarmNotice, AlarmRow, SmtpRecord } from '../db/alarm-store';
import { decodeDatapoints } from '../model/datapoint-codec';
import { InvalidInputError, NotFoundError } from '../model/errors';
import {
  DEFAULT_ALARM_SETTINGS,
  levelName,
  nextDailyAt,
  quietUntil,
  raisesAlarm,
  type AlarmCause,
  type AlarmRecord,
  type AlarmRule,
  type AlarmSettings,
} from '../model/alarm';
import { parseListQuery } from '../query/list-query';
import type {
  AlarmAnswer,
  AlarmDelivery,
  AlarmList,
  AlarmRuleAnswer,
  AlarmRuleBody,
  AlarmSettingsBody,
  SmtpSettings,
  SmtpSettingsBody,
} from '../schema/alarms';
import type { Report } from '../model/report';
import { toTimeline } from '../sense';
import { explainAlert } from '../sense/alert-explanation';
import { requirePermission, type Caller } from './api-keys';
import type { Actor } from '../schema/change-log';
import type { ChangeNote, ManyCreated, ManyCreatedListener, ReportChange, ReportChangeListener } from './report-writer';

/** Reading alarms needs what reading reports needs; managing rules, settings and the relay, what managing webhooks needs. */
const MANAGE = 'webhooks:manage' as const;
const READ = 'labelReports:read' as const;

/** The webhook event an alarm sends, with the alarm as its data. */
export const ALARM_EVENT = 'labelReport.alarm' as const;

/** The relay's password, and whatever else the running service holds beside the database. */
export interface SmtpSecret {
  password: string | null;
}

export interface AlarmHooks {
  /** Jobs were written (the queue wakes after the transaction). */
  jobsDue(): void;
  /** Webhook messages were written (the delivery worker wakes). */
  webhooksDue(): void;
}

interface CompiledRule {
  key: string;
  where: string;
  params: unknown[];
}

export class AlarmService {
  private readonly compiled = new Map<string, CompiledRule>();
  private readonly dueListeners = new Set<() => void>();
  private readonly secret: SmtpSecret = { password: null };
  private webhooksDue: () => void = () => {};

  /** The escalations this service wrote, each with when it is due on the monotonic clock (service/clock.ts). */
  private readonly escalations = new Map<string, number>();
  private readonly monotonic: Monotonic;

  constructor(
    private readonly data: DataStore,
    private readonly now: WallClock,
  ) {
    this.monotonic = monotonicFor(now);
  }

  /**
   * Inside the queue's write, before it looks for what is due: each pending escalation this
   * service wrote is due again when its minutes, counted on the monotonic clock since it was
   * raised, run out, in the wall clock's time of now. A wall clock that stepped back or forward
   * meanwhile moves its stored time by as much, once (it is set, not shifted), so it is told
   * neither hours late nor at once. Escalations from before this process started wait on the
   * wall clock.
   */
  retimeEscalations(): void {
    if (this.escalations.size === 0) return;
    const wall = this.now().getTime();
    const monotonic = this.monotonic();
    for (const [id, dueOnMonotonic] of this.escalations) {
      const stored = this.data.alarms.pendingDueAt(id);
      if (stored === undefined) {
        this.escalations.delete(id);
        continue;
      }
      const due = wall + (dueOnMonotonic - monotonic);
      if (Math.abs(Date.parse(stored) - due) >= STEP_TOLERANCE_MS) this.data.alarms.setDueAt(id, new Date(due).toISOString());
    }
  }

  /** The writer's listener: raises the alarms a change makes, inside its transaction. */
  listener(): ReportChangeListener {
    return (change) => this.raise(change);
  }

  /** `listener` runs whenever a job was written (the queue wakes). Returns its removal. */
  onDue(listener: () => void): () => void {
    this.dueListeners.add(listener);
    return () => this.dueListeners.delete(listener);
  }

  /** Where a written webhook message is announced (the webhook outbox's delivery worker). */
  announceWebhooksWith(notify: () => void): void {
    this.webhooksDue = notify;
  }

  /** The relay's password, kept in memory only (like the sync key); null forgets it. */
  setSmtpPassword(password: string | null): void {
    this.secret.password = password;
  }

  get smtpPassword(): string | null {
    return this.secret.password;
  }

  // Raising

  private raise(change: ReportChange): void {
    const { after } = change;
    if (!after) return;
    const level = after.figures.alert.level;
    const before = change.before?.figures.alert.level ?? -1;
    if (level < 1 || level <= before) return;
    const rules = this.data.alarms.enabledRules(after.access.map((a) => a.companyId));
    if (rules.length === 0) return;
    let raised: RaisedReport | undefined;
    const at = this.now();
    const cause = causeOf(change.actor, change.note);
    let wrote = false;
    for (const rule of rules) {
      if (!raisesAlarm(rule.minLevel, before, level)) continue;
      const compiled = this.compile(rule);
      if (compiled.where !== '1' && !this.data.alarms.matches(rule.companyId, after.id, compiled.where, compiled.params)) continue;
      raised ??= raisedReport(after);
      if (this.raiseOne(rule, raised, cause, at)) wrote = true;
    }
    if (wrote) this.jobsDue();
  }

  /** The listener of the writer's bulk creations (an import's new reports): `raise` for all of them at once. */
  manyListener(): ManyCreatedListener {
    return (created) => this.raiseForCreated(created);
  }

  /**
   * A new report has no level before, so each rule raises an alarm for every one whose alert
   * meets its level and whose listing row passes its conditions: found per rule in one query,
   * and only those reports are read whole (for the excursion in words).
   */
  private raiseForCreated(created: ManyCreated): void {
    const rules = this.data.alarms.allEnabledRules();
    if (rules.length === 0) return;
    const at = this.now();
    const cause = causeOf(created.actor);
    // A report two rules match is read and explained once.
    const seen = new Map<string, RaisedReport | null>();
    let wrote = false;
    for (const rule of rules) {
      const compiled = this.compile(rule);
      for (const id of this.data.alarms.createdMatching(rule.companyId, rule.minLevel, created.afterLogId, compiled.where, compiled.params)) {
        let raised = seen.get(id);
        if (raised === undefined) {
          const report = this.data.reports.load(id);
          raised = report ? raisedReport(report) : null;
          seen.set(id, raised);
        }
        if (raised && this.raiseOne(rule, raised, cause, at)) wrote = true;
      }
    }
    if (wrote) this.jobsDue();
  }

  /** Writes the rule's alarm for the report and tells its first step; false when it had one at this level. */
  private raiseOne(rule: AlarmRule, report: RaisedReport, cause: AlarmCause, at: Date): boolean {
    const alarm: AlarmRecord = {
      id: newId('alm'),
      ruleId: rule.id,
      companyId: rule.companyId,
      reportId: report.id,
      labelReference: report.labelReference,
      level: report.level,
      alertTimestamp: report.alertTimestamp,
      excursion: report.excursion,
      cause,
      step: 0,
      escalatedAt: null,
      created: at.toISOString(),
    };
    if (!this.data.alarms.insertAlarm(alarm)) return false;
    this.tell(alarm, rule, 0, at);
    return true;
  }

  private compile(rule: AlarmRule): CompiledRule {
    const key = `${rule.filter}\0${rule.customFields}`;
    const cached = this.compiled.get(rule.id);
    if (cached && cached.key === key) return cached;
    const query = parseListQuery({ filter: rule.filter || undefined, customFields: rule.customFields || undefined });
    const sql = this.data.reports.compile(query);
    const compiled = { key, where: sql.where, params: [...sql.params] };
    this.compiled.set(rule.id, compiled);
    return compiled;
  }

  /**
   * Tells the people of the rule's `step`, through its channels, inside the caller's write: a
   * notice for the desktop (each named person's app shows it), an e-mail job (waiting out the
   * quiet hours), a webhook message per webhook that takes alarms, and the escalation job when
   * a next step follows.
   */
  private tell(alarm: AlarmRecord, rule: AlarmRule, step: number, at: Date): void {
    const who = rule.steps[step] ?? { users: [], emails: [] };
    const people = this.data.alarms.people(rule.companyId, who.users);
    const iso = at.toISOString();
    const notice = (channel: AlarmNotice['channel'], recipient: string) =>
      this.data.alarms.addNotice({ alarmId: alarm.id, step, channel, recipient, at: iso });
    if (rule.channels.includes('desktop')) {
      if (people.length === 0) notice('desktop', 'the company’s desks');
      for (const p of people) notice('desktop', `${p.name} (${p.login})`);
    }
    if (rule.channels.includes('email')) {
      const addresses = addressesOf(people, who.emails);
      if (addresses.length > 0) {
        const settings = this.settingsOf(rule.companyId);
        const due = quietUntil(at, settings.zone, settings.quietHours) ?? at;
        this.data.alarms.enqueue({
          id: newId('mail'),
          kind: 'email',
          alarmId: alarm.id,
          companyId: rule.companyId,
          step,
          recipients: addresses,
          nextAttemptAt: due.toISOString(),
          created: iso,
        });
      }
    }
    if (rule.channels.includes('webhook')) {
      const hooks = this.data.webhooks.subscribed(rule.companyId, ALARM_EVENT);
      if (hooks.length > 0) {
        const body = `{"type":"${ALARM_EVENT}","timestamp":${JSON.stringify(iso)},"data":${JSON.stringify(this.answer(this.data.alarms.findAlarm(alarm.id)!, []))}}`;
        for (const webhookId of hooks) {
          this.data.webhooks.enqueue({ id: newId('msg'), webhookId, type: ALARM_EVENT, body, created: iso });
          notice('webhook', webhookId);
        }
        this.webhooksDue();
      }
    }
    if (rule.escalateAfterMinutes !== null && step + 1 < rule.steps.length) {
      const id = newId('esc');
      this.escalations.set(id, this.monotonic() + rule.escalateAfterMinutes * 60_000);
      this.data.alarms.enqueue({
        id,
        kind: 'escalation',
        alarmId: alarm.id,
        companyId: rule.companyId,
        step: step + 1,
        recipients: [],
        nextAttemptAt: new Date(at.getTime() + rule.escalateAfterMinutes * 60_000).toISOString(),
        created: iso,
      });
    }
  }

  /**
   * An escalation job's work, inside the queue's write: unless the alarm was acknowledged (or
   * its rule is gone or off), the next step is told. Returns whether it was.
   */
  escalate(alarmId: string, step: number): boolean {
    const alarm = this.data.alarms.findAlarm(alarmId);
    if (!alarm || alarm.acknowledged || alarm.step >= step) return false;
    const rule = this.data.alarms.ruleById(alarm.ruleId);
    if (!rule || !rule.enabled || step >= rule.steps.length) return false;
    const at = this.now();
    this.data.alarms.escalated(alarm.id, step, at.toISOString());
    this.tell(alarm, rule, step, at);
    return true;
  }

  private jobsDue(): void {
    for (const listener of this.dueListeners) listener();
  }

  // Rules

  rules(caller: Caller): AlarmRuleAnswer[] {
    requirePermission(caller, READ);
    return this.data.read(() => this.data.alarms.rules(caller.companyId)).map(ruleAnswer);
  }

  createRule(caller: Caller | null, companyId: string, body: AlarmRuleBody): AlarmRuleAnswer {
    if (caller) requirePermission(caller, MANAGE);
    const rule: AlarmRule = { id: `rule_${randomBytes(8).toString('hex')}`, companyId, created: this.now().toISOString(), ...this.checked(companyId, body) };
    this.data.write(() => this.data.alarms.saveRule(rule));
    return ruleAnswer(rule);
  }

  updateRule(caller: Caller, id: string, body: AlarmRuleBody): AlarmRuleAnswer {
    requirePermission(caller, MANAGE);
    return this.data.write(() => {
      const stored = this.data.alarms.findRule(caller.companyId, id);
      if (!stored) throw ruleNotFound(id);
      const rule = { ...stored, ...this.checked(caller.companyId, body) };
      this.data.alarms.saveRule(rule);
      this.compiled.delete(id);
      return ruleAnswer(rule);
    });
  }

  /**
   * Who a rule's first step tells by e-mail (its addresses and its people's), and the people it
   * tells on the desktop only (no address): what a test notification of the rule reaches.
   */
  firstStepRecipients(caller: Caller, id: string): { addresses: string[]; desktopOnly: string[] } {
    requirePermission(caller, MANAGE);
    return this.data.read(() => {
      const rule = this.data.alarms.findRule(caller.companyId, id);
      if (!rule) throw ruleNotFound(id);
      const who = rule.steps[0] ?? { users: [], emails: [] };
      const people = this.data.alarms.people(rule.companyId, who.users);
      return {
        addresses: rule.channels.includes('email') ? addressesOf(people, who.emails) : [],
        desktopOnly: people.filter((p) => !p.email || !rule.channels.includes('email')).map((p) => `${p.name} (${p.login})`),
      };
    });
  }

  removeRule(caller: Caller, id: string): void {
    requirePermission(caller, MANAGE);
    const removed = this.data.write(() => this.data.alarms.removeRule(caller.companyId, id));
    if (!removed) throw ruleNotFound(id);
    this.compiled.delete(id);
  }

  /** The conditions parse as the list's, and every person named is the company's. */
  private checked(companyId: string, body: AlarmRuleBody): Omit<AlarmRule, 'id' | 'companyId' | 'created'> {
    parseListQuery({ filter: body.filter || undefined, customFields: body.customFields || undefined });
    const named = [...new Set(body.steps.flatMap((s) => s.users))];
    const found = this.data.read(() => this.data.alarms.people(companyId, named));
    const missing = named.filter((id) => !found.some((p) => p.id === id));
    if (missing.length > 0) throw new InvalidInputError('INVALID_BODY', `no person of the company with the id ${missing.map((m) => `'${m}'`).join(', ')}`);
    return {
      name: body.name,
      minLevel: body.minLevel,
      filter: body.filter,
      customFields: body.customFields,
      steps: body.steps.map((s) => ({ users: [...s.users], emails: [...s.emails] })),
      channels: [...new Set(body.channels)],
      escalateAfterMinutes: body.escalateAfterMinutes,
      enabled: body.enabled,
    };
  }

  // Alarms

  list(caller: Caller, filter: { state?: AlarmAnswer['state']; reportId?: string; level?: 1 | 2; pageNumber: number; pageSize: number }): AlarmList {
    requirePermission(caller, READ);
    return this.data.read(() => {
      const { alarms } = this.data;
      const rows = alarms.list(caller.companyId, { ...filter, limit: filter.pageSize, offset: (filter.pageNumber - 1) * filter.pageSize });
      const notices = alarms.noticesFor(rows.map((r) => r.id));
      return {
        alarms: rows.map((row) => this.answer(row, notices.get(row.id) ?? [])),
        totalDocuments: alarms.count(caller.companyId, filter),
        unacknowledged: this.unacknowledgedIn(caller.companyId),
      };
    });
  }

  get(caller: Caller, id: string): AlarmAnswer {
    requirePermission(caller, READ);
    return this.data.read(() => {
      const row = this.data.alarms.findAlarm(id);
      if (!row || row.companyId !== caller.companyId) throw new NotFoundError('NOT_FOUND', `no alarm '${id}'`);
      return this.answer(row, this.data.alarms.noticesFor([id]).get(id) ?? []);
    });
  }

  private unacknowledgedIn(companyId: string): number {
    return this.data.alarms.count(companyId, { state: 'open' }) + this.data.alarms.count(companyId, { state: 'escalated' });
  }

  private answer(row: AlarmRow, notices: readonly AlarmNotice[]): AlarmAnswer {
    return {
      id: row.id,
      ruleId: row.ruleId,
      ruleName: row.ruleName,
      reportId: row.reportId,
      labelReference: row.labelReference,
      level: row.level,
      alertTimestamp: row.alertTimestamp,
      excursion: row.excursion,
      cause: row.cause,
      state: row.state,
      step: row.step,
      escalatedAt: row.escalatedAt,
      created: row.created,
      acknowledged: row.acknowledged,
      notices: notices.map(({ step, channel, recipient, at }) => ({ step, channel, recipient, at })),
    };
  }

  /** A delivered e-mail names its recipients among who was told, inside the queue's write. */
  recordMailed(alarmId: string, step: number, recipients: readonly string[], at: string): void {
    for (const recipient of recipients) this.data.alarms.addNotice({ alarmId, step, channel: 'email', recipient, at });
  }

  deliveries(caller: Caller, pageNumber: number, pageSize: number): { deliveries: AlarmDelivery[]; totalDocuments: number } {
    requirePermission(caller, MANAGE);
    return this.data.read(() => ({
      deliveries: this.data.alarms.deliveries(caller.companyId, pageSize, (pageNumber - 1) * pageSize).map((row) => ({
        id: `${row.job_id}.${row.attempt}`,
        jobId: row.job_id,
        alarmId: row.alarm_id,
        kind: row.kind,
        recipients: JSON.parse(row.recipients) as string[],
        attempt: row.attempt,
        status: row.status,
        reply: row.reply,
        error: row.error,
        durationMs: row.duration_ms,
        at: row.at,
        nextAttemptAt: row.next_attempt_at,
      })),
      totalDocuments: this.data.alarms.countDeliveries(caller.companyId),
    }));
  }

  // Settings

  settingsOf(companyId: string): AlarmSettings {
    return this.data.alarms.settings(companyId) ?? DEFAULT_ALARM_SETTINGS;
  }

  settings(caller: Caller): AlarmSettings {
    requirePermission(caller, READ);
    return this.data.read(() => this.settingsOf(caller.companyId));
  }

  /** Saves the company's quiet hours and digest; the next digest is due at its new hour. */
  saveSettings(caller: Caller | null, companyId: string, body: AlarmSettingsBody): AlarmSettings {
    if (caller) requirePermission(caller, MANAGE);
    if (!validZone(body.zone)) throw new InvalidInputError('INVALID_BODY', `zone: '${body.zone}' is not an IANA time zone`);
    const settings: AlarmSettings = { zone: body.zone, quietHours: body.quietHours, digest: body.digest };
    this.data.write(() => {
      this.data.alarms.saveSettings(companyId, settings);
      for (const id of this.data.alarms.pendingOf(companyId, 'digest')) this.data.alarms.finish(id, 'cancelled', null);
      if (settings.digest) this.scheduleDigest(companyId, settings, this.now());
    });
    this.jobsDue();
    return settings;
  }

  /** The next digest of the company, inside the caller's write. */
  scheduleDigest(companyId: string, settings: AlarmSettings, after: Date): void {
    if (!settings.digest) return;
    const at = nextDailyAt(after, settings.zone, settings.digest.at).toISOString();
    this.data.alarms.enqueue({
      id: newId('dgst'),
      kind: 'digest',
      alarmId: null,
      companyId,
      step: 0,
      recipients: settings.digest.to,
      nextAttemptAt: at,
      created: after.toISOString(),
    });
  }

  /** The alarms a digest sent at `at` lists: those raised in the day before. */
  digestAlarms(companyId: string, at: Date): AlarmRow[] {
    return this.data.read(() => this.data.alarms.raisedSince(companyId, new Date(at.getTime() - 24 * 60 * 60 * 1000).toISOString()));
  }

  smtpRecord(): SmtpRecord | undefined {
    return this.data.read(() => this.data.alarms.smtp());
  }

  smtpSettings(caller: Caller | null): SmtpSettings | null {
    if (caller) requirePermission(caller, MANAGE);
    const smtp = this.smtpRecord();
    return smtp ? { ...smtp, hasPassword: this.secret.password !== null } : null;
  }

  /** The relay's settings into the database; its password into memory only. */
  saveSmtp(caller: Caller | null, body: SmtpSettingsBody): SmtpSettings {
    if (caller) requirePermission(caller, MANAGE);
    const record: SmtpRecord = { host: body.host, port: body.port, security: body.security, user: body.user, from: body.from, appUrl: body.appUrl };
    this.data.write(() => this.data.alarms.saveSmtp(record));
    if (body.password !== undefined) this.secret.password = body.password;
    // Mails that waited for a relay may go now.
    this.jobsDue();
    return { ...record, hasPassword: this.secret.password !== null };
  }

  /** A person's address for alarm e-mails (the company's own people only). */
  setEmail(caller: Caller | null, companyId: string, login: string, email: string | null): void {
    if (caller) requirePermission(caller, MANAGE);
    this.data.write(() => {
      const person = this.data.alarms.personByLogin(login);
      if (!person || person.companyId !== companyId) throw new NotFoundError('NOT_FOUND', `no person '${login}' in the company`);
      this.data.alarms.setEmail(person.id, email);
    });
  }

  /** The ids of the company's people by login (the command line names people by login); throws naming an unknown one. */
  idsOfLogins(companyId: string, logins: readonly string[]): string[] {
    return this.data.read(() =>
      logins.map((login) => {
        const person = this.data.alarms.personByLogin(login);
        if (!person || person.companyId !== companyId) throw new InvalidInputError('INVALID_BODY', `no person '${login}' in the company '${companyId}'`);
        return person.id;
      }),
    );
  }

  /** A fresh id for a test mail's Message-ID. */
  static testMessageId(): string {
    return `test_${randomUUID()}`;
  }
}

/**
 * A fresh id with its kind's prefix: 32 hex digits of a random UUID, which Node draws from an
 * entropy pool it keeps, so an id costs no call of the system's random source.
 */
function newId(prefix: string): string {
  return `${prefix}_${randomUUID().replaceAll('-', '')}`;
}

function ruleNotFound(id: string): NotFoundError {
  return new NotFoundError('NOT_FOUND', `no alarm rule '${id}'`);
}

function ruleAnswer(rule: AlarmRule): AlarmRuleAnswer {
  const { companyId: _companyId, ...answer } = rule;
  return answer;
}

function causeOf(actor: Actor, note?: ChangeNote): AlarmCause {
  if (note?.via === 'tap') return 'tap';
  return actor.kind === 'apiKey' ? 'edit' : actor.kind;
}

/** What an alarm keeps of its report. */
interface RaisedReport {
  id: string;
  labelReference: string;
  level: 1 | 2;
  alertTimestamp: number;
  excursion: string;
}

function raisedReport(report: Report): RaisedReport {
  return {
    id: report.id,
    labelReference: report.labelReference,
    level: report.figures.alert.level as 1 | 2,
    alertTimestamp: report.figures.alert.timestamp,
    excursion: excursionInWords(report),
  };
}

/** The alert and its excursion in one sentence, as the review explains it. */
export function excursionInWords(report: Report): string {
  try {
    const explained = explainAlert({
      timeline: toTimeline(decodeDatapoints(report.datapoints)),
      senseConfig: report.senseConfig,
      alertsConfig: report.alertsConfig,
      numberOfTaps: report.numberOfTaps,
      trim: report.trim,
    });
    return explained.explanation;
  } catch {
    return `${levelName(report.figures.alert.level)} alert`;
  }
}

function validZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** The addresses a step's e-mails go to: its people's and its own, each once. */
function addressesOf(people: readonly { email: string | null }[], emails: readonly string[]): string[] {
  return [...new Set([...people.flatMap((p) => (p.email ? [p.email] : [])), ...emails])];
}
