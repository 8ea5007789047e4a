/**
 * The report browser's query and its page cache. The table may stand for 100 000 reports, so
 * rows are fetched a page at a time (output=minimal) only when they scroll into view, pages are
 * kept in a bounded cache, and any change of filters or sort throws the cache away and cancels
 * the requests still on their way (their answers would belong to the old question).
 */
import { createStore } from 'zustand/vanilla';
import { ApiClientError, errorMessage, isAbortError, NETWORK_ERROR } from '../api/client';
import { plainProblem } from '../lib/problem-text';
import type { ApiClient } from '../api/client';
import type { LabelReport } from '../../schema/report';
import type { ReviewMinimalReport } from '../../schema/review-list';
import { createdRangeProblem, defaultFilters, defaultQuery, toApiParams, toggleSort } from '../lib/list-query';
import type { ListApiParams, ListFilters, ListQuery, SortColumn } from '../lib/list-query';
import { toMinimalRow } from '../lib/report-view';

/** A row of the table: the minimal report with where the company's review of it stands. */
export type ListRow = ReviewMinimalReport;

export interface ListStoreOptions {
  getClient(): ApiClient | null;
  pageSize?: number;
  /** Pages kept in memory; the ones farthest from the rows on screen go first. */
  maxCachedPages?: number;
  /** Requests in flight at once, so a fast scroll does not queue dozens of pages. */
  maxConcurrent?: number;
  /** Delay before fetching a requested range, for callers that ask on every frame. */
  debounceMs?: number;
}

export interface ListState {
  query: ListQuery;
  /** totalDocuments of the current query; null until its first page arrived. */
  total: number | null;
  /** Bumped whenever cached rows change, so components re-read rowAt(). */
  version: number;
  /** Pages currently being fetched. */
  loadingPages: number;
  /** The last failure of the current query (shown in words, never swallowed). */
  error: string | null;
  /** True when the failure was "service unreachable". */
  unreachable: boolean;
  /** Why the filters in force cannot be asked for (a reversed date range), in words; null when they can. */
  queryProblem: string | null;
  selectedIndex: number;
  /** The rows on screen, [first, last], for "rows X–Y of N"; -1 when none. */
  shown: { first: number; last: number };

  rowAt(index: number): ListRow | undefined;
  setQuery(query: ListQuery): void;
  setFilters(patch: Partial<ListFilters>): void;
  clearFilters(): void;
  sortBy(column: SortColumn): void;
  /** The table shows rows [start, end]; fetch what is missing (debounced). */
  requestRange(start: number, end: number): void;
  /** Fetch the pages covering rows [start, end] now; resolves when they are in (or failed). */
  ensureRange(start: number, end: number): Promise<void>;
  /** Drop the cache and fetch again (after an error, or to see others' changes). */
  reload(): Promise<void>;
  select(index: number): void;
  setShown(first: number, last: number): void;
  moveSelection(delta: number): void;
  /** Put an edited report into its row wherever it is cached; the list is asked again when it no longer matches. */
  applyReport(report: LabelReport): void;
  /** A review changed (an acknowledgement, a decision): the rows' review state is asked for again. */
  refreshReview(): void;
  /** Forget the rows and stop fetching (a different key / company); the query itself is kept. */
  reset(): void;
  dismissError(): void;
}

