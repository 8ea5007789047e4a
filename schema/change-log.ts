/**
 * The change log's entries: one per change to a label report (docs/sync.md and docs/webhooks.md read it for
 * sync and webhooks; it is also the report's audit trail).
 */
import { z } from 'zod';

/** What happened to the report: it appeared, its values changed, or it left this database. */
export const CHANGE_KINDS = ['create', 'update', 'remove'] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

/** Who made the change: an API key (by id), or one of the service's own writers. */
export const actorSchema = z.discriminatedUnion('kind', [
  // `person`: who was signed in when the change came through the API (their printed name then).
  z.object({ kind: z.literal('apiKey'), keyId: z.string(), person: z.object({ id: z.string(), name: z.string() }).optional() }),
  z.object({ kind: z.literal('import') }),
  z.object({ kind: z.literal('demo') }),
  z.object({ kind: z.literal('sync') }),
]);
export type Actor = z.infer<typeof actorSchema>;

/**
 * One field's change. `field` is the API's name (`labelReference`, `limits.maxTemperature`,
 * `customFields.batch`, `access.nordic`, …); per-company fields (`hasFlag`, `isArchived`) name
 * the company whose state changed. `old` is null for a field that was absent.
 */
export const fieldChangeSchema = z.object({
  field: z.string(),
  companyId: z.string().optional(),
  old: z.unknown(),
  new: z.unknown(),
});
export type FieldChange = z.infer<typeof fieldChangeSchema>;

const signerSchema = z.object({ id: z.string(), login: z.string(), name: z.string() });

/**
 * A signed verdict change's signature (docs/review-and-audit.md#signed-verdict-changes): who
 * approved it with which meaning, in which zone, and who asked for it (a person or a tool's key).
 */
export const changeSignatureSchema = z.object({
  meaning: z.string(),
  zone: z.string(),
  signer: signerSchema,
  requester: z.object({ person: signerSchema.nullable(), keyId: z.string().nullable(), keyName: z.string().nullable() }),
  requestId: z.int(),
});
export type ChangeSignature = z.infer<typeof changeSignatureSchema>;

export const changeEntrySchema = z.object({
  seq: z.int(),
  labelReportId: z.string(),
  kind: z.enum(CHANGE_KINDS),
  changes: z.array(fieldChangeSchema),
  actor: actorSchema,
  companies: z.array(z.string()),
  at: z.string(),
  /** Why, for a change to the verdict (limits, alert rules, trim, status). */
  reason: z.string().optional(),
  signature: changeSignatureSchema.optional(),
});
export type ChangeEntry = z.infer<typeof changeEntrySchema>;
