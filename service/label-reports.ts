/**
 * The three label report operations of /v2: list, retrieve and update. Knows the rules of the
 * interface (visibility, roles, recalculation); knows neither HTTP nor SQL text.
 */
import type { Db } from '../db/database';
import { decodeDatapoints } from '../db/datapoint-codec';
import type { MinimalReportRow, ReportRow, VisibleReportRow } from '../db/report-rows';
import { ReportStore } from '../db/report-store';
import { compileListQuery } from '../db/query/compile';
import { parseListQuery } from '../query/list-query';
import { ApiError } from '../schema/api-error';
import {
  labelReportPatchSchema,
  OWNER_FIELDS,
  VIEWER_FIELDS,
  type LabelReport,
  type LabelReportPatch,
  type ListedLabelReport,
  type MinimalLabelReport,
  type Page,
} from '../schema/report';
import type { Limits, Trim } from '../schema/sense';
import { requirePermission, type Caller } from './api-keys';
import { describeZodError } from './zod-messages';
import { limitColumns, recalculate, senseSettingsOf, trimOf } from './report-record';
import { materialize, type ReportDocument } from './report-json';
import { fullReportDocument, listedReport, minimalReport } from './report-view';

export type QueryInput = Record<string, string | string[] | undefined>;

export class LabelReportService {
  readonly store: ReportStore;

  constructor(
    private readonly db: Db,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.store = new ReportStore(db);
  }

  list(caller: Caller, query: QueryInput): Page<MinimalLabelReport> | Page<ListedLabelReport> {
    requirePermission(caller, 'labelReports:read');
    const q = parseListQuery(query);
    const sql = compileListQuery(q);
    const offset = (q.pageNumber - 1) * q.pageSize;
    // One read transaction, so the page and its count describe the same moment.
    return this.db.transaction(() => {
      // Pages have no upper bound, but no page past 2^53 reports can hold any.
      if (offset > Number.MAX_SAFE_INTEGER) return { data: [], totalDocuments: this.store.count(caller.companyId, sql) };
      const page =
        q.output === 'minimal'
          ? this.store.listMinimal(caller.companyId, sql, q.pageSize, offset)
          : this.store.listFull(caller.companyId, sql, q.pageSize, offset);
      // A page that is neither full nor past the end already tells the total: a search then
      // scans once instead of twice.
      const totalDocuments =
        page.length > 0 && page.length < q.pageSize ? offset + page.length : this.store.count(caller.companyId, sql);
      if (q.output === 'minimal') return { data: (page as MinimalReportRow[]).map(minimalReport), totalDocuments };
      const rows = page as VisibleReportRow[];
      const ids = rows.map((r) => r.id);
      const access = this.store.accessFor(ids);
      const fields = this.store.customFieldsFor(ids);
      return {
        data: rows.map((row) => listedReport(row, access.get(row.id) ?? [], fields.get(row.id))),
        totalDocuments,
      };
    })();
  }

  retrieve(caller: Caller, id: string, query: QueryInput = {}): LabelReport {
    return materialize(this.retrieveDocument(caller, id, query));
  }

  /** Retrieve, with the datapoint lists left as columns for `reportJson`. */
  retrieveDocument(caller: Caller, id: string, query: QueryInput = {}): ReportDocument {
    requirePermission(caller, 'labelReports:read');
    return this.db.transaction(() => {
      const report = this.view(caller, id); // 404 comes before a bad parameter's 400
      refuseUnknownParameters(query);
      return report;
    })();
  }

  update(caller: Caller, id: string, body: unknown, query: QueryInput = {}): LabelReport {
    return materialize(this.updateDocument(caller, id, body, query));
  }

  /** Update, answering the report with its datapoint lists left as columns for `reportJson`. */
  updateDocument(caller: Caller, id: string, body: unknown, query: QueryInput = {}): ReportDocument {
    requirePermission(caller, 'labelReports:update');
    const run = this.db.transaction(() => {
      const row = this.store.findVisible(caller.companyId, id);
      if (!row) throw notFound(id);
      refuseUnknownParameters(query);
      const patch = parsePatch(body);
      const limits = patch.limits ? mergeLimits(row, patch.limits) : undefined;
      checkRole(row.caller_role, patch);
      if (this.apply(caller, row, patch, limits)) {
        this.store.updateColumns(id, { updated: nextUpdated(row.updated, this.now()) });
      }
      return this.view(caller, id);
    });
    // IMMEDIATE: take the write lock before reading, so no other writer slips in between.
    return run.immediate();
  }

