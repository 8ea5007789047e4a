/**
 * Where a mirrored report's figures come from, so that a reviewer knows which figures she
 * signs: the remote's own calculation, or this computer's after a local edit of limits, trim or
 * alert rules, until the remote answers. A report only this computer holds says nothing.
 */
import { useEffect } from 'react';
import type { LabelReport } from '../../schema/report';
import { stores, useSync } from '../state/stores';

export function FiguresSource({ report }: { report: Pick<LabelReport, 'id' | 'updated'> }) {
  const state = useSync((s) => s.reportStates.get(report.id));
  // Read again when the report changes, and when its edit leaves the outbox: the remote has
  // answered it then, whether or not the answer changed what this panel shows.
  const waiting = useSync((s) => s.pendingIds.has(report.id));
  useEffect(() => {
    void stores.sync.getState().readReportState(report.id);
  }, [report.id, report.updated, waiting]);
  if (!state?.mirrored) return null;
  return state.figures === 'remote' ? (
    <p className="note" data-testid="figures-source" data-source="remote">
      Calculated by the remote, as it shows them.
    </p>
  ) : (
    <p className="note" data-testid="figures-source" data-source="local-edit" title="They become the remote’s once it has received the edit and answered.">
      Recalculated here after your edit, waiting for the remote.
    </p>
  );
}
