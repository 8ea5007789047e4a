/**
 * Shapes of the review workflow under /local/labelReports/:id/…: the alert explained
 * (excursions, time out of limits, the rules in words), the company's review (comments, the
 * acknowledgement of the alert, the release decision), the report's history, and the plain
 * words the UI shows beside the list (custom fields in use, companies by name).
 */
import { z } from 'zod';
import { alertSchema, alertRuleSchema, trimSchema } from './sense';
import { CHANGE_KINDS, changeSignatureSchema } from './change-log';

/* ---------- alerts explained: GET /local/labelReports/:id/alerts ---------- */

export const QUANTITIES = ['temperature', 'humidity'] as const;
export type Quantity = (typeof QUANTITIES)[number];
export const DIRECTIONS = ['above', 'below'] as const;
export type Direction = (typeof DIRECTIONS)[number];
/** The limit an excursion crossed, by its name in `senseConfig.limits`. */
export const LIMIT_NAMES = ['minTemperature', 'maxTemperature', 'minHumidity', 'maxHumidity'] as const;
export type LimitName = (typeof LIMIT_NAMES)[number];

/**
 * A maximal run of consecutive datapoints beyond one limit. `start`/`end` are the timestamps of
 * its first and last datapoint (epoch seconds); `durationSeconds` is its datapoints × interval,
 * the way `durationOfViolations` counts, so the excursions of one limit add up to its time
 * above or below.
 */
export const excursionSchema = z.object({
  start: z.int(),
  end: z.int(),
  durationSeconds: z.int().nonnegative(),
  datapoints: z.int().positive(),
  /** The reading furthest beyond the limit: the highest above a maximum, the lowest below a minimum. */
  peak: z.number(),
  /** When the peak was read (the first such datapoint). */
  peakAt: z.int(),
  direction: z.enum(DIRECTIONS),
  quantity: z.enum(QUANTITIES),
  limitName: z.enum(LIMIT_NAMES),
  limit: z.number(),
});
export type Excursion = z.infer<typeof excursionSchema>;

/** Seconds beyond a limit, per quantity; null where the report sets no such limit. */
export const timePerQuantitySchema = z.object({
  temperature: z.int().nonnegative(),
  humidity: z.int().nonnegative().nullable(),
});
export type TimePerQuantity = z.infer<typeof timePerQuantitySchema>;

/** One alert rule of the report, in words, with whether and when it fired on the effective timeline. */
export const explainedRuleSchema = alertRuleSchema.safeExtend({
  /** Its place in `alertsConfig.rules` (or in the default rules), from 0: rules have no id of their own. */
  index: z.int().nonnegative(),
  /** e.g. "Moderate alert once readings have been out of limits for 30 min in total". */
  description: z.string(),
  fired: z.boolean(),
  /** Timestamp of the datapoint at which it fired (epoch seconds), null when it did not. */
  firedAt: z.int().nullable(),
});
export type ExplainedRule = z.infer<typeof explainedRuleSchema>;

export const alertExplanationSchema = z.object({
  /** Which timeline the figures describe: the trimmed one when a trim is set (as the alert itself). */
  range: z.enum(['trimmed', 'full']),
  trim: trimSchema.nullable(),
  /** The report's alert, as /v2 shows it. */
  alert: alertSchema,
  numberOfTaps: z.int(),
  /** Datapoints in the range. */
  datapoints: z.int().nonnegative(),
  interval: z.int().positive(),
  excursions: z.array(excursionSchema),
  timeAbove: timePerQuantitySchema,
  timeBelow: timePerQuantitySchema,
  /** Whether the report has alert rules of its own (else the default rules apply). */
  defaultRules: z.boolean(),
  rules: z.array(explainedRuleSchema),
  /** One sentence: why the alert level is what it is. */
  explanation: z.string(),
});
export type AlertExplanation = z.infer<typeof alertExplanationSchema>;

/* ---------- review: comments, acknowledgement, decision ---------- */

/** Who wrote a review entry: the API key and its name when written (null for a key without a name). */
export const reviewAuthorSchema = z.object({
  /** Empty when a person signed in wrote it. */
  keyId: z.string(),
  keyName: z.string().nullable(),
  /** The person signed in, named as when the entry was written; absent for a tool's key. */
  person: z.object({ id: z.string(), login: z.string(), name: z.string() }).optional(),
});
export type ReviewAuthor = z.infer<typeof reviewAuthorSchema>;

