/**
 * One report's release certificate laid out for A4 paper and PDF (`/?view=print&report=<id>`):
 * the sections of components/Certificate.tsx, issued by the service once the report's parts are
 * read. Once everything is loaded and the chart drawn it sets
 * data-print-ready="true" and data-print-certificate to the checksum (the desktop app and
 * `labeldesk report --pdf` wait for it); when the
 * report cannot be shown it says why in words and in data-print-error.
 */
import { useEffect, useState } from 'react';
import { PRINT_CERTIFICATE_ATTRIBUTE, PRINT_ERROR_ATTRIBUTE, PRINT_READY_ATTRIBUTE } from '../../contract/print-view';
import type { Certificate } from '../../schema/certificate';
import type { Limits } from '../../schema/sense';
import { reviewClient } from '../api/review-client';
import { limitsSentence } from '../lib/readings';
import { plainApiError } from '../lib/plain-words';
import { useStore } from 'zustand';
import type { ConnectionStore } from '../state/connection';
import { useTimeZone } from '../state/time-zone';
import { ReleaseCertificate, type CertificateData } from './Certificate';
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

function PrintedReport({ data, certificate, onDrawn }: { data: CertificateData; certificate: Certificate; onDrawn(): void }) {
  const zone = useTimeZone();
  return <ReleaseCertificate data={data} certificate={certificate} zone={zone} onDrawn={onDrawn} />;
}

/** `connection` is the print view's own: it loads nothing but the report's parts. */
export function PrintView({ reportId, connection }: { reportId: string | null; connection: ConnectionStore }) {
  const client = useStore(connection, (s) => s.client);
  const phase = useStore(connection, (s) => s.phase);
  const connectError = useStore(connection, (s) => s.error);
  const session = useStore(connection, (s) => s.session);
  const [loaded, setLoaded] = useState<{ data: Omit<CertificateData, 'companyId' | 'printedFor'>; certificate: Certificate } | null>(null);
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
    ])
      // Issued once the parts are read, so the certificate names the version shown (a PDF is an export of it).
      .then(async (parts) => [...parts, await api.certificate(reportId, 'pdf')] as const)
      .then(
      ([report, alerts, review, history, companies, certificate]) => {
        document.title = `LabelDesk ${report.labelReference || report.id}`;
        setLoaded({ data: { report, alerts, review, history: history.entries, companyNames: new Map(companies.map((c) => [c.id, c.name])) }, certificate });
      },
      (err: unknown) => {
        if (!controller.signal.aborted) setError(plainApiError(err, 'read reports'));
      },
    );
    return () => controller.abort();
  }, [client, reportId]);

  const problem = error ?? (phase === 'connect' ? (connectError ?? 'No key: open the print view with #key=… or from the app.') : null);
  const attributes = {
    ...(loaded && drawn && { [PRINT_READY_ATTRIBUTE]: 'true', 'data-report-reference': loaded.data.report.labelReference, [PRINT_CERTIFICATE_ATTRIBUTE]: loaded.certificate.checksum }),
    ...(problem && { [PRINT_ERROR_ATTRIBUTE]: problem }),
  };
  return (
    <main className="print-view" data-testid="print-view" {...attributes}>
      {problem ? (
        <p className="print-status" role="alert">
          {problem}
        </p>
      ) : loaded ? (
        <PrintedReport
          data={{ ...loaded.data, companyId: session?.companyId ?? '', printedFor: session?.companyName ?? 'this company' }}
          certificate={loaded.certificate}
          onDrawn={() => setDrawn(true)}
        />
      ) : (
        <p className="print-status">Loading the report…</p>
      )}
    </main>
  );
}
