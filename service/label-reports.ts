/**
 * The three label report operations of /v2: list, retrieve and update. Knows the rules of the
 * interface (visibility, roles, recalculation); knows neither HTTP nor SQL text.
 */
import type { DataStore } from '../db/data-store';
import { decodeDatapoints } from '../db/datapoint-codec';
import type { MinimalReportRow, ReportRow, VisibleReportRow } from '../db/report-rows';
import type { ListQuery } from '../query/list-query';
import { InvalidInputError, NotFoundError, RoleForbiddenError } from './errors';
import {
  OWNER_FIELDS,
  ROLE_MESSAGES,
  VIEWER_FIELDS,
  type LabelReport,
  type LabelReportPatch,
  type ListedLabelReport,
  type MinimalLabelReport,
  type Page,
  type Permission,
} from '../schema/report';
import type { Limits, Trim } from '../schema/sense';
import { requirePermission, type Caller } from './api-keys';
import { limitColumns, recalculate, senseSettingsOf } from './report-record';
import type { ReportEdit, ReportWriter } from './report-writer';
import { materialize, type ReportDocument } from './report-json';
import { fullReportDocument, listedReport, minimalReport } from './report-view';

/**
 * Reports per chunk of a streamed page: minimal ones are small, full ones carry their datapoints
 * (tens of KiB each). What a slow client holds up is about three chunks: a few hundred KiB.
 */
const MINIMAL_CHUNK = 200;
const FULL_CHUNK = 5;

/**
 * A read of list or retrieve from the database: a page's ids and count, one chunk of a page's
 * reports, one retrieved report. Tests watch them to see that an abandoned request cost nothing.
 */
export type ReportRead = 'listPage' | 'listChunk' | 'retrieve';

export class LabelReportService {
  constructor(
    private readonly data: DataStore,
    private readonly writer: ReportWriter,
    private readonly now: () => Date,
    private readonly onRead: (read: ReportRead) => void = () => {},
  ) {}

  private get store() {
    return this.data.reports;
  }

  /**
   * The checks that answer before anything in the request is validated: the key's permission
   * (403), then the report's visibility (404). A route that parses the request calls it first;
   * the operations below make the same checks themselves.
   */
  authorize(caller: Caller, action: 'read' | 'update', id?: string): void {
    authorizeFor(this.data, caller, action === 'read' ? 'labelReports:read' : 'labelReports:update', id);
  }

  /** One page, as objects: for in-process callers, who ask for pages of a sensible size. */
  list(caller: Caller, q: ListQuery): Page<MinimalLabelReport> | Page<ListedLabelReport> {
    const { ids, totalDocuments } = this.pageOf(caller, q);
    const data = this.data.read(() => this.elements(caller, q, ids));
    return { data, totalDocuments } as Page<MinimalLabelReport> | Page<ListedLabelReport>;
  }

  /**
   * One page as the JSON text of `list`, a few reports at a time: the interface sets no maximum
   * page size, so only the page's ids are held, and each chunk is read when the consumer (the
   * HTTP answer, at the pace of its client) takes the next one; it may stop taking at any point
   * and nothing more is read. The checks and the count happen before this returns, so a refusal
   * is never a half sent answer.
   */
  listJson(caller: Caller, q: ListQuery): Iterable<Buffer> {
    const { ids, totalDocuments } = this.pageOf(caller, q);
    const perChunk = q.output === 'minimal' ? MINIMAL_CHUNK : FULL_CHUNK;
    const elements = (from: number) => {
      this.onRead('listChunk');
      return this.data.read(() => this.elements(caller, q, ids.slice(from, from + perChunk)));
    };
    // As UTF-8 bytes: held in buffers, text with any non-Latin-1 character would take twice the space.
    return (function* () {
      yield Buffer.from('{"data":[');
      let separator = '';
      for (let from = 0; from < ids.length; from += perChunk) {
        const text = elements(from).map((e) => JSON.stringify(e)).join(',');
        if (text === '') continue;
        yield Buffer.from(separator + text);
        separator = ',';
      }
      yield Buffer.from(`],"totalDocuments":${totalDocuments}}`);
    })();
  }

  /** The page's ids and the count of every match, in one read transaction: the same moment. */
  private pageOf(caller: Caller, q: ListQuery): { ids: string[]; totalDocuments: number } {
    requirePermission(caller, 'labelReports:read');
    this.onRead('listPage');
    const sql = this.store.compile(q);
    const offset = (q.pageNumber - 1) * q.pageSize;
    return this.data.read(() => {
      // Pages have no upper bound, but no page past 2^53 reports can hold any.
      if (offset > Number.MAX_SAFE_INTEGER) return { ids: [], totalDocuments: this.store.count(caller.companyId, sql) };
      const ids = this.store.pageIds(caller.companyId, sql, q.pageSize, offset);
      // A page that is neither full nor past the end already tells the total: a search then
      // scans once instead of twice.
      const totalDocuments = ids.length > 0 && ids.length < q.pageSize ? offset + ids.length : this.store.count(caller.companyId, sql);
      return { ids, totalDocuments };
    });
  }

  /** The list elements of these reports, in their order; one removed since is left out. */
  private elements(caller: Caller, q: ListQuery, ids: readonly string[]): MinimalLabelReport[] | ListedLabelReport[] {
    if (q.output === 'minimal') return this.store.minimalByIds(caller.companyId, ids).map(minimalReport);
    const rows = this.store.fullByIds(caller.companyId, ids);
    const access = this.store.accessFor(ids);
    const fields = this.store.customFieldsFor(ids);
    return rows.map((row) => listedReport(row, access.get(row.id) ?? [], fields.get(row.id)));
  }

