/**
 * One report in full, beside the list: what happened (chart and figures), what the label was
 * (facts), and the bookkeeping this company may do on it. Editors are keyed on the report's
 * `updated` so their forms start again from the server's values after every save.
 */
import { useState } from 'react';
import type { LabelReport } from '../../schema/report';
import { roleLabel, statusLabel } from '../lib/format';
import { editRights, lockNotices } from '../lib/permissions';
import type { TimeRange } from '../lib/report-view';
import { stores, useConnection, useDetail } from '../state/stores';
import { AlertBadge } from './AlertBadge';
import { BookkeepingEditor } from './BookkeepingEditor';
import { CustomFieldsEditor } from './CustomFieldsEditor';
import { ErrorBanner } from './ErrorBanner';
import { FactsPanel } from './FactsPanel';
import { FiguresPanel } from './FiguresPanel';
import { FlagArchiveToggles } from './FlagArchiveToggles';
import { LimitsEditor } from './LimitsEditor';
import { PendingMark } from './PendingMark';
import { ReportChart } from './ReportChart';
import { ReadOnlyReason, SaveMessage } from './SaveMessage';
import { TrimEditor } from './TrimEditor';

const NO_NAMES: ReadonlyMap<string, string> = new Map();

function DetailBody({ report }: { report: LabelReport }) {
  const session = useConnection((s) => s.session);
  const [viewRange, setViewRange] = useState<TimeRange | null>(null);
  if (!session) return null;
  const rights = editRights(report, session);
  const notices = lockNotices(rights);
  const version = `${report.id}:${report.updated}`;
  return (
    <>
      <header className="detail__header">
        <div className="detail__title">
          <h2 id="detail-title">{report.labelReference || <span className="muted">No reference</span>}</h2>
          <p className="detail__subtitle">
            Label {report.label.sequenceCode} · {statusLabel(report.status)} · {report.company.name}
            {rights.role && <> · you are {rights.role === 'owner' ? 'the owner' : `${rights.role === 'editor' ? 'an' : 'a'} ${roleLabel(rights.role).toLowerCase()}`}</>}
          </p>
        </div>
        <AlertBadge level={report.alert.level} large />
        <PendingMark id={report.id} />
        <FlagArchiveToggles report={report} rights={rights} />
      </header>
      {notices.flags && <ReadOnlyReason reason={notices.flags} testId="detail-locked" />}
      <SaveMessage section="flags" />
      <ReportChart report={report} onViewRange={setViewRange} />
      <div className="detail__columns">
        <FiguresPanel report={report} />
        <FactsPanel report={report} companyId={session.companyId} companyNames={NO_NAMES} />
      </div>
      <h3 className="section-title">Edit</h3>
      <LimitsEditor key={`limits:${version}`} report={report} rights={rights} notice={notices.limits} />
      <BookkeepingEditor key={`book:${version}`} report={report} rights={rights} notice={notices.bookkeeping} />
      <CustomFieldsEditor key={`cf:${version}`} report={report} rights={rights} notice={notices.customFields} />
      <TrimEditor key={`trim:${version}`} report={report} rights={rights} viewRange={viewRange} notice={notices.trim} />
    </>
  );
}

export function ReportDetail() {
  const report = useDetail((s) => s.report);
  const loading = useDetail((s) => s.loading);
  const error = useDetail((s) => s.error);
  return (
    <aside className="detail" aria-labelledby="detail-title" data-testid="report-detail">
      <button type="button" className="button button--quiet detail__close" onClick={() => stores.detail.getState().close()} title="Close (Esc)">
        Close ✕
      </button>
      {error && <ErrorBanner message={error} onRetry={() => void stores.detail.getState().reload()} />}
      {loading && !report && <p className="table-message">Loading report…</p>}
      {report && <DetailBody key={report.id} report={report} />}
    </aside>
  );
}
