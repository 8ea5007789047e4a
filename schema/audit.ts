/**
 * The audit trail across reports, GET /local/audit (docs/review-and-audit.md#the-audit-trail-across-reports):
 * the change log and the review entries a company sees, newest first, filtered by person, kind,
 * time and report, a page at a time.
 */
import { z } from 'zod';
import { fieldChangeSchema } from './change-log';

/** What the trail can be narrowed to: a change to a report, or one kind of review entry. */
export const AUDIT_KINDS = ['change', 'comment', 'acknowledgement', 'decision', 'withdrawal'] as const;
export type AuditKind = (typeof AUDIT_KINDS)[number];

export const AUDIT_PAGE_MAX = 200;

export const auditEntrySchema = z.object({
  /** Which chain it is in: the report's change log or the company's review entries. */
  table: z.enum(['changeLog', 'review']),
  /** Its seq (change log) or id (review), as `labeldesk audit export` names it. */
  entry: z.int(),
  reportId: z.string(),
  labelReference: z.string().nullable(),
  at: z.string(),
  kind: z.enum(AUDIT_KINDS),
  /** create, update or remove, for a change. */
  change: z.enum(['create', 'update', 'remove']).optional(),
  by: z.object({
    keyId: z.string().nullable(),
    keyName: z.string().nullable(),
    /** The person signed in; the change log keeps no login, only the printed name. */
    person: z.object({ id: z.string(), name: z.string(), login: z.string().nullable() }).nullable(),
    /** import, demo or sync, for a change no key made. */
    actor: z.string().nullable(),
  }),
  changes: z.array(fieldChangeSchema).optional(),
  reason: z.string().nullable(),
  text: z.string().nullable(),
  decision: z.string().nullable(),
  meaning: z.string().nullable(),
  zone: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export const auditPageSchema = z.object({
  entries: z.array(auditEntrySchema),
  /** Give as `cursor` for the entries after these; null when there are none. */
  next: z.string().nullable(),
  /**
   * Set when the page is short because the search stopped at its budget: every entry at or after
   * this time has been looked at. Asking with `next` searches on.
   */
  searchedBackTo: z.string().nullable(),
});
export type AuditPage = z.infer<typeof auditPageSchema>;
