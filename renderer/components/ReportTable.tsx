/**
 * The report table, virtualised: only the rows on screen (plus a few) exist in the DOM, and
 * their pages are asked for once scrolling settles, so a scrollbar dragged across 100 000 reports
 * sends one request for where it lands instead of one per frame. A list taller than a browser can
 * lay out (a million rows) is scaled into the scroll range, exactly at both ends and row by row on
 * small scrolls (lib/scaled-scroll). Reference and Alert are pinned
 * to the left edge; the other columns are the person's choice. Sorting is the API's: clicking a
 * header asks the server again in the new order.
 */
import { memo, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { CSSProperties, ReactNode, Ref, RefObject } from 'react';
import type { ListRow } from '../state/list';
import { COLUMN_INFO, gridTemplate, minimumWidth, PINNED_COLUMNS, type MeasuredWidths } from '../lib/columns';
import type { ColumnId } from '../lib/columns';
import { browserHeightLimit } from '../lib/element-height-limit';
import { modeLabel, statusLabel, typeLabel } from '../lib/format';
import { activeFilterCount, DECISION_LABELS } from '../lib/list-query';
import { formatIsoTime, type TimeZoneSetting } from '../lib/time-zone';
import { useTimeZone } from '../state/time-zone';
import { offsetAt, SAFE_MAX_SCROLL_HEIGHT, scrollScale, scrollTopToReveal } from '../lib/scaled-scroll';
import type { ScrollScale } from '../lib/scaled-scroll';
import { stores, useDetail, useList, usePicked, useUi } from '../state/stores';
import { AlertBadge } from './AlertBadge';
import { FlagStrip } from './FlagStrip';
import { PendingMark } from './PendingMark';

export const ROW_HEIGHT = 44;
const HEADER_HEIGHT = 44;
/** Rows fetched beyond the screen on each side once scrolling settles, so short scrolls find them ready. */
const PREFETCH_ROWS = 40;

/** The company's current decision, "withdrawn" when the alert changed under the newest one, "—" when none. */
function DecisionCell({ review }: { review: ListRow['review'] }) {
  if (review.decision) return <span className={`decision-mark decision-mark--${review.decision}`}>{DECISION_LABELS[review.decision]}</span>;
  if (review.decisionWithdrawn) {
    return (
      <span className="decision-mark decision-mark--withdrawn" title="The decision was withdrawn because the alert changed; a new one is due">
        withdrawn
      </span>
    );
  }
  return (
    <span className="muted" aria-label="No decision">
      —
    </span>
  );
}

/**
 * The whole run's excursion count, which the column sorts by (the list's order key
 * calculatedSenseData.numberOfViolations.all); the strip beside it is drawn on the trimmed range
 * when a trim is set, as the alert is, and the title says both counts when they differ.
 */
function excursionTitle(r: ListRow): string {
  const whole = r.calculatedExcursions;
  const shown = r.minimalSenseData.numberOfViolations.all;
  const words = `${whole} excursion${whole === 1 ? '' : 's'} in the whole run`;
  return whole === shown ? words : `${words}; ${shown} in the trimmed range the strip shows`;
}

const CELLS: Record<ColumnId, (r: ListRow, zone: TimeZoneSetting) => ReactNode> = {
  reference: (r) => (
    <>
      <PendingMark id={r.id} compact />
      {r.labelReference ? (
        <span className="cell-strong" title={r.labelReference}>
          {r.labelReference}
        </span>
      ) : (
        <span className="muted">no reference</span>
      )}
    </>
  ),
  alert: (r) => <AlertBadge level={r.alert.level} taps={r.numberOfTaps} />,
  label: (r) => (
    <span className="cell-stack" title={`${r.label.sequenceCode} · ${r.label.uid}`}>
      <span>{r.label.sequenceCode}</span>
      <span className="muted small">{r.label.uid}</span>
    </span>
  ),
  status: (r) => <span className={`status status--${r.status}`}>{statusLabel(r.status)}</span>,
  strip: (r) => (
    <span className="cell-strip">
      <FlagStrip flags={r.minimalSenseData.flattenedDatapoints} />
      <span className="small" title={excursionTitle(r)} data-testid="excursion-count">
        {r.calculatedExcursions}
      </span>
    </span>
  ),
  decision: (r) => <DecisionCell review={r.review} />,
  mode: (r) => modeLabel(r.mode),
  type: (r) => typeLabel(r.type),
  created: (r, zone) => <span className="cell-date">{formatIsoTime(r.created, zone)}</span>,
  updated: (r, zone) => <span className="cell-date">{formatIsoTime(r.updated, zone)}</span>,
  flag: (r) => (r.hasFlag ? <span className="flag-mark">⚑ Flagged</span> : ''),
  archived: (r) => (r.isArchived ? <span className="archived-mark">Archived</span> : ''),
};

/** Left and right padding of a cell, and a pixel for rounding. */
const CELL_PADDING = 18;

/**
 * The width the date columns need in this locale and zone: the widest of a year's dates at
 * late and early hours (month names differ in length), drawn in the table's own font,
 * so a date is never cut whatever the language of the desk.
 */
function useDateWidths(scroller: RefObject<HTMLDivElement | null>, zone: TimeZoneSetting): MeasuredWidths {
  const [widths, setWidths] = useState<MeasuredWidths>({});
  useLayoutEffect(() => {
    const el = scroller.current;
    const context = typeof document === 'undefined' ? null : document.createElement('canvas').getContext('2d');
    if (!el || !context) return;
    const style = getComputedStyle(el);
    context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    let widest = 0;
    for (let month = 0; month < 12; month++) {
      for (const hour of [10, 23]) {
        const iso = new Date(Date.UTC(2026, month, 28, hour, 58)).toISOString();
        widest = Math.max(widest, context.measureText(formatIsoTime(iso, zone)).width);
      }
    }
    const width = Math.ceil(widest) + CELL_PADDING;
    setWidths({ created: width, updated: width });
  }, [scroller, zone]);
  return widths;
}

function cellClass(id: ColumnId): string {
  return `cell cell--${id}${PINNED_COLUMNS.includes(id) ? ' cell--pinned' : ''}`;
}

function HeaderCell({ id, cellRef }: { id: ColumnId; cellRef?: Ref<HTMLDivElement> }) {
  const sort = useList((s) => s.query.sort);
  const column = COLUMN_INFO[id];
  const active = sort.column === column.sort;
  const ariaSort = active ? (sort.direction === 'asc' ? 'ascending' : 'descending') : 'none';
  const sortBy = column.sort;
  if (sortBy === undefined) {
    return (
      <div role="columnheader" className={cellClass(id)} ref={cellRef} data-column={id}>
        <span className="column-title" title="The list cannot be sorted by this column">
          {column.title}
        </span>
      </div>
    );
  }
  return (
    <div role="columnheader" aria-sort={ariaSort} className={cellClass(id)} ref={cellRef} data-column={id}>
      <button
        type="button"
        className={`sort-button${active ? ' is-active' : ''}`}
        onClick={() => stores.list.getState().sortBy(sortBy)}
        title={active ? `Sorted by ${column.title.toLowerCase()}, ${sort.direction === 'asc' ? 'ascending' : 'descending'}; click to reverse` : `Sort by ${column.title.toLowerCase()}`}
        data-sort={sortBy}
      >
        {column.title}
        <span className="sort-button__arrow" aria-hidden="true">
          {active ? (sort.direction === 'asc' ? '▲' : '▼') : '↕'}
        </span>
      </button>
    </div>
  );
}

/**
 * The rows to lay out: those on screen and a few around them, each placed where the scaled scroll
 * position shows it. Rows that would fall outside the scrolled content are left out, so they never
 * make it taller than the scale expects.
 */
function visibleRows(scale: ScrollScale, scrollTop: number, offset: number, count: number): { index: number; start: number }[] {
  const from = Math.max(0, Math.floor(offset / ROW_HEIGHT) - OVERSCAN_ROWS);
  const to = Math.min(count - 1, Math.floor((offset + scale.viewportHeight) / ROW_HEIGHT) + OVERSCAN_ROWS);
  const top = Math.min(scale.maxScrollTop, Math.max(0, scrollTop));
  const rows: { index: number; start: number }[] = [];
  for (let index = from; index <= to; index++) {
    const start = Math.round(top + index * ROW_HEIGHT - offset);
    if (start >= 0 && start + ROW_HEIGHT <= scale.physicalHeight) rows.push({ index, start });
  }
  return rows;
}

/**
 * The box that picks a report for bulk work; Shift extends from the last one picked. Not a tab
 * stop of its own: in the table Space picks the row the keyboard is on.
 */
function PickBox({ row, index }: { row: ListRow; index: number }) {
  const picked = usePicked((s) => s.ids.includes(row.id));
  return (
    <input
      type="checkbox"
      className="pick-box"
      tabIndex={-1}
      checked={picked}
      aria-label={`Select ${row.labelReference || row.label.sequenceCode}`}
      onClick={(e) => {
        e.stopPropagation();
        stores.picked.getState().toggle(row.id, index, e.shiftKey, (i) => stores.list.getState().rowAt(i)?.id);
      }}
      onChange={() => {}}
      data-testid="pick-box"
    />
  );
}

function gridHasFocus(row: HTMLElement): boolean {
  const grid = row.closest('[role=grid]');
  return grid !== null && grid.contains(document.activeElement);
}

/** Memoised: scrolling re-renders the table, but a row only when its index, place or data change. */
const Row = memo(function Row({ index, start, columns }: { index: number; start: number; columns: ColumnId[] }) {
  // Subscribing to `version` re-renders the row when its page arrives or an edit lands.
  useList((s) => s.version);
  const selected = useList((s) => s.selectedIndex === index);
  const row = stores.list.getState().rowAt(index);
  const zone = useTimeZone();
  const openId = useDetail((s) => s.id);
  const ref = useRef<HTMLDivElement>(null);
  // The keyboard moves the selection; the focus follows it while it is in the table.
  useEffect(() => {
    const el = ref.current;
    if (selected && el && gridHasFocus(el) && document.activeElement !== el) el.focus({ preventScroll: true });
  }, [selected, row]);
  const style: CSSProperties = { transform: `translateY(${start}px)`, height: ROW_HEIGHT };
  if (!row) {
    return (
      <div role="row" aria-rowindex={index + 2} aria-busy="true" className="row row--loading" style={style} ref={ref} tabIndex={-1}>
        <div role="gridcell" className="cell cell--reference cell--pinned">
          <span className="placeholder-bar" />
        </div>
      </div>
    );
  }
  const open = openId === row.id;
  return (
    <div
      role="row"
      ref={ref}
      tabIndex={-1}
      aria-rowindex={index + 2}
      aria-selected={selected}
      data-report-id={row.id}
      data-index={index}
      className={`row${index % 2 === 1 ? ' is-odd' : ''}${selected ? ' is-selected' : ''}${open ? ' is-open' : ''}${row.isArchived ? ' is-archived' : ''}`}
      style={style}
      onClick={() => {
        stores.list.getState().select(index);
        stores.openReport(row.id);
      }}
    >
      {columns.map((id) => (
        <div role="gridcell" key={id} className={cellClass(id)}>
          {id === 'reference' && <PickBox row={row} index={index} />}
          {CELLS[id](row, zone)}
        </div>
      ))}
    </div>
  );
});

/** How long the scroll position must rest before the rows there are asked for. */
const SETTLE_MS = 100;
/** Rows kept in the DOM beyond the screen on each side, so small scrolls show rows at once. */
const OVERSCAN_ROWS = 8;

export interface ReportTableProps {
  /**
   * The tallest the scrolled rows may be, in pixels; a longer list is scaled into it (see
   * lib/scaled-scroll). Lower than the browser's own limit when that is measured lower.
   */
  maxScrollHeight?: number;
}

export function ReportTable({ maxScrollHeight = SAFE_MAX_SCROLL_HEIGHT }: ReportTableProps) {
  const total = useList((s) => s.total);
  const error = useList((s) => s.error);
  const unreachable = useList((s) => s.unreachable);
  const selectedIndex = useList((s) => s.selectedIndex);
  const filters = useList((s) => s.query.filters);
  const queryProblem = useList((s) => s.queryProblem);
  const columns = useUi((s) => s.columns);
  const scrollRef = useRef<HTMLDivElement>(null);
  const dateWidths = useDateWidths(scrollRef, useTimeZone());
  const referenceHeader = useRef<HTMLDivElement>(null);
  // The scroll position and the height of the rows' viewport (below the sticky header).
  const [scrollTop, setScrollTop] = useState(0);
  const [viewHeight, setViewHeight] = useState(0);
  const [scrolling, setScrolling] = useState(false);
  const settleTimer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const cap = Math.min(maxScrollHeight, browserHeightLimit());
  const scale = useMemo(() => scrollScale((total ?? 0) * ROW_HEIGHT, viewHeight, cap), [total, viewHeight, cap]);
  const scaleRef = useRef(scale);
  scaleRef.current = scale;
  const offset = offsetAt(scale, scrollTop);
  const count = total ?? 0;
  const shownFirst = count > 0 ? Math.min(count - 1, Math.floor(offset / ROW_HEIGHT)) : -1;
  const shownLast = count > 0 ? Math.min(count - 1, Math.floor((offset + Math.max(1, viewHeight) - 1) / ROW_HEIGHT)) : -1;

  useLayoutEffect(() => {
    const scroller = scrollRef.current;
    if (!scroller) return;
    const measure = () => setViewHeight(Math.max(0, scroller.clientHeight - HEADER_HEIGHT));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(scroller);
    return () => observer.disconnect();
  }, []);
  useEffect(
    () => () => {
      if (settleTimer.current !== null) clearTimeout(settleTimer.current);
    },
    [],
  );
  const onScroll = () => {
    const scroller = scrollRef.current;
    if (!scroller) return;
    setScrollTop(scroller.scrollTop);
    setScrolling(true);
    if (settleTimer.current !== null) clearTimeout(settleTimer.current);
    settleTimer.current = setTimeout(() => {
      settleTimer.current = null;
      setScrolling(false);
    }, SETTLE_MS);
  };

  // Pages are asked for where scrolling comes to rest; the store cancels what is no longer wanted.
  useEffect(() => {
    if (shownFirst < 0 || scrolling) return;
    stores.list.getState().requestRange(Math.max(0, shownFirst - PREFETCH_ROWS), shownLast + PREFETCH_ROWS);
  }, [shownFirst, shownLast, total, scrolling]);

  // "Rows X–Y of N": the rows actually on screen, below the sticky header.
  useEffect(() => {
    stores.list.getState().setShown(shownFirst, Math.max(shownFirst, shownLast));
  }, [shownFirst, shownLast]);

  // Keyboard selection and "go to row" bring the selected row fully into view, and ask for the rows
  // there at once: this scroll lands where it is put, there is no settling to wait for.
  useEffect(() => {
    const scroller = scrollRef.current;
    if (selectedIndex < 0 || !scroller) return;
    const scale = scaleRef.current;
    const to = scrollTopToReveal(scale, scroller.scrollTop, selectedIndex * ROW_HEIGHT, (selectedIndex + 1) * ROW_HEIGHT);
    if (to === null) return;
    scroller.scrollTop = to;
    const offset = offsetAt(scale, scroller.scrollTop);
    const first = Math.floor(offset / ROW_HEIGHT);
    const last = Math.floor((offset + scale.viewportHeight - 1) / ROW_HEIGHT);
    stores.list.getState().requestRange(Math.max(0, first - PREFETCH_ROWS), last + PREFETCH_ROWS);
  }, [selectedIndex]);

  // A new question starts at the top.
  const query = useList((s) => s.query);
  useEffect(() => {
    scrollRef.current?.scrollTo({ top: 0 });
  }, [query]);

  // Alert is pinned right after Reference, whose width follows the room there is.
  useLayoutEffect(() => {
    const header = referenceHeader.current;
    const scroller = scrollRef.current;
    if (!header || !scroller) return;
    const place = () => scroller.style.setProperty('--pinned-alert-left', `${header.offsetWidth}px`);
    place();
    const observer = new ResizeObserver(place);
    observer.observe(header);
    return () => observer.disconnect();
  }, [columns]);

  let body: ReactNode = null;
  if (queryProblem) {
    body = <div className="table-message">No reports are asked for until the filters can hold: {queryProblem}</div>;
  } else if (unreachable && total === null) {
    body = <div className="table-message">The reports appear here once the service answers.</div>;
  } else if (total === null && !error) {
    body = <div className="table-message">Loading reports…</div>;
  } else if (total === 0 && !error) {
    const active = activeFilterCount(filters);
    body = (
      <div className="table-message" data-testid="empty-state">
        {active > 0 ? (
          <>
            <p>No reports match these filters.</p>
            <button type="button" className="button" onClick={() => stores.list.getState().clearFilters()}>
              Clear filters
            </button>
          </>
        ) : (
          <p>There are no label reports for your company yet.</p>
        )}
      </div>
    );
  }

  const layout = { '--grid-columns': gridTemplate(columns, dateWidths), '--grid-min-width': `${minimumWidth(columns, dateWidths)}px` } as CSSProperties;
  return (
    <div
      className="table-scroll"
      ref={scrollRef}
      role="grid"
      aria-label="Label reports"
      aria-rowcount={(total ?? 0) + 1}
      tabIndex={0}
      style={layout}
      data-testid="report-table"
      data-scaled={scale.boundaries > 0 ? 'true' : undefined}
      onScroll={onScroll}
      onFocus={(e) => {
        // Tabbing into the table lands on the selected row (or selects the first).
        if (e.target !== e.currentTarget) return;
        const list = stores.list.getState();
        if (list.selectedIndex < 0 && (list.total ?? 0) > 0) list.select(0);
        else e.currentTarget.querySelector<HTMLElement>('.row.is-selected')?.focus();
      }}
    >
      <div role="row" aria-rowindex={1} className="row row--header">
        {columns.map((id) => (
          <HeaderCell key={id} id={id} cellRef={id === 'reference' ? referenceHeader : undefined} />
        ))}
      </div>
      {body ?? (
        <div className="rows" style={{ height: scale.physicalHeight }}>
          {visibleRows(scale, scrollTop, offset, count).map(({ index, start }) => (
            <Row key={index} index={index} start={start} columns={columns} />
          ))}
        </div>
      )}
    </div>
  );
}
