/**
 * The main screen: the one-line filter bar, where in the list one is, the table and the open
 * report. Keyboard first, for desks where the mouse is a long way off: arrows move the selected
 * row, Enter opens it (the focus goes to the report's heading), Escape closes it (the focus goes
 * back to its row), / jumps to the search box.
 */
import { useEffect, useRef, useState } from 'react';
import type { RefObject } from 'react';
import { COLUMN_IDS, COLUMN_INFO } from '../lib/columns';
import { formatCount } from '../lib/format';
import { stores, useDetail, useList, useUi } from '../state/stores';
import { BulkBar } from './BulkBar';
import { ErrorBanner } from './ErrorBanner';
import { FilterBar } from './FilterBar';
import { ReportDetail } from './ReportDetail';
import { ReportTable } from './ReportTable';
import { SplitPane } from './SplitPane';

const PAGE_JUMP = 15;

/** Set only by builds that try the table's scaled scrolling on a modest list (the browser tests). */
declare const __LABELDESK_TABLE_MAX_SCROLL_HEIGHT__: number | undefined;
const TABLE_MAX_SCROLL_HEIGHT = typeof __LABELDESK_TABLE_MAX_SCROLL_HEIGHT__ === 'number' ? __LABELDESK_TABLE_MAX_SCROLL_HEIGHT__ : undefined;

function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

function useKeyboard() {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.altKey || e.ctrlKey || e.metaKey) return;
      const list = stores.list.getState();
      if (e.key === 'Escape') {
        if (isTyping(e.target)) return;
        if (stores.detail.getState().id) {
          stores.detail.getState().close();
          e.preventDefault();
        }
        return;
      }
      if (isTyping(e.target)) return;
      // Inside the detail panel the keys belong to its own controls and scrolling.
      if (e.target instanceof HTMLElement && e.target.closest('.split__detail, .split__handle, .popover')) return;
      switch (e.key) {
        case '/': {
          const search = document.getElementById('search');
          if (search) {
            e.preventDefault();
            search.focus();
          }
          return;
        }
        case 'ArrowDown':
          list.moveSelection(1);
          break;
        case 'ArrowUp':
          list.moveSelection(-1);
          break;
        case 'PageDown':
          list.moveSelection(PAGE_JUMP);
          break;
        case 'PageUp':
          list.moveSelection(-PAGE_JUMP);
          break;
        case 'Home':
          list.select(0);
          break;
        case 'End':
          list.select((list.total ?? 0) - 1);
          break;
        case ' ': {
          // Space picks the keyboard's row for bulk work, as a click on its box does.
          if (e.target instanceof HTMLButtonElement) return;
          const row = list.selectedIndex >= 0 ? list.rowAt(list.selectedIndex) : undefined;
          if (!row) return;
          stores.picked.getState().toggle(row.id, list.selectedIndex, e.shiftKey, (i) => stores.list.getState().rowAt(i)?.id);
          break;
        }
        case 'Enter': {
          if (e.target instanceof HTMLButtonElement) return;
          const row = list.selectedIndex >= 0 ? list.rowAt(list.selectedIndex) : undefined;
          if (!row) return;
          stores.openReport(row.id);
          break;
        }
        default:
          return;
      }
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}

/**
 * Opening a report moves the focus to its heading, so the next Tab is inside it; closing puts the
 * focus back on the row it came from (or the table when that row has scrolled away).
 */
function useDetailFocus(pane: RefObject<HTMLDivElement | null>) {
  const id = useDetail((s) => s.id);
  const loadedId = useDetail((s) => s.report?.id ?? null);
  const focusedFor = useRef<string | null>(null);
  const previous = useRef<string | null>(null);
  useEffect(() => {
    if (id && loadedId === id && focusedFor.current !== id) {
      const heading = pane.current?.querySelector<HTMLElement>('#detail-title, h2');
      if (heading) {
        if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
        heading.focus();
        focusedFor.current = id;
      }
    }
    if (!id && previous.current) {
      const closed = previous.current;
      focusedFor.current = null;
      const row = document.querySelector<HTMLElement>(`.rows .row[data-report-id="${CSS.escape(closed)}"]`);
      (row ?? document.querySelector<HTMLElement>('[data-testid=report-table]'))?.focus({ preventScroll: row !== null });
    }
    previous.current = id;
  }, [id, loadedId, pane]);
}

