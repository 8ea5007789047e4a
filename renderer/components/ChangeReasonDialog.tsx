/**
 * The confirmation a change to the verdict's inputs (limits, alert rules, trim, status) waits in: it says in
 * words what the change does to the alert, and takes the reason the change log keeps beside it.
 * A decision already taken is withdrawn when the alert changes, and the dialog says so.
 *
 * Where people sign, a change that lowers the alert (or moves the alert of a report awaiting
 * review) is a signed change (docs/review-and-audit.md#signed-verdict-changes): the dialog says
 * so, and either takes the password of a person who may sign it at once, or asks for the
 * approval of a person who may release (a second person when four eyes are on).
 */
import { useState } from 'react';
import type { FormEvent } from 'react';
import type { SignatureNeedInfo } from '../../schema/review';
import { alertLevelInfo } from '../lib/format';
import { signerZone } from '../lib/signer-zone';
import { stores, useDetail } from '../state/stores';

const WHAT: Record<string, string> = { limits: 'the limits', alertRules: 'the alert rules', trim: 'the trim', bookkeeping: 'the status' };

/** What the signature means for this change, and who gives it. */
function signatureText(signature: SignatureNeedInfo): string {
  const why = signature.cause === 'lowersAlert' ? 'This change lowers the alert' : 'This change moves the alert of a report awaiting review';
  const who = signature.callerMaySign
    ? 'Your role may sign it: enter your password to sign and make the change now.'
    : signature.fourEyes
      ? 'Four eyes are on: a second person whose role may release (approver or administrator) approves it with their signature; until then nothing changes.'
      : 'A person whose role may release (approver or administrator) approves it with their signature; until then nothing changes.';
  return `${why}, so it needs a signature: “${signature.meaning}”. ${who}`;
}

export function ChangeReasonDialog() {
  const pending = useDetail((s) => s.pending);
  const saving = useDetail((s) => s.saving !== null);
  const [reason, setReason] = useState('');
  const [password, setPassword] = useState('');
  if (!pending) return null;
  const preview = pending.preview;
  const signature = preview?.signature ?? null;
  const effect =
    preview === null
      ? 'Working out what this does to the alert…'
      : preview.alertBefore.level === preview.alertAfter.level
        ? `The alert stays ${alertLevelInfo(preview.alertBefore.level).label}.`
        : `The alert will change from ${alertLevelInfo(preview.alertBefore.level).label} to ${alertLevelInfo(preview.alertAfter.level).label}. A decision already taken on this report is withdrawn, and it awaits a new one.`;
  const clear = () => {
    setReason('');
    setPassword('');
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (reason.trim() === '') return;
    const text = reason.trim();
    if (signature) {
      const signs = signature.callerMaySign ? password : null;
      if (signs === '') return;
      if (await stores.detail.getState().confirmSigned(text, signs, signerZone())) clear();
      else setPassword('');
      return;
    }
    clear();
    await stores.detail.getState().confirm(text);
  };
  const ready = reason.trim() !== '' && preview !== null && (!signature?.callerMaySign || password !== '');
  const action = signature ? (signature.callerMaySign ? 'Sign and make the change' : 'Ask for approval') : 'Confirm change';
  return (
    <form className="panel change-reason" role="dialog" aria-label="Confirm the change" data-testid="change-reason" onSubmit={(e) => void submit(e)}>
      <h4>Confirm the change to {WHAT[pending.section] ?? 'the report'}</h4>
      <p data-testid="change-effect">{effect}</p>
      {signature && (
        <p className="change-reason__signature" data-testid="change-signature">
          {signatureText(signature)}
        </p>
      )}
      <label>
        Reason for the change (kept in the history)
        <textarea name="changeReason" required value={reason} onChange={(e) => setReason(e.target.value)} maxLength={2000} />
      </label>
      {signature?.callerMaySign && (
        <label className="field">
          <span className="field__label">Your password, to sign “{signature.meaning}”</span>
          <input name="change-signature-password" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} required />
        </label>
      )}
      {pending.problem && (
        <p className="save-message save-message--error" role="alert" data-testid="change-problem">
          {pending.problem}
        </p>
      )}
      <div className="form-actions">
        <button type="submit" className="button button--primary" disabled={!ready || saving}>
          {saving ? 'Sending…' : action}
        </button>
        <button
          type="button"
          className="button button--quiet"
          onClick={() => {
            clear();
            stores.detail.getState().cancelPending();
          }}
        >
          Cancel
        </button>
      </div>
    </form>
  );
}
