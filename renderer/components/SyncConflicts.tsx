/**
 * What sync could not settle alone. Conflicts: a field changed here and on the remote before the
 * edit was sent; the value before both, this computer's and the remote's stand side by side, and
 * the remote's is in force until someone decides. A report the remote no longer shows takes the
 * unsent edit with it, which is said in words. Refused edits: what the remote answered, with
 * Retry (after fixing the cause there) and Discard. Reports refused from the remote: what it
 * sent that this computer did not take, and why.
 */
import type { DeadLetter, SyncConflict } from '../api/sync-client';
import { formatIsoTime } from '../lib/time-zone';
import { useTimeZone } from '../state/time-zone';
import { deadLetterReason, fieldsText, fieldText, valueText } from '../lib/sync-text';
import { stores, useSync } from '../state/stores';
import { ConfirmAction } from './ConfirmAction';
import { ErrorBanner } from './ErrorBanner';
import './sync.css';

function openReport(id: string) {
  stores.ui.getState().setView('reports');
  stores.openReport(id);
}

function ReportLink({ id }: { id: string }) {
  return (
    <button type="button" className="link-button" onClick={() => openReport(id)} title="Open this report">
      <code>{id}</code>
    </button>
  );
}

function FieldConflict({ conflict, canManage }: { conflict: SyncConflict; canManage: boolean }) {
  const zone = useTimeZone();
  const acting = useSync((s) => s.acting === conflict.id);
  const resolve = (keep: 'local' | 'remote') => void stores.sync.getState().resolveConflict(conflict.id, keep);
  return (
    <li className="sync-conflict" data-testid={`conflict-${conflict.id}`}>
      <p className="sync-conflict__head">
        <strong>{fieldText(conflict.field)}</strong> of report <ReportLink id={conflict.labelReportId} />{' '}
        <span className="muted small">(seen {formatIsoTime(conflict.at, zone)})</span>
      </p>
      <div className="sync-conflict__values" role="group" aria-label={`${fieldText(conflict.field)}: values`}>
        <div className="sync-value">
          <span className="sync-value__label">Before both edits</span>
          <span className="sync-value__value" data-testid="conflict-base">
            {valueText(conflict.field, conflict.base)}
          </span>
        </div>
        <div className="sync-value sync-value--mine">
          <span className="sync-value__label">Mine (this computer)</span>
          <span className="sync-value__value" data-testid="conflict-local">
            {valueText(conflict.field, conflict.local)}
          </span>
        </div>
        <div className="sync-value sync-value--theirs">
          <span className="sync-value__label">Theirs (the remote, in force now)</span>
          <span className="sync-value__value" data-testid="conflict-remote">
            {valueText(conflict.field, conflict.remote)}
          </span>
        </div>
      </div>
      {canManage && (
        <div className="sync-conflict__actions">
          <button type="button" className="button button--small" disabled={acting} onClick={() => resolve('local')}>
            Keep mine
          </button>
          <button type="button" className="button button--small" disabled={acting} onClick={() => resolve('remote')}>
            Keep theirs
          </button>
        </div>
      )}
    </li>
  );
}

function GoneConflict({ conflict, canManage }: { conflict: SyncConflict; canManage: boolean }) {
  const zone = useTimeZone();
  const acting = useSync((s) => s.acting === conflict.id);
  return (
    <li className="sync-conflict sync-conflict--gone" data-testid={`conflict-${conflict.id}`}>
      <p className="sync-conflict__head">
        <strong>Report <code>{conflict.labelReportId}</code> is no longer shared with this company.</strong>{' '}
        <span className="muted small">(seen {formatIsoTime(conflict.at, zone)})</span>
      </p>
      <p data-testid="conflict-gone-text">
        The remote deleted it or withdrew this company’s access, so it has been removed from this computer. The change made here to{' '}
        <strong>{fieldText(conflict.field)}</strong> ({valueText(conflict.field, conflict.base)} → {valueText(conflict.field, conflict.local)}) was never sent
        and cannot be: note it elsewhere if it still matters, then dismiss it.
      </p>
      {canManage && (
        <div className="sync-conflict__actions">
          <button type="button" className="button button--small" disabled={acting} onClick={() => void stores.sync.getState().resolveConflict(conflict.id, 'remote')}>
            Dismiss my change
          </button>
        </div>
      )}
    </li>
  );
}