function GoToRow({ total }: { total: number }) {
  const [text, setText] = useState('');
  const [problem, setProblem] = useState(false);
  const go = () => {
    const n = Number(text.replace(/[\s,.']/g, ''));
    if (!Number.isInteger(n) || n < 1 || n > total) {
      setProblem(true);
      return;
    }
    setProblem(false);
    stores.list.getState().select(n - 1);
  };
  return (
    <form
      className="go-to-row"
      onSubmit={(e) => {
        e.preventDefault();
        go();
      }}
    >
      <label>
        <span className="visually-hidden">Go to row (1 to {formatCount(total)})</span>
        <input
          name="goToRow"
          inputMode="numeric"
          placeholder="Go to row"
          value={text}
          onChange={(e) => setText(e.target.value)}
          aria-invalid={problem}
          title={problem ? `Type a row number from 1 to ${formatCount(total)}` : undefined}
          size={9}
        />
      </label>
      <button type="submit" className="button button--small">
        Go
      </button>
      {problem && (
        <span className="go-to-row__problem" role="alert">
          1 to {formatCount(total)}
        </span>
      )}
    </form>
  );
}

/** The sort in force when its column is not shown: its header cannot say it, so the count line does. */
function HiddenSort() {
  const sort = useList((s) => s.query.sort);
  const columns = useUi((s) => s.columns);
  const id = COLUMN_IDS.find((c) => COLUMN_INFO[c].sort === sort.column);
  if (!id || columns.includes(id)) return null;
  return (
    <span className="muted small" data-testid="sort-in-force">
      sorted by {COLUMN_INFO[id].title.toLowerCase()} {sort.direction === 'asc' ? '▲' : '▼'}
    </span>
  );
}

function CountLine() {
  const total = useList((s) => s.total);
  const unreachable = useList((s) => s.unreachable);
  const loading = useList((s) => s.loadingPages > 0);
  const shown = useList((s) => s.shown);
  const problem = useList((s) => s.queryProblem);
  // Filters that cannot be asked for have no count: 0 would read as "no such reports".
  if (problem) {
    return (
      <div className="count" data-testid="count-line">
        <span className="count__problem" role="alert" data-testid="query-problem">
          {problem}
        </span>
      </div>
    );
  }
  // Without the service there is no count to give: an old or zero one would mislead.
  if (unreachable) {
    return (
      <div className="count" aria-live="polite" data-testid="count-line">
        <span className="muted">No count while the service is unreachable</span>
      </div>
    );
  }
  return (
    <div className="count" aria-live="polite" data-testid="count-line">
      {total === null ? (
        <span>Counting…</span>
      ) : (
        <span>
          <span data-testid="report-count">{formatCount(total)}</span> report{total === 1 ? '' : 's'}
        </span>
      )}
      {total !== null && total > 0 && shown.first >= 0 && (
        <span className="count__range" data-testid="row-range">
          rows {formatCount(shown.first + 1)}–{formatCount(shown.last + 1)} of {formatCount(total)}
        </span>
      )}
      <HiddenSort />
      {loading && <span className="muted small">loading…</span>}
      {total !== null && total > 0 && <GoToRow total={total} />}
      <span className="muted small keys-help">↑↓ move · Space select · Enter open · / search · Esc close</span>
    </div>
  );
}

export function ReportBrowser() {
  const error = useList((s) => s.error);
  const unreachable = useList((s) => s.unreachable);
  const problem = useList((s) => s.queryProblem);
  const detailOpen = useDetail((s) => s.id !== null);
  const pane = useRef<HTMLDivElement>(null);
  useKeyboard();
  useDetailFocus(pane);
  return (
    <div className="browser">
      <FilterBar />
      <CountLine />
      <BulkBar />
      {/* Unreachable is said once, by the header's indicator; other failures are said here. */}
      {/* A query problem is said in the count line and beside its inputs, not twice more. */}
      {error && !unreachable && error !== problem && (
        <ErrorBanner
          message={error}
          onRetry={() => void stores.list.getState().reload()}
          onDismiss={() => stores.list.getState().dismissError()}
        />
      )}
      <div className="browser__body" ref={pane}>
        <SplitPane table={<ReportTable maxScrollHeight={TABLE_MAX_SCROLL_HEIGHT} />} detail={detailOpen ? <ReportDetail /> : null} />
      </div>
    </div>
  );
}
