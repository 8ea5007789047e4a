/**
 * Who viewed, printed or exported the report, newest first (docs/review-and-audit.md#who-saw-a-report),
 * shown to administrators only; the service refuses anyone else. Folded by default: it is
 * for the audit, not for the day's work.
 */
import { useEffect, useState } from 'react';
import { reviewClient, type ReportAccessList } from '../api/review-client';
import { accessWhat, accessWho, maySeeAccess } from '../lib/access-text';
import { plainApiError } from '../lib/plain-words';
import { formatIsoTime } from '../lib/time-zone';
import { useConnection, useDetail } from '../state/stores';
import { useTimeZone } from '../state/time-zone';

export function AccessPanel({ reportId }: { reportId: string }) {
  const client = useConnection((s) => s.client);
  const session = useConnection((s) => s.session);
  const version = useDetail((s) => s.accessVersion);
  const zone = useTimeZone();
  const [list, setList] = useState<ReportAccessList | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const allowed = session !== null && maySeeAccess(session);
  useEffect(() => {
    if (!client || !allowed) return;
    const controller = new AbortController();
    reviewClient(client)
      .access(reportId, controller.signal)
      .then(
        (answer) => {
          setList(answer);
          setProblem(null);
        },
        (err: unknown) => {
          if (!controller.signal.aborted) setProblem(plainApiError(err, 'see who viewed this report'));
        },
      );
    return () => controller.abort();
  }, [client, allowed, reportId, version]);
  if (!allowed) return null;
  return (
    <details className="panel no-print" data-testid="access-panel">
      <summary>
        <h3 className="access__title">Access{list ? ` (${list.total})` : ''}</h3>
      </summary>
      {problem && (
        <p className="save-message save-message--error" role="alert">
          {problem}
        </p>
      )}
      {list && list.entries.length === 0 && <p className="muted">Nobody has viewed, printed or exported this report yet.</p>}
      {list && list.entries.length > 0 && (
        <ul className="access" data-testid="access-list">
          {list.entries.map((entry) => (
            <li key={entry.id} data-testid="access-entry">
              <span className="comment__meta">{formatIsoTime(entry.at, zone)}</span> {accessWho(entry)} {accessWhat(entry)}
            </li>
          ))}
        </ul>
      )}
      {list && list.total > list.entries.length && <p className="muted">The newest {list.entries.length} of {list.total}; labeldesk audit export --access lists them all.</p>}
    </details>
  );
}
