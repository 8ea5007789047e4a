/**
 * The label report as the /v2 API shows it, and the bodies it accepts. Service, renderer and
 * tests all take their types from here.
 */
import { z } from 'zod';
import {
  alertSchema,
  alertsConfigSchema,
  calculatedSenseDataSchema,
  limitsSchema,
  minimalSenseDataSchema,
  reportedSenseDataSchema,
  senseConfigSchema,
  trimSchema,
} from './sense';

export const MODES = ['airFreight', 'roadTransport', 'seaFreight', 'railFreight', 'stationary', 'unknown'] as const;
export const REPORT_TYPES = ['tempSense', 'humiditySense', 'shockSense', 'freezeSense'] as const;
export const STATUSES = ['active', 'completed'] as const;
export const ROLES = ['owner', 'editor', 'viewer'] as const;
export const PERMISSIONS = [
  'labelReports:read',
  'labelReports:update',
  'labelReports:create',
  'webhooks:manage',
  'apiKeys:manage',
  'sync:manage',
] as const;

export const modeSchema = z.enum(MODES);
export const reportTypeSchema = z.enum(REPORT_TYPES);
export const statusSchema = z.enum(STATUSES);
export const roleSchema = z.enum(ROLES);
export const permissionSchema = z.enum(PERMISSIONS);
export type Mode = z.infer<typeof modeSchema>;
export type ReportType = z.infer<typeof reportTypeSchema>;
export type Status = z.infer<typeof statusSchema>;
export type Role = z.infer<typeof roleSchema>;
export type Permission = z.infer<typeof permissionSchema>;

export const companySchema = z.strictObject({
  id: z.string().min(1),
  name: z.string(),
  shortCode: z.string(),
});
export type Company = z.infer<typeof companySchema>;

/** subCompany's inner fields are not fixed by the interface; an `id` is kept for filtering. */
export const subCompanySchema = z.looseObject({ id: z.string().min(1) });

export const firmwareVersionInfoSchema = z.strictObject({
  firmwareVersion: z.string(),
  firmwareApiVersion: z.string(),
});

/** The longest text a report holds in one field: a reference, a custom field's value (or each of its values). */
export const MAX_TEXT_LENGTH = 1000;
/** The most values one custom field holds. */
export const MAX_FIELD_VALUES = 1000;
/**
 * The most custom fields one report holds. A site's reports carry a handful (order, batch,
 * carrier, pallets); every custom field of a report is kept in the read model beside each of
 * its others, so a write's cost grows with their number. A PATCH, an activation, an import and
 * a sync pull meet the same limit (docs/api.md#custom-fields).
 */
export const MAX_REPORT_CUSTOM_FIELDS = 200;
/** Why a report with `count` custom fields is refused. */
export const tooManyCustomFields = (count: number) => `a report holds at most ${MAX_REPORT_CUSTOM_FIELDS} custom fields, not ${count}`;
/** The longest id of a custom field, of a company and of an access entry. */
export const MAX_ID_LENGTH = 200;

const text = z.string().max(MAX_TEXT_LENGTH, `a text has at most ${MAX_TEXT_LENGTH} characters`);

export const customFieldIdSchema = z
  .string()
  .max(MAX_ID_LENGTH, `a customFieldId has at most ${MAX_ID_LENGTH} characters`)
  .regex(/^[A-Za-z0-9_.-]+$/, 'customFieldId may contain only letters, digits, _ . and -');
export const customFieldValueSchema = z.union([
  text,
  z.number(),
  z.array(z.union([text, z.number()])).max(MAX_FIELD_VALUES, `a custom field holds at most ${MAX_FIELD_VALUES} values`),
]);
export type CustomFieldValue = z.infer<typeof customFieldValueSchema>;
export const customFieldSchema = z.strictObject({ customFieldId: customFieldIdSchema, value: customFieldValueSchema });
export type CustomField = z.infer<typeof customFieldSchema>;

export const accessEntrySchema = z.object({
  id: z.string(),
  companyId: z.string(),
  labelReportId: z.string(),
  role: roleSchema,
});
export type AccessEntry = z.infer<typeof accessEntrySchema>;

const jsonObject = z.record(z.string(), z.unknown());

/**
 * The interface leaves the members of `user` and `labelPreset` open, and the service keeps
 * whatever object a bundle, an activation or a sync gave it. The OpenAPI document names the
 * members every report the service makes carries (demo data), so a generated client reads them
 * without a cast; they are not required, and no object is refused for their sake.
 */
const describedObject = (description: string, members: Record<string, string>) =>
  jsonObject.meta({
    description,
    properties: Object.fromEntries(Object.entries(members).map(([name, about]) => [name, { type: 'string', description: about }])),
  });

const reportUserSchema = describedObject('Who started the label, as the report’s source gave it; other members may appear.', {
  id: 'The user’s id at the source',
  name: 'The user’s name, to show',
  email: 'The user’s e-mail address',
});

