/**
 * The Insights screen: the reports the browser's filters match, per week or month (with the share
 * that had an excursion), split by mode, owner, type or a custom field, the ten worst values of
 * that split, time out of range, degree-hours and MKT as distributions, and alert levels and
 * decisions, all for every filter of the browser (the review and decision ones too). Every bar
 * says its figure in words beside its colour and opens the browser filtered to exactly its
 * reports: its value's filter, added to those in force (a created month as days, a start-time
 * bucket or a range of a figure as a range chip, a decision as the decision filter). A bar with
 * no reports opens nothing. The filters in force are shown at the top as the browser's chips, and
 * removing one there counts again without it. The zone the weeks and months are counted in is this computer's,
 * said once at the top. Each table downloads as CSV, and the page prints to A4.
 */
import { saveFile } from '../lib/save-file';
import { useEffect, useMemo, useState } from 'react';
import { BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, LineController, LineElement, PointElement, Tooltip } from 'chart.js';
import { errorMessage } from '../api/client';
import { insightsClient } from '../api/insights-client';
import type { Group, Groups } from '../api/insights-client';
import {
  ALERT_WORDS,
  binCounts,
  DECISION_WORDS,
  DISTRIBUTIONS,
  distributionRows,
  groupsTable,
  percent,
  tableCsv,
  totalsOf,
  worstTen,
  type Table,
} from '../../contract/insights-tables';
import { CUSTOM_FIELD_PREFIX } from '../../schema/insights';
import { toApiParams } from '../lib/list-query';
import { localZoneName } from '../lib/time-zone';
import type { ListFilters, RangeFilter } from '../lib/list-query';
import { stores, useCatalogue, useConnection, useList } from '../state/stores';
import { FilterChips } from './FilterChips';
import { facetActive, facetPatch, facetTitle, facetValueLabel } from './FacetsPanel';
import './insights.css';

Chart.register(BarController, BarElement, CategoryScale, LinearScale, LineController, LineElement, PointElement, Tooltip, Legend);

const COLOURS = { reports: '#3b6ea5', share: '#c0392b', bins: '#5b8c5a', alert: ['#9e9e9e', '#5b8c5a', '#e6a23c', '#c0392b'], decision: ['#5b8c5a', '#c0392b', '#e6a23c', '#9e9e9e'] };

export const LOCAL_ZONE = localZoneName() ?? 'UTC';

type Period = 'week' | 'month';
type TimeField = 'created' | 'startTime';

interface Data {
  time: Groups;
  split: Groups;
  /** Per distribution, the groups of its ranges (by=bins.…). */
  bins: Groups[];
}


