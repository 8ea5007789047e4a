/**
 * The fields sync sends back (decisions §5 "Local edits and push"): `labelReference`,
 * `status`, `hasFlag`, `isArchived` (the remote key's company's), each limit key
 * (`limits.minTemperature` …) and each custom field id (`customFields.<id>`). Here they are
 * read from a stored report, set in one, taken from a change log entry and made into a PATCH.
 */
import type { CustomFieldRow } from '../db/report-store';
import type { ReportRow } from '../db/report-rows';
import type { FieldChange } from '../schema/change-log';
import type { LabelReportPatch, Status } from '../schema/report';
import type { Limits } from '../schema/sense';
import type { SyncValue } from '../schema/sync';
import type { FieldEdit } from './merge';
import { recalculate, senseSettingsOf, type ReportRecord } from '../service/report-record';
import { decodeDatapoints } from '../db/datapoint-codec';

const LIMIT_COLUMNS = {
  'limits.minTemperature': 'min_temperature',
  'limits.maxTemperature': 'max_temperature',
  'limits.minHumidity': 'min_humidity',
  'limits.maxHumidity': 'max_humidity',
} as const satisfies Record<string, keyof ReportRow>;
type LimitField = keyof typeof LIMIT_COLUMNS;

const PER_COMPANY = new Set(['hasFlag', 'isArchived']);
const CUSTOM = 'customFields.';

export function isSyncField(field: string): boolean {
  return field === 'labelReference' || field === 'status' || PER_COMPANY.has(field) || field in LIMIT_COLUMNS || field.startsWith(CUSTOM);
}

/** The edits of sync fields among a change's fields; flags and archive only of `companyId`. */
export function syncEditsOf(changes: readonly FieldChange[], companyId: string): FieldEdit[] {
  return changes
    .filter((c) => isSyncField(c.field) && (!PER_COMPANY.has(c.field) || c.companyId === companyId))
    .map((c) => ({ field: c.field, old: (c.old ?? null) as SyncValue, new: (c.new ?? null) as SyncValue }));
}

/** A field's value in a stored report, as its company `companyId` sees it. */
export function fieldValue(record: ReportRecord, field: string, companyId: string): SyncValue {
  const { row } = record;
  if (field === 'labelReference') return row.label_reference;
  if (field === 'status') return row.status;
  if (PER_COMPANY.has(field)) {
    const state = record.states.find((s) => s.company_id === companyId);
    return field === 'hasFlag' ? state?.has_flag === 1 : state?.is_archived === 1;
  }
  if (field in LIMIT_COLUMNS) return row[LIMIT_COLUMNS[field as LimitField]];
  if (field.startsWith(CUSTOM)) {
    const id = field.slice(CUSTOM.length);
    const stored = record.customFields.find((f) => f.custom_field_id === id);
    return stored === undefined ? null : (JSON.parse(stored.value) as SyncValue);
  }
  throw new Error(`'${field}' is not a field sync sends`);
}

/**
 * The record with these fields set (a null custom field removed); the sense figures computed
 * again when a limit changed. The record given is left as it was.
 */
export function withFieldValues(record: ReportRecord, values: Record<string, SyncValue>, companyId: string): ReportRecord {
  const row: ReportRow = { ...record.row };
  let states = record.states;
  let customFields = record.customFields;
  let limitsChanged = false;
  for (const [field, value] of Object.entries(values)) {
    if (field === 'labelReference') row.label_reference = String(value ?? '');
    else if (field === 'status') row.status = String(value) as Status;
    else if (PER_COMPANY.has(field)) {
      const current = states.find((s) => s.company_id === companyId) ?? {
        company_id: companyId,
        label_report_id: row.id,
        has_flag: 0,
        is_archived: 0,
      };
      const next = { ...current, [field === 'hasFlag' ? 'has_flag' : 'is_archived']: value === true ? 1 : 0 };
      states = [...states.filter((s) => s.company_id !== companyId), next];
    } else if (field in LIMIT_COLUMNS) {
      const column = LIMIT_COLUMNS[field as LimitField];
      if (row[column] !== value) limitsChanged = true;
      (row as unknown as Record<string, unknown>)[column] = typeof value === 'number' ? value : null;
    } else if (field.startsWith(CUSTOM)) {
      const id = field.slice(CUSTOM.length);
      const others = customFields.filter((f) => f.custom_field_id !== id);
      const set: CustomFieldRow[] = value === null ? [] : [{ label_report_id: row.id, custom_field_id: id, value: JSON.stringify(value) }];
      customFields = [...others, ...set];
    } else {
      throw new Error(`'${field}' is not a field sync sends`);
    }
  }
  if (limitsChanged) Object.assign(row, recalculate(decodeDatapoints(row.datapoints), senseSettingsOf(row)));
  return { row, access: record.access, states, customFields };
}

/** One PATCH of these fields, each with its absolute value: sent twice, it changes nothing the second time. */
export function patchOf(values: Record<string, SyncValue>): LabelReportPatch {
  const patch: LabelReportPatch = {};
  const limits: Partial<Limits> = {};
  for (const [field, value] of Object.entries(values)) {
    if (field === 'labelReference') patch.labelReference = String(value ?? '');
    else if (field === 'status') patch.status = value as Status;
    else if (field === 'hasFlag') patch.hasFlag = value === true;
    else if (field === 'isArchived') patch.isArchived = value === true;
    else if (field in LIMIT_COLUMNS && typeof value === 'number') limits[field.slice('limits.'.length) as keyof Limits] = value;
    else if (field.startsWith(CUSTOM)) {
      (patch.customFields ??= []).push({
        customFieldId: field.slice(CUSTOM.length),
        value: value as NonNullable<LabelReportPatch['customFields']>[number]['value'],
      });
    }
  }
  if (Object.keys(limits).length > 0) patch.limits = limits;
  return patch;
}
