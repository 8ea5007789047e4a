/**
 * One report in full, beside the list: the shipment it travelled in, what happened (chart, the alert explained with each
 * excursion, figures), what the label was (facts), the company's review and release decision,
 * the bookkeeping this company may do on it, and the history of every change. Editors are keyed
 * on the report's `updated` so their forms start again from the server's values after every save.
 * Printing the app prints this panel alone (print.css); its Print certificate prints the
 * release certificate (components/Certificate.tsx) in its place.
 */
import { useMemo, useRef, useState } from 'react';
import type { LabelReport } from '../../schema/report';
import { roleLabel, statusLabel } from '../lib/format';
import { editRights, lockNotices, reviewRights } from '../lib/permissions';
import type { TimeRange } from '../lib/report-view';
import { stores, useCatalogue, useConnection, useDetail, useReview } from '../state/stores';
import { useTimeZone } from '../state/time-zone';
import { AccessPanel } from './AccessPanel';
import { AlertRulesEditor } from './AlertRulesEditor';
import { AlertsPanel } from './AlertsPanel';
import { AlertBadge } from './AlertBadge';
import { BookkeepingEditor } from './BookkeepingEditor';
import { CustomFieldsEditor } from './CustomFieldsEditor';
import { ErrorBanner } from './ErrorBanner';
import { FactsPanel } from './FactsPanel';
import { FiguresPanel } from './FiguresPanel';
import { FlagArchiveToggles } from './FlagArchiveToggles';
import { HistoryPanel } from './HistoryPanel';
import { ChangeReasonDialog } from './ChangeReasonDialog';
import { ChangeRequestsPanel } from './ChangeRequestsPanel';
import { LimitsEditor } from './LimitsEditor';
import { PendingMark } from './PendingMark';
import { PrintedLimits } from './PrintView';
import { ReleaseCertificate } from './Certificate';
import type { Certificate } from '../../schema/certificate';
import { ReadingsTable } from './ReadingsTable';
import { ReportChart } from './ReportChart';
import { ReportOutput } from './ReportOutput';
import { ReviewPanel } from './ReviewPanel';
import { ReadOnlyReason, SaveMessage } from './SaveMessage';
import { ShipmentLink } from './ShipmentLink';
import { TrimEditor } from './TrimEditor';
import './print.css';

function DetailBody({ report }: { report: LabelReport }) {
  const session = useConnection((s) => s.session);
  const [viewRange, setViewRange] = useState<TimeRange | null>(null);
  const companies = useCatalogue((s) => s.companies);
  const companyNames = useMemo(() => new Map(companies.map((c) => [c.id, c.name])), [companies]);
  const history = useReview((s) => s.history);
  const reviewError = useReview((s) => s.error);
  const zone = useTimeZone();
  const alerts = useReview((s) => s.alerts);
  const review = useReview((s) => s.review);
  const [certificate, setCertificate] = useState<Certificate | null>(null);
  const printedRef = useRef<Certificate | null>(null);
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
          <ShipmentLink reportId={report.id} version={version} />
        </div>
        <AlertBadge level={report.alert.level} large />
        <PendingMark id={report.id} />
        <FlagArchiveToggles report={report} rights={rights} />
        <ReportOutput reportId={report.id} onCertificate={setCertificate} />
      </header>
      {notices.flags && <ReadOnlyReason reason={notices.flags} testId="detail-locked" />}
      <SaveMessage section="flags" />
      <ReportChart report={report} onViewRange={setViewRange} />
      <ReadingsTable report={report} />
      <AlertsPanel />
      <div className="detail__columns">
        <FiguresPanel report={report} />
        <FactsPanel report={report} companyId={session.companyId} companyNames={companyNames} />
      </div>
      <ReviewPanel report={report} rights={reviewRights(report, session)} />
      <ChangeRequestsPanel report={report} />
      <PrintedLimits limits={report.senseConfig.limits} />
      <h3 className="section-title">Edit</h3>
      <ChangeReasonDialog />
      <LimitsEditor key={`limits:${version}`} report={report} rights={rights} notice={notices.limits} />
      <AlertRulesEditor key={`rules:${version}`} report={report} rights={rights} />
      <BookkeepingEditor key={`book:${version}`} report={report} rights={rights} notice={notices.bookkeeping} />
      <CustomFieldsEditor key={`cf:${version}`} report={report} rights={rights} notice={notices.customFields} />
      <TrimEditor key={`trim:${version}`} report={report} rights={rights} viewRange={viewRange} notice={notices.trim} />
      <HistoryPanel entries={history} error={reviewError} zone={zone} companyNames={companyNames} />
      <AccessPanel reportId={report.id} />
      {certificate && alerts && review && history && (
        // Off screen until printed: the chart needs a size to be drawn, and the print waits for it.
        <div className="certificate-print print-view" key={certificate.checksum + certificate.issuedAt}>
          <ReleaseCertificate
            data={{ report, alerts, review, history, companyNames, companyId: session.companyId, printedFor: session.companyName }}
            certificate={certificate}
            zone={zone}
            onDrawn={() => {
              // Once per certificate: the chart draws again for the paper, and each draw says so.
              if (printedRef.current === certificate) return;
              printedRef.current = certificate;
              window.print();
            }}
          />
        </div>
      )}
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
      {/* Beside the Close button, never under it: its Try again stays in reach. */}
      {error && (
        <div className="detail__banner">
          <ErrorBanner message={error} onRetry={() => void stores.detail.getState().reload()} />
        </div>
      )}
      {loading && !report && <p className="table-message">Loading report…</p>}
      {report && <DetailBody key={report.id} report={report} />}
    </aside>
  );
}
