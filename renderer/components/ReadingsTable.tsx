/**
 * Every reading of the report in a table: time (in the panel's zone), temperature, humidity when
 * the label measured it, and in words whether it is within the limits, beyond which one, or left
 * out by the trim. Only the rows in view (and a few around them) are in the DOM, spacer rows
 * above and below keep the scroll height of all of them, so a report of a million readings
 * scrolls as lightly as one of ten. A jump from an excursion (state/readings-focus.ts) scrolls
 * to its first reading and highlights it.
 *
 * Printing leaves the table out: a page would get only the rows that happen to be in view; the
 * CSV export has them all.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import type { LabelReport } from '../../schema/report';
import { formatHumidity, formatTemperature } from '../lib/format';
import { indexAtOrAfter, limitsBeyond, outsideTrim, READING_ROW_HEIGHT, rowWindow, scrollTopFor } from '../lib/readings';
import { hasHumidity, trimRange, violationFlags } from '../lib/report-view';
import { formatTime, zoneShortLabel } from '../lib/time-zone';
import { useReadingsFocus } from '../state/readings-focus';
import { useTimeZone } from '../state/time-zone';
import './readings.css';

/** The height of the scrolling area before it is measured. */
const VIEW_HEIGHT = 360;

export function ReadingsTable({ report }: { report: LabelReport }) {
  const zone = useTimeZone();
  const dps = report.calculatedSenseData.datapoints;
  const limits = report.senseConfig.limits;
  const trim = useMemo(() => trimRange(report), [report]);
  const humidity = useMemo(() => hasHumidity(dps), [dps]);
  const counts = useMemo(() => {
    const flags = violationFlags(dps, limits);
    let beyond = 0;
    let trimmed = 0;
    for (let i = 0; i < dps.length; i++) {
      if (flags[i] !== 0) beyond++;
      if (outsideTrim(dps[i].timestamp, trim)) trimmed++;
    }
    return { beyond, trimmed };
  }, [dps, limits, trim]);
  const scroller = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [viewHeight, setViewHeight] = useState(VIEW_HEIGHT);
  const [highlight, setHighlight] = useState<number | null>(null);
  const focus = useReadingsFocus();

  useEffect(() => {
    const el = scroller.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => setViewHeight(el.clientHeight || VIEW_HEIGHT));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  // A jump made before this table was shown (another visit of the report) is not repeated.
  const handledSeq = useRef(focus?.seq);
  useEffect(() => {
    const el = scroller.current;
    if (!focus || focus.seq === handledSeq.current) return;
    handledSeq.current = focus.seq;
    if (focus.reportId !== report.id || !el || dps.length === 0) return;
    const index = indexAtOrAfter(dps, focus.timestamp);
    setHighlight(index);
    const top = scrollTopFor(index, el.scrollTop, el.clientHeight || VIEW_HEIGHT, READING_ROW_HEIGHT);
    el.scrollTop = top;
    setScrollTop(top);
    el.scrollIntoView({ block: 'nearest' });
    el.focus({ preventScroll: true });
    // Only a new jump scrolls: `seq` changes with each, edits of the report do not.
  }, [focus?.seq]);

  if (dps.length === 0) return null;
  const { first, end } = rowWindow(scrollTop, viewHeight, READING_ROW_HEIGHT, dps.length);
  const columns = humidity ? 5 : 4;
  const rows = [];
  for (let i = first; i < end; i++) {
    const d = dps[i];
    const beyond = limitsBeyond(d, limits);
    const left = outsideTrim(d.timestamp, trim);
    const state = [left ? 'Left out by trim' : null, ...beyond].filter((s) => s !== null);
    const className = ['readings__row', beyond.length > 0 && 'readings__row--beyond', left && 'readings__row--trimmed', i === highlight && 'readings__row--focus']
      .filter(Boolean)
      .join(' ');
    rows.push(
      <tr
        key={i}
        className={className}
        aria-rowindex={i + 2}
        aria-current={i === highlight ? 'true' : undefined}
        data-testid="reading-row"
        data-index={i}
        data-state={beyond.length > 0 ? 'beyond' : left ? 'trimmed' : 'within'}
      >
        <td className="num">{i + 1}</td>
        <td>{formatTime(d.timestamp, zone, true)}</td>
        <td className="num">{formatTemperature(d.temperature)}</td>
        {humidity && <td className="num">{d.humidity === undefined ? '—' : formatHumidity(d.humidity)}</td>}
        <td>
          {beyond.length > 0 && (
            <span className="readings__mark" aria-hidden="true">
              ▲{' '}
            </span>
          )}
          {state.length > 0 ? state.join(' · ') : 'Within limits'}
        </td>
      </tr>,
    );
  }
  return (
    <section className="panel readings" aria-labelledby="readings-title" data-testid="readings">
      <h3 id="readings-title">Readings ({dps.length.toLocaleString()})</h3>
      <p className="muted small" data-testid="readings-summary">
        {counts.beyond.toLocaleString()} beyond a limit
        {trim ? ` · ${counts.trimmed.toLocaleString()} left out by the trim` : ''} · times in {zoneShortLabel(zone)}
      </p>
      <div
        ref={scroller}
        className="readings__scroll"
        tabIndex={0}
        role="region"
        aria-label="Readings, scrollable"
        onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
        data-testid="readings-scroll"
      >
        <table className="data-table readings__table" aria-rowcount={dps.length + 1}>
          <thead>
            <tr aria-rowindex={1}>
              <th scope="col">#</th>
              <th scope="col">Time ({zoneShortLabel(zone)})</th>
              <th scope="col">Temperature</th>
              {humidity && <th scope="col">Humidity</th>}
              <th scope="col">Limits</th>
            </tr>
          </thead>
          <tbody>
            {first > 0 && (
              <tr aria-hidden="true" className="readings__spacer" style={{ height: first * READING_ROW_HEIGHT }}>
                <td colSpan={columns} />
              </tr>
            )}
            {rows}
            {end < dps.length && (
              <tr aria-hidden="true" className="readings__spacer" style={{ height: (dps.length - end) * READING_ROW_HEIGHT }}>
                <td colSpan={columns} />
              </tr>
            )}
          </tbody>
        </table>
      </div>
    </section>
  );
}
