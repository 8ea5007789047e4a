/**
 * Flag and Archive as switches: each shows its state in words ("On"/"Off") and in its shape,
 * with aria-pressed for assistive technology, so the button never has to be read as an action
 * and a state at once. Both are this company's own marks on the report.
 */
import type { LabelReport } from '../../schema/report';
import type { EditRights } from '../lib/permissions';
import { stores, useDetail } from '../state/stores';

function Switch({ label, on, disabled, onToggle, testId }: { label: string; on: boolean; disabled: boolean; onToggle(): void; testId: string }) {
  return (
    <button type="button" className="switch" aria-pressed={on} disabled={disabled} onClick={onToggle} data-testid={testId}>
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
  return (
    <div className="detail__actions" role="group" aria-label="Your company's marks">
      <Switch label="Flagged" on={report.hasFlag} disabled={disabled} onToggle={() => void save('flags', { hasFlag: !report.hasFlag })} testId="toggle-flag" />
      <Switch
        label="Archived"
        on={report.isArchived}
        disabled={disabled}
        onToggle={() => void save('flags', { isArchived: !report.isArchived })}
        testId="toggle-archive"
      />
    </div>
  );
}
