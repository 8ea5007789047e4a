/** /local/alarms, typed: every answer checked against schema/alarms.ts, on the API client's one request path. */
import { z } from 'zod';
import {
  alarmListSchema,
  alarmRuleBodySchema,
  alarmRuleSchema,
  alarmSettingsAnswerSchema,
  alarmSettingsSchema,
  ruleTestResultSchema,
  type AlarmRuleAnswer,
  type AlarmRuleBody,
  type AlarmSettingsBody,
  type RuleTestResult,
  smtpSettingsBodySchema,
  smtpSettingsSchema,
  smtpTestBodySchema,
  smtpTestResultSchema,
  type AlarmAnswer,
  type AlarmList,
  type SmtpSettings,
  type SmtpSettingsBody,
  type SmtpTestResult,
} from '../../schema/alarms';
import { ApiClientError, checked, parse, type ApiClient } from './client';

export type { AlarmAnswer, AlarmList, AlarmRuleAnswer, AlarmRuleBody, AlarmSettingsBody, RuleTestResult, SmtpSettings, SmtpSettingsBody, SmtpTestResult };
export type AlarmSettings = z.infer<typeof alarmSettingsAnswerSchema>;

export interface AlarmQuery {
  state?: AlarmAnswer['state'];
  pageSize?: number;
}

export interface AlarmsClient {
  list(query: AlarmQuery, signal?: AbortSignal): Promise<AlarmList>;
  /** The desk's relay, or null when none is set. */
  smtp(signal?: AbortSignal): Promise<SmtpSettings | null>;
  /** Saves the relay; a password given goes to the service's memory only. */
  saveSmtp(body: SmtpSettingsBody): Promise<SmtpSettings>;
  /** A test mail through the relay as saved: the relay's answer, or why it failed, in words. */
  testSmtp(to: string): Promise<SmtpTestResult>;
  rules(signal?: AbortSignal): Promise<AlarmRuleAnswer[]>;
  createRule(body: AlarmRuleBody): Promise<AlarmRuleAnswer>;
  updateRule(id: string, body: AlarmRuleBody): Promise<AlarmRuleAnswer>;
  removeRule(id: string): Promise<void>;
  /** A test mail to each address the rule's first step e-mails, sent now. */
  testRule(id: string): Promise<RuleTestResult>;
  settings(signal?: AbortSignal): Promise<AlarmSettings>;
  saveSettings(body: AlarmSettingsBody): Promise<AlarmSettings>;
}

export function alarmsClient(api: ApiClient): AlarmsClient {
  return {
    async list(query, signal) {
      const params = new URLSearchParams();
      if (query.state) params.set('state', query.state);
      params.set('pageSize', String(query.pageSize ?? 100));
      return parse(alarmListSchema, await api.request('GET', `/local/alarms?${params}`, { signal }), 'a list of alarms');
    },
    async smtp(signal) {
      try {
        return parse(smtpSettingsSchema, await api.request('GET', '/local/alarms/smtp', { signal }), 'the SMTP relay');
      } catch (err) {
        if (err instanceof ApiClientError && err.status === 404) return null;
        throw err;
      }
    },
    async saveSmtp(body) {
      return parse(smtpSettingsSchema, await api.request('PUT', '/local/alarms/smtp', { body: checked(smtpSettingsBodySchema, body) }), 'the SMTP relay');
    },
    async rules(signal) {
      return parse(z.array(alarmRuleSchema), await api.request('GET', '/local/alarms/rules', { signal }), 'the alarm rules');
    },
    async createRule(body) {
      return parse(alarmRuleSchema, await api.request('POST', '/local/alarms/rules', { body: checked(alarmRuleBodySchema, body) }), 'an alarm rule');
    },
    async updateRule(id, body) {
      return parse(alarmRuleSchema, await api.request('PUT', `/local/alarms/rules/${encodeURIComponent(id)}`, { body: checked(alarmRuleBodySchema, body) }), 'an alarm rule');
    },
    async removeRule(id) {
      await api.request('DELETE', `/local/alarms/rules/${encodeURIComponent(id)}`);
    },
    async testRule(id) {
      return parse(ruleTestResultSchema, await api.request('POST', `/local/alarms/rules/${encodeURIComponent(id)}/test`), 'a test notification');
    },
    async settings(signal) {
      return parse(alarmSettingsAnswerSchema, await api.request('GET', '/local/alarms/settings', { signal }), 'the alarm settings');
    },
    async saveSettings(body) {
      return parse(alarmSettingsAnswerSchema, await api.request('PUT', '/local/alarms/settings', { body: checked(alarmSettingsSchema, body) }), 'the alarm settings');
    },
    async testSmtp(to) {
      return parse(smtpTestResultSchema, await api.request('POST', '/local/alarms/smtp/test', { body: checked(smtpTestBodySchema, { to }) }), 'a test mail');
    },
  };
}
