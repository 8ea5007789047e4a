/**
 * Download CSV of every report the filters match (all of them, not the page on screen).
 *
 * The service wants the key in a header, which a plain download link cannot send, and a key in a
 * URL would end up in history and logs. So the file is fetched like any other request and handed
 * to the browser's save as a Blob: it is held in memory once (about 200 bytes a report, some
 * 20 MB for 100 000), which suits a desk computer, and needs no short-lived download URL kept by
 * the service.
 */
import { useState } from 'react';
import { isAbortError } from '../api/client';
import { toApiParams } from '../lib/list-query';
import { plainProblem } from '../lib/problem-text';
import { saveFile } from '../lib/save-file';
import { stores, useConnection } from '../state/stores';

function fileName(now = new Date()): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `label-reports-${now.getFullYear()}-${p(now.getMonth() + 1)}-${p(now.getDate())}-${p(now.getHours())}${p(now.getMinutes())}.csv`;
}

export function CsvDownload() {
  const client = useConnection((s) => s.client);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  const download = async () => {
    if (!client) return;
    setBusy(true);
    setProblem(null);
    try {
      const { order, filter, customFields, review, unset } = toApiParams(stores.list.getState().query);
      const blob = await client.reportsCsv({ order, filter, customFields, review, unset });
      saveFile(blob, fileName());
    } catch (err) {
      if (!isAbortError(err)) setProblem(plainProblem(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <span className="csv-download">
      <button type="button" className="button" onClick={() => void download()} disabled={busy || !client} data-testid="download-csv" title="Every report the filters match, as a CSV file">
        {busy ? 'Preparing CSV…' : 'Download CSV'}
      </button>
      {problem && (
        <span className="csv-download__problem" role="alert">
          {problem}
        </span>
      )}
    </span>
  );
}
