/**
 * The bar over the table while reports are picked (docs/review-and-audit.md#bulk-work): how many,
 * and what can be done to them at once. Flag and archive act at a press; acknowledge and decide
 * open a short form that, for a person, asks for the password once and signs each report. A
 * refusal names the reports at fault, and nothing was done to any.
 */
import { useState } from 'react';
import type { FormEvent } from 'react';
import { DECISIONS, SIGNATURE_MEANINGS, type Decision } from '../../schema/review';
import { decisionLabel, personText } from '../lib/history-text';
import { signerZone } from '../lib/signer-zone';
import type { BulkAction } from '../state/picked';
import { stores, useConnection, usePicked } from '../state/stores';

type SignedKind = 'acknowledge' | 'decide';

const QUICK: { action: Extract<BulkAction['action'], 'flag' | 'unflag' | 'archive' | 'unarchive'>; label: string }[] = [
  { action: 'flag', label: 'Flag' },
  { action: 'unflag', label: 'Unflag' },
  { action: 'archive', label: 'Archive' },
  { action: 'unarchive', label: 'Unarchive' },
];

function SignedForm({ kind, count, onClose }: { kind: SignedKind; count: number; onClose: () => void }) {
  const busy = usePicked((s) => s.busy);
  const person = useConnection((s) => s.session?.person);
  const mayDecide = useConnection((s) => s.session?.mayDecide);
  const offered = mayDecide ? DECISIONS.filter((d) => mayDecide.includes(d)) : DECISIONS;
  // Nothing preselected: a release is never one click away.
  const [decision, setDecision] = useState<Decision | null>(null);
  const [text, setText] = useState('');
  const [password, setPassword] = useState('');
  const meaning = kind === 'acknowledge' ? SIGNATURE_MEANINGS.acknowledgement : decision ? SIGNATURE_MEANINGS[decision] : null;
  const signature = person ? { password, zone: signerZone() } : {};
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const action: BulkAction | null =
      kind === 'acknowledge'
        ? { action: 'acknowledge', ...(text.trim() ? { note: text.trim() } : {}), ...signature }
        : decision && { action: 'decide', decision, reason: text.trim(), ...signature };
    if (!action) return;
    if (await stores.picked.getState().apply(action)) onClose();
    else setPassword('');
  };
  const title = kind === 'acknowledge' ? `Acknowledge the alerts of ${count} reports` : `Decide on ${count} reports`;
  return (
    <form className="bulk-form" onSubmit={submit} aria-label={title} data-testid={`bulk-${kind}-form`}>
      <strong>{title}</strong>
      {kind === 'decide' && (
        <fieldset className="review-form__row">
          <legend className="visually-hidden">Decision</legend>
          {offered.map((d) => (
            <label key={d}>
              <input type="radio" name="bulk-decision" value={d} checked={decision === d} onChange={() => setDecision(d)} /> {decisionLabel(d)}
            </label>
          ))}
        </fieldset>
      )}
      <label className="field">
        <span className="field__label">{kind === 'acknowledge' ? 'Note (optional)' : 'Reason (required)'}</span>
        <input name="bulk-text" value={text} onChange={(e) => setText(e.target.value)} required={kind === 'decide'} />
      </label>
      {person && (
        <label className="field">
          <span className="field__label">
            Password: {personText(person)} signs “{meaning ?? '…'}” on each report, in {signerZone()}
          </span>
          <input name="bulk-password" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} required />
        </label>
      )}
      <button type="submit" className="button button--primary" disabled={busy || (kind === 'decide' && decision === null)}>
        {busy ? 'Saving…' : person ? 'Sign' : 'Save'}
      </button>
      <button type="button" className="button" onClick={onClose}>
        Cancel
      </button>
    </form>
  );
}

export function BulkBar() {
  const count = usePicked((s) => s.ids.length);
  const busy = usePicked((s) => s.busy);
  const outcome = usePicked((s) => s.outcome);
  const [form, setForm] = useState<SignedKind | null>(null);
  if (count === 0 && !outcome) return null;
  const picked = stores.picked.getState();
  return (
    <section className="bulk-bar" aria-label="Selected reports" data-testid="bulk-bar">
      {count > 0 && (
        <div className="bulk-bar__row">
          <strong data-testid="bulk-count">{count} selected</strong>
          <button type="button" className="button button--small" onClick={() => setForm('acknowledge')} disabled={busy}>
            Acknowledge…
          </button>
          <button type="button" className="button button--small" onClick={() => setForm('decide')} disabled={busy}>
            Decide…
          </button>
          {QUICK.map(({ action, label }) => (
            <button key={action} type="button" className="button button--small" disabled={busy} onClick={() => void picked.apply({ action })}>
              {label}
            </button>
          ))}
          <button type="button" className="button button--small" onClick={() => picked.clear()}>
            Clear selection
          </button>
        </div>
      )}
      {form && count > 0 && <SignedForm kind={form} count={count} onClose={() => setForm(null)} />}
      {outcome && (
        <p className={`save-message save-message--${outcome.ok ? 'ok' : 'error'}`} role={outcome.ok ? 'status' : 'alert'} data-testid="bulk-message">
          {outcome.message}
        </p>
      )}
    </section>
  );
}
