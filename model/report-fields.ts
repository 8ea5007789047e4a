/**
 * The settable fields of a label report, each defined once: its name (what the change log and
 * sync call it), the PATCH key that sets it, the least role that may set it, whether it feeds
 * the sense figures, whether it is per company, whether sync sends it back (docs/sync.md#local-edits-and-push), and
 * how it is read from and set in a report. PATCH, sync's merge and push, and the writer's
 * "does this change recalculate" all read this table.
 *
 * Custom fields are a family: `customFields.<id>`, one field per id.
 */
import type { CustomFieldValue, LocalReportPatch, Role, Status } from '../schema/report';
import type { AlertsConfig, Limits, Trim } from '../schema/sense';
import { stateOf, type Report } from './report';
import { withFigures } from './report-figures';

/** A field's value: what the change log and sync carry. */
export type FieldValue = string | number | boolean | null | Trim | AlertsConfig | CustomFieldValue;

/** Field names and the values to set, in the order they are set. */
export type FieldValues = ReadonlyMap<string, FieldValue>;

export interface SettableField {
  readonly name: string;
  readonly patchKey: keyof LocalReportPatch;
  readonly role: Role;
  readonly senseInput: boolean;
  readonly perCompany: boolean;
  readonly synced: boolean;
  get(report: Report, companyId: string): FieldValue;
  /** Sets the value in `report`, a copy the caller owns. */
  set(report: Report, value: FieldValue, companyId: string): void;
  /** The value `patch` sets, or undefined when it leaves the field alone. */
  fromPatch(patch: LocalReportPatch): FieldValue | undefined;
  toPatch(patch: LocalReportPatch, value: FieldValue): void;
}

const CUSTOM = 'customFields.';
/** Custom fields, of any id, are set by editors and owners. */
const CUSTOM_FIELD_ROLE: Role = 'editor';
const LIMIT_KEYS = ['minTemperature', 'maxTemperature', 'minHumidity', 'maxHumidity'] as const;

function limitField(key: (typeof LIMIT_KEYS)[number]): SettableField {
  return {
    name: `limits.${key}`,
    patchKey: 'limits',
    role: 'owner',
    senseInput: true,
    perCompany: false,
    synced: true,
    get: (r) => r.senseConfig.limits[key] ?? null,
    set: (r, value) => {
      const limits: Limits = { ...r.senseConfig.limits };
      if (typeof value === 'number') limits[key] = value;
      else if (key === 'minHumidity' || key === 'maxHumidity') delete limits[key];
      r.senseConfig = { ...r.senseConfig, limits };
    },
    fromPatch: (p) => p.limits?.[key],
    toPatch: (p, value) => {
      if (typeof value === 'number') p.limits = { ...p.limits, [key]: value };
    },
  };
}

function stateField(name: 'hasFlag' | 'isArchived'): SettableField {
  return {
    name,
    patchKey: name,
    role: 'viewer',
    senseInput: false,
    perCompany: true,
    synced: true,
    get: (r, companyId) => stateOf(r, companyId)[name],
    set: (r, value, companyId) => {
      const next = { ...stateOf(r, companyId), [name]: value === true };
      r.states = [...r.states.filter((s) => s.companyId !== companyId), next];
    },
    fromPatch: (p) => p[name],
    toPatch: (p, value) => {
      p[name] = value === true;
    },
  };
}

export const SETTABLE_FIELDS: readonly SettableField[] = [
  {
    name: 'labelReference',
    patchKey: 'labelReference',
    role: 'editor',
    senseInput: false,
    perCompany: false,
    synced: true,
    get: (r) => r.labelReference,
    set: (r, value) => {
      r.labelReference = String(value ?? '');
    },
    fromPatch: (p) => p.labelReference,
    toPatch: (p, value) => {
      p.labelReference = String(value ?? '');
    },
  },
  {
    name: 'status',
    patchKey: 'status',
    role: 'editor',
    senseInput: false,
    perCompany: false,
    synced: true,
    get: (r) => r.status,
    set: (r, value) => {
      r.status = String(value) as Status;
    },
    fromPatch: (p) => p.status,
    toPatch: (p, value) => {
      p.status = value as Status;
    },
  },
  ...LIMIT_KEYS.map(limitField),
  {
    name: 'trim',
    patchKey: 'trim',
    role: 'editor',
    senseInput: true,
    perCompany: false,
    synced: false,
    get: (r) => r.trim,
    set: (r, value) => {
      r.trim = (value as Trim | null) ?? null;
    },
    fromPatch: (p) => p.trim,
    toPatch: (p, value) => {
      p.trim = value as Trim | null;
    },
  },
  {
    // Set through /local only; a mirrored report's rules are the remote's (never sent back).
    name: 'alertsConfig',
    patchKey: 'alertsConfig',
    role: 'owner',
    senseInput: true,
    perCompany: false,
    synced: false,
    get: (r) => r.alertsConfig,
    set: (r, value) => {
      r.alertsConfig = (value as AlertsConfig | null) ?? null;
    },
    fromPatch: (p) => p.alertsConfig,
    toPatch: (p, value) => {
      p.alertsConfig = value as AlertsConfig | null;
    },
  },
  stateField('hasFlag'),
  stateField('isArchived'),
];

