/**
 * Shapes of sync with a remote instance (docs/sync.md#state-over-http-and-in-the-ui): the
 * status, conflicts, dead letters and pending edits the /local/sync endpoints answer, and the
 * bodies they take. The service, the command line and the renderer share them.
 */
import { z } from 'zod';
import { httpUrlSchema } from './http-url';
import {
  companySchema,
  customFieldSchema,
  firmwareVersionInfoSchema,
  MAX_REPORT_CUSTOM_FIELDS,
  MAX_ID_LENGTH,
  MAX_TEXT_LENGTH,
  modeSchema,
  reportTypeSchema,
  roleSchema,
  statusSchema,
  subCompanySchema,
} from './report';
import { alertSchema, alertsConfigSchema, calculatedSenseDataSchema, datapointSchema, limitsSchema, MAX_DATAPOINTS, senseConfigSchema } from './sense';
import { MAX_REPORT_ID_LENGTH } from './bundle';

export const SYNC_STATES = ['off', 'idle', 'pushing', 'pulling', 'reconciling', 'offline', 'paused'] as const;
export const syncStateSchema = z.enum(SYNC_STATES);
export type SyncState = z.infer<typeof syncStateSchema>;

export const CONFLICT_POLICIES = ['remote', 'local'] as const;
export const conflictPolicySchema = z.enum(CONFLICT_POLICIES);
export type ConflictPolicy = z.infer<typeof conflictPolicySchema>;

/** `GET /local/sync`. */
export const syncStatusSchema = z.object({
  configured: z.boolean(),
  remoteUrl: z.string().nullable(),
  companyId: z.string().nullable(),
  state: syncStateSchema,
  /** ISO 8601: the end of the last cycle that completed. */
  lastSuccessAt: z.string().nullable(),
  lastError: z.object({ at: z.string(), message: z.string() }).nullable(),
  /** Reports with local edits not yet sent. */
  pending: z.int().nonnegative(),
  conflicts: z.int().nonnegative(),
  deadLetters: z.int().nonnegative(),
  /** Reports the remote sent that the mirror did not take (listed in GET /local/sync/refused). */
  refused: z.int().nonnegative(),
  /** During a pull: reports handled of `totalDocuments`. */
  progress: z.object({ done: z.int().nonnegative(), total: z.int().nonnegative() }).nullable(),
  /** When the next attempt after a failure (or the next cycle) is due, ISO 8601. */
  nextAttemptAt: z.string().nullable(),
});
export type SyncStatus = z.infer<typeof syncStatusSchema>;

export const CONFLICT_KINDS = ['field', 'gone'] as const;

/**
 * A field's value as a PATCH sends it: a string, number or boolean, a custom field's value, or
 * null (a custom field that is not set, or no value at all for a report that is gone).
 */
export const syncValueSchema = z.union([z.string(), z.number(), z.boolean(), z.array(z.union([z.string(), z.number()])), z.null()]);
export type SyncValue = z.infer<typeof syncValueSchema>;

/** `GET /local/sync/conflicts` element. */
export const syncConflictSchema = z.object({
  id: z.string(),
  labelReportId: z.string(),
  /** `labelReference`, `status`, `hasFlag`, `isArchived`, `limits.<key>` or `customFields.<id>`. */
  field: z.string(),
  kind: z.enum(CONFLICT_KINDS),
  base: syncValueSchema,
  local: syncValueSchema,
  /** null for `gone`: the remote no longer shows the report. */
  remote: syncValueSchema,
  at: z.string(),
});
export type SyncConflict = z.infer<typeof syncConflictSchema>;

export const resolveConflictBodySchema = z.strictObject({ keep: z.enum(['local', 'remote']) });
export type ResolveConflictBody = z.infer<typeof resolveConflictBodySchema>;

/** `GET /local/sync/dead-letters` element: an edit the remote refused, with its answer. */
export const deadLetterSchema = z.object({
  id: z.string(),
  labelReportId: z.string(),
  fields: z.array(z.string()),
  status: z.int(),
  message: z.string(),
  at: z.string(),
});
export type DeadLetter = z.infer<typeof deadLetterSchema>;

