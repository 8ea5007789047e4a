/**
 * The company's review of the report: the decision (released, rejected or on hold) with its
 * reason, the acknowledgement of the alert, and the comments, each with who and when. Forms are
 * offered only to a key and company that may use them; the panel says once why not.
 */
import { useState } from 'react';
import { createPortal } from 'react-dom';
import type { FormEvent } from 'react';
import type { LabelReport } from '../../schema/report';
import { DECISIONS, SIGNATURE_MEANINGS } from '../../schema/review';
import type { Decision, ReviewAuthor } from '../../schema/review';
import { alertLevelInfo } from '../lib/format';
import { decisionLabel, personText } from '../lib/history-text';
import type { ReviewRights } from '../lib/permissions';
import { signerZone } from '../lib/signer-zone';
import { formatIsoTime } from '../lib/time-zone';
import type { TimeZoneSetting } from '../lib/time-zone';
import type { ReviewAction } from '../state/review';
import { stores, useConnection, useReview } from '../state/stores';
import { useTimeZone } from '../state/time-zone';

export function authorText(author: ReviewAuthor): string {
  if (author.person) return personText(author.person);
  return `${author.keyName ? `key “${author.keyName}”` : `an unnamed key (${author.keyId.slice(0, 8)})`} (a tool)`;
}

/** Who and when; for a signature also its meaning and the time on the signer's own clock (what they saw when they signed), zone named. */
function ByLine({ author, at, zone, signed }: { author: ReviewAuthor; at: string; zone: TimeZoneSetting; signed?: { meaning?: string; zone?: string } }) {
  if (signed?.meaning) {
    return (
      <span className="comment__meta" data-testid="signature">
        signed “{signed.meaning}” by {authorText(author)}, {formatIsoTime(at, { iana: signed.zone ?? 'UTC' }, true)} ({signed.zone ?? 'UTC'})
      </span>
    );
  }
  return (
    <span className="comment__meta">
      by {authorText(author)}, {formatIsoTime(at, zone)}
    </span>
  );
}

export const MEANING: Record<'acknowledge' | Decision, string> = {
  acknowledge: SIGNATURE_MEANINGS.acknowledgement,
  released: SIGNATURE_MEANINGS.released,
  rejected: SIGNATURE_MEANINGS.rejected,
  onHold: SIGNATURE_MEANINGS.onHold,
};

/**
 * An electronic signature: names what is signed and asks for the password again. The dialog
 * stays open on a refusal, with its words; it closes when the signature is written.
 */
export function SignatureDialog({
  meaning,
  action,
  onSign,
  onCancel,
  status,
}: {
  meaning: string;
  action: ReviewAction;
  onSign: (password: string) => Promise<boolean>;
  onCancel: () => void;
  /** Where the signature stands when another screen than the report's review signs (a shipment's release). */
  status?: { busy: boolean; outcome: { ok: boolean; message: string } | null };
}) {
  const [password, setPassword] = useState('');
  const reviewBusy = useReview((s) => s.busy === action);
  const busy = status ? status.busy : reviewBusy;
  const person = useConnection((s) => s.session?.person);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    // React bubbles a portal's events through the tree: the form it was opened from must not submit too.
    e.stopPropagation();
    if (await onSign(password)) onCancel();
    else setPassword('');
  };
  // Outside the form it was opened from: a form inside a form is no form at all.
  return createPortal(
    <div className="dialog-backdrop">
      <form className="dialog" role="dialog" aria-modal="true" aria-labelledby="signature-title" onSubmit={submit} data-testid="signature-dialog">
        <h4 id="signature-title">You sign: {meaning}</h4>
        <p className="small">
          Signed as {person ? personText(person) : 'you'}, now, in {signerZone()}. Enter your password to sign.
        </p>
        <label className="field">
          <span className="field__label">Password</span>
          <input name="signature-password" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} autoFocus required />
        </label>
        {status ? <OutcomeMessage action={action} outcome={status.outcome} /> : <Outcome action={action} />}
        <div className="review-form__row">
          <button type="submit" className="button button--primary" disabled={busy || password === ''}>
            {busy ? 'Signing…' : 'Sign'}
          </button>
          <button type="button" className="button" onClick={onCancel}>
            Cancel
          </button>
        </div>
      </form>
    </div>,
    document.body,
  );
}

