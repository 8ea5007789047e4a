/**
 * One report in full, beside the list: what happened (chart and figures), what the label was
 * (facts), and the bookkeeping this company may do on it. Editors are keyed on the report's
 * `updated` so their forms start again from the server's values after every save.
 */
import { useState } from 'react';
import type { LabelReport } from '../../schema/report';
import { roleLabel, statusLabel } from '../lib/format';
import { editRights } from '../lib/permissions';
import type { EditRights } from '../lib/permissions';
import type { TimeRange } from '../lib/report-view';
import { stores, useConnection, useDetail } from '../state/stores';
import { AlertBadge } from './AlertBadge';
import { BookkeepingEditor } from './BookkeepingEditor';
import { CustomFieldsEditor } from './CustomFieldsEditor';
import { ErrorBanner } from './ErrorBanner';
import { FactsPanel } from './FactsPanel';
import { FiguresPanel } from './FiguresPanel';
import { LimitsEditor } from './LimitsEditor';
import { ReportChart } from './ReportChart';
import { SaveMessage } from './SaveMessage';
import { TrimEditor } from './TrimEditor';

function FlagArchiveButtons({ report, rights }: { report: LabelReport; rights: EditRights }) {
  const saving = useDetail((s) => s.saving === 'flags');
  const disabled = saving || !rights.canFlagArchive;
  const title = rights.flagReason ?? undefined;
  return (
    <div className="detail__actions">
      <button
        type="button"
        className={`button toggle${report.hasFlag ? ' is-on' : ''}`}
        aria-pressed={report.hasFlag}
        disabled={disabled}
        title={title}
        onClick={() => void stores.detail.getState().save('flags', { hasFlag: !report.hasFlag })}
        data-testid="toggle-flag"
      >
        {report.hasFlag ? '⚑ Flagged' : 'Flag'}
      </button>
      <button
        type="button"
        className={`button toggle${report.isArchived ? ' is-on' : ''}`}
        aria-pressed={report.isArchived}
        disabled={disabled}
        title={title}
        onClick={() => void stores.detail.getState().save('flags', { isArchived: !report.isArchived })}
        data-testid="toggle-archive"
      >
        {report.isArchived ? 'Archived' : 'Archive'}
      </button>
    </div>
  );
}

function DetailBody({ report }: { report: LabelReport }) {
  const session = useConnection((s) => s.session);
  const [viewRange, setViewRange] = useState<TimeRange | null>(null);
  if (!session) return null;
  const rights = editRights(report, session);
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
        <FlagArchiveButtons report={report} rights={rights} />
      </header>
      {rights.flagReason && <p className="note">{rights.flagReason}</p>}
      <SaveMessage section="flags" />
      <ReportChart report={report} onViewRange={setViewRange} />
      <div className="detail__columns">
        <FiguresPanel report={report} />
        <FactsPanel report={report} companyId={session.companyId} />
      </div>
      <h3 className="section-title">Edit</h3>
      <LimitsEditor key={`limits:${version}`} report={report} rights={rights} />
      <BookkeepingEditor key={`book:${version}`} report={report} rights={rights} />
      <CustomFieldsEditor key={`cf:${version}`} report={report} rights={rights} />
      <TrimEditor key={`trim:${version}`} report={report} rights={rights} viewRange={viewRange} />
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
