/**
 * The report open in the detail panel and the edits made to it. Every edit is validated with
 * the shared patch schema before it is sent; the PATCH answer (the full report) replaces the
 * shown one at once, so a limits change shows its new alert level without another request, and
 * the list row is updated from the same answer.
 */
import { createStore } from 'zustand/vanilla';
import { isAbortError } from '../api/client';
import { changeRequestsClient } from '../api/change-requests-client';
import type { ApiClient } from '../api/client';
import { localReportPatchSchema } from '../../schema/report';
import type { LabelReport, LocalReportPatch } from '../../schema/report';
import { plainApiError, plainZodError } from '../lib/plain-words';
import type { AlertPreview } from '../../schema/review';

/** Parts of the detail that save separately, so each shows its own result next to its form. */
export type EditSection = 'limits' | 'alertRules' | 'bookkeeping' | 'customFields' | 'flags' | 'trim';

export interface SaveOutcome {
  section: EditSection;
  ok: boolean;
  message: string;
}

export interface DetailStoreOptions {
  getClient(): ApiClient | null;
  /** Called with every report the server returned after an edit (keeps the list row in sync). */
  onReportChanged?(report: LabelReport): void;
}

export interface DetailState {
  id: string | null;
  report: LabelReport | null;
  loading: boolean;
  error: string | null;
  /** Section being saved, or null. */
  saving: EditSection | null;
  /** Result of the last save, shown beside its section. */
  outcome: SaveOutcome | null;
  open(id: string): Promise<void>;
  close(): void;
  reload(): Promise<void>;
  /**
   * Validate and send a PATCH; resolves true when the server accepted it. A change to what the
   * verdict rests on (limits, alert rules, trim, status) is not sent yet: it waits in `pending` for a reason.
   */
  save(section: EditSection, patch: LocalReportPatch, reason?: string): Promise<boolean>;
  /** A verdict change waiting for its reason, with what it does to the alert once known. */
  pending: PendingChange | null;
  /** Sends the pending change with its reason. */
  confirm(reason: string): Promise<boolean>;
  /**
   * A pending change that needs a signature (its preview says so), asked for as a signed change
   * (docs/review-and-audit.md#signed-verdict-changes): signed at once with the password, or left
   * for a person who may release to approve when `password` is null. A refusal stays in the
   * dialog (`pending.problem`).
   */
  confirmSigned(reason: string, password: string | null, zone: string): Promise<boolean>;
  /** Drops the pending change. */
  cancelPending(): void;
  /** Counts the signed changes asked for, approved or declined here: their panel reads again when it moves. */
  changeRequestsVersion: number;
  /** After a signed change elsewhere (its approval): the report read again, its list row with it. */
  reloadChanged(): Promise<void>;
  /** Tells the panel of change requests to read again. */
  changeRequestsMoved(): void;
  /** Counts the prints and exports made here: the report's Access list reads again when it moves. */
  accessVersion: number;
  /** Tells the Access list to read again. */
  accessMoved(): void;
  clearOutcome(): void;
  /**
   * A problem a form found before sending, shown in the section's one message line (replacing
   * an earlier "saved"); null clears that section's message.
   */
  refuse(section: EditSection, message: string | null): void;
}

export interface PendingChange {
  section: EditSection;
  patch: LocalReportPatch;
  /** Null while it is asked, or when the service could not tell. */
  preview: AlertPreview | null;
  /** Why the signed change was refused, shown in the dialog. */
  problem?: string;
}

/** Whether the patch changes what the alert and the decision rest on. */
export function changesVerdict(report: LabelReport, patch: LocalReportPatch): boolean {
  return patch.limits !== undefined || patch.alertsConfig !== undefined || patch.trim !== undefined || (patch.status !== undefined && patch.status !== report.status);
}

/** What each section does, to complete "This key may not …". */
const SECTION_ACTIONS: Record<EditSection, string> = {
  limits: 'change the limits',
  alertRules: 'change the alert rules',
  bookkeeping: 'change the status or the reference',
  customFields: 'change custom fields',
  flags: 'flag or archive reports',
  trim: 'trim reports',
};

const SAVED_MESSAGES: Record<EditSection, string> = {
  limits: 'Limits saved; figures and alert level recalculated.',
  alertRules: 'Alert rules saved; alert level recalculated.',
  bookkeeping: 'Saved.',
  customFields: 'Custom fields saved.',
  flags: 'Saved for your company only: flag and archive are not shared with other companies.',
  trim: 'Trim saved; figures recalculated.',
};

