/**
 * Which screen is shown (it lives in the URL with the filters, see url-sync.ts) and how the person
 * at the desk arranged the report browser: the columns they chose and the width of the report
 * panel, and the views they saved (named filters and sort). The arrangement is remembered in
 * localStorage per signed-in person (or key), so colleagues sharing a desk each keep their own.
 */
import { createStore } from 'zustand/vanilla';
import { DEFAULT_COLUMNS, normaliseColumns } from '../lib/columns';
import type { ColumnId } from '../lib/columns';
import { DEFAULT_SHIPMENTS_VIEW, type ShipmentsView, type View } from '../lib/url-state';

export type PreferenceStorage = Pick<Storage, 'getItem' | 'setItem'>;

export interface UiOptions {
  /** localStorage in the app; absent in tests that do not care. */
  storage?: PreferenceStorage | null;
}

/** A named view: the list's filters and sort, as the address bar carries them (lib/url-state). */
export interface SavedView {
  name: string;
  search: string;
}

/** Enough for a reviewer's recurring questions; the oldest goes first beyond it. */
export const MAX_SAVED_VIEWS = 30;

export interface UiState {
  view: View;
  /** Whose arrangement is shown: `companyId/keyId`, or null before anyone signed in. */
  scope: string | null;
  columns: ColumnId[];
  /** Width of the report panel beside the table, px; null until the person resizes it. */
  detailWidth: number | null;
  views: SavedView[];
  setView(view: View): void;
  /** The shipments screen: its list's filters, order and page, and the shipment open (in the URL too). */
  shipments: ShipmentsView;
  /** Changes part of the shipments screen; a filter or order changed goes back to the first page. */
  setShipments(part: Partial<ShipmentsView>): void;
  /** Opens one shipment on the shipments screen. */
  openShipment(id: string): void;
  /** Loads the arrangement remembered for a signed-in key (defaults when there is none). */
  showArrangementOf(scope: string | null): void;
  setColumns(columns: readonly ColumnId[]): void;
  setDetailWidth(width: number): void;
  /** Saves a view under a name (replacing one of the same name, case aside). */
  saveView(name: string, search: string): void;
  removeView(name: string): void;
}

const PREFIX = 'labeldesk.layout.';

interface Stored {
  columns?: unknown;
  detailWidth?: unknown;
  views?: unknown;
}

function savedViews(stored: unknown): SavedView[] {
  if (!Array.isArray(stored)) return [];
  return stored
    .filter((v): v is SavedView => v !== null && typeof v === 'object' && typeof v.name === 'string' && typeof v.search === 'string' && v.name.trim() !== '')
    .slice(-MAX_SAVED_VIEWS);
}

const sameName = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

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
      const { scope, columns, detailWidth, views } = get();
      if (!storage || !scope) return;
      try {
        storage.setItem(PREFIX + scope, JSON.stringify({ columns, detailWidth, views }));
      } catch {
        // A full or disabled storage only means the arrangement is not remembered.
      }
    }
    return {
      view: initial,
      scope: null,
      columns: [...DEFAULT_COLUMNS],
      detailWidth: null,
      views: [],
      setView: (view) => set({ view }),
      shipments: { ...DEFAULT_SHIPMENTS_VIEW },
      setShipments(part) {
        const keepsPage = Object.keys(part).every((k) => k === 'pageNumber' || k === 'open');
        set((s) => ({ shipments: { ...s.shipments, ...(keepsPage ? {} : { pageNumber: 1 }), ...part } }));
      },
      openShipment(id) {
        set((s) => ({ view: 'shipments', shipments: { ...s.shipments, open: id } }));
      },
      showArrangementOf(scope) {
        const stored = read(scope);
        const width = typeof stored.detailWidth === 'number' && Number.isFinite(stored.detailWidth) ? stored.detailWidth : null;
        set({ scope, columns: normaliseColumns(stored.columns ?? DEFAULT_COLUMNS), detailWidth: width, views: savedViews(stored.views) });
      },
      setColumns(columns) {
        set({ columns: normaliseColumns(columns) });
        save();
      },
      setDetailWidth(width) {
        set({ detailWidth: Math.round(width) });
        save();
      },
      saveView(name, search) {
        const kept = get().views.filter((v) => !sameName(v.name, name));
        set({ views: [...kept, { name: name.trim(), search }].slice(-MAX_SAVED_VIEWS) });
        save();
      },
      removeView(name) {
        set({ views: get().views.filter((v) => !sameName(v.name, name)) });
        save();
      },
    };
  });
}

export type UiStore = ReturnType<typeof createUiStore>;
