/**
 * Sync with a remote instance, as the window shows it: the status read again while the window
 * is visible (often while a cycle runs, so "N of M" moves), the reports whose local edits are not
 * yet sent, the conflicts and refused edits with their actions, and the settings.
 *
 * The remote key is never read back. In the desktop app it goes through the bridge, which keeps
 * it encrypted for the next start; without the bridge (headless `npm start`) only the service
 * holds it, until it restarts. Either way the service gets it with the settings, so sync starts
 * with it at once.
 */
import { createStore } from 'zustand/vanilla';
import type { LabelDeskBridge } from '../../contract/ipc';
import { ApiClientError, errorMessage, isAbortError, NETWORK_ERROR } from '../api/client';
import type { ApiClient } from '../api/client';
import { syncClient } from '../api/sync-client';
import type { DeadLetter, RefusedFromRemote, ReportSyncState, SyncClient, SyncConflict, SyncSettings, SyncStatus, SyncTestResult } from '../api/sync-client';
import { isSyncBusy } from '../lib/sync-text';

/** Whether the page is seen, and a way to hear when that changes (document.visibilityState in the browser). */
export interface Visibility {
  isVisible(): boolean;
  onChange(listener: () => void): () => void;
}

export type KeyBridge = Pick<LabelDeskBridge, 'saveRemoteKey' | 'hasRemoteKey'>;