  /** Writes what the patch changes; returns whether any value changed. */
  private apply(caller: Caller, row: ReportRow & { has_flag: number; is_archived: number }, patch: LabelReportPatch, limits: Limits | undefined): boolean {
    const changes: Partial<ReportRow> = {};
    if (patch.labelReference !== undefined && patch.labelReference !== row.label_reference) {
      changes.label_reference = patch.labelReference;
    }
    if (patch.status !== undefined && patch.status !== row.status) changes.status = patch.status;
    if (limits) {
      const columns = limitColumns(limits);
      for (const key of Object.keys(columns) as (keyof typeof columns)[]) {
        if (columns[key] !== row[key]) Object.assign(changes, { [key]: columns[key] });
      }
    }
    if (patch.trim !== undefined && !sameTrim(patch.trim, trimOf(row))) {
      changes.trim_start = patch.trim?.startTime ?? null;
      changes.trim_end = patch.trim?.endTime ?? null;
    }
    const senseChanged = [
      'min_temperature', 'max_temperature', 'min_humidity', 'max_humidity', 'trim_start',
    ].some((k) => k in changes);
    if (senseChanged) {
      Object.assign(changes, recalculate(decodeDatapoints(row.datapoints), senseSettingsOf({ ...row, ...changes })));
    }
    let changed = Object.keys(changes).length > 0;
    this.store.updateColumns(row.id, changes);

    const hasFlag = patch.hasFlag ?? row.has_flag === 1;
    const isArchived = patch.isArchived ?? row.is_archived === 1;
    if (hasFlag !== (row.has_flag === 1) || isArchived !== (row.is_archived === 1)) {
      this.store.setCompanyState({
        company_id: caller.companyId,
        label_report_id: row.id,
        has_flag: hasFlag ? 1 : 0,
        is_archived: isArchived ? 1 : 0,
      });
      changed = true;
    }
    if (patch.customFields) {
      const current = new Map(
        (this.store.customFieldsFor([row.id]).get(row.id) ?? []).map((f) => [f.custom_field_id, f.value]),
      );
      for (const { customFieldId, value } of patch.customFields) {
        const json = value === null ? null : JSON.stringify(value);
        if (json === (current.get(customFieldId) ?? null)) continue;
        if (json === null) {
          this.store.clearCustomField(row.id, customFieldId);
          current.delete(customFieldId);
        } else {
          this.store.setCustomField(row.id, customFieldId, json);
          current.set(customFieldId, json);
        }
        changed = true;
      }
    }
    return changed;
  }

  private view(caller: Caller, id: string): ReportDocument {
    const row = this.store.findVisible(caller.companyId, id);
    if (!row) throw notFound(id);
    const access = this.store.accessFor([id]).get(id) ?? [];
    const fields = this.store.customFieldsFor([id]).get(id);
    return fullReportDocument(row, access, fields, Math.floor(this.now().getTime() / 1000));
  }
}

function notFound(id: string): ApiError {
  return new ApiError(404, 'REPORT_NOT_FOUND', `no label report '${id}' is visible to this API key`);
}

function refuseUnknownParameters(query: QueryInput): void {
  for (const name of Object.keys(query)) {
    if (name !== 'key' && name !== 'apiKey') {
      throw new ApiError(400, 'UNKNOWN_PARAMETER', `unknown query parameter '${name}'`);
    }
  }
}

function parsePatch(body: unknown): LabelReportPatch {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new ApiError(400, 'INVALID_BODY', 'the body must be a JSON object');
  }
  const parsed = labelReportPatchSchema.safeParse(body);
  if (!parsed.success) throw new ApiError(400, 'INVALID_BODY', describeZodError(parsed.error));
  return parsed.data;
}

function mergeLimits(row: ReportRow, patch: Partial<Limits>): Limits {
  const merged: Limits = { minTemperature: row.min_temperature, maxTemperature: row.max_temperature };
  if (row.min_humidity !== null) merged.minHumidity = row.min_humidity;
  if (row.max_humidity !== null) merged.maxHumidity = row.max_humidity;
  Object.assign(merged, patch);
  if (merged.minTemperature > merged.maxTemperature) {
    throw new ApiError(
      400,
      'INVALID_BODY',
      `limits: minTemperature ${merged.minTemperature} is above maxTemperature ${merged.maxTemperature}`,
    );
  }
  if (merged.minHumidity !== undefined && merged.maxHumidity !== undefined && merged.minHumidity > merged.maxHumidity) {
    throw new ApiError(400, 'INVALID_BODY', `limits: minHumidity ${merged.minHumidity} is above maxHumidity ${merged.maxHumidity}`);
  }
  return merged;
}

function checkRole(role: 'owner' | 'editor' | 'viewer', patch: LabelReportPatch): void {
  const fields = (Object.keys(patch) as (keyof LabelReportPatch)[]).filter((k) => patch[k] !== undefined);
  if (role === 'viewer' && fields.some((f) => !VIEWER_FIELDS.has(f))) {
    throw new ApiError(403, 'ROLE_FORBIDDEN', 'Viewers can only update hasFlag and isArchived');
  }
  if (role !== 'owner' && fields.some((f) => OWNER_FIELDS.has(f))) {
    throw new ApiError(403, 'ROLE_FORBIDDEN', 'Only the label report owner can update limits');
  }
}

function sameTrim(a: Trim | null, b: Trim | null): boolean {
  return a === null || b === null ? a === b : a.startTime === b.startTime && a.endTime === b.endTime;
}

/** `updated` moves forward on every change, even two changes within one millisecond. */
function nextUpdated(previous: string, now: Date): string {
  const prev = Date.parse(previous);
  return new Date(Math.max(now.getTime(), prev + 1)).toISOString();
}
