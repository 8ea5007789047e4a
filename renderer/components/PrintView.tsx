/**
 * One report laid out for A4 paper and PDF (`/?view=print&report=<id>`): header, chart, figures,
 * limits and alert rules, excursions, trim, custom fields, the review with its decision and
 * comments, and the history. Once everything is loaded and the chart drawn it sets
 * data-print-ready="true" (the desktop app and `labeldesk report --pdf` wait for it); when the
 * report cannot be shown it says why in words and in data-print-error.
 */
import { useEffect, useState } from 'react';
import { PRINT_ERROR_ATTRIBUTE, PRINT_READY_ATTRIBUTE } from '../../contract/print-view';
import type { LabelReport } from '../../schema/report';
import type { AlertExplanation, HistoryEntry, Review } from '../../schema/review';
import type { Limits } from '../../schema/sense';
import { reviewClient } from '../api/review-client';
import { statusLabel } from '../lib/format';
import { limitsSentence } from '../lib/readings';
import { decisionLabel } from '../lib/history-text';
import { plainApiError } from '../lib/plain-words';
import { trimRange } from '../lib/report-view';
import { formatIsoTime, formatTime, zoneLabel } from '../lib/time-zone';
import { useStore } from 'zustand';
import type { ConnectionStore } from '../state/connection';
import { useTimeZone } from '../state/time-zone';
import { explanationInZone } from '../lib/zoned-text';
import { AlertBadge } from './AlertBadge';
import { AlertRules, TimeOutside } from './AlertRules';
import { ExcursionTable } from './ExcursionTable';
import { CustomFieldFacts, FactsPanel } from './FactsPanel';
import { FiguresPanel } from './FiguresPanel';
import { HistoryList } from './HistoryPanel';
import { ReportChart } from './ReportChart';
import { authorText } from './ReviewPanel';
import './report-panel.css';
import './print.css';

/**
 * The limits on paper when the app itself is printed: its limits editor is a form, which the
 * printout leaves out, so the values are said here in words (print.css shows this on paper only).
 */
export function PrintedLimits({ limits }: { limits: Limits }) {
  return (
    <section className="panel print-only" data-testid="printed-limits">
      <h3>Limits</h3>
      <p>{limitsSentence(limits)}</p>
    </section>
  );
}

interface PrintData {
  report: LabelReport;
  alerts: AlertExplanation;
  review: Review;
  history: HistoryEntry[];
  companyNames: ReadonlyMap<string, string>;
}