/** What a signed entry carries: the signature's meaning and the signer's time zone (absent when a tool's key wrote it). */
const signatureFields = {
  meaning: z.string().optional(),
  zone: z.string().optional(),
};

/** A signature's meaning, as the entry keeps it. */
export const SIGNATURE_MEANINGS = {
  acknowledgement: 'Reviewed',
  released: 'Approved for release',
  rejected: 'Rejected',
  onHold: 'On hold',
} as const;

/** The signer's password, entered again, and time zone (IANA; UTC when absent). A tool's key sends neither. */
const signatureBody = {
  password: z.string().max(1024).optional(),
  zone: z.string().max(64).optional(),
};

export const COMMENT_MAX_LENGTH = 2000;
export const REASON_MAX_LENGTH = 2000;
export const DECISIONS = ['released', 'rejected', 'onHold'] as const;
export type Decision = (typeof DECISIONS)[number];

export const commentSchema = z.object({
  id: z.string(),
  text: z.string(),
  author: reviewAuthorSchema,
  at: z.string(),
});
export type Comment = z.infer<typeof commentSchema>;

export const acknowledgementSchema = z.object({
  id: z.string(),
  note: z.string().nullable(),
  by: reviewAuthorSchema,
  at: z.string(),
  /** The alert that was acknowledged: a later tap or limit change may raise it again. */
  alert: alertSchema,
  ...signatureFields,
});
export type Acknowledgement = z.infer<typeof acknowledgementSchema>;

export const decisionSchema = z.object({
  id: z.string(),
  decision: z.enum(DECISIONS),
  reason: z.string(),
  by: reviewAuthorSchema,
  at: z.string(),
  ...signatureFields,
});
export type ReviewDecision = z.infer<typeof decisionSchema>;

/**
 * Whether the change is a signed one (docs/review-and-audit.md#signed-verdict-changes): why, what
 * the approver's signature will mean, whether four eyes are on (then a second person approves),
 * and whether the caller may sign it at once.
 */
export const signatureNeedSchema = z.object({
  cause: z.enum(['lowersAlert', 'awaitingReview']),
  meaning: z.string(),
  fourEyes: z.boolean(),
  /** The caller is a person whose role may release, and four eyes do not stand in the way. */
  callerMaySign: z.boolean(),
});
export type SignatureNeedInfo = z.infer<typeof signatureNeedSchema>;

/** What a change would do to the alert: POST /local/labelReports/:id/preview. */
export const alertPreviewSchema = z.object({
  alertBefore: alertSchema,
  alertAfter: alertSchema,
  /** Absent when a plain PATCH makes the change; else it is asked for as a signed change. */
  signature: signatureNeedSchema.optional(),
});
export type AlertPreview = z.infer<typeof alertPreviewSchema>;

/** A decision withdrawn because the alert changed under it: the report awaits a new decision. */
export const withdrawalSchema = z.object({
  id: z.string(),
  /** What withdrew it: the alert's change, by whom, and the reason given. */
  text: z.string(),
  /** The alert the change left. */
  alert: alertSchema,
  by: reviewAuthorSchema,
  at: z.string(),
});
export type Withdrawal = z.infer<typeof withdrawalSchema>;

/** The caller's company's review of one report: the newest acknowledgement and decision count. */
export const reviewSchema = z.object({
  acknowledgement: acknowledgementSchema.nullable(),
  decision: decisionSchema.nullable(),
  /** The withdrawal that ended the last decision, when no decision was taken since; decision is then null. */
  withdrawal: withdrawalSchema.nullable().optional(),
  /** Oldest first, as a conversation reads. */
  comments: z.array(commentSchema),
});
export type Review = z.infer<typeof reviewSchema>;

const trimmedText = (what: string, max: number) =>
  z
    .string()
    .trim()
    .min(1, `write the ${what}; it cannot be empty`)
    .max(max, `the ${what} has at most ${max} characters`);

export const commentBodySchema = z.strictObject({ text: trimmedText('comment', COMMENT_MAX_LENGTH) });
export type CommentBody = z.infer<typeof commentBodySchema>;

