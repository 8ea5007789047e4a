/**
 * The company's alarms as the desk shows them: the Alarms view's list (filtered by state), the
 * header's count of unacknowledged alarms, and the in-app notices of alarms not seen before,
 * decided as the desktop's notifications are (contract/alarm-notices.ts). The service is asked
 * again every `pollMs` while a page is open: alarms arrive from taps, sync and other desks.
 */
import { createStore } from 'zustand/vanilla';
import { alarmsClient, type AlarmAnswer } from '../api/alarms-client';
import { errorMessage, isAbortError, type ApiClient } from '../api/client';
import { decideNotifications, type DesktopNotice } from '../../contract/alarm-notices';

export type AlarmFilter = AlarmAnswer['state'] | 'all';

export interface AlarmsState {
  filter: AlarmFilter;
  alarms: AlarmAnswer[] | null;
  total: number;
  /** The header's count. */
  unacknowledged: number;
  notices: DesktopNotice[];
  error: string | null;
  setFilter(filter: AlarmFilter): Promise<void>;
  /** Reads the list and the open alarms again, announcing those not seen before. */
  refresh(): Promise<void>;
  dismiss(alarmId: string): void;
  reset(): void;
}

export interface AlarmsStoreOptions {
  getClient(): ApiClient | null;
}

export function createAlarmsStore(options: AlarmsStoreOptions) {
  let seen = new Set<string>();
  let firstLook = true;
  // What was open before the page started is not news; what was raised since is, even when
  // the first answer comes late (a busy desk, a first read cut short by the next).
  let startedAt = new Date().toISOString();
  let inFlight: AbortController | null = null;
  return createStore<AlarmsState>()((set, get) => ({
    filter: 'all',
    alarms: null,
    total: 0,
    unacknowledged: 0,
    notices: [],
    error: null,
    async setFilter(filter) {
      set({ filter, alarms: null });
      await get().refresh();
    },
    async refresh() {
      const api = options.getClient();
      if (!api) return;
      inFlight?.abort();
      const abort = (inFlight = new AbortController());
      const client = alarmsClient(api);
      try {
        const filter = get().filter;
        const [shown, open] = await Promise.all([
          client.list({ state: filter === 'all' ? undefined : filter }, abort.signal),
          client.list({ state: 'open', pageSize: 100 }, abort.signal),
        ]);
        const escalated = await client.list({ state: 'escalated', pageSize: 100 }, abort.signal);
        const current = [...open.alarms, ...escalated.alarms];
        if (firstLook) seen = new Set(current.filter((a) => a.created < startedAt).map((a) => a.id));
        const decision = decideNotifications({ alarms: current, seen, firstLook: false });
        seen = decision.seen;
        firstLook = false;
        set({
          alarms: shown.alarms,
          total: shown.totalDocuments,
          unacknowledged: shown.unacknowledged,
          notices: [...get().notices, ...decision.notices].slice(-5),
          error: null,
        });
      } catch (err) {
        if (!isAbortError(err)) set({ error: errorMessage(err) });
      }
    },
    dismiss(alarmId) {
      set({ notices: get().notices.filter((n) => n.alarmId !== alarmId) });
    },
    reset() {
      inFlight?.abort();
      seen = new Set();
      firstLook = true;
      startedAt = new Date().toISOString();
      set({ alarms: null, total: 0, unacknowledged: 0, notices: [], error: null, filter: 'all' });
    },
  }));
}

export type AlarmsStore = ReturnType<typeof createAlarmsStore>;
