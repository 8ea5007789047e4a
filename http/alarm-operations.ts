/** The alarm operations of the OpenAPI document, in their group (http/openapi-operations.ts lists them with the rest). */
import type { Tag } from './openapi-operations';

export const ALARMS_TAG = {
  name: 'Alarms',
  description: 'Alarms that reach people when a report’s alert rises (/local/alarms): the company’s rules, the alarms with who was told, quiet hours and digest, the SMTP relay and its delivery log.',
} as const;

export const ALARM_OPERATIONS: Readonly<Record<string, { tag: Tag; description?: string }>> = {
  listAlarms: { tag: 'Alarms' },
  getAlarm: { tag: 'Alarms', description: 'The alarm, its state and who was told when and through which channel; another company’s alarm answers 404.' },
  listAlarmRules: { tag: 'Alarms', description: 'The company’s rules, oldest first (needs labelReports:read).' },
  createAlarmRule: { tag: 'Alarms' },
  updateAlarmRule: { tag: 'Alarms' },
  testAlarmRule: { tag: 'Alarms' },
  deleteAlarmRule: { tag: 'Alarms', description: 'The rule raises nothing more; the alarms it raised stay (needs webhooks:manage).' },
  getAlarmSettings: { tag: 'Alarms', description: 'The company’s zone, quiet hours and daily digest (needs labelReports:read).' },
  updateAlarmSettings: { tag: 'Alarms' },
  getSmtpSettings: { tag: 'Alarms', description: 'The relay alarm e-mails go through, and whether the running service holds its password; 404 when none is set (needs webhooks:manage).' },
  updateSmtpSettings: { tag: 'Alarms' },
  testSmtp: { tag: 'Alarms' },
  listAlarmDeliveries: { tag: 'Alarms', description: 'Each e-mail attempt, newest first, with the relay’s reply or the error, and each pending mail’s next attempt (needs webhooks:manage).' },
  setPersonEmail: { tag: 'Alarms', description: 'The address alarm e-mails reach a person of the company at; null removes it (needs webhooks:manage).' },
};
