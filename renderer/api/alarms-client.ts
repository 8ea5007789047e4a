/** /local/alarms, typed: every answer checked against schema/alarms.ts, on the API client's one request path. */
import {
  alarmListSchema,
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

export type { AlarmAnswer, AlarmList, SmtpSettings, SmtpSettingsBody, SmtpTestResult };

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
    async testSmtp(to) {
      return parse(smtpTestResultSchema, await api.request('POST', '/local/alarms/smtp/test', { body: checked(smtpTestBodySchema, { to }) }), 'a test mail');
    },
  };
}
