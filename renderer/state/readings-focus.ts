/**
 * The reading the report panel points at: a jump from an excursion names the report and the
 * excursion's start, and the readings table scrolls there and highlights it. `seq` makes a second
 * jump to the same reading scroll again after the table was scrolled away.
 */
import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';

export interface ReadingsFocus {
  reportId: string;
  timestamp: number;
  seq: number;
}

export interface ReadingsFocusState {
  focus: ReadingsFocus | null;
  jump(reportId: string, timestamp: number): void;
}

export const readingsFocusStore = createStore<ReadingsFocusState>()((set, get) => ({
  focus: null,
  jump(reportId, timestamp) {
    set({ focus: { reportId, timestamp, seq: (get().focus?.seq ?? 0) + 1 } });
  },
}));

export const useReadingsFocus = (): ReadingsFocus | null => useStore(readingsFocusStore, (s) => s.focus);