function localDay(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/**
 * The browser's filters for a created bucket counted in this computer's zone: its first and last
 * local day, within the created days in force (the bar counts the reports of both).
 */
export function bucketFilters(group: Pick<Group, 'value' | 'to'>, filters?: Pick<ListFilters, 'createdFrom' | 'createdTo'>): Partial<ListFilters> | null {
  if (group.value === null || group.to === undefined) return null;
  const first = String(group.value).length === 7 ? `${String(group.value)}-01` : String(group.value);
  const last = localDay(new Date(Date.parse(group.to) - 1));
  const from = filters?.createdFrom && filters.createdFrom > first ? filters.createdFrom : first;
  const to = filters?.createdTo && filters.createdTo < last ? filters.createdTo : last;
  return { createdFrom: from, createdTo: to };
}

/** A range chip added to those in force; none when the same one is in force already. */
export function rangePatch(filters: Pick<ListFilters, 'ranges'>, range: RangeFilter): Partial<ListFilters> {
  return filters.ranges.some((r) => r.filter === range.filter) ? {} : { ranges: [...filters.ranges, range] };
}

/** The range chip of a start-time bucket: the group's own conditions, in words. */
export function startBucketRange(group: Pick<Group, 'value' | 'filter'>, period: Period): RangeFilter | null {
  if (group.value === null || group.filter === undefined) return null;
  return { label: period === 'week' ? `Started in the week from ${String(group.value)}` : `Started in ${String(group.value)}`, filter: group.filter };
}

function openBrowser(patch: Partial<ListFilters>): void {
  stores.list.getState().setFilters(patch);
  stores.ui.getState().setView('reports');
}

/**
 * The range chip of a group no value condition picks (a custom field not set, no MKT, not
 * started): its `unset` key, which the /local list reads.
 */
export function unsetRange(group: Pick<Group, 'unset'>, label: string): RangeFilter | null {
  return group.unset === undefined ? null : { label, filter: `${group.unset}[unset]` };
}

/** The filter a split value's bar sets: its facet's, kept when it is in force already; a value not set, as a range chip. */
function splitFilters(filters: ListFilters, by: string, value: Group['value'], group?: Pick<Group, 'unset'>): Partial<ListFilters> | null {
  if (value === null && group?.unset !== undefined) return rangePatch(filters, unsetRange(group, `${facetTitle(by)}: not set`)!);
  if (facetActive(filters, by, value)) return {};
  return facetPatch(filters, by, value);
}

function download(table: Table): void {
  saveFile(tableCsv(table), `${table.title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}.csv`);
}

function BarChart({
  id,
  title,
  labels,
  values,
  colour,
  share,
  onBar,
  openable,
  note,
  onNote,
}: {
  id: string;
  title: string;
  labels: string[];
  values: number[];
  colour: string | string[];
  /** A line of per cent values on a second axis. */
  share?: (number | null)[];
  /** Opens the bar's reports; absent, or a bar without reports, opens nothing. */
  onBar?: (index: number) => void;
  /** Per bar, whether the browser's filters can say its reports; all by default. */
  openable?: boolean[];
  /** Words under the title. */
  note?: string;
  /** Opens the reports the note counts; absent, the note is words only. */
  onNote?: () => void;
}) {
  const opens = (i: number) => onBar !== undefined && values[i] > 0 && (openable?.[i] ?? true);
  const [canvas, setCanvas] = useState<HTMLCanvasElement | null>(null);
  useEffect(() => {
    if (!canvas) return;
    const chart = new Chart(canvas, {
      type: 'bar',
      data: {
        labels,
        datasets: [
          { type: 'bar', label: 'Reports', data: values, backgroundColor: colour, yAxisID: 'y', order: 2 },
          ...(share ? [{ type: 'line' as const, label: 'Share with an excursion (%)', data: share, borderColor: COLOURS.share, backgroundColor: COLOURS.share, yAxisID: 'share', order: 1 }] : []),
        ],
      },
      options: {
        animation: false,
        responsive: true,
        maintainAspectRatio: false,
        plugins: { legend: { display: true, position: 'bottom' } },
        scales: {
          y: { beginAtZero: true, title: { display: true, text: 'Reports' } },
          ...(share ? { share: { position: 'right' as const, beginAtZero: true, title: { display: true, text: '% with an excursion' }, grid: { drawOnChartArea: false } } } : {}),
        },
        onClick: (_event, elements) => {
          if (elements.length > 0 && opens(elements[0].index)) onBar!(elements[0].index);
        },
      },
    });
    return () => chart.destroy();
  }, [canvas, labels.join('\u0000'), values.join(','), share?.join(',')]);
  return (
    <figure className="insights__chart" data-chart={id}>
      <figcaption>
        {title}
        {note && !onNote && <span className="insights__note"> {note}</span>}
        {note && onNote && (
          <>
            {' '}
            <button type="button" className="insights__note link" data-note={id} onClick={onNote}>
              {note}
            </button>
          </>
        )}
      </figcaption>
      <div className="insights__canvas">
        <canvas ref={setCanvas} role="img" aria-label={`${title}: ${labels.map((l, i) => `${l} ${values[i]}`).join('; ')}`} />
      </div>
      {/* The same figures as text, and as the way in for keyboards and print. */}
      <ul className="insights__bars">
        {labels.map((label, i) => (
          <li key={label}>
            {opens(i) ? (
              <button type="button" className="insights__bar" data-bar={label} data-count={values[i]} onClick={() => onBar!(i)}>
                {label}: {values[i].toLocaleString()}
                {share && share[i] !== null ? ` (${share[i]} % with an excursion)` : ''}
              </button>
            ) : (
              <span className="insights__bar" data-bar={label}>
                {label}: {values[i].toLocaleString()}
                {share && share[i] !== null && share[i] !== undefined ? ` (${share[i]} % with an excursion)` : ''}
              </span>
            )}
          </li>
        ))}
      </ul>
    </figure>
  );
}

function TableView({ table, onRow }: { table: Table; onRow?: (index: number) => void }) {
  return (
    <section className="insights__table" data-table={table.title}>
      <h3>
        {table.title}{' '}
        <button type="button" className="button button--quiet" onClick={() => download(table)}>
          CSV
        </button>
      </h3>
      <table>
        <thead>
          <tr>
            {table.columns.map((c) => (
              <th key={c}>{c}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {table.rows.map((row, i) => (
            <tr key={i}>
              {row.map((cell, j) => (
                <td key={j}>
                  {j === 0 && onRow ? (
                    <button type="button" className="link" onClick={() => onRow(i)}>
                      {String(cell)}
                    </button>
                  ) : (
                    (cell ?? '—')
                  )}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

export function InsightsScreen() {
  const client = useConnection((s) => s.client);
  const query = useList((s) => s.query);
  const fields = useCatalogue((s) => s.customFields);
  const [period, setPeriod] = useState<Period>('month');
  const [timeField, setTimeField] = useState<TimeField>('created');
  const [by, setBy] = useState('mode');
  const [minReports, setMinReports] = useState(5);
  const [data, setData] = useState<Data | null>(null);
  const [error, setError] = useState<string | null>(null);
  const params = toApiParams(query);
  const filters = query.filters;

  // One request for every chart: the service reads the matches once for all of them.
  useEffect(() => {
    if (!client) return;
    const abort = new AbortController();
    setData(null);
    insightsClient(client)
      .screen({ filter: params.filter, customFields: params.customFields, review: params.review, unset: params.unset, zone: LOCAL_ZONE, time: `${timeField}.${period}`, by }, abort.signal)
      .then((figures) => {
        setData({ time: figures.time, split: figures.split, bins: figures.bins });
        setError(null);
      })
      .catch((err: unknown) => {
        if (!abort.signal.aborted) setError(errorMessage(err));
      });
    return () => abort.abort();
  }, [client, params.filter, params.customFields, params.review, params.unset, timeField, period, by]);

  const splitName = (g: Group) => facetValueLabel(by, g);
  const worst = useMemo(() => (data ? worstTen(data.split.groups, minReports) : []), [data, minReports]);
  const totals = data ? totalsOf(data.time.groups) : null;
  const counts = useMemo(() => (data ? binCounts(data.bins) : []), [data]);
  const byOptions = [
    ['mode', 'Mode'],
    ['company.id', 'Owner company'],
    ['type', 'Type'],
    ...fields.map((f) => [CUSTOM_FIELD_PREFIX + f.customFieldId, `Custom field: ${f.customFieldId}`]),
  ];
  const openSplit = (g: Group) => {
    const patch = splitFilters(filters, by, g.value, g);
    if (patch) openBrowser(patch);
  };
  const openTime = (g: Group) => {
    if (timeField === 'created') {
      const patch = bucketFilters(g, filters);
      if (patch) openBrowser(patch);
    } else {
      const range = g.value === null ? unsetRange(g, 'Not started yet') : startBucketRange(g, period);
      if (range) openBrowser(rangePatch(filters, range));
    }
  };
  const timeWords = timeField === 'created' ? 'created' : 'started';

  return (
    <div className="insights" data-testid="insights" data-ready={data !== null && error === null}>
      <div className="insights__controls no-print">
        {/* Staff release shipments, not labels: the shipments list is one step from the figures. */}
        <button type="button" className="button" data-testid="insights-shipments" onClick={() => stores.ui.getState().setView('shipments')}>
          Shipments
        </button>
        <label className="field">
          <span className="field__label">Per</span>
          <select name="period" value={period} onChange={(e) => setPeriod(e.target.value as Period)}>
            <option value="week">Week</option>
            <option value="month">Month</option>
          </select>
        </label>
        <label className="field">
          <span className="field__label">By</span>
          <select name="timeField" value={timeField} onChange={(e) => setTimeField(e.target.value as TimeField)}>
            <option value="created">Created</option>
            <option value="startTime">Start of the recording</option>
          </select>
        </label>
        <label className="field">
          <span className="field__label">Split by</span>
          <select name="by" value={by} onChange={(e) => setBy(e.target.value)}>
            {byOptions.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span className="field__label">Worst ten: at least N reports</span>
          <input name="minReports" type="number" min={1} value={minReports} onChange={(e) => setMinReports(Math.max(1, Number(e.target.value) || 1))} />
        </label>
        <button type="button" className="button" onClick={() => window.print()}>
          Print / PDF
        </button>
      </div>
      {/* The figures count the browser's filters: said here, each removable, so no figure hides what it leaves out. */}
      <div className="insights__filters" data-testid="insights-filters">
        <span className="insights__filters-label">For the report browser’s filters:</span>
        <FilterChips empty="none, every report." />
      </div>
      <p className="insights__zone" data-testid="insights-zone">
        Weeks (from Monday) and months in {LOCAL_ZONE}.
        {data ? <span data-testid="insights-total"> {data.time.total.toLocaleString()} reports.</span> : ''}
      </p>
      {error && <p role="alert">{error}</p>}
      {!data && !error && <p aria-live="polite">Counting…</p>}
      {data && totals && (
        <>
          <BarChart
            id="time"
            title={`Reports ${timeWords} per ${period}, and the share with an excursion`}
            labels={data.time.groups.map((g) => (g.value === null ? 'not started' : String(g.value)))}
            values={data.time.groups.map((g) => g.count)}
            share={data.time.groups.map((g) => percent(g.reportsWithExcursions, g.count))}
            colour={COLOURS.reports}
            onBar={(i) => openTime(data.time.groups[i])}
            openable={data.time.groups.map((g) => g.value !== null || (timeField === 'startTime' && g.unset !== undefined))}
          />
          <BarChart
            id="split"
            title={`Reports by ${facetTitle(by).toLowerCase()}, and the share with an excursion`}
            labels={data.split.groups.map(splitName)}
            values={data.split.groups.map((g) => g.count)}
            share={data.split.groups.map((g) => percent(g.reportsWithExcursions, g.count))}
            colour={COLOURS.reports}
            onBar={(i) => openSplit(data.split.groups[i])}
            openable={data.split.groups.map((g) => splitFilters(filters, by, g.value, g) !== null)}
          />
          <TableView
            table={groupsTable(`Ten worst by excursion rate, at least ${minReports} reports`, facetTitle(by), worst, (g) => splitName(g as Group))}
            onRow={(i) => openSplit(worst[i])}
          />
          <div className="insights__row">
            {DISTRIBUTIONS.map((d, i) => {
              const none = data.bins[i].groups.find((g) => g.value === null);
              const outside = none?.count ?? 0;
              const noneRange = none ? unsetRange(none, `${d.title}: none (no readings yet)`) : null;
              return (
                <BarChart
                  key={d.title}
                  id={`distribution-${i}`}
                  title={d.title}
                  note={outside > 0 ? `(${outside.toLocaleString()} without one: no readings yet)` : undefined}
                  onNote={noneRange ? () => openBrowser(rangePatch(filters, noneRange)) : undefined}
                  labels={d.bins.map((b) => b.label)}
                  values={counts[i]}
                  colour={COLOURS.bins}
                  onBar={(j) => openBrowser(rangePatch(filters, { label: `${d.title}: ${d.bins[j].label}`, filter: d.bins[j].filter }))}
                />
              );
            })}
          </div>
          <div className="insights__row">
            <BarChart
              id="alert-levels"
              title="Alert levels"
              labels={Object.keys(ALERT_WORDS).map((k) => ALERT_WORDS[k])}
              values={Object.keys(ALERT_WORDS).map((k) => totals.alertLevels[k])}
              colour={COLOURS.alert}
              onBar={(i) => {
                const patch = splitFilters(filters, 'alert.level', Number(Object.keys(ALERT_WORDS)[i]));
                if (patch) openBrowser(patch);
              }}
            />
            <BarChart
              id="decisions"
              title="Decisions"
              labels={Object.keys(DECISION_WORDS).map((k) => DECISION_WORDS[k])}
              values={Object.keys(DECISION_WORDS).map((k) => totals.decisions[k])}
              colour={COLOURS.decision}
              onBar={(i) => {
                const k = Object.keys(DECISION_WORDS)[i];
                const patch = splitFilters(filters, 'decision', k === 'none' ? null : k);
                if (patch) openBrowser(patch);
              }}
            />
          </div>
          <TableView table={groupsTable(`Per ${period} ${timeWords}`, period === 'week' ? 'week from' : 'month', data.time.groups, (g) => (g.value === null ? 'not started' : String(g.value)))} />
          <TableView table={groupsTable(`By ${facetTitle(by).toLowerCase()}`, facetTitle(by), data.split.groups, (g) => splitName(g as Group))} />
          <TableView
            table={{
              title: 'Distributions',
              columns: ['figure', 'range', 'reports'],
              rows: distributionRows(counts),
            }}
          />
        </>
      )}
    </div>
  );
}
