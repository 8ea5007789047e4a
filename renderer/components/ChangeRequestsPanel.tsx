/**
 * The report's changes awaiting a signature (docs/review-and-audit.md#signed-verdict-changes):
 * each with what it changes, what it does to the alert, its reason and who asked. A person whose
 * role may release approves one with their password (never their own: under four eyes the
 * service refuses it, and without four eyes they signed it when they asked) or declines it; the
 * person who asked may withdraw theirs.
 */
import { useEffect, useState } from 'react';
import type { FormEvent } from 'react';
import { changeRequestsClient, type ChangeRequestView } from '../api/change-requests-client';
import type { LabelReport } from '../../schema/report';
import { patchWords } from '../lib/change-words';
import { alertLevelInfo } from '../lib/format';
import { personText } from '../lib/history-text';
import { plainApiError } from '../lib/plain-words';
import { signerZone } from '../lib/signer-zone';
import { formatIsoTime } from '../lib/time-zone';
import { stores, useConnection, useDetail } from '../state/stores';
import { useTimeZone } from '../state/time-zone';

const MAY_RELEASE = new Set(['approver', 'admin']);

function asker(request: ChangeRequestView): string {
  const by = request.requestedBy;
  if (by.person) return personText(by.person);
  return by.keyName ? `key “${by.keyName}” (a tool)` : 'a tool’s key';
}

function RequestItem({ request, onDone }: { request: ChangeRequestView; onDone: () => void }) {
  const client = useConnection((s) => s.client);
  const person = useConnection((s) => s.session?.person);
  const zone = useTimeZone();
  const [signing, setSigning] = useState(false);
  const [password, setPassword] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const own = person !== undefined && request.requestedBy.person?.id === person.id;
  const mayApprove = person !== undefined && MAY_RELEASE.has(person.role) && !own;
  const mayDecline = person !== undefined && (MAY_RELEASE.has(person.role) || own);
  const run = async (work: () => Promise<unknown>) => {
    if (!client) return;
    setBusy(true);
    setProblem(null);
    try {
      await work();
      onDone();
    } catch (err) {
      setProblem(plainApiError(err, 'act on this change request'));
    } finally {
      setBusy(false);
      setPassword('');
    }
  };
  const approve = (e: FormEvent) => {
    e.preventDefault();
    if (password === '' || !client) return;
    void run(async () => {
      await changeRequestsClient(client).approve(request.reportId, request.id, { password, zone: signerZone() });
      await stores.detail.getState().reloadChanged();
    });
  };
  return (
    <li className="change-request" data-testid="change-request">
      <p>
        <strong>{request.meaning}</strong>: {patchWords(request.patch, zone)}. The alert goes from {alertLevelInfo(request.alertBefore).label} to{' '}
        {alertLevelInfo(request.alertAfter).label}.
      </p>
      <p className="small">
        Reason: {request.reason} — asked by {asker(request)}, {formatIsoTime(request.requestedAt, zone)}
      </p>
      {signing ? (
        <form className="form-row" onSubmit={approve} data-testid="change-request-sign">
          <label className="field">
            <span className="field__label">Your password, to sign “{request.meaning}”</span>
            <input name="approval-password" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} autoFocus required />
          </label>
          <button type="submit" className="button button--primary" disabled={busy || password === ''}>
            {busy ? 'Signing…' : 'Sign and make the change'}
          </button>
          <button type="button" className="button" onClick={() => setSigning(false)}>
            Cancel
          </button>
        </form>
      ) : (
        <div className="review-form__row">
          {mayApprove && (
            <button type="button" className="button button--primary" onClick={() => setSigning(true)}>
              Approve and sign…
            </button>
          )}
          {mayDecline && (
            <button type="button" className="button" disabled={busy} onClick={() => void run(() => changeRequestsClient(client!).decline(request.reportId, request.id, {}))}>
              {own ? 'Withdraw my request' : 'Decline'}
            </button>
          )}
          {!mayApprove && !own && <span className="small muted">A person whose role may release approves it.</span>}
          {own && <span className="small muted">Waiting for another person’s signature.</span>}
        </div>
      )}
      {problem && (
        <p className="save-message save-message--error" role="alert" data-testid="change-request-problem">
          {problem}
        </p>
      )}
    </li>
  );
}

export function ChangeRequestsPanel({ report }: { report: LabelReport }) {
  const client = useConnection((s) => s.client);
  const version = useDetail((s) => s.changeRequestsVersion);
  const [requests, setRequests] = useState<ChangeRequestView[]>([]);
  useEffect(() => {
    if (!client) return;
    const controller = new AbortController();
    changeRequestsClient(client)
      .forReport(report.id, controller.signal)
      .then((all) => setRequests(all.filter((r) => r.state === 'pending')))
      .catch(() => {
        // The panel shows nothing it could not read; the report itself still shows.
        if (!controller.signal.aborted) setRequests([]);
      });
    return () => controller.abort();
  }, [client, report.id, report.updated, version]);
  if (requests.length === 0) return null;
  return (
    <section className="panel" aria-labelledby="change-requests-title" data-testid="change-requests">
      <h3 id="change-requests-title">Changes awaiting a signature</h3>
      <ul className="change-requests">
        {requests.map((request) => (
          <RequestItem key={request.id} request={request} onDone={() => stores.detail.getState().changeRequestsMoved()} />
        ))}
      </ul>
    </section>
  );
}
