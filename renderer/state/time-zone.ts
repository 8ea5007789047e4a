/**
 * The chosen time zone (local or UTC), kept in localStorage so the desk keeps its choice across
 * restarts and keys. Shared by the report panel, the chart and the print view.
 */
import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';
import { isTimeZoneSetting, TIME_ZONE_STORAGE_KEY } from '../lib/time-zone';
import type { TimeZoneSetting } from '../lib/time-zone';

export interface TimeZoneState {
  zone: TimeZoneSetting;
  setZone(zone: TimeZoneSetting): void;
}

type ZoneStorage = Pick<Storage, 'getItem' | 'setItem'>;

function browserStorage(): ZoneStorage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    // Storage can be switched off; the choice then lasts as long as the page.
    return null;
  }
}

export function createTimeZoneStore(storage: ZoneStorage | null = browserStorage()) {
  const saved = storage?.getItem(TIME_ZONE_STORAGE_KEY);
  return createStore<TimeZoneState>()((set) => ({
    zone: isTimeZoneSetting(saved) ? saved : 'local',
    setZone(zone) {
      storage?.setItem(TIME_ZONE_STORAGE_KEY, zone);
      set({ zone });
    },
  }));
}

export const timeZoneStore = createTimeZoneStore();

export const useTimeZone = (): TimeZoneSetting => useStore(timeZoneStore, (s) => s.zone);
