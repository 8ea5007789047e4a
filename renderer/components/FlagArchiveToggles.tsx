/**
 * Flag and Archive as switches: each shows its state in words ("On"/"Off") and in its shape,
 * with aria-pressed for assistive technology, so the button never has to be read as an action
 * and a state at once. Both are this company's own marks on the report.
 */
import type { LabelReport } from '../../schema/report';
import type { EditRights } from '../lib/permissions';
import type { Ref } from 'react';
import { stores, useDetail, useReview } from '../state/stores';
import { ConfirmAction } from './ConfirmAction';

function Switch({
  label,
  on,
  disabled,
  onToggle,
  testId,
  buttonRef,
}: {
  label: string;
  on: boolean;
  disabled: boolean;
  onToggle(): void;
  testId: string;
  buttonRef?: Ref<HTMLButtonElement>;
}) {
  return (
    <button type="button" className="switch" aria-pressed={on} disabled={disabled} onClick={onToggle} data-testid={testId} ref={buttonRef}>
      <span className="switch__track" aria-hidden="true" />
      {label}
      <span className="switch__state" aria-hidden="true">
        {on ? 'On' : 'Off'}
      </span>
    </button>
  );
}

export function FlagArchiveToggles({ report, rights }: { report: LabelReport; rights: EditRights }) {
  const saving = useDetail((s) => s.saving === 'flags');
  const disabled = saving || !rights.canFlagArchive;
  const save = stores.detail.getState().save;
  // Until the review has loaded, nothing says a decision stands: ask rather than archive unseen.
  const decided = useReview((s) => s.reportId === report.id && s.review?.decision != null);
  const archive = () => save('flags', { isArchived: !report.isArchived });
  // Archiving puts a report out of the list: one with an alert nobody decided on would be easy to lose.
  const asks = !report.isArchived && report.alert.level >= 1 && !decided;
  return (
    <div className="detail__actions" role="group" aria-label="Your company's marks">
      <Switch label="Flagged" on={report.hasFlag} disabled={disabled} onToggle={() => void save('flags', { hasFlag: !report.hasFlag })} testId="toggle-flag" />
      {asks ? (
        <ConfirmAction
          label="Archived"
          question="This report has an alert and no release decision yet. Archive it anyway?"
          confirmLabel="Archive"
          busy={saving}
          onConfirm={archive}
          trigger={({ ref, onClick }) => (
            <Switch label="Archived" on={false} disabled={disabled} onToggle={onClick} testId="toggle-archive" buttonRef={ref} />
          )}
        />
      ) : (
        <Switch label="Archived" on={report.isArchived} disabled={disabled} onToggle={() => void archive()} testId="toggle-archive" />
      )}
    </div>
  );
}