  retrieve(caller: Caller, id: string): LabelReport {
    return materialize(this.retrieveDocument(caller, id));
  }

  /** Retrieve, with the datapoint lists left as columns for `reportJson`. */
  retrieveDocument(caller: Caller, id: string): ReportDocument {
    requirePermission(caller, 'labelReports:read');
    this.onRead('retrieve');
    return this.data.read(() => this.view(caller, id));
  }

  update(caller: Caller, id: string, patch: LabelReportPatch): LabelReport {
    return materialize(this.updateDocument(caller, id, patch));
  }

  /** Update, answering the report with its datapoint lists left as columns for `reportJson`. */
  updateDocument(caller: Caller, id: string, patch: LabelReportPatch): ReportDocument {
    requirePermission(caller, 'labelReports:update');
    return this.data.write(() => {
      const row = this.store.findVisible(caller.companyId, id);
      if (!row) throw notFound(id);
      const limits = patch.limits ? mergeLimits(row, patch.limits) : undefined;
      checkRole(row.caller_role, patch);
      this.writer.edit(id, { kind: 'apiKey', keyId: caller.keyId }, editFor(caller, row, patch, limits));
      return this.view(caller, id);
    });
  }

  /** The report as a company sees it through retrieve, whoever asks: what its webhooks are sent. */
  companyDocument(companyId: string, id: string): ReportDocument {
    return visibleReport(this.data, { companyId }, id, this.now);
  }

  private view(caller: Caller, id: string): ReportDocument {
    return visibleReport(this.data, caller, id, this.now);
  }
}

/** A route's checks before it reads the request: the key's permission (403), then the report's visibility (404). */
export function authorizeFor(data: DataStore, caller: Caller, permission: Permission, id?: string): void {
  requirePermission(caller, permission);
  if (id !== undefined && !data.reports.isVisible(caller.companyId, id)) throw notFound(id);
}

/** The full report as the caller's company sees it: retrieve's answer, and that of every write. */
export function visibleReport(data: DataStore, caller: Pick<Caller, 'companyId'>, id: string, now: () => Date): ReportDocument {
  const row = data.reports.findVisible(caller.companyId, id);
  if (!row) throw notFound(id);
  const access = data.reports.accessFor([id]).get(id) ?? [];
  const fields = data.reports.customFieldsFor([id]).get(id);
  return fullReportDocument(row, access, fields, Math.floor(now().getTime() / 1000));
}

/**
 * What a patch sets, as an edit of the stored report: the sense figures are recalculated once
 * when a limit or the trim differs. The writer finds what actually changed.
 */
function editFor(caller: Caller, row: VisibleReportRow, patch: LabelReportPatch, limits: Limits | undefined): ReportEdit {
  const columns: ReportEdit['columns'] = {};
  if (patch.labelReference !== undefined) columns.label_reference = patch.labelReference;
  if (patch.status !== undefined) columns.status = patch.status;
  if (limits) Object.assign(columns, limitColumns(limits));
  if (patch.trim !== undefined) {
    columns.trim_start = patch.trim?.startTime ?? null;
    columns.trim_end = patch.trim?.endTime ?? null;
  }
  const senseInputs = ['min_temperature', 'max_temperature', 'min_humidity', 'max_humidity', 'trim_start', 'trim_end'] as const;
  if (senseInputs.some((k) => k in columns && columns[k] !== row[k])) {
    Object.assign(columns, recalculate(decodeDatapoints(row.datapoints), senseSettingsOf({ ...row, ...columns })));
  }
  const edit: ReportEdit = { columns };
  if (patch.hasFlag !== undefined || patch.isArchived !== undefined) {
    edit.state = {
      companyId: caller.companyId,
      hasFlag: patch.hasFlag ?? row.has_flag === 1,
      isArchived: patch.isArchived ?? row.is_archived === 1,
    };
  }
  if (patch.customFields) {
    edit.customFields = patch.customFields.map(({ customFieldId, value }) => ({
      customFieldId,
      json: value === null ? null : JSON.stringify(value),
    }));
  }
  return edit;
}

export function notFound(id: string): NotFoundError {
  return new NotFoundError('REPORT_NOT_FOUND', `no label report '${id}' is visible to this API key`);
}

function mergeLimits(row: ReportRow, patch: Partial<Limits>): Limits {
  const merged: Limits = { minTemperature: row.min_temperature, maxTemperature: row.max_temperature };
  if (row.min_humidity !== null) merged.minHumidity = row.min_humidity;
  if (row.max_humidity !== null) merged.maxHumidity = row.max_humidity;
  Object.assign(merged, patch);
  if (merged.minTemperature > merged.maxTemperature) {
    throw new InvalidInputError(
      'INVALID_BODY',
      `limits: minTemperature ${merged.minTemperature} is above maxTemperature ${merged.maxTemperature}`,
    );
  }
  if (merged.minHumidity !== undefined && merged.maxHumidity !== undefined && merged.minHumidity > merged.maxHumidity) {
    throw new InvalidInputError('INVALID_BODY', `limits: minHumidity ${merged.minHumidity} is above maxHumidity ${merged.maxHumidity}`);
  }
  return merged;
}

function checkRole(role: 'owner' | 'editor' | 'viewer', patch: LabelReportPatch): void {
  const fields = (Object.keys(patch) as (keyof LabelReportPatch)[]).filter((k) => patch[k] !== undefined);
  if (role === 'viewer' && fields.some((f) => !VIEWER_FIELDS.has(f))) {
    throw new RoleForbiddenError(ROLE_MESSAGES.viewer);
  }
  if (role !== 'owner' && fields.some((f) => OWNER_FIELDS.has(f))) {
    throw new RoleForbiddenError(ROLE_MESSAGES.limits);
  }
}


