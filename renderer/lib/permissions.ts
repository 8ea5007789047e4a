/**
 * What the signed-in company may change on a report, and the sentence that says why not.
 * The server decides (docs/api.md#authentication: role table and key permissions); this only lets the UI
 * explain a refusal before staff type a value that would be thrown away. The sentences are
 * plain words (no permission or field ids), and the panel shows each one once.
 */
import type { LabelReport, Role } from '../../schema/report';

export interface EditRights {
  role: Role | null;
  canEditLimits: boolean;
  canEditBookkeeping: boolean; // status, reference, custom fields
  canFlagArchive: boolean;
  canTrim: boolean;
  /** Why limits are read-only, or null when they are editable. */
  limitsReason: string | null;
  /** Why status/reference/custom fields/trim are read-only, or null. */
  bookkeepingReason: string | null;
  /** Why flag/archive are read-only, or null. */
  flagReason: string | null;
}

export const READ_ONLY_KEY_REASON = 'This key may only read reports, so nothing on this report can be changed with it.';

export function callerRole(report: Pick<LabelReport, 'access'>, companyId: string): Role | null {
  return report.access.find((a) => a.companyId === companyId)?.role ?? null;
}

export function editRights(
  report: Pick<LabelReport, 'access' | 'company'>,
  session: { companyId: string; permissions: readonly string[] },
): EditRights {
  const role = callerRole(report, session.companyId);
  const canUpdate = session.permissions.includes('labelReports:update');
  const keyReason = canUpdate ? null : READ_ONLY_KEY_REASON;
  const ownerName = report.company.name || 'the owning company';
  const viewerReason =
    `Your company is a viewer on this report: it may flag, archive and comment; limits, status, reference, ` +
    `custom fields and trim belong to ${ownerName} and its editors.`;
  const noAccess = 'Your company has no access entry on this report.';
  const limitsReason =
    keyReason ??
    (role === 'owner'
      ? null
      : role === 'viewer'
        ? viewerReason
        : role === null
          ? noAccess
          : `Only the owning company (${ownerName}) can change limits; your company is an editor on this report.`);
  const bookkeepingReason = keyReason ?? (role === 'owner' || role === 'editor' ? null : role === null ? noAccess : viewerReason);
  const flagReason = keyReason ?? (role === null ? noAccess : null);
  return {
    role,
    canEditLimits: limitsReason === null,
    canEditBookkeeping: bookkeepingReason === null,
    canFlagArchive: flagReason === null,
    canTrim: bookkeepingReason === null,
    limitsReason,
    bookkeepingReason,
    flagReason,
  };
}

export interface LockNotices {
  flags: string | null;
  limits: string | null;
  bookkeeping: string | null;
  customFields: string | null;
  trim: string | null;
}

/**
 * The sentence each part of the panel shows, in the panel's order, each sentence only where it
 * first applies: a read-only key is told once at the top, a viewer once at the limits.
 */
export function lockNotices(rights: EditRights): LockNotices {
  const seen = new Set<string>();
  const once = (reason: string | null) => {
    if (reason === null || seen.has(reason)) return null;
    seen.add(reason);
    return reason;
  };
  return {
    flags: once(rights.flagReason),
    limits: once(rights.limitsReason),
    bookkeeping: once(rights.bookkeepingReason),
    customFields: once(rights.bookkeepingReason),
    trim: once(rights.bookkeepingReason),
  };
}

export interface ReviewRights {
  canComment: boolean;
  /** Acknowledge the alert and decide: owner and editors. */
  canDecide: boolean;
  /**
   * Why deciding is not offered, when the rest of the panel has not said it already (a
   * read-only key is told once at the top of the panel); null otherwise.
   */
  decideReason: string | null;
}

/** Comments need a key that may write, any role; acknowledging and deciding the owner or an editor. */
export function reviewRights(report: Pick<LabelReport, 'access'>, session: { companyId: string; permissions: readonly string[] }): ReviewRights {
  const role = callerRole(report, session.companyId);
  const canWrite = session.permissions.includes('labelReports:update');
  const byRole = role === 'owner' || role === 'editor';
  return {
    canComment: canWrite && role !== null,
    canDecide: canWrite && byRole,
    decideReason:
      canWrite && !byRole ? 'Only the owning company and its editors acknowledge alerts and decide on the shipment; your company may comment.' : null,
  };
}