export const deadLetterActionBodySchema = z.strictObject({ action: z.enum(['retry', 'discard']) });
export type DeadLetterActionBody = z.infer<typeof deadLetterActionBodySchema>;

/** `GET /local/sync/refused` element: a report the remote sent that the mirror did not take, and why. */
export const refusedReportSchema = z.object({
  labelReportId: z.string(),
  reason: z.string(),
  /** ISO 8601: when it was last refused. It is tried again at the next reconciliation. */
  at: z.string(),
});
export type RefusedFromRemote = z.infer<typeof refusedReportSchema>;

/** Whose figures a report shows (`GET /local/sync/reports/:id`). */
export const FIGURE_SOURCES = ['here', 'remote', 'local-edit'] as const;
export const reportSyncStateSchema = z.object({
  id: z.string(),
  /** It mirrors a report of the remote. */
  mirrored: z.boolean(),
  /**
   * `remote`: calculated by the remote, as it shows them; `local-edit`: recalculated here after
   * a local edit of limits, trim or alert rules, until the remote answers; `here`: a report
   * that exists only on this desk, calculated here.
   */
  figures: z.enum(FIGURE_SOURCES),
  /** Its local edits not yet sent. */
  pending: z.array(z.string()),
});
export type ReportSyncState = z.infer<typeof reportSyncStateSchema>;

/** `GET /local/sync/outbox` element: a report edited locally whose edit is not yet sent. */
export const outboxEntrySchema = z.object({
  labelReportId: z.string(),
  fields: z.array(z.string()),
  /** ISO 8601: the first edit of the entry. */
  since: z.string(),
});
export type OutboxEntry = z.infer<typeof outboxEntrySchema>;

const remoteUrlSchema = httpUrlSchema('must be an http or https URL, such as https://labels.example.com');

/** `GET /local/sync/settings`: the key itself is never shown. */
export const syncSettingsSchema = z.object({
  remoteUrl: z.string().nullable(),
  companyId: z.string().nullable(),
  hasKey: z.boolean(),
});
export type SyncSettings = z.infer<typeof syncSettingsSchema>;

/**
 * `PUT /local/sync/settings`: `remoteUrl: null` turns sync off. Without `remoteKey` the key held
 * in memory stays. The key is kept in memory only, never in the database.
 */
export const syncSettingsBodySchema = z.strictObject({
  remoteUrl: remoteUrlSchema.nullable(),
  companyId: z.string().min(1).max(200).optional(),
  remoteKey: z.string().min(1).max(1000).optional(),
});
export type SyncSettingsBody = z.infer<typeof syncSettingsBodySchema>;

/** `POST /local/sync/test`: tries a remote without saving anything. */
export const syncTestBodySchema = z.strictObject({
  remoteUrl: remoteUrlSchema,
  remoteKey: z.string().min(1).max(1000).optional(),
  companyId: z.string().min(1).max(200).optional(),
});
export type SyncTestBody = z.infer<typeof syncTestBodySchema>;

export const syncTestResultSchema = z.object({
  ok: z.boolean(),
  companyId: z.string().nullable(),
  companyName: z.string().nullable(),
  /** What worked or what went wrong, in words. */
  message: z.string(),
});
export type SyncTestResult = z.infer<typeof syncTestResultSchema>;

/**
 * A report as sync reads it from a remote (a retrieve, a PATCH answer or a list element, whose
 * label carries only uid and sequenceCode): the interface's shape with the limits the local API
 * keeps (ids, texts, custom values, physical ranges, non-negative counts), what the interface
 * leaves unshown optional, and extra keys ignored. Of the datapoint lists only the one sync
 * keeps is checked, point by point (`remoteDatapointSchema`); the figures beside them are
 * checked whole, as the mirror keeps them (docs/sync.md#what-the-mirror-holds).
 */
/** More companies than any report is shared with: a longer list is a remote gone wrong. */
export const MAX_ACCESS_ENTRIES = 1000;

