/**
 * The import/export bundle (docs/cli.md#bundle-format). Import validates a whole bundle against this before
 * writing anything; export writes the same shape, with key hashes instead of keys.
 */
import { z } from 'zod';
import {
  companySchema,
  customFieldSchema,
  type CustomField,
  MAX_REPORT_CUSTOM_FIELDS,
  tooManyCustomFields,
  firmwareVersionInfoSchema,
  modeSchema,
  permissionSchema,
  reportTypeSchema,
  statusSchema,
  subCompanySchema,
} from './report';
import { alertsConfigSchema, reportedSenseDataSchema, senseConfigSchema, trimSchema, type SenseConfig } from './sense';

/** ISO 8601 with an explicit zone; stored in the canonical `toISOString()` form. */
export const isoInstantSchema = z.iso.datetime({ offset: true }).transform((s) => new Date(s).toISOString());

export const bundleApiKeySchema = z.union([
  z.strictObject({
    key: z.string().min(16, 'an API key needs at least 16 characters'),
    companyId: z.string().min(1),
    permissions: z.array(permissionSchema),
    name: z.string().optional(),
  }),
  z.strictObject({
    keyHash: z.string().regex(/^[0-9a-f]{64}$/, 'keyHash must be a SHA-256 hex digest'),
    companyId: z.string().min(1),
    permissions: z.array(permissionSchema),
    name: z.string().optional(),
    revoked: z.string().optional(),
  }),
]);
export type BundleApiKey = z.infer<typeof bundleApiKeySchema>;

const jsonObject = z.record(z.string(), z.unknown());

/**
 * A report id goes into URLs (`/v2/labelReports/:id`): it is kept short enough for every route
 * to take it, even percent-encoded.
 */
export const MAX_REPORT_ID_LENGTH = 200;

/**
 * A bundle report's fields without the checks across them (zod cannot omit fields from a
 * refined object): the activation body is derived from these.
 */
export const bundleReportFieldsSchema = z.strictObject({
  id: z.string().min(1).max(MAX_REPORT_ID_LENGTH, `a report id has at most ${MAX_REPORT_ID_LENGTH} characters`),
  created: isoInstantSchema,
  updated: isoInstantSchema.optional(),
  companyId: z.string().min(1),
  subCompany: subCompanySchema.nullable().optional(),
  user: jsonObject.nullable().optional(),
  labelPreset: jsonObject.nullable().optional(),
  label: z.strictObject({
    uid: z.string(),
    sequenceCode: z.string(),
    type: z.string(),
    name: z.string(),
    firmwareVersionInfo: firmwareVersionInfoSchema,
    batteryLifeDays: z.number().positive().optional(),
  }),
  mode: modeSchema,
  type: reportTypeSchema,
  status: statusSchema,
  labelReference: z.string().optional(),
  senseConfig: senseConfigSchema,
  alertsConfig: alertsConfigSchema.nullable().optional(),
  numberOfTaps: z.int().nonnegative(),
  dataIsIncomplete: z.boolean().optional(),
  reportedSenseData: reportedSenseDataSchema,
  trim: trimSchema.nullable().optional(),
  customFields: z.array(customFieldSchema).optional(),
  access: z.array(z.strictObject({ companyId: z.string().min(1), role: z.enum(['editor', 'viewer']) })).optional(),
  companyState: z
    .array(z.strictObject({ companyId: z.string().min(1), hasFlag: z.boolean(), isArchived: z.boolean() }))
    .optional(),
});

/** The checks across a report's own fields, for a bundle report and an activation alike. */
export function checkReportFields(r: { id?: string; senseConfig: SenseConfig; customFields?: CustomField[] }, ctx: z.RefinementCtx): void {
  const { limits } = r.senseConfig;
  if (limits.minTemperature > limits.maxTemperature) {
    ctx.addIssue({ code: 'custom', path: ['senseConfig', 'limits'], message: 'minTemperature is above maxTemperature' });
  }
  if (limits.minHumidity !== undefined && limits.maxHumidity !== undefined && limits.minHumidity > limits.maxHumidity) {
    ctx.addIssue({ code: 'custom', path: ['senseConfig', 'limits'], message: 'minHumidity is above maxHumidity' });
  }
  const count = r.customFields?.length ?? 0;
  if (count > MAX_REPORT_CUSTOM_FIELDS) ctx.addIssue({ code: 'custom', path: ['customFields'], message: r.id === undefined ? tooManyCustomFields(count) : `report '${r.id}': ${tooManyCustomFields(count)}` });
  const fields = new Set<string>();
  for (const [i, f] of (r.customFields ?? []).entries()) {
    if (fields.has(f.customFieldId)) {
      ctx.addIssue({ code: 'custom', path: ['customFields', i, 'customFieldId'], message: `custom field '${f.customFieldId}' is set twice` });
    }
    fields.add(f.customFieldId);
  }
}

export const bundleReportSchema = bundleReportFieldsSchema.superRefine((r, ctx) => {
  checkReportFields(r, ctx);
  const sharedWith = new Set<string>();
  for (const [i, a] of (r.access ?? []).entries()) {
    if (a.companyId === r.companyId) {
      ctx.addIssue({ code: 'custom', path: ['access', i, 'companyId'], message: 'the owning company cannot also be an editor or viewer' });
    } else if (sharedWith.has(a.companyId)) {
      ctx.addIssue({ code: 'custom', path: ['access', i, 'companyId'], message: `company '${a.companyId}' is listed twice` });
    }
    sharedWith.add(a.companyId);
  }
});
export type BundleReport = z.infer<typeof bundleReportSchema>;

export const BUNDLE_VERSION = 1;
export const bundleHeaderSchema = z.object({ version: z.literal(BUNDLE_VERSION) });
export { companySchema as bundleCompanySchema };