function DeadLetterRow({ letter, canManage }: { letter: DeadLetter; canManage: boolean }) {
  const zone = useTimeZone();
  const acting = useSync((s) => s.acting === letter.id);
  return (
    <tr data-testid={`dead-letter-${letter.id}`}>
      <td>
        <ReportLink id={letter.labelReportId} />
      </td>
      <td>{fieldsText(letter.fields)}</td>
      <td>
        <span data-testid="dead-letter-reason">{deadLetterReason(letter)}</span>
        <br />
        <span className="muted small">
          The remote said: “{letter.message}” (HTTP {letter.status})
        </span>
      </td>
      <td>{formatIsoTime(letter.at, zone)}</td>
      <td className="actions">
        {canManage && (
          <>
            <button type="button" className="button button--small" disabled={acting} onClick={() => void stores.sync.getState().actOnDeadLetter(letter.id, 'retry')}>
              Retry
            </button>
            <ConfirmAction
              label="Discard…"
              question="Discard this edit? The remote’s values stay."
              confirmLabel="Yes, discard"
              busy={acting}
              onConfirm={() => stores.sync.getState().actOnDeadLetter(letter.id, 'discard')}
            />
          </>
        )}
      </td>
    </tr>
  );
}

export function SyncConflicts({ canManage }: { canManage: boolean }) {
  const zone = useTimeZone();
  const conflicts = useSync((s) => s.conflicts);
  const deadLetters = useSync((s) => s.deadLetters);
  const refused = useSync((s) => s.refused);
  const listsError = useSync((s) => s.listsError);
  const actionError = useSync((s) => s.actionError);
  return (
    <>
      {listsError && <ErrorBanner message={listsError} />}
      {actionError && <ErrorBanner message={actionError} onDismiss={() => stores.sync.setState({ actionError: null })} />}
      <div className="sync-list" data-testid="sync-conflicts">
        <h4>Conflicts</h4>
        {conflicts === null && !listsError && <p className="muted">Loading…</p>}
        {conflicts?.length === 0 && <p className="muted">No conflicts.</p>}
        {conflicts && conflicts.length > 0 && (
          <>
            <p className="muted small">
              The same field was changed here and on the remote before the change was sent. The remote’s value is in force; choose which one to keep.
            </p>
            <ul className="sync-conflicts">
              {conflicts.map((c) =>
                c.kind === 'gone' ? <GoneConflict key={c.id} conflict={c} canManage={canManage} /> : <FieldConflict key={c.id} conflict={c} canManage={canManage} />,
              )}
            </ul>
          </>
        )}
      </div>
      <div className="sync-list" data-testid="sync-dead-letters">
        <h4>Edits the remote refused</h4>
        {deadLetters === null && !listsError && <p className="muted">Loading…</p>}
        {deadLetters?.length === 0 && <p className="muted">None.</p>}
        {deadLetters && deadLetters.length > 0 && (
          <div className="table-scroll">
            <table className="sync-dead-letters">
              <thead>
                <tr>
                  <th>Report</th>
                  <th>Fields</th>
                  <th>Why</th>
                  <th>When</th>
                  <th>
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {deadLetters.map((d) => (
                  <DeadLetterRow key={d.id} letter={d} canManage={canManage} />
                ))}
              </tbody>
            </table>
          </div>
        )}
      </div>
      <div className="sync-list" data-testid="sync-refused">
        <h4>Reports refused from the remote</h4>
        {refused === null && !listsError && <p className="muted">Loading…</p>}
        {refused?.length === 0 && <p className="muted">None.</p>}
        {refused && refused.length > 0 && (
          <>
            <p className="muted small">
              The remote sent these in a form this computer does not take, so they were left as they were here. Each is asked for again at the next full
              comparison with the remote; fix the cause there.
            </p>
            <div className="table-scroll">
              <table className="sync-refused">
                <thead>
                  <tr>
                    <th>Report</th>
                    <th>Why</th>
                    <th>When</th>
                  </tr>
                </thead>
                <tbody>
                  {refused.map((r) => (
                    <tr key={r.labelReportId} data-testid={`refused-${r.labelReportId}`}>
                      <td>
                        <code>{r.labelReportId}</code>
                      </td>
                      <td>{r.reason}</td>
                      <td>{formatIsoTime(r.at, zone)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </>
        )}
      </div>
    </>
  );
}
