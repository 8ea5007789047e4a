/**
 * Settings › Backups: the last good backup, every backup with what its verification found, and
 * Back up now (POST /local/backups, answered once the copy is verified); and the header's
 * warning when the last backup failed or none is as recent as the schedule asks. Both need
 * apiKeys:manage (an administrator, or a key that may manage keys): a backup is the whole desk.
 * See docs/operations.md#backups-and-restore.
 */
import { useEffect } from 'react';
import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';
import { backupsClient, type BackupStatus } from '../api/backups-client';
import { backupWarning, reasonText, sizeText } from '../lib/backup-text';
import { plainProblem } from '../lib/problem-text';
import { formatIsoTime } from '../lib/time-zone';
import { stores, useConnection } from '../state/stores';
import { useTimeZone } from '../state/time-zone';
import { ErrorBanner } from './ErrorBanner';

/** How often the header asks again while the page is open. */
const POLL_MS = 5 * 60_000;

interface BackupsState {
  status: BackupStatus | null;
  error: string | null;
  taking: boolean;
  refresh(): Promise<void>;
  backUpNow(): Promise<void>;
  reset(): void;
}

const canManage = () => stores.connection.getState().session?.permissions.includes('apiKeys:manage') ?? false;

export const backupsStore = createStore<BackupsState>()((set, get) => ({
  status: null,
  error: null,
  taking: false,
  async refresh() {
    const client = stores.connection.getState().client;
    if (!client || !canManage()) return;
    try {
      set({ status: await backupsClient(client).status(), error: null });
    } catch (err) {
      set({ error: plainProblem(err) });
    }
  },
  async backUpNow() {
    const client = stores.connection.getState().client;
    if (!client || get().taking) return;
    set({ taking: true, error: null });
    try {
      await backupsClient(client).backUpNow();
    } catch (err) {
      set({ error: plainProblem(err) });
    } finally {
      set({ taking: false });
    }
    await get().refresh();
  },
  reset() {
    set({ status: null, error: null, taking: false });
  },
}));

// Another key is another desk view: what the previous one could see goes.
stores.connection.subscribe((state, previous) => {
  if (state.client === previous.client) return;
  backupsStore.getState().reset();
  if (state.client) void backupsStore.getState().refresh();
});

function openBackupSettings() {
  stores.ui.getState().setView('settings');
}

/** The header's warning: shown only when the last backup failed or backups are overdue. */
export function BackupsHeader() {
  const status = useStore(backupsStore, (s) => s.status);
  const zone = useTimeZone();
  const manage = useConnection((s) => s.session?.permissions.includes('apiKeys:manage') ?? false);
  useEffect(() => {
    if (!manage) return;
    void backupsStore.getState().refresh();
    const timer = setInterval(() => void backupsStore.getState().refresh(), POLL_MS);
    return () => clearInterval(timer);
  }, [manage]);
  if (!manage || !status) return null;
  const warning = backupWarning(status, (iso) => formatIsoTime(iso, zone));
  if (warning === null) return null;
  return (
    <button type="button" className="app-header__backup-warning" data-testid="backup-warning" role="alert" onClick={openBackupSettings} title={`${warning}\nClick for Settings › Backups.`}>
      {/* The name read out starts with the words seen, then says the rest. */}
      {status.lastFailed ? 'Backup failed' : 'Backup overdue'}
      <span className="visually-hidden">: {warning}</span>
    </button>
  );
}

export function BackupsSettings() {
  const manage = useConnection((s) => s.session?.permissions.includes('apiKeys:manage') ?? false);
  const status = useStore(backupsStore, (s) => s.status);
  const error = useStore(backupsStore, (s) => s.error);
  const taking = useStore(backupsStore, (s) => s.taking);
  const reachable = useConnection((s) => s.reachable);
  const zone = useTimeZone();
  const when = (iso: string) => formatIsoTime(iso, zone, true);
  // Asked for on opening, and again when the service is back after being unreachable.
  useEffect(() => {
    if (manage && reachable) void backupsStore.getState().refresh();
  }, [manage, reachable]);
  return (
    <section className="panel" aria-labelledby="backups-title" data-testid="backups">
      <h3 id="backups-title">Backups</h3>
      {!manage ? (
        <p className="note note--locked">Backups are shown to administrators, and to keys that may manage API keys.</p>
      ) : (
        <>
          <p className="muted small">
            Each backup is a copy of the whole desk, checked before it is kept: the copy&apos;s integrity, its audit trail and its counts.
            {status && (
              <>
                {' '}
                {status.everyHours > 0 ? `Taken every ${status.everyHours} h` : 'No schedule'} into <code>{status.dir}</code>; kept: {status.keep.daily} daily,{' '}
                {status.keep.weekly} weekly, {status.keep.monthly} monthly.
              </>
            )}
          </p>
          {/* Unreachable is said once, by the header's indicator. */}
          {error && reachable && <ErrorBanner message={error} />}
          {status && (
            <p data-testid="backup-last-good">
              {status.lastGood ? (
                <>
                  Last good backup: <strong>{when(status.lastGood.at)}</strong> ({sizeText(status.lastGood.bytes)}, {status.lastGood.counts.reports ?? 0} reports) —{' '}
                  <code>{status.lastGood.file}</code>
                </>
              ) : (
                'No good backup yet.'
              )}
            </p>
          )}
          <button type="button" className="button button--primary" data-testid="back-up-now" disabled={taking} onClick={() => void backupsStore.getState().backUpNow()}>
            {taking ? 'Backing up…' : 'Back up now'}
          </button>
          {status && status.backups.length > 0 && (
            <table className="keys-table" data-testid="backup-list">
              <thead>
                <tr>
                  <th>Taken</th>
                  <th>Why</th>
                  <th>Result</th>
                  <th>Size</th>
                  <th>File</th>
                </tr>
              </thead>
              <tbody>
                {status.backups.map((b) => (
                  <tr key={b.id} data-testid={`backup-${b.id}`} className={b.ok ? '' : 'is-failed'}>
                    <td>{when(b.at)}</td>
                    <td>{reasonText(b.reason)}</td>
                    <td>{b.ok ? 'Verified' : `Failed: ${b.failure ?? ''}`}</td>
                    <td>{sizeText(b.bytes)}</td>
                    <td>{b.ok ? b.present ? <code>{b.file}</code> : <span className="muted">removed by the rotation</span> : '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </>
      )}
    </section>
  );
}
