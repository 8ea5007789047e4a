/**
 * The audit trail across reports (docs/review-and-audit.md#the-audit-trail-across-reports): every
 * change and review entry the company sees, newest first, narrowed by person, kind and days,
 * each naming its report (which opens from here), and downloaded as the CSV `labeldesk audit
 * export` writes. A search for something rare stops at the service's budget and says how far
 * back it has looked; Search further goes on.
 */
import { useEffect, useState } from 'react';
import { isAbortError } from '../api/client';
import { auditClient, type AuditEntry, type AuditFilters } from '../api/audit-client';
import { peopleClient } from '../api/people-client';
import { auditKindLabel, auditWhat, auditWho } from '../lib/audit-text';
import { formatIsoTime } from '../lib/time-zone';
import { plainProblem } from '../lib/problem-text';
import { saveFile } from '../lib/save-file';
import { stores, useConnection } from '../state/stores';
import { useTimeZone } from '../state/time-zone';

const KINDS = [
  ['', 'Everything'],
  ['change', 'Changes'],
  ['comment', 'Comments'],
  ['acknowledgement', 'Acknowledgements'],
  ['decision', 'Decisions'],
  ['withdrawal', 'Decisions withdrawn'],
] as const;

/** A day picked on this desk, as the instant it starts (or ends) on its clock. */
function dayEdge(day: string, end: boolean): string {
  return day ? new Date(`${day}T${end ? '23:59:59.999' : '00:00:00.000'}`).toISOString() : '';
}

interface Shown {
  entries: AuditEntry[];
  next: string | null;
  searchedBackTo: string | null;
}

export function AuditScreen() {
  const client = useConnection((s) => s.client);
  const zone = useTimeZone();
  const [person, setPerson] = useState('');
  const [kind, setKind] = useState('');
  const [fromDay, setFromDay] = useState('');
  const [toDay, setToDay] = useState('');
  const [people, setPeople] = useState<{ id: string; name: string; login: string }[] | null>(null);
  const [shown, setShown] = useState<Shown | null>(null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const filters: AuditFilters = { person, kind, from: dayEdge(fromDay, false), to: dayEdge(toDay, true) };
  const filterKey = JSON.stringify(filters);

  useEffect(() => {
    if (!client) return;
    // Only an administrator lists the people; the others search without that filter.
    peopleClient(client)
      .listUsers()
      .then((list) => setPeople(list.map((u) => ({ id: u.id, name: u.name, login: u.login }))))
      .catch(() => setPeople(null));
  }, [client]);

  useEffect(() => {
    if (!client) return;
    const controller = new AbortController();
    setShown(null);
    setProblem(null);
    auditClient(client)
      .page(filters, null, controller.signal)
      .then((page) => setShown(page))
      .catch((err) => {
        if (!isAbortError(err)) setProblem(plainProblem(err));
      });
    return () => controller.abort();
    // The filters are read through filterKey: a new object each render is the same question.
  }, [client, filterKey]);

  const more = async () => {
    if (!client || !shown?.next) return;
    setBusy(true);
    try {
      const page = await auditClient(client).page(filters, shown.next);
      setShown({ entries: [...shown.entries, ...page.entries], next: page.next, searchedBackTo: page.searchedBackTo });
    } catch (err) {
      setProblem(plainProblem(err));
    } finally {
      setBusy(false);
    }
  };
  const csv = async () => {
    if (!client) return;
    setBusy(true);
    try {
      saveFile(await auditClient(client).csv(filters), `audit-trail-${new Date().toISOString().slice(0, 10)}.csv`);
    } catch (err) {
      setProblem(plainProblem(err));
    } finally {
      setBusy(false);
    }
  };
  const openReport = (id: string) => {
    stores.ui.getState().setView('reports');
    stores.openReport(id);
  };

  return (
    <section className="audit-screen" aria-labelledby="audit-title" data-testid="audit-screen">
      <h2 id="audit-title">Audit trail</h2>
      <div className="audit-screen__filters">
        {people && (
          <label>
            Person{' '}
            <select name="audit-person" value={person} onChange={(e) => setPerson(e.target.value)}>
              <option value="">Anyone</option>
              {people.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name} ({p.login})
                </option>
              ))}
            </select>
          </label>
        )}
        <label>
          Kind{' '}
          <select name="audit-kind" value={kind} onChange={(e) => setKind(e.target.value)}>
            {KINDS.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <label>
          From <input type="date" name="audit-from" value={fromDay} onChange={(e) => setFromDay(e.target.value)} />
        </label>
        <label>
          To <input type="date" name="audit-to" value={toDay} onChange={(e) => setToDay(e.target.value)} />
        </label>
        <button type="button" className="button" onClick={() => void csv()} disabled={busy || !client} data-testid="audit-csv">
          Download CSV
        </button>
      </div>
      {problem && (
        <p className="save-message save-message--error" role="alert">
          {problem}
        </p>
      )}
      {shown === null ? (
        !problem && <p>Loading…</p>
      ) : shown.entries.length === 0 && !shown.next ? (
        <p data-testid="audit-empty">Nothing in the trail matches.</p>
      ) : (
        <table className="audit-table" data-testid="audit-table">
          <caption>
            {shown.entries.length} {shown.entries.length === 1 ? 'entry' : 'entries'} shown, newest first
          </caption>
          <thead>
            <tr>
              <th>When</th>
              <th>Report</th>
              <th>What</th>
              <th>Who</th>
              <th>Details</th>
            </tr>
          </thead>
          <tbody>
            {shown.entries.map((e) => (
              <tr key={`${e.table}-${e.entry}`} data-kind={e.kind}>
                <td className="cell-date">{formatIsoTime(e.at, zone, true)}</td>
                <td>
                  <button type="button" className="button button--quiet" onClick={() => openReport(e.reportId)} title={e.reportId}>
                    {e.labelReference || e.reportId}
                  </button>
                </td>
                <td>{auditKindLabel(e)}</td>
                <td>{auditWho(e)}</td>
                <td>{auditWhat(e, zone)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {shown?.searchedBackTo && (
        <p className="muted" data-testid="audit-searched">
          Looked back to {formatIsoTime(shown.searchedBackTo, zone, true)} so far.
        </p>
      )}
      {shown?.next && (
        <button type="button" className="button" onClick={() => void more()} disabled={busy} data-testid="audit-more">
          {shown.searchedBackTo ? 'Search further' : 'Show more'}
        </button>
      )}
    </section>
  );
}
