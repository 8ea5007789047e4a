/**
 * Signed verdict changes (docs/review-and-audit.md#signed-verdict-changes): which changes need a
 * person's signature, what it means, and the request a second person approves.
 */
import type { LocalReportPatch } from '../schema/report';
import type { EntryPerson } from './review-entry';

/** Why a change needs a signature. */
export type SignatureCause = 'lowersAlert' | 'awaitingReview';

export interface SignatureNeed {
  cause: SignatureCause;
  /** What the signature says, e.g. "Approved change of limits". */
  meaning: string;
  alertBefore: number;
  alertAfter: number;
}

const FIELD_WORDS: readonly (readonly [keyof LocalReportPatch, string])[] = [
  ['limits', 'limits'],
  ['alertsConfig', 'alert rules'],
  ['trim', 'trim'],
  ['status', 'status'],
];

/** "Approved change of limits", "… of limits and trim": what the approver's signature means. */
export function signedChangeMeaning(patch: LocalReportPatch): string {
  const words = FIELD_WORDS.filter(([key]) => patch[key] !== undefined).map(([, word]) => word);
  const what = words.length === 0 ? 'the report' : words.length === 1 ? words[0] : `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
  return `Approved change of ${what}`;
}

/**
 * Whether a change needs a signature: it lowers the alert level, or it moves the alert level of
 * a report that awaits the company's review. Levels below 0 (not tapped) never count as lower:
 * a report without readings has no verdict to clear.
 */
export function signatureNeed(patch: LocalReportPatch, alertBefore: number, alertAfter: number, awaitingReview: boolean): SignatureNeed | null {
  if (alertBefore === alertAfter) return null;
  const lowers = alertAfter < alertBefore && alertBefore >= 1;
  if (!lowers && !awaitingReview) return null;
  return { cause: lowers ? 'lowersAlert' : 'awaitingReview', meaning: signedChangeMeaning(patch), alertBefore, alertAfter };
}

export type ChangeRequestState = 'pending' | 'approved' | 'declined';

/** A change asked for, waiting for (or given) a signature. */
export interface ChangeRequest {
  id: number;
  reportId: string;
  companyId: string;
  patch: LocalReportPatch;
  /** What the fields the patch sets held when it was asked for, by field name. */
  valuesBefore: readonly (readonly [string, unknown])[];
  reason: string;
  meaning: string;
  alertBefore: number;
  alertAfter: number;
  /** Who asked: a person, or the key of a tool. */
  requestedBy: { person: EntryPerson | null; keyId: string | null; keyName: string | null };
  requestedAt: string;
  state: ChangeRequestState;
  /** Who approved or declined it, and when. */
  closedBy: EntryPerson | null;
  closedZone: string | null;
  closedNote: string | null;
  closedAt: string | null;
  /** The change log entry the approval wrote. */
  changeSeq: number | null;
}
