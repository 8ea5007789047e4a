/**
 * The confirmation a change to the verdict's inputs (limits, alert rules, trim, status) waits in: it says in
 * words what the change does to the alert, and takes the reason the change log keeps beside it.
 * A decision already taken is withdrawn when the alert changes, and the dialog says so.
 */
import { useState } from 'react';
import type { FormEvent } from 'react';
import { alertLevelInfo } from '../lib/format';
import { stores, useDetail } from '../state/stores';

const WHAT: Record<string, string> = { limits: 'the limits', alertRules: 'the alert rules', trim: 'the trim', bookkeeping: 'the status' };

export function ChangeReasonDialog() {
  const pending = useDetail((s) => s.pending);
  const [reason, setReason] = useState('');
  if (!pending) return null;
  const preview = pending.preview;
  const effect =
    preview === null
      ? 'Working out what this does to the alert…'
      : preview.alertBefore.level === preview.alertAfter.level
        ? `The alert stays ${alertLevelInfo(preview.alertBefore.level).label}.`
        : `The alert will change from ${alertLevelInfo(preview.alertBefore.level).label} to ${alertLevelInfo(preview.alertAfter.level).label}. A decision already taken on this report is withdrawn, and it awaits a new one.`;
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (reason.trim() === '') return;
    const text = reason.trim();
    setReason('');
    await stores.detail.getState().confirm(text);
  };
  return (
    <form className="panel change-reason" role="dialog" aria-label="Confirm the change" data-testid="change-reason" onSubmit={(e) => void submit(e)}>
      <h4>Confirm the change to {WHAT[pending.section] ?? 'the report'}</h4>
      <p data-testid="change-effect">{effect}</p>
      <label>
        Reason for the change (kept in the history)
        <textarea name="changeReason" required value={reason} onChange={(e) => setReason(e.target.value)} maxLength={2000} />
      </label>
      <div className="form-actions">
        <button type="submit" className="button button--primary" disabled={reason.trim() === '' || preview === null}>
          Confirm change
        </button>
        <button
          type="button"
          className="button button--quiet"
          onClick={() => {
            setReason('');
            stores.detail.getState().cancelPending();
          }}
        >
          Cancel
        </button>
      </div>
    </form>
  );
}
