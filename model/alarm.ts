/**
 * Alarms as the rules see them: a company's rule, an alarm it raised, and the pure reckonings
 * of time around them (quiet hours, the daily digest's hour, when escalation is due) and of
 * what the desktop says when an alarm arrives. No database, no clock of its own.
 */
import { ALERT_LEVEL_NAMES } from '../sense/alert-rules';

export const ALARM_CHANNELS = ['desktop', 'email', 'webhook'] as const;
export type AlarmChannel = (typeof ALARM_CHANNELS)[number];

/** Who is told at one step: named people of the company (their e-mail address, their desk) and bare addresses. */
export interface AlarmStep {
  users: string[];
  emails: string[];
}

export interface AlarmRule {
  id: string;
  companyId: string;
  name: string;
  /** 1: moderate or critical; 2: critical only. */
  minLevel: 1 | 2;
  /** The list's grammar: `filter` and `customFields` as /v2/labelReports takes them. */
  filter: string;
  customFields: string;
  /** The first step is told when the alarm is raised; each next one when nobody acknowledged in time. */
  steps: AlarmStep[];
  channels: AlarmChannel[];
  /** Minutes without an acknowledgement before the next step is told; null: no escalation. */
  escalateAfterMinutes: number | null;
  enabled: boolean;
  created: string;
}

export type AlarmCause = 'tap' | 'edit' | 'sync' | 'import' | 'demo';
export type AlarmState = 'open' | 'escalated' | 'acknowledged';

export interface AlarmRecord {
  id: string;
  ruleId: string;
  companyId: string;
  reportId: string;
  labelReference: string;
  level: 1 | 2;
  alertTimestamp: number;
  excursion: string;
  cause: AlarmCause;
  /** The rule's step told last (0: the first). */
  step: number;
  escalatedAt: string | null;
  created: string;
}

export interface AlarmAcknowledgement {
  at: string;
  /** The person's printed name, or the key's. */
  by: string;
}

export interface AlarmSettings {
  /** IANA zone the hours below are read in. */
  zone: string;
  quietHours: { from: string; to: string } | null;
  digest: { at: string; to: string[] } | null;
}

export const DEFAULT_ALARM_SETTINGS: AlarmSettings = { zone: 'UTC', quietHours: null, digest: null };

export function levelName(level: number): string {
  return ALERT_LEVEL_NAMES[level] ?? `level ${level}`;
}

/** An alarm is acknowledged by the review's acknowledgement; escalated while unacknowledged past its first step. */
export function alarmState(alarm: Pick<AlarmRecord, 'step'>, acknowledgement: AlarmAcknowledgement | null): AlarmState {
  if (acknowledgement) return 'acknowledged';
  return alarm.step > 0 ? 'escalated' : 'open';
}

/** Whether a change from `before` to `after` raises an alarm of `rule`'s least level: the level rose, to at least that. */
export function raisesAlarm(minLevel: number, before: number, after: number): boolean {
  return after > before && after >= minLevel;
}

const HH_MM = /^([01][0-9]|2[0-3]):([0-5][0-9])$/;

export function isHourMinute(text: string): boolean {
  return HH_MM.test(text);
}

function minutesOf(text: string): number {
  const m = HH_MM.exec(text);
  if (!m) throw new Error(`'${text}' is not a time of day as HH:MM`);
  return Number(m[1]) * 60 + Number(m[2]);
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** Minutes since midnight at `at` in `zone`, with the seconds past that minute in ms. */
function wallClock(at: Date, zone: string): { minutes: number; msIntoMinute: number } {
  let format = formatters.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    formatters.set(zone, format);
  }
  const parts = format.formatToParts(at);
  const hour = Number(parts.find((p) => p.type === 'hour')?.value ?? 0);
  const minute = Number(parts.find((p) => p.type === 'minute')?.value ?? 0);
  return { minutes: hour * 60 + minute, msIntoMinute: at.getTime() % 60_000 };
}

/**
 * When `at` lies in the quiet hours (from inclusive, to exclusive, across midnight when from is
 * later than to), the moment they end; else null. The minutes are counted on the wall clock
 * of `at`: a change of daylight saving time inside the quiet hours moves their end by its hour.
 */
export function quietUntil(at: Date, zone: string, quiet: { from: string; to: string } | null): Date | null {
  if (!quiet) return null;
  const from = minutesOf(quiet.from);
  const to = minutesOf(quiet.to);
  if (from === to) return null;
  const { minutes, msIntoMinute } = wallClock(at, zone);
  const inside = from < to ? minutes >= from && minutes < to : minutes >= from || minutes < to;
  if (!inside) return null;
  const left = (to - minutes + 1440) % 1440;
  return new Date(at.getTime() - msIntoMinute + left * 60_000);
}

/** The next moment after `at` whose wall clock in `zone` reads `time` (HH:MM). */
export function nextDailyAt(at: Date, zone: string, time: string): Date {
  const { minutes, msIntoMinute } = wallClock(at, zone);
  let left = (minutesOf(time) - minutes + 1440) % 1440;
  if (left === 0) left = 1440;
  return new Date(at.getTime() - msIntoMinute + left * 60_000);
}
