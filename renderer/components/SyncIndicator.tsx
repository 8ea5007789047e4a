/**
 * Sync in the header: the state in words, when it last succeeded, how many edits wait, "N of M"
 * while changes arrive, and the last error. Clicking it opens Settings › Sync. Mounted with the
 * header, so the status is read while the app is open (and visible).
 */
import { useEffect } from 'react';
import { asSentence, attentionText, indicatorSummary, stateExplanation } from '../lib/sync-text';
import { stores, useConnection, useSync } from '../state/stores';
import './sync.css';

/** Settings › Sync, scrolled into view. */
export function openSyncSettings() {
  stores.ui.getState().setView('settings');
  stores.sync.setState({ revealRequested: true });
}

export function SyncIndicator() {
  useEffect(() => stores.sync.getState().start(), []);
  const status = useSync((s) => s.status);
  const statusError = useSync((s) => s.statusError);
  const checkedAt = useSync((s) => s.checkedAt) ?? 0;
  const unreachable = useSync((s) => s.unreachable);
  const serviceAnswers = useConnection((s) => s.reachable);

  // The local service is down or silent: the offline indicator beside this says so, and the sync
  // state last heard is no longer known (never "Synced" from a service that does not answer).
  if (unreachable || !serviceAnswers) return null;
  if (!status) {
    if (!statusError) return null;
    return (
      <button type="button" className="sync-indicator sync-indicator--unknown" data-testid="sync-indicator" data-state="unknown" onClick={openSyncSettings} title={statusError}>
        <span className="sync-indicator__dot" aria-hidden="true" />
        <span data-testid="sync-summary">Sync status unavailable</span>
      </button>
    );
  }
  const attention = attentionText(status);
  // The error matters while it is newer than the last success.
  const error = status.lastError && (!status.lastSuccessAt || Date.parse(status.lastError.at) >= Date.parse(status.lastSuccessAt)) ? status.lastError : null;
  return (
    <button
      type="button"
      className={`sync-indicator sync-indicator--${status.state}`}
      data-testid="sync-indicator"
      data-state={status.state}
      onClick={openSyncSettings}
      title={`${stateExplanation(status, checkedAt)}${error ? `\nLast error: ${asSentence(error.message)}` : ''}\nClick for sync settings.`}
    >
      <span className="sync-indicator__dot" aria-hidden="true" />
      <span data-testid="sync-summary">{indicatorSummary(status, checkedAt)}</span>
      {attention && (
        <span className="sync-indicator__attention" data-testid="sync-attention">
          {attention}
        </span>
      )}
      {error && status.state !== 'off' && (
        <span className="sync-indicator__error" data-testid="sync-error" title={asSentence(error.message)}>
          {asSentence(error.message)}
        </span>
      )}
    </button>
  );
}
