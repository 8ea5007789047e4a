/**
 * What the signed-in company may change on a report, and the sentence that says why not.
 * The server decides (decisions §3: role table and key permissions); this only lets the UI
 * explain a refusal before staff type a value that would be thrown away.
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

export function callerRole(report: Pick<LabelReport, 'access'>, companyId: string): Role | null {
  return report.access.find((a) => a.companyId === companyId)?.role ?? null;
}

export function editRights(
  report: Pick<LabelReport, 'access' | 'company'>,
  session: { companyId: string; permissions: readonly string[] },
): EditRights {
  const role = callerRole(report, session.companyId);
  const canUpdate = session.permissions.includes('labelReports:update');
  const keyReason = canUpdate ? null : 'This API key may only read reports (it lacks the labelReports:update permission).';
  const ownerName = report.company.name || 'the owning company';
  const limitsReason =
    keyReason ??
    (role === 'owner'
      ? null
      : `Only the owning company (${ownerName}) can change limits; your company is ${role === null ? 'not listed' : `a${role === 'editor' ? 'n' : ''} ${role}`} on this report.`);
  const bookkeepingReason =
    keyReason ??
    (role === 'owner' || role === 'editor'
      ? null
      : 'Viewers can only flag and archive reports; status, reference, custom fields and trim belong to the owner and editors.');
  const flagReason = keyReason ?? (role === null ? 'Your company has no access entry on this report.' : null);
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