const datapointList = z.array(z.unknown()).max(MAX_DATAPOINTS, `a report holds at most ${MAX_DATAPOINTS} datapoints`);
const idText = z.string().min(1).max(MAX_ID_LENGTH, `an id has at most ${MAX_ID_LENGTH} characters`);
const figuresSchema = z.object({ ...calculatedSenseDataSchema.shape, datapoints: datapointList });
export const remoteReportSchema = z.object({
  id: z.string().min(1).max(MAX_REPORT_ID_LENGTH, `a report id has at most ${MAX_REPORT_ID_LENGTH} characters`),
  created: isoInstant(),
  updated: isoInstant(),
  company: z.object({ ...companySchema.shape, id: idText }),
  subCompany: subCompanySchema.nullable().optional(),
  user: z.record(z.string(), z.unknown()).nullable().optional(),
  labelPreset: z.record(z.string(), z.unknown()).nullable().optional(),
  label: z.object({
    uid: z.string().max(MAX_TEXT_LENGTH),
    sequenceCode: z.string().max(MAX_TEXT_LENGTH),
    type: z.string().max(MAX_TEXT_LENGTH).optional(),
    name: z.string().max(MAX_TEXT_LENGTH).optional(),
    firmwareVersionInfo: z.object(firmwareVersionInfoSchema.shape).optional(),
    estimatedBatteryDaysLeft: z.number().optional(),
  }),
  mode: modeSchema,
  type: reportTypeSchema,
  status: statusSchema,
  labelReference: z.string().max(MAX_TEXT_LENGTH, `labelReference has at most ${MAX_TEXT_LENGTH} characters`).nullable().optional(),
  senseConfig: z.object({ ...senseConfigSchema.shape, limits: z.object(limitsSchema.shape) }),
  alertsConfig: alertsConfigSchema.nullable().optional(),
  hasFlag: z.boolean(),
  isArchived: z.boolean(),
  numberOfTaps: z.int().nonnegative(),
  dataIsIncomplete: z.boolean().optional(),
  reportedSenseData: z
    .object({
      datapoints: datapointList.optional(),
      currentTime: z.int().optional(),
      numberOfDatapointsAvailable: z.int().nonnegative().optional(),
      numberOfMeasurementsOccurred: z.int().nonnegative().optional(),
    })
    .nullable()
    .optional(),
  calculatedSenseData: figuresSchema,
  trimmedSenseData: figuresSchema.nullable().optional(),
  alert: alertSchema,
  customFields: z
    .array(z.object(customFieldSchema.shape))
    .max(MAX_REPORT_CUSTOM_FIELDS, `a report holds at most ${MAX_REPORT_CUSTOM_FIELDS} custom fields`)
    .nullable()
    .optional(),
  access: z
    .array(z.object({ id: idText, companyId: idText, labelReportId: z.string().optional(), role: roleSchema }))
    .max(MAX_ACCESS_ENTRIES, `a report has at most ${MAX_ACCESS_ENTRIES} access entries`),
});
export type RemoteReport = z.infer<typeof remoteReportSchema>;

/** A raw datapoint sync keeps, checked as an import checks it; the list is checked up to its first bad point. */
export const remoteDatapointSchema = z.object(datapointSchema.shape);

/** A list answer's envelope; its elements are read one by one, so one bad report does not stop a page. */
export const remotePageSchema = z.object({
  data: z.array(z.unknown()),
  totalDocuments: z.int().nonnegative(),
  /** A LabelDesk remote's extension, when asked for (sync/remote-client.ts): the page's reports whole, each read as a retrieve is. */
  wholeReports: z.array(z.unknown()).optional(),
});

/** What sync needs of an element of `output=minimal`: which report, and when it last changed. */
export const remoteMinimalSchema = z.object({ id: z.string().min(1), updated: isoInstant() });

/** The remote's /local/session, when it is a LabelDesk. */
export const remoteSessionSchema = z.object({ companyId: z.string().min(1), companyName: z.string() });

/** ISO 8601 with a zone, in the canonical `toISOString()` form: paging compares and repeats it. */
function isoInstant() {
  return z.iso.datetime({ offset: true }).transform((s) => new Date(s).toISOString());
}
