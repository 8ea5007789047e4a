/**
 * Shipments at the desk (docs/shipments.md): the list of the company's shipments, filtered and
 * sorted by worst alert, review state, labels, first start, mode and product with the exact count;
 * and one shipment: every label's curve on one time-aligned chart with the limits, the legs in
 * order, per label its excursions, time beyond the limits and review, the budget in words, the
 * facts (changed with a reason), and the one signed decision that releases the whole shipment,
 * refused while any label's alert awaits acknowledgement.
 */
import { Chart, Legend, LinearScale, LineController, LineElement, PointElement, Tooltip } from 'chart.js';
import type { ChartDataset } from 'chart.js';
import { useCallback, useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { errorMessage } from '../api/client';
import type { Decision } from '../api/review-client';
import {
  SHIPMENT_STATE_VALUES,
  shipmentsClient,
  TRANSPORT_MODES,
  type Shipment,
  type ShipmentFactsBody,
  type ShipmentList,
  type ShipmentQuery,
  type ShipmentReadings,
  type TransportMode,
} from '../api/shipments-client';
import { formatDuration, formatTemperature } from '../lib/format';
import { decisionLabel } from '../lib/history-text';
import { signerZone } from '../lib/signer-zone';
import { formatClock, formatDay, formatIsoTime, zoneLabel } from '../lib/time-zone';
import type { TimeZoneSetting } from '../lib/time-zone';
import { stores, useConnection, useUi } from '../state/stores';
import { useTimeZone } from '../state/time-zone';
import { AlertBadge } from './AlertBadge';
import { CHART_COLORS } from './ReportChart';
import { MEANING, ReasonField, SignatureDialog } from './ReviewPanel';

Chart.register(LineController, LineElement, PointElement, LinearScale, Tooltip, Legend);

const DECISIONS: readonly Decision[] = ['released', 'rejected', 'onHold'];

const STATE_TEXT: Record<(typeof SHIPMENT_STATE_VALUES)[number], string> = {
  awaitingAcknowledgement: 'Awaiting acknowledgement',
  awaitingReview: 'Awaiting review',
  onHold: 'On hold',
  rejected: 'Rejected',
  released: 'Released',
};

const MODE_TEXT: Record<TransportMode, string> = { road: 'Road', air: 'Air', sea: 'Sea', rail: 'Rail', warehouse: 'Warehouse', other: 'Other' };

const ORDERS: [string, string][] = [
  ['created[desc]', 'Newest first'],
  ['created[asc]', 'Oldest first'],
  ['worstAlert[desc]', 'Worst alert first'],
  ['labels[desc]', 'Most labels first'],
  ['labels[asc]', 'Fewest labels first'],
  ['firstStart[desc]', 'Latest start first'],
  ['firstStart[asc]', 'Earliest start first'],
];

const PAGE_SIZE = 50;

function client() {
  const api = stores.connection.getState().client;
  return api ? shipmentsClient(api) : null;
}

/** The list's state and the open shipment live in the ui store, and so in the address (lib/url-state.ts). */
export function ShipmentsScreen() {
  const openId = useUi((s) => s.shipments.open);
  const ui = stores.ui.getState();
  return openId === null ? <ShipmentListView onOpen={(id) => ui.setShipments({ open: id })} /> : <ShipmentView id={openId} onBack={() => ui.setShipments({ open: null })} />;
}

function ShipmentListView({ onOpen }: { onOpen: (id: string) => void }) {
  const zone = useTimeZone();
  const view = useUi((s) => s.shipments);
  const query: ShipmentQuery = useMemo(() => {
    const { open: _open, ...rest } = view;
    return rest;
  }, [view]);
  const [list, setList] = useState<ShipmentList | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const c = client();
    if (!c) return;
    const abort = new AbortController();
    c.list(query, abort.signal).then(
      (answer) => {
        setList(answer);
        setError(null);
      },
      (err: unknown) => !abort.signal.aborted && setError(errorMessage(err)),
    );
    return () => abort.abort();
  }, [query]);
  const set = (part: Partial<ShipmentQuery>) => stores.ui.getState().setShipments(part);
  const pages = list ? Math.max(1, Math.ceil(list.totalDocuments / PAGE_SIZE)) : 1;
  return (
    <section className="shipments" data-testid="shipments">
      <form className="shipments__filters" data-testid="shipment-filters" onSubmit={(e) => e.preventDefault()}>
        <label className="field">
          <span className="field__label">Worst alert</span>
          <select name="alert" value={query.alert ?? ''} onChange={(e) => set({ alert: e.target.value })}>
            <option value="">Any</option>
            <option value="0">None</option>
            <option value="1">Moderate</option>
            <option value="2">Critical</option>
            <option value="1,2">Moderate or Critical</option>
          </select>
        </label>
        <label className="field">
          <span className="field__label">Review</span>
          <select name="state" value={query.state ?? ''} onChange={(e) => set({ state: e.target.value })}>
            <option value="">Any</option>
            {SHIPMENT_STATE_VALUES.map((s) => (
              <option key={s} value={s}>
                {STATE_TEXT[s]}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span className="field__label">Labels at least</span>
          <input name="labelsMin" type="number" min={1} value={query.labelsMin ?? ''} onChange={(e) => set({ labelsMin: e.target.value })} />
        </label>
        <label className="field">
          <span className="field__label">Started from</span>
          <input name="startFrom" type="date" value={query.startFrom ?? ''} onChange={(e) => set({ startFrom: e.target.value })} />
        </label>
        <label className="field">
          <span className="field__label">Mode</span>
          <select name="mode" value={query.mode ?? ''} onChange={(e) => set({ mode: e.target.value })}>
            <option value="">Any</option>
            {TRANSPORT_MODES.map((m) => (
              <option key={m} value={m}>
                {MODE_TEXT[m]}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span className="field__label">Product</span>
          <input name="product" value={query.product ?? ''} onChange={(e) => set({ product: e.target.value })} />
        </label>
        <label className="field">
          <span className="field__label">Order</span>
          <select name="order" value={query.order} onChange={(e) => set({ order: e.target.value })}>
            {ORDERS.map(([value, text]) => (
              <option key={value} value={value}>
                {text}
              </option>
            ))}
          </select>
        </label>
      </form>
      {error && (
        <p className="save-message save-message--error" role="alert">
          {error}
        </p>
      )}
      <p className="shipments__count" data-testid="shipment-count" aria-live="polite">
        {list ? `${list.totalDocuments.toLocaleString('en-US')} ${list.totalDocuments === 1 ? 'shipment' : 'shipments'}` : 'Loading shipments…'}
      </p>
      <div className="shipments__table-wrap">
        <table className="shipments__table" data-testid="shipment-table">
          <thead>
            <tr>
              <th scope="col">Reference</th>
              <th scope="col">Labels</th>
              <th scope="col">Worst alert</th>
              <th scope="col">Review</th>
              <th scope="col">First start ({zoneLabel(zone)})</th>
              <th scope="col">Product</th>
              <th scope="col">Modes</th>
            </tr>
          </thead>
          <tbody>
            {list?.data.map((s) => (
              <tr key={s.id} data-shipment-id={s.id}>
                <td>
                  <button type="button" className="link-button" onClick={() => onOpen(s.id)}>
                    {s.reference}
                  </button>
                </td>
                <td>{s.labels}</td>
                <td>
                  <AlertBadge level={s.worstAlert} />
                </td>
                <td data-state={s.state}>{STATE_TEXT[s.state]}</td>
                <td>{s.firstStart ? formatIsoTime(s.firstStart, zone) : 'Not started'}</td>
                <td>{s.product ?? '—'}</td>
                <td>{s.modes.map((m) => MODE_TEXT[m]).join(', ') || '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <nav className="shipments__pages" aria-label="Pages of shipments">
        <button type="button" className="button" disabled={(query.pageNumber ?? 1) <= 1} onClick={() => set({ pageNumber: (query.pageNumber ?? 1) - 1 })}>
          Previous
        </button>
        <span>
          Page {query.pageNumber ?? 1} of {pages}
        </span>
        <button type="button" className="button" disabled={(query.pageNumber ?? 1) >= pages} onClick={() => set({ pageNumber: (query.pageNumber ?? 1) + 1 })}>
          Next
        </button>
      </nav>
    </section>
  );
}

function ShipmentView({ id, onBack }: { id: string; onBack: () => void }) {
  const zone = useTimeZone();
  const [shipment, setShipment] = useState<Shipment | null>(null);
  const [readings, setReadings] = useState<ShipmentReadings | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(async () => {
    const c = client();
    if (!c) return;
    try {
      const [one, read] = await Promise.all([c.one(id), c.readings(id)]);
      setShipment(one);
      setReadings(read);
      setError(null);
    } catch (err) {
      setError(errorMessage(err));
    }
  }, [id]);
  useEffect(() => void load(), [load]);
  if (!shipment) {
    return (
      <section className="shipment" data-testid="shipment-view">
        <button type="button" className="button" onClick={onBack}>
          ← Shipments
        </button>
        <p role={error ? 'alert' : 'status'}>{error ?? 'Loading shipment…'}</p>
      </section>
    );
  }
  const names = new Map(shipment.labelsOf.map((l) => [l.reportId, l.labelName]));
  return (
    <section className="shipment" data-testid="shipment-view">
      <header className="shipment__header">
        <button type="button" className="button" onClick={onBack}>
          ← Shipments
        </button>
        <h2>
          Shipment {shipment.reference} <AlertBadge level={shipment.worstAlert} />
        </h2>
        <span data-testid="shipment-state">{STATE_TEXT[shipment.state]}</span>
        <span className="muted">
          {shipment.labels} {shipment.labels === 1 ? 'label' : 'labels'}
          {shipment.product ? `, ${shipment.product}` : ''}
          {shipment.origin || shipment.destination ? `, ${shipment.origin ?? '?'} → ${shipment.destination ?? '?'}` : ''}
        </span>
      </header>
      {readings && <ShipmentChart readings={readings} zone={zone} />}
      <section aria-labelledby="shipment-budget-title" data-testid="shipment-budget">
        <h3 id="shipment-budget-title">Budget</h3>
        {shipment.budget.length === 0 ? (
          <p className="muted">No stability budget kept for this shipment.</p>
        ) : (
          <ul>
            {shipment.budget.map((b) => (
              <li key={`${b.quantity}-${b.direction}-${b.threshold}`} className={b.exceeded ? 'shipment__budget--exceeded' : ''}>
                {b.words}
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="shipment-legs-title" data-testid="shipment-legs">
        <h3 id="shipment-legs-title">Legs</h3>
        {shipment.legs.length === 0 ? (
          <p className="muted">No legs kept for this shipment.</p>
        ) : (
          <ol>
            {shipment.legs.map((leg, i) => (
              <li key={i}>
                {MODE_TEXT[leg.mode]}: {leg.from} → {leg.to}
                {leg.departure ? `, departed ${formatIsoTime(leg.departure, zone)}` : ''}
                {leg.arrival ? `, arrived ${formatIsoTime(leg.arrival, zone)}` : ''}; labels: {leg.labels.map((r) => names.get(r) ?? r).join(', ') || 'none'}
              </li>
            ))}
          </ol>
        )}
      </section>
      <section aria-labelledby="shipment-labels-title">
        <h3 id="shipment-labels-title">Labels</h3>
        <div className="shipments__table-wrap">
          <table className="shipments__table" data-testid="shipment-labels">
            <thead>
              <tr>
                <th scope="col">Label</th>
                <th scope="col">Alert</th>
                <th scope="col">Run ({zoneLabel(zone)})</th>
                <th scope="col">Excursions</th>
                <th scope="col">Above max</th>
                <th scope="col">Below min</th>
                <th scope="col">Review</th>
              </tr>
            </thead>
            <tbody>
              {shipment.labelsOf.map((l) => (
                <tr key={l.reportId} data-report-id={l.reportId}>
                  <td>
                    <button type="button" className="link-button" onClick={() => openReport(l.reportId)}>
                      {l.labelName}
                    </button>
                  </td>
                  <td>
                    <AlertBadge level={l.alert.level} />
                  </td>
                  <td>{l.startTime ? `${formatIsoTime(l.startTime, zone)} – ${l.endTime ? formatIsoTime(l.endTime, zone) : '…'}` : 'Not started'}</td>
                  <td>{l.excursions.length}</td>
                  <td>{formatDuration(l.timeAbove.temperature)}</td>
                  <td>{formatDuration(l.timeBelow.temperature)}</td>
                  <td>
                    {l.review.awaitingAcknowledgement
                      ? 'Alert not acknowledged'
                      : l.review.decision && !l.review.decisionWithdrawn
                        ? decisionLabel(l.review.decision)
                        : 'Awaiting review'}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
      <FactsEditor shipment={shipment} onSaved={load} />
      <ReleaseForm shipment={shipment} onDecided={load} zone={zone} />
    </section>
  );
}

function openReport(reportId: string): void {
  stores.ui.getState().setView('reports');
  void stores.detail.getState().open(reportId);
}

/** Every label's temperature over one time axis (epoch seconds), each label's limits as lines. */
function ShipmentChart({ readings, zone }: { readings: ShipmentReadings; zone: TimeZoneSetting }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    if (!canvas.current) return;
    const palette = ['#0047ab', '#6a1b9a', '#2e7d32', '#ef6c00', '#00838f', '#5d4037', '#ad1457', '#455a64'];
    const datasets: ChartDataset<'line', { x: number; y: number }[]>[] = readings.labels.map((l, i) => ({
      label: l.labelName,
      data: l.timestamps.map((t, k) => ({ x: t, y: l.temperatures[k] })),
      borderColor: palette[i % palette.length],
      borderWidth: 1.5,
      pointRadius: 0,
    }));
    const times = readings.labels.flatMap((l) => (l.timestamps.length ? [l.timestamps[0], l.timestamps[l.timestamps.length - 1]] : []));
    const [from, to] = times.length ? [Math.min(...times), Math.max(...times)] : [0, 1];
    const limits = new Map<string, { value: number; kind: 'max' | 'min' }>();
    for (const l of readings.labels) {
      if (l.limits.maxTemperature != null) limits.set(`max ${l.limits.maxTemperature}`, { value: l.limits.maxTemperature, kind: 'max' });
      if (l.limits.minTemperature != null) limits.set(`min ${l.limits.minTemperature}`, { value: l.limits.minTemperature, kind: 'min' });
    }
    for (const { value, kind } of limits.values()) {
      datasets.push({
        label: `${kind === 'max' ? 'Maximum' : 'Minimum'} ${formatTemperature(value)}`,
        data: [
          { x: from, y: value },
          { x: to, y: value },
        ],
        borderColor: kind === 'max' ? CHART_COLORS.maxTemperature : CHART_COLORS.minTemperature,
        borderDash: [10, 4],
        borderWidth: 1,
        pointRadius: 0,
      });
    }
    const chart = new Chart(canvas.current, {
      type: 'line',
      data: { datasets },
      options: {
        animation: false,
        parsing: false,
        responsive: true,
        maintainAspectRatio: false,
        scales: {
          x: { type: 'linear', min: from, max: to, ticks: { callback: (v) => `${formatDay(Number(v), zone)} ${formatClock(Number(v), zone)}`, maxTicksLimit: 6 } },
          y: { type: 'linear', title: { display: true, text: '°C' } },
        },
        plugins: { legend: { position: 'bottom' } },
      },
    });
    canvas.current.dataset.drawn = String(readings.labels.length);
    return () => chart.destroy();
  }, [readings, zone]);
  return (
    <figure className="shipment__chart" data-testid="shipment-chart">
      <div className="shipment__chart-box">
        <canvas ref={canvas} role="img" aria-label={`Temperature of ${readings.labels.length} labels over one time axis, ${zoneLabel(zone)}`} />
      </div>
    </figure>
  );
}

type LegRow = { mode: TransportMode; from: string; to: string };
type BudgetRow = { direction: 'above' | 'below'; threshold: string; minutes: string };

/** The shipment's facts, changed with a reason, as a verdict input is. */
function FactsEditor({ shipment, onSaved }: { shipment: Shipment; onSaved: () => Promise<void> }) {
  const facts = shipment.facts;
  const [product, setProduct] = useState(facts.product ?? '');
  const [origin, setOrigin] = useState(facts.origin ?? '');
  const [destination, setDestination] = useState(facts.destination ?? '');
  const [legs, setLegs] = useState<LegRow[]>(facts.legs.map((l) => ({ mode: l.mode, from: l.from, to: l.to })));
  const [budget, setBudget] = useState<BudgetRow[]>(
    facts.budget.filter((b) => b.quantity === 'temperature').map((b) => ({ direction: b.direction, threshold: String(b.threshold), minutes: String(b.minutes) })),
  );
  const [reason, setReason] = useState('');
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const c = client();
    if (!c) return;
    const body: ShipmentFactsBody = {
      product: product.trim() || null,
      origin: origin.trim() || null,
      destination: destination.trim() || null,
      // Legs keep their times as the service holds them; the form edits mode and places.
      legs: legs.map((l, i) => ({ ...facts.legs[i], mode: l.mode, from: l.from.trim(), to: l.to.trim() })),
      budget: budget.map((b) => ({ quantity: 'temperature' as const, direction: b.direction, threshold: Number(b.threshold), minutes: Number(b.minutes) })),
      reason,
    };
    setBusy(true);
    try {
      await c.putFacts(shipment.id, body);
      setMessage({ ok: true, text: 'Facts saved.' });
      setReason('');
      await onSaved();
    } catch (err) {
      setMessage({ ok: false, text: errorMessage(err) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="review-form shipment__facts" onSubmit={submit} data-testid="shipment-facts">
      <h3>Facts</h3>
      <div className="review-form__row">
        <label className="field">
          <span className="field__label">Product</span>
          <input name="product" value={product} onChange={(e) => setProduct(e.target.value)} />
        </label>
        <label className="field">
          <span className="field__label">Origin</span>
          <input name="origin" value={origin} onChange={(e) => setOrigin(e.target.value)} />
        </label>
        <label className="field">
          <span className="field__label">Destination</span>
          <input name="destination" value={destination} onChange={(e) => setDestination(e.target.value)} />
        </label>
      </div>
      <fieldset>
        <legend className="field__label">Legs, in order</legend>
        {legs.map((leg, i) => (
          <div key={i} className="review-form__row" data-testid="leg-row">
            <select aria-label={`Mode of leg ${i + 1}`} value={leg.mode} onChange={(e) => setLegs(legs.map((l, k) => (k === i ? { ...l, mode: e.target.value as TransportMode } : l)))}>
              {TRANSPORT_MODES.map((m) => (
                <option key={m} value={m}>
                  {MODE_TEXT[m]}
                </option>
              ))}
            </select>
            <input aria-label={`From, leg ${i + 1}`} value={leg.from} required onChange={(e) => setLegs(legs.map((l, k) => (k === i ? { ...l, from: e.target.value } : l)))} />
            <input aria-label={`To, leg ${i + 1}`} value={leg.to} required onChange={(e) => setLegs(legs.map((l, k) => (k === i ? { ...l, to: e.target.value } : l)))} />
            <button type="button" className="button" onClick={() => setLegs(legs.filter((_, k) => k !== i))}>
              Remove leg
            </button>
          </div>
        ))}
        <button type="button" className="button" onClick={() => setLegs([...legs, { mode: 'road', from: '', to: '' }])}>
          Add leg
        </button>
      </fieldset>
      <fieldset>
        <legend className="field__label">Stability budget (temperature)</legend>
        {budget.map((b, i) => (
          <div key={i} className="review-form__row" data-testid="budget-row">
            <select aria-label={`Direction of budget ${i + 1}`} value={b.direction} onChange={(e) => setBudget(budget.map((x, k) => (k === i ? { ...x, direction: e.target.value as 'above' | 'below' } : x)))}>
              <option value="above">above</option>
              <option value="below">below</option>
            </select>
            <input aria-label={`Threshold °C of budget ${i + 1}`} type="number" step="any" value={b.threshold} required onChange={(e) => setBudget(budget.map((x, k) => (k === i ? { ...x, threshold: e.target.value } : x)))} />
            <input aria-label={`Minutes allowed of budget ${i + 1}`} type="number" min={0} step={1} value={b.minutes} required onChange={(e) => setBudget(budget.map((x, k) => (k === i ? { ...x, minutes: e.target.value } : x)))} />
            <button type="button" className="button" onClick={() => setBudget(budget.filter((_, k) => k !== i))}>
              Remove limit
            </button>
          </div>
        ))}
        <button type="button" className="button" onClick={() => setBudget([...budget, { direction: 'above', threshold: '8', minutes: '120' }])}>
          Add limit
        </button>
      </fieldset>
      <ReasonField name="facts-reason" value={reason} onChange={setReason} />
      <div className="review-form__row">
        <button type="submit" className="button button--primary" disabled={busy}>
          {busy ? 'Saving…' : 'Save facts'}
        </button>
      </div>
      {message && (
        <p className={`save-message save-message--${message.ok ? 'ok' : 'error'}`} role={message.ok ? 'status' : 'alert'} data-testid="shipment-facts-message">
          {message.text}
        </p>
      )}
    </form>
  );
}

/**
 * The one signed decision for every label, as a report's decision is taken (ReviewPanel.tsx):
 * nothing preselected, a reason always, the person's password again; offered only for what the
 * person's role may sign, and not at all while a label's alert awaits acknowledgement.
 */
function ReleaseForm({ shipment, onDecided, zone }: { shipment: Shipment; onDecided: () => Promise<void>; zone: TimeZoneSetting }) {
  const [decision, setDecision] = useState<Decision | null>(null);
  const [reason, setReason] = useState('');
  const [signing, setSigning] = useState(false);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ ok: boolean; message: string } | null>(null);
  const signs = useConnection((s) => s.session?.person !== undefined);
  const mayDecide = useConnection((s) => s.session?.mayDecide);
  const offered = mayDecide ? DECISIONS.filter((d) => mayDecide.includes(d)) : DECISIONS;
  const unacknowledged = shipment.labelsOf.filter((l) => l.review.awaitingAcknowledgement).map((l) => l.labelName);
  const decide = async (password?: string) => {
    const c = client();
    if (!c || decision === null) return false;
    setBusy(true);
    try {
      await c.decide(shipment.id, { decision, reason, ...(password !== undefined && { password, zone: signerZone() }) });
      setOutcome({ ok: true, message: `${decisionLabel(decision)}: ${shipment.labels} ${shipment.labels === 1 ? 'label' : 'labels'}.` });
      setReason('');
      setDecision(null);
      await onDecided();
      return true;
    } catch (err) {
      setOutcome({ ok: false, message: errorMessage(err) });
      return false;
    } finally {
      setBusy(false);
    }
  };
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (decision === null) return;
    setOutcome(null);
    if (signs) setSigning(true);
    else await decide();
  };
  const standing = shipment.decision;
  return (
    <form className="review-form" onSubmit={submit} data-testid="shipment-decision-form">
      <h3>Decision for the whole shipment</h3>
      {standing && (
        <p data-testid="shipment-decision">
          <strong>{decisionLabel(standing.decision)}</strong>: {standing.reason}, {standing.meaning ? `signed “${standing.meaning}” ` : ''}
          {formatIsoTime(standing.at, zone)}, covering {standing.reports.length} {standing.reports.length === 1 ? 'label' : 'labels'}.
        </p>
      )}
      {unacknowledged.length > 0 && (
        <p className="save-message save-message--error" data-testid="shipment-unacknowledged">
          A decision waits for the acknowledgement of the alerts of {unacknowledged.join(', ')}.
        </p>
      )}
      <fieldset className="review-form__row" disabled={unacknowledged.length > 0}>
        <legend className="field__label">Decision</legend>
        {offered.map((d) => (
          <label key={d}>
            <input type="radio" name="shipment-decision" value={d} checked={decision === d} onChange={() => setDecision(d)} /> {decisionLabel(d)}
          </label>
        ))}
      </fieldset>
      <ReasonField name="shipment-reason" value={reason} onChange={setReason} disabled={unacknowledged.length > 0} />
      <div className="review-form__row">
        <button type="submit" className="button button--primary" disabled={busy || decision === null || unacknowledged.length > 0}>
          {busy ? 'Saving…' : signs ? 'Sign decision…' : 'Save decision'}
        </button>
      </div>
      {signing && decision !== null ? (
        <SignatureDialog meaning={MEANING[decision]} action="decide" onSign={(password) => decide(password)} onCancel={() => setSigning(false)} status={{ busy, outcome }} />
      ) : (
        outcome && (
          <p className={`save-message save-message--${outcome.ok ? 'ok' : 'error'}`} role={outcome.ok ? 'status' : 'alert'} data-testid="shipment-decision-message">
            {outcome.message}
          </p>
        )
      )}
    </form>
  );
}
