/**
 * The report table, virtualised: only the rows on screen (plus a few) exist in the DOM and only
 * their pages are fetched, so 100 000 reports scroll like 100. Sorting is the API's: clicking a
 * header asks the server again in the new order.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useEffect, useRef } from 'react';
import type { ReactNode } from 'react';
import type { MinimalLabelReport } from '../../schema/report';
import { formatIso, modeLabel, statusLabel, typeLabel } from '../lib/format';
import { activeFilterCount } from '../lib/list-query';
import type { SortColumn } from '../lib/list-query';
import { stores, useDetail, useList } from '../state/stores';
import { AlertBadge } from './AlertBadge';
import { FlagStrip } from './FlagStrip';

export const ROW_HEIGHT = 44;
const HEADER_HEIGHT = 44;

interface Column {
  id: string;
  title: string;
  sort?: SortColumn;
  render(row: MinimalLabelReport): ReactNode;
}

const COLUMNS: Column[] = [
  {
    id: 'reference',
    title: 'Reference',
    sort: 'reference',
    render: (r) => (r.labelReference ? <span className="cell-strong">{r.labelReference}</span> : <span className="muted">no reference</span>),
  },
  {
    id: 'label',
    title: 'Label',
    sort: 'label',
    render: (r) => (
      <span className="cell-stack">
        <span>{r.label.sequenceCode}</span>
        <span className="muted small">{r.label.uid}</span>
      </span>
    ),
  },
  { id: 'status', title: 'Status', sort: 'status', render: (r) => <span className={`status status--${r.status}`}>{statusLabel(r.status)}</span> },
  { id: 'alert', title: 'Alert', sort: 'alert', render: (r) => <AlertBadge level={r.alert.level} /> },
  {
    id: 'strip',
    title: 'Out of range',
    sort: 'excursions',
    render: (r) => (
      <span className="cell-strip">
        <FlagStrip flags={r.minimalSenseData.flattenedDatapoints} />
        <span className="small" title="Excursions">
          {r.minimalSenseData.numberOfViolations.all}
        </span>
      </span>
    ),
  },
  { id: 'mode', title: 'Mode', sort: 'mode', render: (r) => modeLabel(r.mode) },
  { id: 'type', title: 'Type', sort: 'type', render: (r) => typeLabel(r.type) },
  { id: 'created', title: 'Created', sort: 'created', render: (r) => formatIso(r.created) },
  { id: 'updated', title: 'Updated', sort: 'updated', render: (r) => formatIso(r.updated) },
  { id: 'flag', title: 'Flag', sort: 'flag', render: (r) => (r.hasFlag ? <span className="flag-mark">⚑ Flagged</span> : '') },
  { id: 'archived', title: 'Archived', sort: 'archived', render: (r) => (r.isArchived ? <span className="archived-mark">Archived</span> : '') },
];

function HeaderCell({ column }: { column: Column }) {
  const sort = useList((s) => s.query.sort);
  const active = column.sort !== undefined && sort.column === column.sort;
  const ariaSort = active ? (sort.direction === 'asc' ? 'ascending' : 'descending') : 'none';
  if (!column.sort) {
    return (
      <div role="columnheader" className={`cell cell--${column.id}`}>
        {column.title}
      </div>
    );
  }
  const sortColumn = column.sort;
  return (
    <div role="columnheader" aria-sort={ariaSort} className={`cell cell--${column.id}`}>
      <button
        type="button"
        className={`sort-button${active ? ' is-active' : ''}`}
        onClick={() => stores.list.getState().sortBy(sortColumn)}
        title={`Sort by ${column.title.toLowerCase()}`}
        data-sort={sortColumn}
      >
        {column.title}
        <span className="sort-button__arrow" aria-hidden="true">
          {active ? (sort.direction === 'asc' ? '▲' : '▼') : '↕'}
        </span>
      </button>
    </div>
  );
}

/** Memoised: scrolling re-renders the table, but a row only when its index, place or data change. */
const Row = memo(function Row({ index, start }: { index: number; start: number }) {
  // Subscribing to `version` re-renders the row when its page arrives or an edit lands.
  useList((s) => s.version);
  const selected = useList((s) => s.selectedIndex === index);
  const row = stores.list.getState().rowAt(index);
  const openId = useDetail((s) => s.id);
  const style = { transform: `translateY(${start}px)`, height: ROW_HEIGHT };
  if (!row) {
    return (
      <div role="row" aria-rowindex={index + 2} className="row row--loading" style={style}>
        <div role="gridcell" className="cell cell--placeholder">Loading…</div>
      </div>
    );
  }
  const open = openId === row.id;
  return (
    <div
      role="row"
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
      {COLUMNS.map((c) => (
        <div role="gridcell" key={c.id} className={`cell cell--${c.id}`}>
          {c.render(row)}
        </div>
      ))}
    </div>
  );
});

export function ReportTable() {
  const total = useList((s) => s.total);
  const error = useList((s) => s.error);
  const selectedIndex = useList((s) => s.selectedIndex);
  const filters = useList((s) => s.query.filters);
  const scrollRef = useRef<HTMLDivElement>(null);

  const virtualizer = useVirtualizer({
    count: total ?? 0,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
    scrollMargin: HEADER_HEIGHT,
    scrollPaddingStart: HEADER_HEIGHT,
    useFlushSync: false,
  });
  const items = virtualizer.getVirtualItems();
  const first = items.length > 0 ? items[0].index : -1;
  const last = items.length > 0 ? items[items.length - 1].index : -1;

  useEffect(() => {
    if (first >= 0) stores.list.getState().requestRange(first, last);
  }, [first, last, total]);

  // Keyboard selection keeps the selected row in view.
  useEffect(() => {
    if (selectedIndex >= 0) virtualizer.scrollToIndex(selectedIndex, { align: 'auto' });
  }, [selectedIndex, virtualizer]);

  // A new question starts at the top.
  const query = useList((s) => s.query);
  useEffect(() => {
    scrollRef.current?.scrollTo({ top: 0 });
  }, [query]);

  let body: ReactNode = null;
  if (total === null && !error) {
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

  return (
    <div className="table-scroll" ref={scrollRef} role="grid" aria-label="Label reports" aria-rowcount={(total ?? 0) + 1}>
      <div role="row" aria-rowindex={1} className="row row--header">
        {COLUMNS.map((c) => (
          <HeaderCell key={c.id} column={c} />
        ))}
      </div>
      {body ?? (
        <div className="rows" style={{ height: virtualizer.getTotalSize() }}>
          {items.map((item) => (
            <Row key={item.key} index={item.index} start={item.start - HEADER_HEIGHT} />
          ))}
        </div>
      )}
    </div>
  );
}
