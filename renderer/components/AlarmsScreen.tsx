/**
 * Alarms at the desk: the header's count of unacknowledged alarms with the in-app notices of
 * new ones (each opens its report), and the Alarms view: every alarm of the company, filterable
 * by state, with who was told when and through which channel.
 */
import { useEffect, useState } from 'react';
import { alarmsClient } from '../api/alarms-client';
import { useStore } from 'zustand';
import { createAlarmsStore, type AlarmFilter } from '../state/alarms';
import { stores, useConnection } from '../state/stores';
import { formatIsoTime } from '../lib/time-zone';
import { useTimeZone } from '../state/time-zone';

/** How often the open alarms are asked for while the page is open. */
const POLL_MS = 15_000;

export const alarmsStore = createAlarmsStore({ getClient: () => stores.connection.getState().client });

// Another key is another company: what the previous one could see goes.
stores.connection.subscribe((state, previous) => {
  if (state.client === previous.client) return;
  alarmsStore.getState().reset();
  if (state.client) void alarmsStore.getState().refresh();
});

function openReport(reportId: string): void {
  stores.ui.getState().setView('reports');
  void stores.detail.getState().open(reportId);
}

const LEVEL = { 1: 'Moderate', 2: 'Critical' } as const;
const STATE_TEXT = { open: 'Open', escalated: 'Escalated', acknowledged: 'Acknowledged' } as const;
const CHANNEL_TEXT = { desktop: 'desktop', email: 'e-mail', webhook: 'webhook' } as const;

/** The header's count and the notices of alarms that just arrived. */
/**
 * The Alarms tab's own words: its name and the count of alarms not yet acknowledged. The tab is
 * the way to the Alarms screen, so the count needs no button of its own in the header.
 */
export function AlarmsTabLabel() {
  const count = useStore(alarmsStore, (s) => s.unacknowledged);
  return (
    <span className={`app-header__alarms${count > 0 ? ' has-alarms' : ''}`} data-testid="header-alarms" title={`${count} unacknowledged ${count === 1 ? 'alarm' : 'alarms'}`}>
      {/* The name read out starts with what is seen ("Alarms 3"), as speech input expects. */}
      Alarms <span className="app-header__alarm-count">{count}</span>
      <span className="visually-hidden"> unacknowledged</span>
    </span>
  );
}

/** Keeps the alarms' count fresh and shows the notices of new alarms over the page. */
export function AlarmsHeader() {
  const notices = useStore(alarmsStore, (s) => s.notices);
  useEffect(() => {
    void alarmsStore.getState().refresh();
    const timer = setInterval(() => void alarmsStore.getState().refresh(), POLL_MS);
    return () => clearInterval(timer);
  }, []);
  return (
    <>
      {notices.length > 0 && (
        <div className="alarm-notices" role="alert" data-testid="alarm-notices">
          {notices.map((n) => (
            <div key={n.alarmId} className="alarm-notice">
              <button type="button" className="alarm-notice__open" onClick={() => openReport(n.reportId)}>
                <strong>{n.title}</strong>
                <span>{n.body}</span>
              </button>
              <button type="button" aria-label="Dismiss" onClick={() => alarmsStore.getState().dismiss(n.alarmId)}>
                ×
              </button>
            </div>
          ))}
        </div>
      )}
    </>
  );
}

export function AlarmsScreen() {
  const alarms = useStore(alarmsStore, (s) => s.alarms);
  const filter = useStore(alarmsStore, (s) => s.filter);
  const total = useStore(alarmsStore, (s) => s.total);
  const error = useStore(alarmsStore, (s) => s.error);
  const zone = useTimeZone();
  const when = (iso: string) => formatIsoTime(iso, zone);
  const client = useConnection((s) => s.client);
  // How many rules are on: "No alarms" beside reports with alerts says why when none is.
  const [rulesOn, setRulesOn] = useState<number | null>(null);
  useEffect(() => {
    void alarmsStore.getState().refresh();
    if (!client) return;
    const controller = new AbortController();
    alarmsClient(client)
      .rules(controller.signal)
      .then((rules) => setRulesOn(rules.filter((r) => r.enabled).length))
      .catch(() => setRulesOn(null));
    return () => controller.abort();
  }, [client]);
  const why =
    rulesOn === 0
      ? ' No alarm rule is on yet, so reports with an alert raise no alarm: make one in Settings › Alarms.'
      : rulesOn === null
        ? ''
        : ' An alarm is raised when a report’s alert rises to a rule’s level (Settings › Alarms).';
  return (
    <section className="alarms-screen" aria-label="Alarms">
      <h2>Alarms</h2>
      <label>
        Show{' '}
        <select aria-label="Alarms to show" value={filter} onChange={(e) => void alarmsStore.getState().setFilter(e.target.value as AlarmFilter)}>
          <option value="all">All</option>
          <option value="open">Open</option>
          <option value="escalated">Escalated</option>
          <option value="acknowledged">Acknowledged</option>
        </select>
      </label>
      {error && <p className="error">{error}</p>}
      {alarms === null ? (
        <p>Loading…</p>
      ) : alarms.length === 0 ? (
        <p data-testid="alarms-empty">
          No alarms{filter === 'all' ? '' : ` ${STATE_TEXT[filter].toLowerCase()}`}.{why}
        </p>
      ) : (
        <table className="alarms-table" data-testid="alarms-table">
          <caption>
            {total} {total === 1 ? 'alarm' : 'alarms'}
          </caption>
          <thead>
            <tr>
              <th>Raised</th>
              <th>Level</th>
              <th>Report</th>
              <th>What happened</th>
              <th>State</th>
              <th>Rule</th>
              <th>Told</th>
            </tr>
          </thead>
          <tbody>
            {alarms.map((a) => (
              <tr key={a.id} data-state={a.state}>
                <td>{when(a.created)}</td>
                <td>{LEVEL[a.level]}</td>
                <td>
                  <button type="button" className="link" onClick={() => openReport(a.reportId)}>
                    {a.labelReference}
                  </button>
                </td>
                <td>{a.excursion}</td>
                <td>
                  {STATE_TEXT[a.state]}
                  {a.acknowledged && ` by ${a.acknowledged.by}, ${when(a.acknowledged.at)}`}
                </td>
                <td>{a.ruleName ?? '—'}</td>
                <td>
                  <ul className="alarm-told">
                    {a.notices.map((n, i) => (
                      <li key={i}>
                        {n.step > 0 ? `step ${n.step + 1}: ` : ''}
                        {CHANNEL_TEXT[n.channel]} {n.recipient}, {when(n.at)}
                      </li>
                    ))}
                  </ul>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
