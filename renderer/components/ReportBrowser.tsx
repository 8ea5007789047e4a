/**
 * The main screen: filters, the count of matching reports, the table and the open report.
 * Keyboard first, for desks where the mouse is a long way off: arrows move the selected row,
 * Enter opens it, / jumps to the search box, Escape closes the detail.
 */
import { useEffect } from 'react';
import { formatCount } from '../lib/format';
import { stores, useDetail, useList } from '../state/stores';
import { ErrorBanner } from './ErrorBanner';
import { FilterBar } from './FilterBar';
import { ReportDetail } from './ReportDetail';
import { ReportTable } from './ReportTable';

const PAGE_JUMP = 15;

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
      // Inside the detail panel the arrow keys belong to its own controls and scrolling.
      if (e.target instanceof HTMLElement && e.target.closest('.detail')) return;
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
        case 'Enter': {
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

function CountLine() {
  const total = useList((s) => s.total);
  const loading = useList((s) => s.loadingPages > 0);
  return (
    <p className="count" aria-live="polite">
      {total === null ? 'Counting…' : <span data-testid="report-count">{formatCount(total)}</span>}
      {total !== null && ` report${total === 1 ? '' : 's'}`}
      {loading && <span className="muted"> · loading…</span>}
      <span className="muted small keys-help"> ↑↓ select · Enter open · / search · Esc close</span>
    </p>
  );
}

export function ReportBrowser() {
  const error = useList((s) => s.error);
  const detailOpen = useDetail((s) => s.id !== null);
  useKeyboard();
  return (
    <div className={`browser${detailOpen ? ' browser--with-detail' : ''}`}>
      <FilterBar />
      <CountLine />
      {error && (
        <ErrorBanner
          message={error}
          onRetry={() => void stores.list.getState().reload()}
          onDismiss={() => stores.list.getState().dismissError()}
        />
      )}
      <div className="browser__body">
        <ReportTable />
        {detailOpen && <ReportDetail />}
      </div>
    </div>
  );
}
