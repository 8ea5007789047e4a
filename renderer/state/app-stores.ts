/**
 * The stores of one renderer, wired together: every store reaches the service through the
 * connection's current client, an edit in the detail updates the list row, and a change of key
 * (another company at the same desk) throws away everything the previous key could see.
 */
import { createCatalogueStore } from './catalogue';
import { createConnectionStore } from './connection';
import { createDetailStore } from './detail';
import { createKeysStore } from './keys';
import { createListStore } from './list';
import { createReviewStore } from './review';
import { createPickedStore } from './picked';
import type { ListStoreOptions } from './list';
import { createSyncStore, documentVisibility } from './sync';
import { createUiStore } from './ui';
import type { UiOptions } from './ui';
import { createWebhooksStore } from './webhooks';

export function createAppStores(listOptions: Omit<ListStoreOptions, 'getClient'> = {}, uiOptions: UiOptions = {}) {
  const connection = createConnectionStore();
  const getClient = () => connection.getState().client;
  const list = createListStore({ ...listOptions, getClient });
  const sync = createSyncStore({
    getClient,
    getBridge: () => (typeof window === 'undefined' ? undefined : window.labeldesk),
    visibility: documentVisibility(),
    onMirrorChanged: () => {
      void list.getState().reload();
      // The open report too: a pull (or the remote's answer to a push) may have changed it, and
      // its panel would otherwise show what the mirror held before. Not while an edit is saved
      // or waits for its reason.
      const open = detail.getState();
      if (open.id !== null && !open.loading && open.saving === null && open.pending === null) void open.reload();
    },
  });
  const detail = createDetailStore({
    getClient,
    onReportChanged: (report) => {
      list.getState().applyReport(report);
      // A local edit of a mirrored report waits in the outbox: its mark shows at once.
      void sync.getState().refresh();
    },
  });
  const keys = createKeysStore({ getClient });
  const webhooks = createWebhooksStore({ getClient });
  const catalogue = createCatalogueStore({ getClient });
  const ui = createUiStore('reports', uiOptions);
  const review = createReviewStore({ getClient });
  // Bulk work changes rows in place: the list is asked again, and the open report if it was among them.
  const picked = createPickedStore({
    getClient,
    onDone(ids) {
      void list.getState().reload();
      const open = detail.getState();
      if (open.id !== null && ids.includes(open.id)) void open.reload();
    },
  });
  // Another question to the list drops the picks: what is acted on is always what is shown.
  list.subscribe((state, previous) => {
    if (state.query !== previous.query && picked.getState().ids.length > 0) picked.getState().clear();
  });

  // The review parts follow the open report: loaded on open, again after each change to it.
  detail.subscribe((state, previous) => {
    if (state.id === null) {
      if (previous.id !== null) review.getState().clear();
    } else if (state.id !== previous.id) void review.getState().load(state.id);
    else if (state.report && previous.report && state.report.updated !== previous.report.updated) void review.getState().refresh();
  });
  // An acknowledgement or a decision changes where the review stands: the rows say so at once
  // (and leave a review filter they no longer match).
  review.subscribe((state, previous) => {
    const outcome = state.outcome;
    if (outcome !== previous.outcome && outcome?.ok && outcome.action !== 'comment') list.getState().refreshReview();
  });
  /** A report named in the URL at start-up, opened once a key is connected. */
  let pendingOpen: string | null = null;

  connection.subscribe((state, previous) => {
    // The service is back: the list and the open report that could not be fetched are asked for again.
    if (state.reachable && !previous.reachable && state.client === previous.client) {
      if (list.getState().unreachable) void list.getState().reload();
      const open = detail.getState();
      if (open.id !== null && open.error !== null && !open.loading) void open.reload();
    }
    if (state.session !== previous.session) {
      // People share the desktop's one session key: each person's arrangement is their own.
      const session = state.session;
      ui.getState().showArrangementOf(session ? `${session.companyId}/${session.person ? `person:${session.person.id}` : session.keyId}` : null);
      // Whoever signs in next starts at the report list, not in the screen the last person left open.
      if (previous.session?.person && !state.session?.person) ui.getState().setView('reports');
    }
    if (state.client === previous.client) return;
    const openId = detail.getState().id ?? pendingOpen;
    detail.getState().close();
    keys.getState().reset();
    webhooks.getState().reset();
    sync.getState().reset();
    list.getState().reset();
    picked.getState().clear();
    catalogue.getState().reset();
    if (state.client) {
      // Same filters, new company: ask again with the new key.
      list.getState().setQuery(list.getState().query);
      // The filter bar's suggestions wait for the first rows: the service answers one request at
      // a time, and counting custom fields and companies at a large site takes longer than a page.
      const client = state.client;
      void list
        .getState()
        .ensureRange(0, 0)
        .finally(() => {
          if (connection.getState().client === client) void catalogue.getState().load();
        });
      // A report opened before the switch is opened again only if the new company can see it;
      // the detail says so in words when it cannot.
      if (openId) void detail.getState().open(openId);
      pendingOpen = null;
    }
  });

  /** Opens a report now, or as soon as a key is connected. */
  function openReport(id: string) {
    if (connection.getState().client) void detail.getState().open(id);
    else pendingOpen = id;
  }

  /** The report the URL names: the open one, or the one waiting for a connection. */
  const wantedReportId = () => detail.getState().id ?? pendingOpen;

  return { connection, list, detail, keys, webhooks, sync, ui, catalogue, review, picked, openReport, wantedReportId };
}

export type AppStores = ReturnType<typeof createAppStores>;