function Outcome({ action }: { action: ReviewAction }) {
  const outcome = useReview((s) => (s.outcome?.action === action ? s.outcome : null));
  return <OutcomeMessage action={action} outcome={outcome} />;
}

/** What became of a review action, in words: said at once (a status), or as an alert when refused. */
export function OutcomeMessage({ action, outcome }: { action: ReviewAction; outcome: { ok: boolean; message: string } | null }) {
  if (!outcome) return null;
  return (
    <p className={`save-message save-message--${outcome.ok ? 'ok' : 'error'}`} role={outcome.ok ? 'status' : 'alert'} data-testid={`review-${action}-message`}>
      {outcome.message}
    </p>
  );
}

/** The reason a decision or a change of a verdict input is logged with: always asked for. */
export function ReasonField({ name, value, onChange, disabled }: { name: string; value: string; onChange: (value: string) => void; disabled?: boolean }) {
  return (
    <label className="field">
      <span className="field__label">Reason (required)</span>
      <textarea name={name} value={value} onChange={(e) => onChange(e.target.value)} required aria-required="true" disabled={disabled} />
    </label>
  );
}

function DecisionForm() {
  const busy = useReview((s) => s.busy === 'decide');
  // Nothing preselected: a release is never one click away by default.
  const [decision, setDecision] = useState<Decision | null>(null);
  const [reason, setReason] = useState('');
  const [signing, setSigning] = useState(false);
  const signs = useConnection((s) => s.session?.person !== undefined);
  // A person is offered only what their role may sign (the service refuses the rest anyway).
  const mayDecide = useConnection((s) => s.session?.mayDecide);
  const role = useConnection((s) => s.session?.person?.role);
  const offered = mayDecide ? DECISIONS.filter((d) => mayDecide.includes(d)) : DECISIONS;
  const withheld = DECISIONS.filter((d) => !offered.includes(d));
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (decision === null) return;
    if (signs) setSigning(true);
    else if (await stores.review.getState().decide(decision, reason)) setReason('');
  };
  const sign = async (password: string) => {
    if (decision === null) return false;
    const done = await stores.review.getState().decide(decision, reason, { password, zone: signerZone() });
    if (done) {
      setReason('');
      setDecision(null);
    }
    return done;
  };
  return (
    <form className="review-form" onSubmit={submit} data-testid="decision-form">
      <fieldset className="review-form__row">
        <legend className="field__label">Decision</legend>
        {offered.map((d) => (
          <label key={d}>
            <input type="radio" name="decision" value={d} checked={decision === d} onChange={() => setDecision(d)} /> {decisionLabel(d)}
          </label>
        ))}
        {withheld.length > 0 && (
          <span className="muted small" data-testid="decision-withheld">
            A {role} does not sign {withheld.map(decisionLabel).join(' or ')}.
          </span>
        )}
      </fieldset>
      <ReasonField name="reason" value={reason} onChange={setReason} />
      <div className="review-form__row">
        <button type="submit" className="button button--primary" disabled={busy || decision === null}>
          {busy ? 'Saving…' : signs ? 'Sign decision…' : 'Save decision'}
        </button>
      </div>
      {signing && decision !== null ? (
        <SignatureDialog meaning={MEANING[decision]} action="decide" onSign={sign} onCancel={() => setSigning(false)} />
      ) : (
        <Outcome action="decide" />
      )}
    </form>
  );
}

