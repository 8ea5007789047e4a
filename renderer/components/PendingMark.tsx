/**
 * "Not yet sent": a report edited on this computer whose edit the remote has not received yet
 * (it waits in the sync outbox). Shown in the report's table row and in its detail header.
 */
import { useSync } from '../state/stores';
import './sync.css';

export function PendingMark({ id, compact = false }: { id: string; compact?: boolean }) {
  const pending = useSync((s) => s.pendingIds.has(id));
  if (!pending) return null;
  return (
    <span
      className={`pending-mark${compact ? ' pending-mark--compact' : ''}`}
      data-testid="pending-mark"
      title="Edited on this computer; the remote has not received the edit yet. It is sent when the remote can be reached."
    >
      {compact ? 'Not sent' : 'Not yet sent'}
    </span>
  );
}
