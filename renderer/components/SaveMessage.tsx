/** The result of the last save of one detail section, in words, next to that section's form. */
import type { EditSection } from '../state/detail';
import { useDetail } from '../state/stores';

export function SaveMessage({ section }: { section: EditSection }) {
  const outcome = useDetail((s) => (s.outcome?.section === section ? s.outcome : null));
  if (!outcome) return null;
  return (
    <p className={outcome.ok ? 'save-message save-message--ok' : 'save-message save-message--error'} role={outcome.ok ? 'status' : 'alert'} data-testid={`save-${section}`}>
      {outcome.message}
    </p>
  );
}

/** A problem found before sending (a zod refusal), in words; nothing when there is none. */
export function ProblemMessage({ problem }: { problem: string | null | undefined }) {
  if (!problem) return null;
  return (
    <p className="save-message save-message--error" role="alert">
      {problem}
    </p>
  );
}

/** A sentence saying why a section cannot be changed. */
export function ReadOnlyReason({ reason, testId }: { reason: string; testId?: string }) {
  return (
    <p className="note note--locked" data-testid={testId}>
      <strong>Read only: </strong>
      {reason}
    </p>
  );
}
