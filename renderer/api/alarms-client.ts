/** /local/alarms, typed: every answer checked against schema/alarms.ts, on the API client's one request path. */
import { alarmListSchema, type AlarmAnswer, type AlarmList } from '../../schema/alarms';
import { parse, type ApiClient } from './client';

export type { AlarmAnswer, AlarmList };

export interface AlarmQuery {
  state?: AlarmAnswer['state'];
  pageSize?: number;
}

export interface AlarmsClient {
  list(query: AlarmQuery, signal?: AbortSignal): Promise<AlarmList>;
}

export function alarmsClient(api: ApiClient): AlarmsClient {
  return {
    async list(query, signal) {
      const params = new URLSearchParams();
      if (query.state) params.set('state', query.state);
      params.set('pageSize', String(query.pageSize ?? 100));
      return parse(alarmListSchema, await api.request('GET', `/local/alarms?${params}`, { signal }), 'a list of alarms');
    },
  };
}
