/**
 * The reports picked in the list for bulk work (docs/review-and-audit.md#bulk-work), apart from
 * the keyboard's row cursor: ids in the order picked, the row a Shift-click extends from, and
 * the outcome of the last action on them in one sentence. A new question to the list (other
 * filters, another key) drops the picks, so nothing is acted on that is no longer shown.
 */
import { createStore } from 'zustand/vanilla';
import type { ApiClient } from '../api/client';
import { reviewClient, type BulkBody } from '../api/review-client';
import { plainApiError } from '../lib/plain-words';

/** What the bar sends: the action and its fields, the picked ids added. */
export type BulkAction = BulkBody extends infer B ? (B extends { reportIds: string[] } ? Omit<B, 'reportIds'> : never) : never;

export interface PickedState {
  ids: string[];
  /** The row index a Shift-click extends from. */
  anchor: number | null;
  busy: boolean;
  outcome: { ok: boolean; message: string } | null;
  /** Picks or drops one report; with `range`, every loaded row from the anchor to it. */
  toggle(id: string, index: number, range: boolean, idAt: (index: number) => string | undefined): void;
  clear(): void;
  apply(action: BulkAction): Promise<boolean>;
}

export const MAX_PICKED = 500;

const DONE: Record<BulkAction['action'], (n: number) => string> = {
  acknowledge: (n) => `Acknowledged the alerts of ${reports(n)}.`,
  decide: (n) => `Decision saved on ${reports(n)}.`,
  flag: (n) => `Flagged ${reports(n)}.`,
  unflag: (n) => `Took the flag off ${reports(n)}.`,
  archive: (n) => `Archived ${reports(n)}.`,
  unarchive: (n) => `Brought back ${reports(n)} from the archive.`,
};

function reports(n: number): string {
  return n === 1 ? '1 report' : `${n} reports`;
}

export function createPickedStore(options: { getClient(): ApiClient | null; onDone(ids: readonly string[]): void }) {
  return createStore<PickedState>()((set, get) => ({
    ids: [],
    anchor: null,
    busy: false,
    outcome: null,
    toggle(id, index, range, idAt) {
      const { ids, anchor } = get();
      const picked = new Set(ids);
      if (range && anchor !== null) {
        const [from, to] = anchor <= index ? [anchor, index] : [index, anchor];
        const add = !picked.has(id);
        const next = [...ids];
        for (let i = from; i <= to; i++) {
          const rowId = idAt(i);
          if (rowId === undefined) continue;
          if (add && !picked.has(rowId)) {
            picked.add(rowId);
            next.push(rowId);
          } else if (!add) picked.delete(rowId);
        }
        set({ ids: (add ? next : next.filter((x) => picked.has(x))).slice(0, MAX_PICKED), anchor: index, outcome: null });
        return;
      }
      set({ ids: picked.has(id) ? ids.filter((x) => x !== id) : [...ids, id].slice(0, MAX_PICKED), anchor: index, outcome: null });
    },
    clear() {
      set({ ids: [], anchor: null, busy: false });
    },
    async apply(action) {
      const client = options.getClient();
      const ids = get().ids;
      if (!client || ids.length === 0) return false;
      set({ busy: true, outcome: null });
      try {
        await reviewClient(client).bulk({ ...action, reportIds: ids } as BulkBody);
        set({ ids: [], anchor: null, busy: false, outcome: { ok: true, message: DONE[action.action](ids.length) } });
        options.onDone(ids);
        return true;
      } catch (err) {
        set({ busy: false, outcome: { ok: false, message: plainApiError(err, 'act on these reports') } });
        return false;
      }
    },
  }));
}