export function createListStore(options: ListStoreOptions) {
  const pageSize = options.pageSize ?? 100;
  const maxCachedPages = Math.max(4, options.maxCachedPages ?? 60);
  const maxConcurrent = Math.max(1, options.maxConcurrent ?? 4);
  // The table asks only once scrolling has settled, so by default a range is fetched at once.
  const debounceMs = options.debounceMs ?? 0;

  // Kept outside the reactive state: the page map changes often and is read through rowAt().
  let pages = new Map<number, ListRow[]>();
  let generation = 0;
  let params: ListApiParams | null = null;
  let paramsError: string | null = null;
  const inFlight = new Map<number, { controller: AbortController; done: Promise<void> }>();
  let wanted: { first: number; last: number } = { first: 1, last: 1 };
  let timer: ReturnType<typeof setTimeout> | null = null;
  let queue: number[] = [];

  const pageOf = (index: number) => Math.floor(index / pageSize) + 1;

  return createStore<ListState>()((set, get) => {
    function computeParams(query: ListQuery) {
      try {
        const rangeProblem = createdRangeProblem(query.filters);
        if (rangeProblem !== null) throw new Error(rangeProblem);
        params = toApiParams(query);
        paramsError = null;
      } catch (err) {
        params = null;
        paramsError = errorMessage(err);
      }
    }

    function syncLoading() {
      if (get().loadingPages !== inFlight.size) set({ loadingPages: inFlight.size });
    }

    function newGeneration() {
      generation++;
      for (const { controller } of inFlight.values()) controller.abort();
      inFlight.clear();
      queue = [];
      pages = new Map();
      if (timer !== null) clearTimeout(timer);
      timer = null;
    }

    function evict() {
      if (pages.size <= maxCachedPages) return;
      const centre = (wanted.first + wanted.last) / 2;
      const byDistance = [...pages.keys()].sort((a, b) => Math.abs(b - centre) - Math.abs(a - centre));
      for (const page of byDistance) {
        if (pages.size <= maxCachedPages) break;
        if (page >= wanted.first && page <= wanted.last) continue;
        pages.delete(page);
      }
    }

    function fetchPage(page: number): Promise<void> {
      const existing = inFlight.get(page);
      if (existing) return existing.done;
      const client = options.getClient();
      if (!client) return Promise.resolve();
      if (!params) {
        set({ error: paramsError ?? 'The filter cannot be sent.', total: 0 });
        return Promise.resolve();
      }
      const gen = generation;
      const controller = new AbortController();
      const done = (async () => {
        try {
          // The review list: the /v2 list with each row's review state, and the review filters.
          const result = await client.listReports({ ...params, review: params.review ?? '', pageNumber: page, pageSize, output: 'minimal' }, controller.signal);
          if (gen !== generation) return;
          pages.set(page, result.data);
          evict();
          set((s) => ({ total: result.totalDocuments, version: s.version + 1, error: null, unreachable: false }));
        } catch (err) {
          if (isAbortError(err) || gen !== generation) return;
          const unreachable = err instanceof ApiClientError && err.code === NETWORK_ERROR;
          // Unreachable says nothing about the count: none is shown rather than a made-up 0.
          set({ error: plainProblem(err), unreachable, total: unreachable ? get().total : (get().total ?? 0) });
        } finally {
          // Only this request's own entry: an aborted page may have been asked for again since.
          if (inFlight.get(page)?.controller === controller) inFlight.delete(page);
          if (gen === generation) {
            syncLoading();
            pump();
          }
        }
      })();
      inFlight.set(page, { controller, done });
      syncLoading();
      return done;
    }

    /** Starts queued pages while there is room. */
    function pump() {
      while (inFlight.size < maxConcurrent && queue.length > 0) {
        const page = queue.shift()!;
        if (!pages.has(page) && !inFlight.has(page)) void fetchPage(page);
      }
    }

    function pagesFor(start: number, end: number): number[] {
      const total = get().total;
      const lastIndex = total === null ? end : Math.min(end, total - 1);
      const out: number[] = [];
      if (lastIndex < start && total !== null) return out;
      for (let p = pageOf(Math.max(0, start)); p <= pageOf(Math.max(0, lastIndex)); p++) out.push(p);
      return out;
    }

    function startQuery(query: ListQuery) {
      newGeneration();
      computeParams(query);
      wanted = { first: 1, last: 1 };
      set((s) => ({ query, total: null, version: s.version + 1, error: null, unreachable: false, queryProblem: paramsError, loadingPages: 0, selectedIndex: -1 }));
      // The first page is needed at once: its totalDocuments sizes the scroll area.
      void fetchPage(1);
    }

    return {
      query: defaultQuery(),
      total: null,
      version: 0,
      loadingPages: 0,
      error: null,
      unreachable: false,
      queryProblem: null,
      selectedIndex: -1,
      shown: { first: -1, last: -1 },

      rowAt: (index) => pages.get(pageOf(index))?.[index % pageSize],

      setQuery: (query) => startQuery(query),
      setFilters(patch) {
        const filters = { ...get().query.filters, ...patch };
        // Committing unchanged text (blur, Enter) must not throw the cache away.
        if (JSON.stringify(filters) === JSON.stringify(get().query.filters)) return;
        startQuery({ ...get().query, filters });
      },
      clearFilters: () => startQuery({ ...get().query, filters: defaultFilters() }),
      sortBy: (column) => startQuery({ ...get().query, sort: toggleSort(get().query.sort, column) }),

      requestRange(start, end) {
        const needed = pagesFor(start, end);
        if (needed.length === 0) return;
        wanted = { first: needed[0], last: needed[needed.length - 1] };
        // Pages scrolled past while they loaded are not worth finishing.
        for (const [page, { controller }] of inFlight) {
          if (page < wanted.first - 1 || page > wanted.last + 1) {
            controller.abort();
            inFlight.delete(page);
          }
        }
        syncLoading();
        // The pages on screen first, then outwards: the service answers one request at a time.
        const centre = pageOf(Math.floor((Math.max(0, start) + end) / 2));
        const missing = needed.filter((p) => !pages.has(p) && !inFlight.has(p)).sort((a, b) => Math.abs(a - centre) - Math.abs(b - centre));
        if (missing.length === 0) return;
        if (timer !== null) clearTimeout(timer);
        const run = () => {
          timer = null;
          queue = missing;
          pump();
        };
        if (debounceMs <= 0) run();
        else timer = setTimeout(run, debounceMs);
      },

      async ensureRange(start, end) {
        if (get().total === null) await fetchPage(1);
        const needed = pagesFor(start, end);
        if (needed.length > 0) wanted = { first: needed[0], last: needed[needed.length - 1] };
        await Promise.all(needed.filter((p) => !pages.has(p)).map((p) => fetchPage(p)));
      },

      async reload() {
        startQuery(get().query);
        await inFlight.get(1)?.done;
      },

      select(index) {
        const total = get().total ?? 0;
        set({ selectedIndex: total === 0 ? -1 : Math.max(0, Math.min(total - 1, index)) });
      },

      setShown(first, last) {
        const { shown } = get();
        if (shown.first !== first || shown.last !== last) set({ shown: { first, last } });
      },

      moveSelection(delta) {
        const { selectedIndex } = get();
        get().select(selectedIndex < 0 ? 0 : selectedIndex + delta);
      },

      applyReport(report) {
        let changed = false;
        for (const rows of pages.values()) {
          const i = rows.findIndex((r) => r.id === report.id);
          if (i >= 0) {
            // The review state is the review's own; the whole run's excursions follow the edit.
            rows[i] = { ...toMinimalRow(report), review: rows[i].review, calculatedExcursions: report.calculatedSenseData.numberOfViolations.all };
            changed = true;
          }
        }
        if (changed) set((s) => ({ version: s.version + 1 }));
        // A report archived (or flagged) out of the filters in force leaves the list at once, not at the next reload.
        if (changed && !keepsMatching(get().query.filters, report)) void get().reload();
      },

      refreshReview() {
        if (pages.size > 0) void get().reload();
      },

      reset() {
        newGeneration();
        params = null;
        set((s) => ({ total: null, version: s.version + 1, error: null, unreachable: false, loadingPages: 0, selectedIndex: -1 }));
      },

      dismissError: () => set({ error: null }),
    };
  });
}

/** The per-company state an edit can change still matches the filters (the rest is the service's to judge). */
function keepsMatching(f: ListFilters, report: LabelReport): boolean {
  if (f.archived && report.isArchived !== (f.archived === 'yes')) return false;
  if (f.flagged && report.hasFlag !== (f.flagged === 'yes')) return false;
  return true;
}

export type ListStore = ReturnType<typeof createListStore>;