export function createDetailStore(options: DetailStoreOptions) {
  let controller: AbortController | null = null;

  return createStore<DetailState>()((set, get) => ({
    id: null,
    report: null,
    loading: false,
    error: null,
    saving: null,
    outcome: null,
    pending: null,
    changeRequestsVersion: 0,
    accessVersion: 0,

    async open(id) {
      controller?.abort();
      const own = new AbortController();
      controller = own;
      // Keep showing the same report while it reloads; a different one starts blank.
      const keep = get().report?.id === id ? get().report : null;
      set({ id, report: keep, loading: true, error: null, outcome: null, pending: keep ? get().pending : null });
      const client = options.getClient();
      if (!client) {
        set({ loading: false, error: 'Not connected to the LabelDesk service.' });
        return;
      }
      try {
        const report = await client.getReport(id, own.signal);
        if (get().id !== id) return;
        set({ report, loading: false });
      } catch (err) {
        if (isAbortError(err) || get().id !== id) return;
        set({ loading: false, error: plainApiError(err, 'open this report') });
      }
    },

    close() {
      controller?.abort();
      controller = null;
      set({ id: null, report: null, loading: false, error: null, saving: null, outcome: null });
    },

    async reload() {
      const id = get().id;
      if (id) await get().open(id);
    },

    async save(section, patch, reason) {
      const { report } = get();
      const client = options.getClient();
      if (!report || !client) return false;
      const checked = localReportPatchSchema.safeParse(patch);
      if (!checked.success) {
        set({ outcome: { section, ok: false, message: plainZodError(checked.error) } });
        return false;
      }
      const id = report.id;
      if (reason === undefined && changesVerdict(report, checked.data)) {
        const pending: PendingChange = { section, patch: checked.data, preview: null };
        set({ pending, outcome: null });
        try {
          const preview = (await client.previewReport?.(id, checked.data)) ?? null;
          if (get().pending === pending) set({ pending: { ...pending, preview } });
        } catch (err) {
          if (get().pending === pending) set({ pending: null, outcome: { section, ok: false, message: plainApiError(err, SECTION_ACTIONS[section]) } });
        }
        return false;
      }
      set({ saving: section, outcome: null });
      try {
        const updated = await client.patchReport(id, checked.data, reason);
        options.onReportChanged?.(updated);
        if (get().id === id) set({ report: updated, saving: null, outcome: { section, ok: true, message: SAVED_MESSAGES[section] } });
        return true;
      } catch (err) {
        if (get().id === id) {
          set({ saving: null, outcome: { section, ok: false, message: plainApiError(err, SECTION_ACTIONS[section]) } });
        }
        return false;
      }
    },

    async confirm(reason) {
      const pending = get().pending;
      if (!pending) return false;
      set({ pending: null });
      return get().save(pending.section, pending.patch, reason);
    },

    async confirmSigned(reason, password, zone) {
      const pending = get().pending;
      const id = get().id;
      const client = options.getClient();
      const meaning = pending?.preview?.signature?.meaning;
      if (!pending || !id || !client || !meaning) return false;
      set({ saving: pending.section, outcome: null });
      try {
        const body = { patch: pending.patch, reason, ...(password === null ? {} : { signature: { password, zone } }) };
        await changeRequestsClient(client).request(id, body);
        set({ pending: null, saving: null });
        if (password !== null) await get().reloadChanged();
        const message =
          password !== null
            ? `Signed “${meaning}”; the change is made and the alert recalculated.`
            : `Asked for approval: the change waits for the signature (“${meaning}”) of a person who may release. It is listed under Changes awaiting a signature.`;
        if (get().id === id) set({ outcome: { section: pending.section, ok: true, message } });
        get().changeRequestsMoved();
        return true;
      } catch (err) {
        if (get().pending === pending) set({ saving: null, pending: { ...pending, problem: plainApiError(err, SECTION_ACTIONS[pending.section]) } });
        else set({ saving: null });
        return false;
      }
    },

    cancelPending: () => set({ pending: null }),

    async reloadChanged() {
      await get().reload();
      const report = get().report;
      if (report) options.onReportChanged?.(report);
    },

    changeRequestsMoved: () => set({ changeRequestsVersion: get().changeRequestsVersion + 1 }),

    accessMoved: () => set({ accessVersion: get().accessVersion + 1 }),

    clearOutcome: () => set({ outcome: null }),

    refuse(section, message) {
      if (message !== null) set({ outcome: { section, ok: false, message } });
      else if (get().outcome?.section === section) set({ outcome: null });
    },
  }));
}

export type DetailStore = ReturnType<typeof createDetailStore>;
