/**
 * What the report panel shows beside the report itself: the alert explained, the company's
 * review (comments, acknowledgement, decision) and the history. Loaded when a report opens and
 * again whenever the report changes (an edit shows in the history at once), dropped when it
 * closes. Each write answers with one sentence in plain words.
 */
import type { ZodError } from 'zod';
import { createStore } from 'zustand/vanilla';
import { isAbortError } from '../api/client';
import type { ApiClient } from '../api/client';
import { reviewClient } from '../api/review-client';
import type { AlertExplanation, Decision, HistoryEntry, Review } from '../api/review-client';
import { acknowledgementBodySchema, commentBodySchema, decisionBodySchema } from '../../schema/review';
import { plainApiError, plainZodError } from '../lib/plain-words';

export type ReviewAction = 'comment' | 'acknowledge' | 'decide';

export interface Signature {
  password: string;
  zone: string;
}

export interface ReviewOutcome {
  action: ReviewAction;
  ok: boolean;
  message: string;
}

export interface ReviewState {
  reportId: string | null;
  alerts: AlertExplanation | null;
  review: Review | null;
  /** Newest first. */
  history: HistoryEntry[] | null;
  /** Why a part could not be loaded, in words. */
  error: string | null;
  busy: ReviewAction | null;
  outcome: ReviewOutcome | null;
  load(reportId: string): Promise<void>;
  /** After a change to the report: the alert and the history again. */
  refresh(): Promise<void>;
  clear(): void;
  comment(text: string): Promise<boolean>;
  /** `signature`: a signed-in person's password, entered again, and their time zone. */
  acknowledge(note: string, signature?: Signature): Promise<boolean>;
  decide(decision: Decision, reason: string, signature?: Signature): Promise<boolean>;
}

const ACTIONS: Record<ReviewAction, string> = {
  comment: 'comment on reports',
  acknowledge: 'acknowledge alerts',
  decide: 'release, reject or hold reports',
};

const DONE: Record<ReviewAction, string> = {
  comment: 'Comment added.',
  acknowledge: 'Alert acknowledged.',
  decide: 'Decision saved.',
};

export function createReviewStore(options: { getClient(): ApiClient | null }) {
  let controller: AbortController | null = null;

  return createStore<ReviewState>()((set, get) => {
    const calls = () => {
      const client = options.getClient();
      return client ? reviewClient(client) : null;
    };

    async function fetchParts(reportId: string, parts: { alerts: boolean; review: boolean; history: boolean }) {
      controller?.abort();
      const own = new AbortController();
      controller = own;
      const api = calls();
      if (!api) return;
      try {
        const [alerts, review, history] = await Promise.all([
          parts.alerts ? api.alerts(reportId, own.signal) : Promise.resolve(get().alerts),
          parts.review ? api.review(reportId, own.signal) : Promise.resolve(get().review),
          parts.history ? api.history(reportId, own.signal).then((h) => h.entries) : Promise.resolve(get().history),
        ]);
        if (get().reportId !== reportId) return;
        set({ alerts, review, history, error: null });
      } catch (err) {
        if (isAbortError(err) || get().reportId !== reportId) return;
        set({ error: plainApiError(err, 'read reports') });
      }
    }

    async function write(action: ReviewAction, send: (reportId: string) => Promise<unknown>): Promise<boolean> {
      const reportId = get().reportId;
      if (!reportId) return false;
      set({ busy: action, outcome: null });
      try {
        await send(reportId);
        if (get().reportId !== reportId) return true;
        set({ busy: null, outcome: { action, ok: true, message: DONE[action] } });
        await fetchParts(reportId, { alerts: false, review: true, history: true });
        return true;
      } catch (err) {
        if (get().reportId === reportId) set({ busy: null, outcome: { action, ok: false, message: plainApiError(err, ACTIONS[action]) } });
        return false;
      }
    }

    /** Checks a body with its schema; on a problem shows it for the action and returns null. */
    function body<T>(action: ReviewAction, result: { success: true; data: T } | { success: false; error: ZodError }): T | null {
      if (result.success) return result.data;
      set({ outcome: { action, ok: false, message: plainZodError(result.error) } });
      return null;
    }

    return {
      reportId: null,
      alerts: null,
      review: null,
      history: null,
      error: null,
      busy: null,
      outcome: null,

      async load(reportId) {
        if (get().reportId !== reportId) set({ reportId, alerts: null, review: null, history: null, error: null, busy: null, outcome: null });
        await fetchParts(reportId, { alerts: true, review: true, history: true });
      },

      async refresh() {
        const reportId = get().reportId;
        // The review too: a change that moved the alert has withdrawn the decision.
        if (reportId) await fetchParts(reportId, { alerts: true, review: true, history: true });
      },

      clear() {
        controller?.abort();
        controller = null;
        set({ reportId: null, alerts: null, review: null, history: null, error: null, busy: null, outcome: null });
      },

      comment(text) {
        const checked = body('comment', commentBodySchema.safeParse({ text }));
        if (!checked) return Promise.resolve(false);
        return write('comment', (id) => calls()!.comment(id, checked));
      },

      acknowledge(note, signature) {
        const checked = body('acknowledge', acknowledgementBodySchema.safeParse({ ...(note.trim() === '' ? {} : { note }), ...signature }));
        if (!checked) return Promise.resolve(false);
        return write('acknowledge', (id) => calls()!.acknowledge(id, checked));
      },

      decide(decision, reason, signature) {
        const checked = body('decide', decisionBodySchema.safeParse({ decision, reason, ...signature }));
        if (!checked) return Promise.resolve(false);
        return write('decide', (id) => calls()!.decide(id, checked));
      },
    };
  });
}

export type ReviewStore = ReturnType<typeof createReviewStore>;