export const acknowledgementBodySchema = z.strictObject({
  note: trimmedText('note', COMMENT_MAX_LENGTH).optional(),
  ...signatureBody,
});
export type AcknowledgementBody = z.infer<typeof acknowledgementBodySchema>;

export const decisionBodySchema = z.strictObject({
  decision: z.enum(DECISIONS),
  reason: trimmedText('reason', REASON_MAX_LENGTH),
  ...signatureBody,
});
export type DecisionBody = z.infer<typeof decisionBodySchema>;

/* ---------- history: GET /local/labelReports/:id/history ---------- */

/**
 * Who made a change. An API key with its name and company (null when the key is not in this
 * database, as for the desktop's session key, which has no record); or one of the service's own
 * writers: an import, the demo data, a sync.
 */
export const historyActorSchema = z.object({
  kind: z.enum(['apiKey', 'import', 'demo', 'sync']),
  keyId: z.string().nullable(),
  keyName: z.string().nullable(),
  companyId: z.string().nullable(),
  companyName: z.string().nullable(),
  /** The person signed in, as named when it was written (login absent on a change); absent for a tool's key. */
  person: z.object({ id: z.string(), login: z.string().optional(), name: z.string() }).optional(),
});
export type HistoryActor = z.infer<typeof historyActorSchema>;

/** One field's change: its API name (`limits.maxTemperature`, `customFields.po`, `hasFlag`, …), old → new. */
export const historyFieldChangeSchema = z.object({
  field: z.string(),
  old: z.unknown(),
  new: z.unknown(),
});
export type HistoryFieldChange = z.infer<typeof historyFieldChangeSchema>;

const historyBase = { at: z.string(), actor: historyActorSchema };

export const historyEntrySchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('change'),
    /** The change log's sequence number. */
    seq: z.int(),
    kind: z.enum(CHANGE_KINDS),
    changes: z.array(historyFieldChangeSchema),
    /** Why, for a change to the verdict. */
    reason: z.string().optional(),
    /** Who approved a signed verdict change with which meaning, and who asked for it. */
    signature: changeSignatureSchema.optional(),
    ...historyBase,
  }),
  z.object({
    type: z.literal('withdrawal'),
    id: z.string(),
    /** The decision withdrawn. */
    previous: z.enum(DECISIONS).nullable(),
    text: z.string(),
    alert: alertSchema,
    ...historyBase,
  }),
  z.object({ type: z.literal('comment'), id: z.string(), text: z.string(), ...historyBase }),
  z.object({
    type: z.literal('acknowledgement'),
    id: z.string(),
    note: z.string().nullable(),
    alert: alertSchema,
    ...signatureFields,
    ...historyBase,
  }),
  z.object({
    type: z.literal('decision'),
    id: z.string(),
    decision: z.enum(DECISIONS),
    /** The decision this one replaced, null for the first. */
    previous: z.enum(DECISIONS).nullable(),
    reason: z.string(),
    ...signatureFields,
    ...historyBase,
  }),
]);
export type HistoryEntry = z.infer<typeof historyEntrySchema>;
export type HistoryEntryType = HistoryEntry['type'];

/** Newest first. */
export const reportHistorySchema = z.object({ entries: z.array(historyEntrySchema) });
export type ReportHistory = z.infer<typeof reportHistorySchema>;

/* ---------- plain words for the list ---------- */

export const CUSTOM_FIELD_KINDS = ['text', 'number', 'mixed'] as const;
export type CustomFieldKind = (typeof CUSTOM_FIELD_KINDS)[number];

/** A custom field id in use among the reports the company sees. */
export const customFieldUsageSchema = z.object({
  customFieldId: z.string(),
  /** number: every value (array elements included) is a number; text: none is; mixed: both. */
  kind: z.enum(CUSTOM_FIELD_KINDS),
  /** Reports holding a value for it (an empty list holds none). */
  count: z.int().positive(),
});
export type CustomFieldUsage = z.infer<typeof customFieldUsageSchema>;
export const customFieldUsageListSchema = z.array(customFieldUsageSchema);

export const companyNameSchema = z.object({ id: z.string(), name: z.string() });
export type CompanyName = z.infer<typeof companyNameSchema>;
export const companyNameListSchema = z.array(companyNameSchema);

/* ---------- CSV ---------- */

export const CSV_RANGES = ['full', 'trimmed'] as const;
export type CsvRange = (typeof CSV_RANGES)[number];
