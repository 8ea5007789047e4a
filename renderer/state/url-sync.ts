/**
 * Keeps the address bar in step with the view (filters, sort, open report, screen, the shipments
 * list and the shipment open) using
 * history.replaceState, so a reload or a bookmark shows the same view without filling the
 * back-button history with every keystroke in the search box.
 */
import { decodeUrlState, encodeUrlState } from '../lib/url-state';
import type { AppStores } from './app-stores';

export interface UrlEnv {
  search: string;
  pathname: string;
  hash: string;
  replace(url: string): void;
}

export function browserUrlEnv(): UrlEnv {
  return {
    get search() {
      return window.location.search;
    },
    get pathname() {
      return window.location.pathname;
    },
    get hash() {
      return window.location.hash;
    },
    replace: (url) => window.history.replaceState(window.history.state, '', url),
  };
}

/** Applies the URL's view to the stores, then mirrors every later change back. Returns an unsubscribe. */
export function startUrlSync(stores: AppStores, env: UrlEnv): () => void {
  const initial = decodeUrlState(env.search);
  stores.list.getState().setQuery(initial.query);
  stores.ui.getState().setView(initial.view);
  if (initial.shipments) stores.ui.getState().setShipments(initial.shipments);
  if (initial.report) stores.openReport(initial.report);

  let last = '';
  const write = () => {
    const search = encodeUrlState({
      query: stores.list.getState().query,
      report: stores.wantedReportId(),
      view: stores.ui.getState().view,
      shipments: stores.ui.getState().shipments,
    });
    if (search === last) return;
    last = search;
    if (search !== env.search) env.replace(`${env.pathname}${search}${env.hash}`);
  };
  write();
  const unsubscribers = [
    stores.list.subscribe((s, p) => s.query !== p.query && write()),
    stores.detail.subscribe((s, p) => s.id !== p.id && write()),
    stores.ui.subscribe((s, p) => (s.view !== p.view || s.shipments !== p.shipments) && write()),
  ];
  return () => unsubscribers.forEach((u) => u());
}
