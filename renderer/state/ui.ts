/**
 * Which screen is shown (it lives in the URL with the filters, see url-sync.ts) and how the person
 * at the desk arranged the report browser: the columns they chose and the width of the report
 * panel. The arrangement is remembered in localStorage per signed-in key, so colleagues sharing a
 * desk each keep their own.
 */
import { createStore } from 'zustand/vanilla';
import { DEFAULT_COLUMNS, normaliseColumns } from '../lib/columns';
import type { ColumnId } from '../lib/columns';
import type { View } from '../lib/url-state';

export type PreferenceStorage = Pick<Storage, 'getItem' | 'setItem'>;

export interface UiOptions {
  /** localStorage in the app; absent in tests that do not care. */
  storage?: PreferenceStorage | null;
}

export interface UiState {
  view: View;
  /** Whose arrangement is shown: `companyId/keyId`, or null before anyone signed in. */
  scope: string | null;
  columns: ColumnId[];
  /** Width of the report panel beside the table, px; null until the person resizes it. */
  detailWidth: number | null;
  setView(view: View): void;
  /** Loads the arrangement remembered for a signed-in key (defaults when there is none). */
  showArrangementOf(scope: string | null): void;
  setColumns(columns: readonly ColumnId[]): void;
  setDetailWidth(width: number): void;
}

const PREFIX = 'labeldesk.layout.';

interface Stored {
  columns?: unknown;
  detailWidth?: unknown;
}

export function createUiStore(initial: View = 'reports', options: UiOptions = {}) {
  const storage = options.storage ?? null;

  function read(scope: string | null): Stored {
    if (!storage || !scope) return {};
    try {
      const parsed: unknown = JSON.parse(storage.getItem(PREFIX + scope) ?? '{}');
      return parsed !== null && typeof parsed === 'object' ? (parsed as Stored) : {};
    } catch {
      // A damaged entry is as good as none: the defaults are shown and the next change rewrites it.
      return {};
    }
  }

  return createStore<UiState>()((set, get) => {
    function save() {
      const { scope, columns, detailWidth } = get();
      if (!storage || !scope) return;
      try {
        storage.setItem(PREFIX + scope, JSON.stringify({ columns, detailWidth }));
      } catch {
        // A full or disabled storage only means the arrangement is not remembered.
      }
    }
    return {
      view: initial,
      scope: null,
      columns: [...DEFAULT_COLUMNS],
      detailWidth: null,
      setView: (view) => set({ view }),
      showArrangementOf(scope) {
        const stored = read(scope);
        const width = typeof stored.detailWidth === 'number' && Number.isFinite(stored.detailWidth) ? stored.detailWidth : null;
        set({ scope, columns: normaliseColumns(stored.columns ?? DEFAULT_COLUMNS), detailWidth: width });
      },
      setColumns(columns) {
        set({ columns: normaliseColumns(columns) });
        save();
      },
      setDetailWidth(width) {
        set({ detailWidth: Math.round(width) });
        save();
      },
    };
  });
}

export type UiStore = ReturnType<typeof createUiStore>;
