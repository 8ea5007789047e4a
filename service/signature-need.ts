/**
 * When a change to a report is a signed one (docs/review-and-audit.md#signed-verdict-changes):
 * it lowers the alert, or moves the alert of a report awaiting the company's review, and the
 * company has people who sign. A company without people works as before.
 */
import type { DataStore } from '../db/data-store';
import { ForbiddenError } from '../model/errors';
import type { Report } from '../model/report';
import { signatureNeed, type SignatureNeed } from '../model/signed-change';
import type { LocalReportPatch } from '../schema/report';
import type { Caller } from './api-keys';

/** The alert levels' names, as the refusals say them. */
const LEVEL_NAMES: Record<number, string> = { [-1]: 'Not started', 0: 'None', 1: 'Moderate', 2: 'Critical' };

export function levelName(level: number): string {
  return LEVEL_NAMES[level] ?? String(level);
}

/** Whether `before` → `after` needs a signature for the caller's company; inside a read or write. */
export function verdictSignatureNeed(data: DataStore, caller: Caller, before: Report, after: Report, patch: LocalReportPatch): SignatureNeed | null {
  if (before.figures.alert.level === after.figures.alert.level) return null;
  if (data.users.activeCount(caller.companyId) === 0) return null;
  const awaiting = data.reviewStates.of(caller.companyId, [before.id]).get(before.id)?.awaitingReview ?? false;
  return signatureNeed(patch, before.figures.alert.level, after.figures.alert.level, awaiting);
}

/** The refusal of a plain PATCH that needs a signature, naming the signed flow. */
export function unsignedChangeRefusal(caller: Caller, need: SignatureNeed, id: string): ForbiddenError {
  const move = `this change moves the alert from ${levelName(need.alertBefore)} to ${levelName(need.alertAfter)}`;
  const flow = `POST /local/labelReports/${id}/changeRequests`;
  if (!caller.person && need.cause === 'lowersAlert') {
    return new ForbiddenError(
      'TOOL_CANNOT_LOWER_ALERT',
      `${move}: where people sign, a tool’s key cannot lower a report’s alert. Ask for it with ${flow}; a person whose role may release approves it with their signature`,
    );
  }
  const why = need.cause === 'lowersAlert' ? 'lowers the alert' : 'changes the verdict of a report awaiting review';
  return new ForbiddenError(
    'SIGNED_CHANGE_REQUIRED',
    `${move}: a change that ${why} is a signed change (“${need.meaning}”). Ask for it with ${flow}; a person whose role may release approves it with their signature`,
  );
}