/** The one timer the store keeps (setTimeout in the window; tests run it by hand). */
export interface Timers {
  set(run: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

const globalTimers: Timers = {
  set: (run, ms) => setTimeout(run, ms),
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export interface SyncStoreOptions {
  getClient(): ApiClient | null;
  /** The desktop app's bridge, or undefined in a plain browser. */
  getBridge?(): KeyBridge | undefined;
  visibility?: Visibility;
  /** Between reads of the status while nothing runs. */
  intervalMs?: number;
  /** Between reads while a cycle runs, and for a while after "Sync now". */
  busyIntervalMs?: number;
  timers?: Timers;
  /** After a cycle that changed the local reports (the list is read again then). */
  onMirrorChanged?(): void;
}

export type SyncAction = 'test' | 'save' | 'sync' | 'off';

/** The outcome of the last settings action, in words. */
export interface SyncNotice {
  ok: boolean;
  text: string;
}

export interface SaveInput {
  remoteUrl: string;
  /** Empty: keep the key the service has. */
  remoteKey: string;
  /** Empty: the remote's answer decides. */
  companyId: string;
}

export interface SyncUiState {
  status: SyncStatus | null;
  /** Why the status could not be read (not when the service itself is unreachable: see below). */
  statusError: string | null;
  /** The local service does not answer: the header's offline indicator says so, once, so sync says nothing. */
  unreachable: boolean;
  /** When the status was last read (ms since the epoch): "synced 2 min ago" counts from here. */
  checkedAt: number | null;
  /** Reports with a local edit not yet sent. */
  pendingIds: ReadonlySet<string>;
  conflicts: SyncConflict[] | null;
  deadLetters: DeadLetter[] | null;
  /** Reports the remote sent that this desk did not take. */
  refused: RefusedFromRemote[] | null;
  /** Of the reports opened, whether each mirrors the remote and whose figures it shows. */
  reportStates: ReadonlyMap<string, ReportSyncState>;
  listsError: string | null;
  settings: SyncSettings | null;
  settingsError: string | null;
  /** Desktop app: whether a key is kept for the next start; null without the bridge. */
  keyKept: boolean | null;
  busy: SyncAction | null;
  testResult: SyncTestResult | null;
  notice: SyncNotice | null;
  /** The conflict or refused edit an action runs on. */
  acting: string | null;
  actionError: string | null;
  /** Whether the key goes through the desktop app (kept encrypted) or to the service only. */
  keyStorage: 'desktop' | 'service';
  /** Set by the header's indicator: Settings › Sync scrolls into view, then clears it. */
  revealRequested: boolean;
  /** Starts reading the status (counted: every start needs its stop). */
  start(): () => void;
  refresh(): Promise<void>;
  /** Conflicts and refused edits are read while something shows them (counted like start). */
  watchLists(): () => void;
  loadSettings(): Promise<void>;
  test(input: SaveInput): Promise<SyncTestResult | null>;
  save(input: SaveInput): Promise<boolean>;
  syncNow(): Promise<boolean>;
  turnOff(): Promise<boolean>;
  resolveConflict(id: string, keep: 'local' | 'remote'): Promise<boolean>;
  actOnDeadLetter(id: string, action: 'retry' | 'discard'): Promise<boolean>;
  /** Reads whose figures a report shows (after it opens, and after each of its changes). */
  readReportState(id: string): Promise<void>;
  dismissNotice(): void;
  reset(): void;
}

const DEFAULT_INTERVAL_MS = 5_000;
const DEFAULT_BUSY_INTERVAL_MS = 500;
/** After "Sync now", how many quick reads before going back to the normal pace if nothing ran. */
const QUICK_READS_AFTER_ACTION = 20;

const initial = {
  status: null,
  statusError: null,
  unreachable: false,
  checkedAt: null,
  pendingIds: new Set<string>() as ReadonlySet<string>,
  conflicts: null,
  deadLetters: null,
  refused: null,
  reportStates: new Map<string, ReportSyncState>() as ReadonlyMap<string, ReportSyncState>,
  listsError: null,
  settings: null,
  settingsError: null,
  keyKept: null,
  busy: null,
  testResult: null,
  notice: null,
  acting: null,
  actionError: null,
  revealRequested: false,
};

export function documentVisibility(): Visibility | undefined {
  if (typeof document === 'undefined') return undefined;
  return {
    isVisible: () => document.visibilityState === 'visible',
    onChange: (listener) => {
      document.addEventListener('visibilitychange', listener);
      return () => document.removeEventListener('visibilitychange', listener);
    },
  };
}

const isUnreachable = (err: unknown) => err instanceof ApiClientError && err.code === NETWORK_ERROR;
/** A read's failure in words, or null when the service is unreachable (said once, in the header). */
const readProblem = (err: unknown): string | null => (isUnreachable(err) ? null : errorMessage(err));

const trimmed = (text: string): string | undefined => (text.trim() === '' ? undefined : text.trim());

export function createSyncStore(options: SyncStoreOptions) {
  const interval = options.intervalMs ?? DEFAULT_INTERVAL_MS;
  const busyInterval = options.busyIntervalMs ?? DEFAULT_BUSY_INTERVAL_MS;
  const visibility = options.visibility;
  const timers = options.timers ?? globalTimers;
  const bridge = () => options.getBridge?.();

  let starts = 0;
  let listWatchers = 0;
  let timer: unknown = null;
  let stopVisibility: (() => void) | null = null;
  let quickReads = 0;
  /** Replaced on reset: answers for a previous key are dropped. */
  let generation = {};
  let reading: Promise<void> | null = null;
  /** The newest report and the count the local list showed after the last completed cycle. */
  let mirrorFingerprint: string | null = null;
  let readAgain = false;

  const client = (): SyncClient | null => {
    const api = options.getClient();
    return api ? syncClient(api) : null;
  };

  return createStore<SyncUiState>()((set, get) => {
    function schedule() {
      if (timer !== null) timers.clear(timer);
      timer = null;
      if (starts === 0 || (visibility && !visibility.isVisible())) return;
      const state = get().status?.state;
      const quick = quickReads > 0 || (state !== undefined && isSyncBusy(state));
      if (quickReads > 0) quickReads--;
      timer = timers.set(() => {
        timer = null;
        void get().refresh();
      }, quick ? busyInterval : interval);
    }

    async function readLists(sync: SyncClient, token: object) {
      const [conflicts, deadLetters, refused] = await Promise.allSettled([sync.conflicts(), sync.deadLetters(), sync.refused()]);
      if (token !== generation) return;
      const failed = [conflicts, deadLetters, refused].find((r) => r.status === 'rejected');
      set({
        conflicts: conflicts.status === 'fulfilled' ? conflicts.value : get().conflicts,
        deadLetters: deadLetters.status === 'fulfilled' ? deadLetters.value : get().deadLetters,
        refused: refused.status === 'fulfilled' ? refused.value : get().refused,
        listsError: failed ? readProblem(failed.reason) : null,
      });
    }

    /**
     * Whether the cycle that just completed changed what the local list shows: a pull moves the
     * newest `updated` or the count. Asked only when a cycle completes, so an idle window reads
     * nothing more than the status.
     */
    async function checkMirror(api: ApiClient, token: object) {
      const page = await api.listReports({ output: 'minimal', order: 'updated[desc]', pageSize: 1 }).catch(() => null);
      if (!page || token !== generation) return;
      const fingerprint = `${page.totalDocuments}|${page.data[0]?.id ?? ''}|${page.data[0]?.updated ?? ''}`;
      const previous = mirrorFingerprint;
      mirrorFingerprint = fingerprint;
      if (previous !== null && previous !== fingerprint) options.onMirrorChanged?.();
    }

    /** One read of the status, and of what its counts say has changed. */
    async function read() {
      const sync = client();
      if (!sync) return;
      const token = generation;
      const before = get().status;
      try {
        const status = await sync.status();
        if (token !== generation) return;
        set({ status, statusError: null, unreachable: false, checkedAt: Date.now() });
        const changed = (key: 'pending' | 'conflicts' | 'deadLetters' | 'refused' | 'lastSuccessAt') => before === null || before[key] !== status[key];
        // The outbox changes with every local edit and every push; the counts (and the end of a
        // cycle) say when to read it again rather than reading it on every poll.
        if (changed('pending') || changed('lastSuccessAt') || (status.pending > 0 && get().pendingIds.size !== status.pending)) {
          const outbox = await sync.outbox().catch(() => null);
          if (outbox && token === generation) set({ pendingIds: new Set(outbox.map((e) => e.labelReportId)) });
        }
        const api = options.getClient();
        if (api && changed('lastSuccessAt')) await checkMirror(api, token);
        if (listWatchers > 0 && (changed('conflicts') || changed('deadLetters') || changed('refused') || get().conflicts === null)) await readLists(sync, token);
      } catch (err) {
        if (isAbortError(err) || token !== generation) return;
        set({ statusError: readProblem(err), unreachable: isUnreachable(err), checkedAt: Date.now() });
      }
    }

    return {
      ...initial,
      keyStorage: bridge() ? 'desktop' : 'service',

      start() {
        starts++;
        if (starts === 1) {
          stopVisibility = visibility?.onChange(() => {
            // Back in view: read at once rather than show a stale state.
            if (visibility.isVisible()) void get().refresh();
            else schedule();
          }) ?? null;
          void get().refresh();
        }
        let stopped = false;
        return () => {
          if (stopped) return;
          stopped = true;
          starts--;
          if (starts === 0) {
            stopVisibility?.();
            stopVisibility = null;
            if (timer !== null) timers.clear(timer);
            timer = null;
          }
        };
      },

      /** Reads now; calls while a read runs are folded into one more read after it. */
      async refresh() {
        if (reading) {
          readAgain = true;
          return reading;
        }
        reading = (async () => {
          do {
            readAgain = false;
            await read();
          } while (readAgain);
        })().finally(() => {
          reading = null;
          schedule();
        });
        return reading;
      },

      watchLists() {
        listWatchers++;
        const sync = client();
        if (sync) void readLists(sync, generation);
        let stopped = false;
        return () => {
          if (stopped) return;
          stopped = true;
          listWatchers--;
        };
      },

      async loadSettings() {
        const sync = client();
        if (!sync) return;
        const token = generation;
        const [settings, kept] = await Promise.allSettled([sync.settings(), bridge()?.hasRemoteKey() ?? Promise.resolve(null)]);
        if (token !== generation) return;
        set({
          settings: settings.status === 'fulfilled' ? settings.value : get().settings,
          settingsError: settings.status === 'rejected' ? readProblem(settings.reason) : null,
          keyKept: kept.status === 'fulfilled' ? kept.value : null,
        });
      },

      async test(input) {
        const sync = client();
        if (!sync) return null;
        set({ busy: 'test', testResult: null, notice: null });
        try {
          const result = await sync.test({ remoteUrl: input.remoteUrl.trim(), remoteKey: trimmed(input.remoteKey), companyId: trimmed(input.companyId) });
          set({ busy: null, testResult: result });
          return result;
        } catch (err) {
          set({ busy: null, notice: { ok: false, text: errorMessage(err) } });
          return null;
        }
      },

      async save(input) {
        const sync = client();
        if (!sync) return false;
        set({ busy: 'save', notice: null });
        const remoteKey = trimmed(input.remoteKey);
        try {
          await sync.saveSettings({ remoteUrl: input.remoteUrl.trim(), companyId: trimmed(input.companyId), remoteKey });
          let text = 'Saved. Sync starts with these settings.';
          const desk = bridge();
          if (remoteKey !== undefined && desk) {
            const kept = await desk.saveRemoteKey(remoteKey);
            text += kept.saved ? ' The key is kept encrypted on this computer.' : ` ${kept.reason}`;
          } else if (remoteKey !== undefined) {
            text += ' The service keeps the key in memory only: enter it again after the service restarts.';
          }
          set({ busy: null, notice: { ok: true, text } });
          quickReads = QUICK_READS_AFTER_ACTION;
          await Promise.all([get().loadSettings(), get().refresh()]);
          return true;
        } catch (err) {
          set({ busy: null, notice: { ok: false, text: errorMessage(err) } });
          return false;
        }
      },

      async syncNow() {
        const sync = client();
        if (!sync) return false;
        set({ busy: 'sync', notice: null });
        try {
          await sync.syncNow();
          set({ busy: null });
          quickReads = QUICK_READS_AFTER_ACTION;
          await get().refresh();
          return true;
        } catch (err) {
          set({ busy: null, notice: { ok: false, text: errorMessage(err) } });
          return false;
        }
      },

      async turnOff() {
        const sync = client();
        if (!sync) return false;
        set({ busy: 'off', notice: null, testResult: null });
        try {
          await sync.saveSettings({ remoteUrl: null });
          const desk = bridge();
          if (desk) await desk.saveRemoteKey(null);
          const forgot = desk ? ' The remote key kept on this computer has been removed.' : '';
          set({ busy: null, notice: { ok: true, text: `Sync is off. The reports stay on this computer.${forgot}` } });
          await Promise.all([get().loadSettings(), get().refresh()]);
          return true;
        } catch (err) {
          set({ busy: null, notice: { ok: false, text: errorMessage(err) } });
          return false;
        }
      },

      async resolveConflict(id, keep) {
        return act(id, (sync) => sync.resolveConflict(id, keep));
      },

      async actOnDeadLetter(id, action) {
        return act(id, (sync) => sync.actOnDeadLetter(id, action));
      },

      async readReportState(id) {
        const sync = client();
        if (!sync) return;
        const token = generation;
        // Nothing to say when it cannot be read: the report view shows its figures either way.
        const state = await sync.reportState(id).catch(() => null);
        if (!state || token !== generation) return;
        set({ reportStates: new Map(get().reportStates).set(id, state) });
      },
      dismissNotice: () => set({ notice: null }),

      reset() {
        generation = {};
        mirrorFingerprint = null;
        quickReads = 0;
        set({ ...initial, pendingIds: new Set() });
      },
    };

    /** An action on one conflict or refused edit, then the lists and status read again. */
    async function act(id: string, run: (sync: SyncClient) => Promise<void>): Promise<boolean> {
      const sync = client();
      if (!sync) return false;
      set({ acting: id, actionError: null });
      try {
        await run(sync);
        await readLists(sync, generation);
        set({ acting: null });
        quickReads = QUICK_READS_AFTER_ACTION;
        await get().refresh();
        return true;
      } catch (err) {
        set({ acting: null, actionError: errorMessage(err) });
        await readLists(sync, generation);
        return false;
      }
    }
  });
}

export type SyncStore = ReturnType<typeof createSyncStore>;
