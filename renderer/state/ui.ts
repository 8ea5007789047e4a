/** Which screen is shown. Lives in the URL with the filters (see url-sync.ts). */
import { createStore } from 'zustand/vanilla';
import type { View } from '../lib/url-state';

export interface UiState {
  view: View;
  setView(view: View): void;
}

export function createUiStore(initial: View = 'reports') {
  return createStore<UiState>()((set) => ({
    view: initial,
    setView: (view) => set({ view }),
  }));
}

export type UiStore = ReturnType<typeof createUiStore>;