const labelPresetSchema = describedObject('The preset the label was started with, as the report’s source gave it; other members may appear.', {
  id: 'The preset’s id at the source',
  name: 'The preset’s name, to show',
});

export const labelSchema = z.object({
  uid: z.string(),
  sequenceCode: z.string(),
  type: z.string(),
  name: z.string(),
  firmwareVersionInfo: firmwareVersionInfoSchema,
  estimatedBatteryDaysLeft: z.number().optional(),
});

/** The trimmed figures carry their own datapoints, like the calculated ones. */
const trimmedSenseDataSchema = calculatedSenseDataSchema.nullable();

/** Full report, as retrieve and PATCH return it (docs/api.md#shapes, key order included). */
export const labelReportSchema = z.object({
  id: z.string(),
  created: z.string(),
  updated: z.string(),
  company: companySchema,
  subCompany: subCompanySchema.nullable(),
  user: reportUserSchema.nullable(),
  label: labelSchema,
  mode: modeSchema,
  type: reportTypeSchema,
  status: statusSchema,
  labelReference: z.string(),
  senseConfig: senseConfigSchema,
  alertsConfig: alertsConfigSchema.nullable(),
  labelPreset: labelPresetSchema.nullable(),
  hasFlag: z.boolean(),
  isArchived: z.boolean(),
  numberOfTaps: z.int(),
  dataIsIncomplete: z.boolean(),
  reportedSenseData: reportedSenseDataSchema,
  calculatedSenseData: calculatedSenseDataSchema,
  trimmedSenseData: trimmedSenseDataSchema,
  alert: alertSchema,
  customFields: z.array(customFieldSchema).nullable(),
  access: z.array(accessEntrySchema),
});
export type LabelReport = z.infer<typeof labelReportSchema>;

/** Element of `GET /v2/labelReports?output=minimal`: exactly the interface's reduced keys. */
export const minimalLabelReportSchema = z.object({
  id: z.string(),
  created: z.string(),
  updated: z.string(),
  company: companySchema,
  subCompany: subCompanySchema.nullable(),
  label: z.object({ uid: z.string(), sequenceCode: z.string() }),
  mode: modeSchema,
  type: reportTypeSchema,
  status: statusSchema,
  labelReference: z.string(),
  senseConfig: senseConfigSchema,
  hasFlag: z.boolean(),
  isArchived: z.boolean(),
  numberOfTaps: z.int(),
  minimalSenseData: minimalSenseDataSchema,
  alert: alertSchema,
});
export type MinimalLabelReport = z.infer<typeof minimalLabelReportSchema>;

/** Element of `GET /v2/labelReports` (output=normal): the full shape, label reduced. */
export const listedLabelReportSchema = labelReportSchema.extend({
  label: z.object({ uid: z.string(), sequenceCode: z.string() }),
});
export type ListedLabelReport = z.infer<typeof listedLabelReportSchema>;

export function pageSchema<T extends z.ZodType>(element: T) {
  return z.object({ data: z.array(element), totalDocuments: z.int().nonnegative() });
}
export type Page<T> = { data: T[]; totalDocuments: number };

/** PATCH /v2/labelReports/:id body. Unknown fields are refused. */
export const labelReportPatchSchema = z.strictObject({
  limits: limitsSchema.partial().optional(),
  labelReference: text.optional(),
  status: statusSchema.optional(),
  hasFlag: z.boolean().optional(),
  isArchived: z.boolean().optional(),
  customFields: z
    .array(z.strictObject({ customFieldId: customFieldIdSchema, value: customFieldValueSchema.nullable() }))
    .max(MAX_REPORT_CUSTOM_FIELDS, `a PATCH sets at most ${MAX_REPORT_CUSTOM_FIELDS} custom fields, as a report holds no more`)
    .optional(),
  trim: trimSchema.nullable().optional(),
});
export type LabelReportPatch = z.infer<typeof labelReportPatchSchema>;

/**
 * A PATCH beside /v2, under /local: the same fields, and the report's alert rules, which the
 * interface's PATCH does not take. `null` puts the default rules back; a list has at least one
 * rule, as a report edited to have none could never alert.
 */
export const localReportPatchSchema = labelReportPatchSchema.extend({
  alertsConfig: z
    .strictObject({ rules: alertsConfigSchema.shape.rules.min(1, 'alertsConfig.rules needs at least one rule; send alertsConfig null for the default rules') })
    .nullable()
    .optional(),
});
export type LocalReportPatch = z.infer<typeof localReportPatchSchema>;

/** The two refusals of a role (docs/api.md#errors), word for word: a sync client recognises them by their text too. */
export const ROLE_MESSAGES = {
  limits: 'Only the label report owner can update limits',
  viewer: 'Viewers can only update hasFlag and isArchived',
} as const;

