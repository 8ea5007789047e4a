/**
 * The reason rule: a change to what the verdict of a report rests on (its limits, its alert
 * rules, its trim, its status) carries the reason it was made, kept in the change log beside
 * the old and new values. A person at the desk (the desktop window, or anyone signed in) must
 * give one; a tool on an API key that gives none still works, and its change is logged as
 * made without one, so the log never has a silent gap.
 */
import { InvalidInputError } from '../model/errors';
import type { FieldChange } from '../schema/change-log';
import { SESSION_KEY_ID, type Caller } from './api-keys';
import type { ChangeNote } from './report-writer';

/** What the change log says when a tool changed the verdict without a reason. */
export const NO_REASON_FROM_TOOL = 'no reason given (tool)';

/** The longest reason kept; longer ones are refused, not cut. */
export const MAX_REASON_LENGTH = 2000;

/** Whether a logged field is one the alert or the verdict rests on. */
export function isVerdictField(field: string): boolean {
  return field.startsWith('limits.') || field === 'trim' || field === 'status' || field === 'alertsConfig' || field.startsWith('alertsConfig.');
}

/** Whether the reason must come from the caller rather than be noted as missing. */
export function mustGiveReason(caller: Caller): boolean {
  return caller.keyId === SESSION_KEY_ID || caller.person !== undefined;
}

/**
 * The note a change carries: the caller's reason (trimmed) when it changes a verdict field, the
 * tool's missing-reason note when a key gave none; a refusal when a person gave none. A change
 * of other fields keeps a reason given, and needs none.
 */
export function changeReason(caller: Caller, changes: readonly FieldChange[], reason: string | undefined): ChangeNote | undefined {
  const given = reason?.trim() ?? '';
  if (given.length > MAX_REASON_LENGTH) {
    throw new InvalidInputError('INVALID_REASON', `the reason is ${given.length} characters long; at most ${MAX_REASON_LENGTH} are kept`);
  }
  if (!changes.some((c) => isVerdictField(c.field))) return given === '' ? undefined : { reason: given };
  if (given !== '') return { reason: given };
  if (mustGiveReason(caller)) {
    throw new InvalidInputError(
      'REASON_REQUIRED',
      'a change to the limits, alert rules, trim or status needs a reason: send it in the x-change-reason header',
    );
  }
  return { reason: NO_REASON_FROM_TOOL };
}

/**
 * The reason as the x-change-reason header carries it: percent-encoded UTF-8 (a header holds
 * only Latin-1), or plain text when it does not decode.
 */
export function reasonFromHeader(value: string | string[] | undefined): string | undefined {
  const raw = Array.isArray(value) ? value[0] : value;
  if (raw === undefined) return undefined;
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}
