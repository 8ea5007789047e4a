/**
 * Shapes of signed verdict changes under /local/labelReports/:id/changeRequests
 * (docs/review-and-audit.md#signed-verdict-changes): the request of a change that lowers a
 * report's alert (or moves the alert of a report awaiting review), and its approval, signed.
 */
import { z } from 'zod';
import { localReportPatchSchema } from './report';
import { REASON_MAX_LENGTH } from './review';

const personSchema = z.object({ id: z.string(), login: z.string(), name: z.string() });

const signatureBodySchema = z.strictObject({
  /** The approver's password, entered again. */
  password: z.string().max(1024),
  /** The approver's IANA time zone; UTC when absent. */
  zone: z.string().max(64).optional(),
});

export const changeRequestBodySchema = z.strictObject({
  /** The /local PATCH body to apply once approved. */
  patch: localReportPatchSchema,
  reason: z.string().trim().min(1, 'a signed change needs its reason').max(REASON_MAX_LENGTH),
  /** Sign it at once: only a person who may release, with four eyes off. */
  signature: signatureBodySchema.optional(),
});
export type ChangeRequestBody = z.infer<typeof changeRequestBodySchema>;

export const approvalBodySchema = signatureBodySchema;
export type ApprovalBody = z.infer<typeof approvalBodySchema>;

export const declineBodySchema = z.strictObject({ note: z.string().max(REASON_MAX_LENGTH).optional() });
export type DeclineBody = z.infer<typeof declineBodySchema>;

export const CHANGE_REQUEST_STATES = ['pending', 'approved', 'declined'] as const;

export const changeRequestSchema = z.object({
  id: z.string(),
  reportId: z.string(),
  patch: localReportPatchSchema,
  reason: z.string(),
  /** What the approval signs, e.g. "Approved change of limits". */
  meaning: z.string(),
  /** The alert level when it was asked for, and the level the change gave then. */
  alertBefore: z.int(),
  alertAfter: z.int(),
  requestedBy: z.object({ person: personSchema.nullable(), keyId: z.string().nullable(), keyName: z.string().nullable() }),
  requestedAt: z.string(),
  state: z.enum(CHANGE_REQUEST_STATES),
  /** Who approved (signing) or declined it. */
  closedBy: personSchema.nullable(),
  /** The approver's time zone. */
  zone: z.string().nullable(),
  /** Why it was declined. */
  note: z.string().nullable(),
  closedAt: z.string().nullable(),
  /** The change log entry the approval wrote. */
  changeSeq: z.int().nullable(),
});
export type ChangeRequestView = z.infer<typeof changeRequestSchema>;

export const changeRequestListSchema = z.array(changeRequestSchema);