function AcknowledgeForm({ level }: { level: number }) {
  const busy = useReview((s) => s.busy === 'acknowledge');
  const [note, setNote] = useState('');
  const [signing, setSigning] = useState(false);
  const signs = useConnection((s) => s.session?.person !== undefined);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (signs) setSigning(true);
    else if (await stores.review.getState().acknowledge(note)) setNote('');
  };
  const sign = async (password: string) => {
    const done = await stores.review.getState().acknowledge(note, { password, zone: signerZone() });
    if (done) setNote('');
    return done;
  };
  return (
    <form className="review-form" onSubmit={submit} data-testid="acknowledge-form">
      <label className="field">
        <span className="field__label">Note (optional)</span>
        <input name="note" value={note} onChange={(e) => setNote(e.target.value)} />
      </label>
      <div className="review-form__row">
        <button type="submit" className="button" disabled={busy}>
          Acknowledge the {alertLevelInfo(level).label.toLowerCase()} alert
        </button>
      </div>
      {signing ? (
        <SignatureDialog meaning={MEANING.acknowledge} action="acknowledge" onSign={sign} onCancel={() => setSigning(false)} />
      ) : (
        <Outcome action="acknowledge" />
      )}
    </form>
  );
}

function CommentForm() {
  const busy = useReview((s) => s.busy === 'comment');
  const [text, setText] = useState('');
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (await stores.review.getState().comment(text)) setText('');
  };
  return (
    <form className="review-form" onSubmit={submit} data-testid="comment-form">
      <label className="field">
        <span className="field__label">Add a comment</span>
        <textarea name="comment" value={text} onChange={(e) => setText(e.target.value)} />
      </label>
      <div className="review-form__row">
        <button type="submit" className="button" disabled={busy}>
          {busy ? 'Adding…' : 'Add comment'}
        </button>
      </div>
      <Outcome action="comment" />
    </form>
  );
}

export function ReviewPanel({ report, rights }: { report: LabelReport; rights: ReviewRights }) {
  const review = useReview((s) => s.review);
  const error = useReview((s) => s.error);
  const zone = useTimeZone();
  const alertLevel = report.alert.level;
  return (
    <section className="panel" aria-labelledby="review-title" data-testid="review-panel">
      <h3 id="review-title">Review and release</h3>
      {!review ? (
        <p className="muted">{error ?? 'Loading…'}</p>
      ) : (
        <>
          <dl className="review-state">
            <dt>Decision</dt>
            <dd data-testid="review-decision">
              {review.decision ? (
                <>
                  <span className={`decision decision--${review.decision.decision}`}>{decisionLabel(review.decision.decision)}</span> —{' '}
                  {review.decision.reason} <ByLine author={review.decision.by} at={review.decision.at} zone={zone} signed={review.decision} />
                </>
              ) : review.withdrawal ? (
                <span data-testid="review-withdrawal">
                  <span className="decision decision--withdrawn">Withdrawn</span> — {review.withdrawal.text}.{' '}
                  <strong>A new decision is needed.</strong> <ByLine author={review.withdrawal.by} at={review.withdrawal.at} zone={zone} />
                </span>
              ) : (
                'None yet.'
              )}
            </dd>
            <dt>Alert</dt>
            <dd data-testid="review-acknowledgement">
              {review.acknowledgement ? (
                <>
                  {alertLevelInfo(review.acknowledgement.alert.level).label} alert acknowledged
                  {review.acknowledgement.note ? `: ${review.acknowledgement.note}` : ''}{' '}
                  <ByLine author={review.acknowledgement.by} at={review.acknowledgement.at} zone={zone} signed={review.acknowledgement} />
                  {review.acknowledgement.alert.level !== alertLevel && <strong> The alert has changed since.</strong>}
                </>
              ) : alertLevel > 0 ? (
                'Not acknowledged.'
              ) : (
                'No alert to acknowledge.'
              )}
            </dd>
          </dl>
          {rights.decideReason && <p className="note">{rights.decideReason}</p>}
          {rights.canDecide && alertLevel > 0 && <AcknowledgeForm level={alertLevel} />}
          {rights.canDecide && <DecisionForm />}
          <h4>Comments ({review.comments.length})</h4>
          {review.comments.length === 0 ? (
            <p className="muted">No comments yet.</p>
          ) : (
            <ul className="comment-list" data-testid="comment-list">
              {review.comments.map((c) => (
                <li key={c.id}>
                  <ByLine author={c.author} at={c.at} zone={zone} />
                  <p className="comment__text">{c.text}</p>
                </li>
              ))}
            </ul>
          )}
          {rights.canComment && <CommentForm />}
        </>
      )}
    </section>
  );
}
