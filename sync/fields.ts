/**
 * The fields sync sends back (docs/sync.md#local-edits-and-push) are the field registry's
 * synced ones (model/report-fields.ts): `labelReference`, `status`, `hasFlag`, `isArchived`
 * (the remote key's company's), each limit key and each custom field. Here: the edits of
 * those among a change log entry's fields, and a field's value as sync carries it.
 */
import type { Report } from '../model/report';
import { fieldValue, isSyncedField, patchOfValues, settableField } from '../model/report-fields';
import type { FieldChange } from '../schema/change-log';
import type { LabelReportPatch } from '../schema/report';
import type { SyncValue } from '../schema/sync';
import type { FieldEdit } from './merge';

/** The edits of synced fields among a change's fields; per-company ones only of `companyId`. */
export function syncEditsOf(changes: readonly FieldChange[], companyId: string): FieldEdit[] {
  return changes
    .filter((c) => isSyncedField(c.field) && (!settableField(c.field)!.perCompany || c.companyId === companyId))
    .map((c) => ({ field: c.field, old: (c.old ?? null) as SyncValue, new: (c.new ?? null) as SyncValue }));
}

/** A synced field's value in a report, as the company `companyId` sees it. */
export function syncValue(report: Report, field: string, companyId: string): SyncValue {
  return fieldValue(report, field, companyId) as SyncValue;
}

/** One PATCH of these fields, each with its absolute value: sent twice, it changes nothing the second time. */
export function patchOf(values: Readonly<Record<string, SyncValue>>): LabelReportPatch {
  return patchOfValues(Object.entries(values));
}
