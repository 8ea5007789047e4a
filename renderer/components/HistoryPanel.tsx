/**
 * The report's audit trail, newest first: every change as "Field: old → new", the company's
 * comments, acknowledgements and decisions, each with the key that made it (by name) and when.
 */
import type { HistoryEntry } from '../../schema/review';
import { actorText, historyLines } from '../lib/history-text';
import { formatIsoTime, zoneLabel } from '../lib/time-zone';
import type { TimeZoneSetting } from '../lib/time-zone';

export function HistoryList({ entries, zone, companyNames }: { entries: readonly HistoryEntry[]; zone: TimeZoneSetting; companyNames: ReadonlyMap<string, string> }) {
  if (entries.length === 0) return <p className="muted">Nothing recorded yet.</p>;
  return (
    <ol className="history-list" data-testid="history-list" reversed>
      {entries.map((entry) => (
        <li key={entry.type === 'change' ? `change:${entry.seq}` : `${entry.type}:${entry.id}`} data-testid="history-entry" data-type={entry.type}>
          <span className="history__meta">
            {formatIsoTime(entry.at, zone, true)} · {actorText(entry.actor)}
            {(entry.type === 'acknowledgement' || entry.type === 'decision') && entry.meaning && (
              <span data-testid="history-signature">
                {' '}
                · signed “{entry.meaning}” in {entry.zone ?? 'UTC'}
              </span>
            )}
          </span>
          <ul className="history__changes">
            {historyLines(entry, zone, companyNames).map((line, i) => (
              <li key={i}>
                <strong>{line.label}:</strong>{' '}
                {line.old !== undefined && (
                  <>
                    <span className="history__old">{line.old}</span> →{' '}
                  </>
                )}
                <span className="history__new">{line.text}</span>
              </li>
            ))}
          </ul>
        </li>
      ))}
    </ol>
  );
}

export function HistoryPanel({ entries, error, zone, companyNames }: { entries: readonly HistoryEntry[] | null; error: string | null; zone: TimeZoneSetting; companyNames: ReadonlyMap<string, string> }) {
  return (
    <section className="panel" aria-labelledby="history-title" data-testid="history-panel">
      <h3 id="history-title">History</h3>
      <p className="muted small">Newest first; times in {zoneLabel(zone)}.</p>
      {entries ? <HistoryList entries={entries} zone={zone} companyNames={companyNames} /> : <p className="muted">{error ?? 'Loading…'}</p>}
    </section>
  );
}