const BY_NAME = new Map(SETTABLE_FIELDS.map((f) => [f.name, f]));

function customField(id: string): SettableField {
  return {
    name: CUSTOM + id,
    patchKey: 'customFields',
    role: CUSTOM_FIELD_ROLE,
    senseInput: false,
    perCompany: false,
    synced: true,
    get: (r) => r.customFields.find((f) => f.customFieldId === id)?.value ?? null,
    set: (r, value) => {
      const at = r.customFields.findIndex((f) => f.customFieldId === id);
      if (value === null) {
        if (at >= 0) r.customFields = r.customFields.filter((_, i) => i !== at);
      } else if (at >= 0) {
        r.customFields = r.customFields.map((f, i) => (i === at ? { customFieldId: id, value: value as CustomFieldValue } : f));
      } else {
        r.customFields = [...r.customFields, { customFieldId: id, value: value as CustomFieldValue }];
      }
    },
    fromPatch: (p) => p.customFields?.find((f) => f.customFieldId === id)?.value,
    toPatch: (p, value) => {
      (p.customFields ??= []).push({ customFieldId: id, value: value as CustomFieldValue | null });
    },
  };
}

/** The field of this name, or undefined when no such field can be set. */
export function settableField(name: string): SettableField | undefined {
  if (name.startsWith(CUSTOM)) return name.length > CUSTOM.length ? customField(name.slice(CUSTOM.length)) : undefined;
  return BY_NAME.get(name);
}

function fieldNamed(name: string): SettableField {
  const field = settableField(name);
  if (!field) throw new Error(`'${name}' is not a settable field`);
  return field;
}

/** Whether sync sends this field back to the remote. */
export function isSyncedField(name: string): boolean {
  return settableField(name)?.synced === true;
}

/** What a PATCH body sets, field by field: each limit key, each custom field, and the rest by name. */
export function valuesOfPatch(patch: LocalReportPatch): FieldValues {
  const values = new Map<string, FieldValue>();
  for (const field of SETTABLE_FIELDS) {
    const value = field.fromPatch(patch);
    if (value !== undefined) values.set(field.name, value);
  }
  for (const { customFieldId, value } of patch.customFields ?? []) values.set(CUSTOM + customFieldId, value);
  return values;
}

/** One PATCH that sets these fields to these values: sent twice, it changes nothing the second time. */
export function patchOfValues(values: Iterable<readonly [string, FieldValue]>): LocalReportPatch {
  const patch: LocalReportPatch = {};
  for (const [name, value] of values) fieldNamed(name).toPatch(patch, value);
  return patch;
}

/** The fields' values in `report` as the company sees them. */
export function fieldValue(report: Report, name: string, companyId: string): FieldValue {
  return fieldNamed(name).get(report, companyId);
}

/** The least role that may set a PATCH body key: the one its fields need (custom fields: an editor). */
export function roleToSet(patchKey: keyof LocalReportPatch): Role {
  return SETTABLE_FIELDS.find((f) => f.patchKey === patchKey)?.role ?? CUSTOM_FIELD_ROLE;
}

/**
 * The report with these fields set (per-company fields as `companyId`'s), the figures
 * recalculated once when a sense input changed. `report` is left as it was.
 */
export function withValues(report: Report, values: FieldValues, companyId: string): Report {
  const next: Report = { ...report };
  let recalculate = false;
  for (const [name, value] of values) {
    const field = fieldNamed(name);
    if (field.senseInput && !sameFieldValue(field.get(next, companyId), value)) recalculate = true;
    field.set(next, value, companyId);
  }
  return recalculate ? withFigures(next, report.figures) : next;
}

/** Field values compare by their JSON: a trim or a list is equal when its members are. */
export function sameFieldValue(a: FieldValue | undefined, b: FieldValue | undefined): boolean {
  return a === b || JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}
