/**
 * What people hand on from the report: a PDF of its print view (the desktop app renders and
 * saves it; a browser prints the page, whose print styles keep only the report), its readings
 * and its audit trail as CSV. Each is recorded in the report's access entries: the CSVs by the
 * service as it answers them, a print or a saved PDF by telling the service
 * (docs/review-and-audit.md#who-saw-a-report).
 */
import { useState } from 'react';
import type { Certificate } from '../../schema/certificate';
import { reviewClient } from '../api/review-client';
import { plainApiError } from '../lib/plain-words';
import { saveFile } from '../lib/save-file';
import { stores } from '../state/stores';


/** `onCertificate` takes the certificate issued for the app's own print: the report panel prints it once drawn. */
export function ReportOutput({ reportId, onCertificate }: { reportId: string; onCertificate(certificate: Certificate): void }) {
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);

  /** Tells the service the desktop app saved the PDF. */
  const record = async (format: 'pdf'): Promise<boolean> => {
    const client = stores.connection.getState().client;
    if (!client) return false;
    try {
      await reviewClient(client).printed(reportId, format);
      stores.detail.getState().accessMoved();
      return true;
    } catch (err) {
      setMessage({ ok: false, text: plainApiError(err, 'print reports') });
      return false;
    }
  };

  const savePdf = async () => {
    const bridge = window.labeldesk;
    if (!bridge) {
      setMessage(null);
      const client = stores.connection.getState().client;
      if (!client) return;
      // Issued, and so recorded, before the dialog opens: a certificate that cannot be recorded is not printed.
      try {
        onCertificate(await reviewClient(client).certificate(reportId, 'print'));
        stores.detail.getState().accessMoved();
      } catch (err) {
        setMessage({ ok: false, text: plainApiError(err, 'print reports') });
      }
      return;
    }
    setBusy(true);
    setMessage(null);
    try {
      const result = await bridge.savePdf(reportId);
      if (result.saved) {
        setMessage({ ok: true, text: `Saved ${result.path}.` });
        await record('pdf');
      } else if (result.reason) setMessage({ ok: false, text: `The PDF could not be made: ${result.reason}` });
    } finally {
      setBusy(false);
    }
  };

  const saveCsv = async (what: 'readings' | 'history') => {
    const client = stores.connection.getState().client;
    if (!client) return;
    setBusy(true);
    setMessage(null);
    try {
      const csv = reviewClient(client);
      saveFile(await (what === 'readings' ? csv.readingsCsv(reportId) : csv.historyCsv(reportId)), `label-report-${reportId}-${what}.csv`);
      stores.detail.getState().accessMoved();
    } catch (err) {
      setMessage({ ok: false, text: plainApiError(err, 'read reports') });
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="detail__actions no-print">
      <button type="button" className="button" onClick={() => void savePdf()} disabled={busy} data-testid="save-pdf" title="The release certificate: the report, its signatures with their meaning, and a checksum an auditor can check">
        {window.labeldesk ? 'Save PDF' : 'Print certificate'}
      </button>
      <button type="button" className="button" onClick={() => void saveCsv('readings')} disabled={busy} data-testid="save-csv">
        Readings CSV
      </button>
      <button type="button" className="button" onClick={() => void saveCsv('history')} disabled={busy} data-testid="save-history-csv" title="Every change and review entry, with reasons, signatures and hashes">
        History CSV
      </button>
      {message && (
        <p className={`save-message save-message--${message.ok ? 'ok' : 'error'}`} role={message.ok ? 'status' : 'alert'}>
          {message.text}
        </p>
      )}
    </div>
  );
}
