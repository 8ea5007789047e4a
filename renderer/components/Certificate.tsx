/**
 * The release certificate of one report (docs/review-and-audit.md#release-certificates): the one
 * definition of what it holds, printed by the app (Print certificate in the report panel) and
 * rendered by the print view, which the desktop app and `labeldesk report --pdf` save as PDF.
 * Every page names the certificate's checksum at its head, and "Page X of Y" at its foot (print.css).
 */
import { useEffect } from 'react';
import { certificateHeadText, type CertificateSection, signatureByLine, signatureMeaning } from '../lib/certificate-text';
import type { Certificate } from '../../schema/certificate';
import type { LabelReport } from '../../schema/report';
import type { AlertExplanation, HistoryEntry, Review } from '../../schema/review';
import { statusLabel } from '../lib/format';
import { decisionLabel } from '../lib/history-text';
import { limitsSentence } from '../lib/readings';
import { trimRange } from '../lib/report-view';
import { formatIsoTime, formatTime, zoneLabel, type TimeZoneSetting } from '../lib/time-zone';
import { explanationInZone } from '../lib/zoned-text';
import { AlertBadge } from './AlertBadge';
import { AlertRules, TimeOutside } from './AlertRules';
import { ExcursionTable } from './ExcursionTable';
import { CustomFieldFacts, FactsPanel } from './FactsPanel';
import { FiguresPanel } from './FiguresPanel';
import { HistoryList } from './HistoryPanel';
import { ReportChart } from './ReportChart';
import { authorText } from './ReviewPanel';

export interface CertificateData {
  report: LabelReport;
  alerts: AlertExplanation;
  review: Review;
  history: readonly HistoryEntry[];
  companyNames: ReadonlyMap<string, string>;
  /** Who the certificate is printed for: the company signed in, by id and name. */
  companyId: string;
  printedFor: string;
}

/**
 * A margin box at the head of each page (the page number is at its foot): so every page carries the checksum. Added as a
 * constructed style sheet, which the page's policy allows where an inline style is refused; its
 * text is hex only.
 */
function usePageHead(checksum: string): void {
  useEffect(() => {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(`@page { @top-left { content: "${certificateHeadText(checksum)}"; font-size: 7pt; color: #000; } }`);
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
    return () => {
      document.adoptedStyleSheets = document.adoptedStyleSheets.filter((s) => s !== sheet);
    };
  }, [checksum]);
}

function Signatures({ certificate }: { certificate: Certificate }) {
  return (
    <section data-testid="certificate-signatures">
      {certificate.signatures.length === 0 ? (
        <p>No decision or acknowledgement stands on this report: nothing is signed.</p>
      ) : (
        <ul className="certificate-signatures">
          {certificate.signatures.map((s) => (
            <li key={s.entry} data-testid="certificate-signature">
              <strong>{signatureMeaning(s)}</strong>
              <br />
              {signatureByLine(s)} · review entry {s.entry}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function Heading({ section, count }: { section: CertificateSection; count?: number }) {
  return <h2>{count === undefined ? section : `${section} (${count})`}</h2>;
}

export function ReleaseCertificate({ data, certificate, zone, onDrawn }: { data: CertificateData; certificate: Certificate; zone: TimeZoneSetting; onDrawn(): void }) {
  const { report, alerts, review, history, companyNames } = data;
  const limits = report.senseConfig.limits;
  const trim = trimRange(report);
  usePageHead(certificate.checksum);
  return (
    <div className="release-certificate" data-testid="release-certificate" data-certificate={certificate.checksum}>
      <header>
        <p className="print-meta">Release certificate</p>
        <h1>{report.labelReference || 'Label report without a reference'}</h1>
        <p className="print-meta">
          Label {report.label.sequenceCode} ({report.label.uid}) · {statusLabel(report.status)} · owned by {report.company.name} · <AlertBadge level={report.alert.level} />
        </p>
        <p className="print-meta small">
          Issued {formatIsoTime(certificate.issuedAt, zone)} for {data.printedFor} · all times in {zoneLabel(zone)} · report id {report.id} · change log entry {certificate.changeLog.seq}
        </p>
        <p className="print-meta small" data-testid="certificate-checksum">
          {certificateHeadText(certificate.checksum)}: check it with labeldesk audit certificate
        </p>
      </header>

      <Heading section="Readings" />
      <ReportChart report={report} print onDrawn={onDrawn} />

      <FiguresPanel report={report} />

      <Heading section="Limits and alert status" />
      <p data-testid="print-limits">{limitsSentence(limits)}</p>
      <p>{explanationInZone(alerts.explanation, alerts.alert.timestamp, zone)}</p>
      <TimeOutside alerts={alerts} />
      <AlertRules alerts={alerts} zone={zone} />

      <Heading section="Excursions" count={alerts.excursions.length} />
      <ExcursionTable excursions={alerts.excursions} zone={zone} scroll={false} />

      <Heading section="Trim" />
      <p>{trim ? `Trimmed to ${formatTime(trim.start, zone, true)} – ${formatTime(trim.end, zone, true)}: the figures and the alert are for this range.` : 'Not trimmed: the whole run counts.'}</p>

      <Heading section="Custom fields" />
      <CustomFieldFacts report={report} />

      <Heading section="E-signatures" />
      <Signatures certificate={certificate} />

      <Heading section="Review" />
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

      <FactsPanel report={report} companyId={data.companyId} companyNames={companyNames} />

      <Heading section="History (newest first)" />
      <HistoryList entries={history} zone={zone} companyNames={companyNames} />
    </div>
  );
}
