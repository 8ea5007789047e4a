/** Status and the company's own reference (shipment or order number): owner and editors. */
import { useState } from 'react';
import type { FormEvent } from 'react';
import { STATUSES } from '../../schema/report';
import type { LabelReport, LabelReportPatch, Status } from '../../schema/report';
import { statusLabel } from '../lib/format';
import type { EditRights } from '../lib/permissions';
import { stores, useDetail } from '../state/stores';
import { ReadOnlyReason, SaveMessage } from './SaveMessage';

export function BookkeepingEditor({ report, rights, notice }: { report: LabelReport; rights: EditRights; notice: string | null }) {
  const saving = useDetail((s) => s.saving === 'bookkeeping');
  const [status, setStatus] = useState<Status>(report.status);
  const [reference, setReference] = useState(report.labelReference);
  const setProblem = (message: string | null) => stores.detail.getState().refuse('bookkeeping', message);
  const locked = !rights.canEditBookkeeping;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const patch: LabelReportPatch = {};
    if (status !== report.status) patch.status = status;
    if (reference !== report.labelReference) patch.labelReference = reference;
    if (Object.keys(patch).length === 0) {
      setProblem('Nothing changed.');
      return;
    }
    setProblem(null);
    await stores.detail.getState().save('bookkeeping', patch);
  };

  return (
    <section className="panel" aria-labelledby="bookkeeping-title">
      <h3 id="bookkeeping-title">Status and reference</h3>
      <form className="form-row" onSubmit={submit} data-testid="bookkeeping-form">
        <label className="field">
          <span className="field__label">Status</span>
          <select name="status" value={status} disabled={locked} onChange={(e) => setStatus(e.target.value as Status)}>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {statusLabel(s)}
              </option>
            ))}
          </select>
        </label>
        <label className="field field--grow">
          <span className="field__label">Reference</span>
          <input name="labelReference" value={reference} maxLength={1000} disabled={locked} onChange={(e) => setReference(e.target.value)} />
        </label>
        {!locked && (
          <button type="submit" className="button button--primary" disabled={saving}>
            {saving ? 'Saving…' : 'Save'}
          </button>
        )}
      </form>
      {locked && notice && <ReadOnlyReason reason={notice} />}
      <SaveMessage section="bookkeeping" />
    </section>
  );
}
