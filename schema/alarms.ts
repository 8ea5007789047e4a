/**
 * Shapes of alarms: the rules of a company, the alarms they raised with who was told, the
 * e-mail delivery log, the company's quiet hours and digest, and the desk's SMTP relay. The
 * service, the command line and the renderer share them.
 */
import { z } from 'zod';
import { ALARM_CHANNELS, isHourMinute } from '../model/alarm';

const email = z.email({ message: 'not an e-mail address' }).max(254);
const hourMinute = z.string().refine(isHourMinute, 'a time of day as HH:MM (00:00 to 23:59)');

export const alarmStepSchema = z.strictObject({
  users: z.array(z.string().min(1).max(100)).max(50).default([]),
  emails: z.array(email).max(50).default([]),
});

export const alarmRuleBodySchema = z.strictObject({
  name: z.string().trim().min(1, 'name the rule').max(200),
  minLevel: z.union([z.literal(1), z.literal(2)]),
  filter: z.string().max(4096).default(''),
  customFields: z.string().max(4096).default(''),
  steps: z.array(alarmStepSchema).min(1, 'name who is told').max(10),
  channels: z.array(z.enum(ALARM_CHANNELS)).min(1, 'name at least one channel').max(ALARM_CHANNELS.length),
  escalateAfterMinutes: z.int().min(1).max(10080).nullable().default(null),
  enabled: z.boolean().default(true),
});
export type AlarmRuleBody = z.infer<typeof alarmRuleBodySchema>;

export const alarmRuleSchema = z.object({
  id: z.string(),
  name: z.string(),
  minLevel: z.union([z.literal(1), z.literal(2)]),
  filter: z.string(),
  customFields: z.string(),
  steps: z.array(z.object({ users: z.array(z.string()), emails: z.array(z.string()) })),
  channels: z.array(z.enum(ALARM_CHANNELS)),
  escalateAfterMinutes: z.int().nullable(),
  enabled: z.boolean(),
  created: z.string(),
});
export type AlarmRuleAnswer = z.infer<typeof alarmRuleSchema>;

export const ALARM_STATES = ['open', 'escalated', 'acknowledged'] as const;

export const alarmNoticeSchema = z.object({
  step: z.int(),
  channel: z.enum(ALARM_CHANNELS),
  /** A person's name (login), an address, or a webhook's id. */
  recipient: z.string(),
  at: z.string(),
});

export const alarmSchema = z.object({
  id: z.string(),
  ruleId: z.string(),
  ruleName: z.string().nullable(),
  reportId: z.string(),
  labelReference: z.string(),
  level: z.union([z.literal(1), z.literal(2)]),
  alertTimestamp: z.int(),
  excursion: z.string(),
  cause: z.string(),
  state: z.enum(ALARM_STATES),
  step: z.int(),
  escalatedAt: z.string().nullable(),
  created: z.string(),
  acknowledged: z.object({ at: z.string(), by: z.string() }).nullable(),
  notices: z.array(alarmNoticeSchema),
});
export type AlarmAnswer = z.infer<typeof alarmSchema>;

export const alarmListSchema = z.object({
  alarms: z.array(alarmSchema),
  totalDocuments: z.int(),
  /** Alarms of the company nobody acknowledged: the header's count. */
  unacknowledged: z.int(),
});
export type AlarmList = z.infer<typeof alarmListSchema>;

export const alarmSettingsSchema = z.strictObject({
  zone: z.string().min(1).max(100).default('UTC'),
  quietHours: z.strictObject({ from: hourMinute, to: hourMinute }).nullable().default(null),
  digest: z.strictObject({ at: hourMinute, to: z.array(email).min(1).max(50) }).nullable().default(null),
});
export type AlarmSettingsBody = z.infer<typeof alarmSettingsSchema>;

export const alarmSettingsAnswerSchema = z.object({
  zone: z.string(),
  quietHours: z.object({ from: z.string(), to: z.string() }).nullable(),
  digest: z.object({ at: z.string(), to: z.array(z.string()) }).nullable(),
});

export const SMTP_SECURITY = ['none', 'starttls', 'tls'] as const;

export const smtpSettingsBodySchema = z.strictObject({
  host: z.string().trim().min(1, 'name the relay').max(253),
  port: z.int().min(1).max(65535),
  security: z.enum(SMTP_SECURITY),
  user: z.string().max(256).nullable().default(null),
  /** Kept in the running service's memory only; absent: the one it holds stays. */
  password: z.string().max(1024).nullable().optional(),
  from: email,
  /** Where the link in a mail opens the report: the app's address as the people who get it reach it. */
  appUrl: z.url({ protocol: /^https?$/ }).max(2048).nullable().default(null),
});
export type SmtpSettingsBody = z.infer<typeof smtpSettingsBodySchema>;

export const smtpSettingsSchema = z.object({
  host: z.string(),
  port: z.int(),
  security: z.enum(SMTP_SECURITY),
  user: z.string().nullable(),
  from: z.string(),
  appUrl: z.string().nullable(),
  hasPassword: z.boolean(),
});
export type SmtpSettings = z.infer<typeof smtpSettingsSchema>;

export const smtpTestBodySchema = z.strictObject({ to: email });

export const smtpTestResultSchema = z.object({ ok: z.boolean(), messageId: z.string().nullable(), message: z.string() });
export type SmtpTestResult = z.infer<typeof smtpTestResultSchema>;

/** A rule's test notification: a test mail to each address its first step e-mails, and who it tells on the desktop only. */
export const ruleTestResultSchema = z.object({
  mails: z.array(smtpTestResultSchema.extend({ to: z.string() })),
  desktopOnly: z.array(z.string()),
});
export type RuleTestResult = z.infer<typeof ruleTestResultSchema>;

export const alarmDeliverySchema = z.object({
  id: z.string(),
  jobId: z.string(),
  alarmId: z.string().nullable(),
  kind: z.string(),
  recipients: z.array(z.string()),
  attempt: z.int(),
  status: z.enum(['pending', 'succeeded', 'failed', 'cancelled']),
  reply: z.string().nullable(),
  error: z.string().nullable(),
  durationMs: z.int().nullable(),
  at: z.string(),
  nextAttemptAt: z.string().nullable(),
});
export type AlarmDelivery = z.infer<typeof alarmDeliverySchema>;