function PrintedReport({ data, connection, onDrawn }: { data: PrintData; connection: ConnectionStore; onDrawn(): void }) {
  const zone = useTimeZone();
  const session = useStore(connection, (s) => s.session);
  const { report, alerts, review, history, companyNames } = data;
  const limits = report.senseConfig.limits;
  const trim = trimRange(report);
  return (
    <>
      <header>
        <h1>{report.labelReference || 'Label report without a reference'}</h1>
        <p className="print-meta">
          Label {report.label.sequenceCode} ({report.label.uid}) · {statusLabel(report.status)} · owned by {report.company.name} · <AlertBadge level={report.alert.level} />
        </p>
        <p className="print-meta small">
          Printed {formatTime(Date.now() / 1000, zone)} for {session?.companyName ?? 'this company'} · all times in {zoneLabel(zone)} · report id {report.id}
        </p>
      </header>

      <h2>Readings</h2>
      <ReportChart report={report} print onDrawn={onDrawn} />

      <FiguresPanel report={report} />

      <h2>Limits and alert rules</h2>
      <p data-testid="print-limits">{limitsSentence(limits)}</p>
      <p>{explanationInZone(alerts.explanation, alerts.alert.timestamp, zone)}</p>
      <TimeOutside alerts={alerts} />
      <AlertRules alerts={alerts} zone={zone} />

      <h2>Excursions ({alerts.excursions.length})</h2>
      <ExcursionTable excursions={alerts.excursions} zone={zone} scroll={false} />

      <h2>Trim</h2>
      <p>{trim ? `Trimmed to ${formatTime(trim.start, zone, true)} – ${formatTime(trim.end, zone, true)}: the figures and the alert are for this range.` : 'Not trimmed: the whole run counts.'}</p>

      <h2>Custom fields</h2>
      <CustomFieldFacts report={report} />

      <h2>Review</h2>
      <dl className="review-state">
        <dt>Decision</dt>
        <dd data-testid="print-decision">
          {review.decision
            ? `${decisionLabel(review.decision.decision)}: ${review.decision.reason} (by ${authorText(review.decision.by)}, ${formatIsoTime(review.decision.at, zone)})`
            : 'None yet.'}
        </dd>
        <dt>Alert</dt>
        <dd>
          {review.acknowledgement
            ? `Acknowledged${review.acknowledgement.note ? `: ${review.acknowledgement.note}` : ''} (by ${authorText(review.acknowledgement.by)}, ${formatIsoTime(review.acknowledgement.at, zone)})`
            : report.alert.level > 0
              ? 'Not acknowledged.'
              : 'No alert to acknowledge.'}
        </dd>
      </dl>
      <h3>Comments ({review.comments.length})</h3>
      {review.comments.length === 0 ? (
        <p>None.</p>
      ) : (
        <ul className="comment-list">
          {review.comments.map((c) => (
            <li key={c.id}>
              <span className="comment__meta">
                {formatIsoTime(c.at, zone)}, {authorText(c.author)}
              </span>
              <p className="comment__text">{c.text}</p>
            </li>
          ))}
        </ul>
      )}

      <FactsPanel report={report} companyId={session?.companyId ?? ''} companyNames={companyNames} />

      <h2>History (newest first)</h2>
      <HistoryList entries={history} zone={zone} companyNames={companyNames} />
    </>
  );
}

/** `connection` is the print view's own: it loads nothing but the report's parts. */
export function PrintView({ reportId, connection }: { reportId: string | null; connection: ConnectionStore }) {
  const client = useStore(connection, (s) => s.client);
  const phase = useStore(connection, (s) => s.phase);
  const connectError = useStore(connection, (s) => s.error);
  const [data, setData] = useState<PrintData | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [drawn, setDrawn] = useState(false);

  useEffect(() => {
    if (!reportId) return setError('No report named: the address needs ?view=print&report=<id>.');
    if (!client) return;
    const controller = new AbortController();
    const api = reviewClient(client);
    Promise.all([
      client.getReport(reportId, controller.signal),
      api.alerts(reportId, controller.signal),
      api.review(reportId, controller.signal),
      api.history(reportId, controller.signal),
      client.companies(controller.signal),
    ]).then(
      ([report, alerts, review, history, companies]) => {
        document.title = `LabelDesk ${report.labelReference || report.id}`;
        setData({ report, alerts, review, history: history.entries, companyNames: new Map(companies.map((c) => [c.id, c.name])) });
      },
      (err: unknown) => {
        if (!controller.signal.aborted) setError(plainApiError(err, 'read reports'));
      },
    );
    return () => controller.abort();
  }, [client, reportId]);

  const problem = error ?? (phase === 'connect' ? (connectError ?? 'No key: open the print view with #key=… or from the app.') : null);
  const attributes = {
    ...(data && drawn && { [PRINT_READY_ATTRIBUTE]: 'true', 'data-report-reference': data.report.labelReference }),
    ...(problem && { [PRINT_ERROR_ATTRIBUTE]: problem }),
  };
  return (
    <main className="print-view" data-testid="print-view" {...attributes}>
      {problem ? (
        <p className="print-status" role="alert">
          {problem}
        </p>
      ) : data ? (
        <PrintedReport data={data} connection={connection} onDrawn={() => setDrawn(true)} />
      ) : (
        <p className="print-status">Loading the report…</p>
      )}
    </main>
  );
}
