/**
 * The three label report operations of /v2: list, retrieve and update. Knows the rules of the
 * interface (visibility, roles, recalculation); knows neither HTTP nor SQL text.
 */
import type { DataStore } from '../db/data-store';
import { roleOf, type Report } from '../model/report';
import { mayDo } from '../model/person';
import { roleToSet, valuesOfPatch, withValues } from '../model/report-fields';
import type { ListQuery } from '../query/list-query';
import { ConflictError, InvalidInputError, NotFoundError, RoleForbiddenError } from '../model/errors';
import {
  MAX_REPORT_CUSTOM_FIELDS,
  ROLE_MESSAGES,
  tooManyCustomFields,
  type Company,
  type LabelReport,
  type LabelReportPatch,
  type LocalReportPatch,
  type ListedLabelReport,
  type MinimalLabelReport,
  type Page,
  type Permission,
  type Role,
} from '../schema/report';
import type { Limits } from '../schema/sense';
import type { ReviewCondition } from '../schema/review-list';
import type { ReportReviewState, SqlFragment } from '../db/review-state';
import { reviewWhere } from './review-list';
import { bothWhere, unsetWhere } from '../db/unset-where';
import { actorOf, requirePermission, type Caller } from './api-keys';
import { changeReason } from './change-reason';
import { unsignedChangeRefusal, verdictSignatureNeed } from './signature-need';
import type { AlertPreview } from '../schema/review';
import type { ReportWriter } from './report-writer';
import { materialize, reportJson, type ReportDocument } from './report-json';
import { fullReportDocument, listedReport } from './report-view';

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
  listJson(caller: Caller, q: ListQuery, wholeReportsBytes?: number): Iterable<Buffer> {
    return this.streamed(caller, q, null, [], wholeReportsBytes);
  }

  /**
   * The review list (GET /local/labelReports): the page `listJson` answers, narrowed by where the
   * caller company's review of each report stands, each report with that state.
   */
  reviewListJson(caller: Caller, q: ListQuery, review: readonly ReviewCondition[], unset: readonly string[] = []): Iterable<Buffer> {
    return this.streamed(caller, q, review, unset);
  }

  private streamed(caller: Caller, q: ListQuery, review: readonly ReviewCondition[] | null, unset: readonly string[] = [], wholeReportsBytes?: number): Iterable<Buffer> {
    const { ids, totalDocuments } = this.pageOf(caller, q, review === null ? null : bothWhere(reviewWhere(review, caller.companyId), unsetWhere(unset)));
    const perChunk = q.output === 'minimal' ? MINIMAL_CHUNK : FULL_CHUNK;
    const elements = (from: number): object[] => {
      this.onRead('listChunk');
      return this.data.read(() => {
        const chunk = ids.slice(from, from + perChunk);
        const plain = this.elements(caller, q, chunk);
        if (review === null) return plain;
        const states = this.data.reviewStates.of(caller.companyId, chunk);
        return plain.map((e) => withReviewState(e, states.get(e.id)));
      });
    };
    const wholes = (from: number): string[] => {
      this.onRead('listChunk');
      return this.data.read(() => this.wholeReports(caller, ids.slice(from, from + FULL_CHUNK)));
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
      yield Buffer.from(`],"totalDocuments":${totalDocuments}`);
      if (wholeReportsBytes !== undefined) {
        yield Buffer.from(',"wholeReports":[');
        separator = '';
        let left = wholeReportsBytes;
        for (let from = 0; from < ids.length; from += FULL_CHUNK) {
          for (const json of wholes(from)) {
            const bytes = Buffer.from(separator + json);
            // A report that does not fit is left for its retrieve; a smaller one after it may still fit.
            if (bytes.length > left) continue;
            left -= bytes.length;
            yield bytes;
            separator = ',';
          }
        }
        yield Buffer.from(']');
      }
      yield Buffer.from('}');
    })();
  }

  /** These reports whole, as retrieve answers each (JSON text), in their order; one removed since is left out. */
  private wholeReports(caller: Caller, ids: readonly string[]): string[] {
    const owners = new Map<string, Company>();
    return this.store
      .loadMany(ids)
      .filter((report) => roleOf(report, caller.companyId) !== undefined)
      .map((report) => reportJson(reportDocumentFor(this.data, report, caller.companyId, this.now, owners)));
  }

  /** The page's ids and the count of every match, in one read transaction: the same moment. */
  private pageOf(caller: Caller, q: ListQuery, narrow: SqlFragment | null = null): { ids: string[]; totalDocuments: number } {
    requirePermission(caller, 'labelReports:read');
    this.onRead('listPage');
    const compiled = this.store.compile(q);
    // Appended after the filter's own parameters, so the order key's ranges still bind last.
    const sql = narrow === null ? compiled : { ...compiled, where: `(${compiled.where}) AND (${narrow.sql})`, params: [...compiled.params, ...narrow.params] };
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
    if (q.output === 'minimal') return this.store.minimalByIds(caller.companyId, ids);
    const owners = new Map<string, Company>();
    return this.store
      .loadMany(ids)
      .filter((report) => roleOf(report, caller.companyId) !== undefined)
      .map((report) => listedReport(report, caller.companyId, ownerOf(this.data, report, owners)));
  }

  retrieve(caller: Caller, id: string): LabelReport {
    return materialize(this.retrieveDocument(caller, id));
  }

  /** Retrieve, with the datapoint lists left as columns for `reportJson`. */
  retrieveDocument(caller: Caller, id: string): ReportDocument {
    requirePermission(caller, 'labelReports:read');
    this.onRead('retrieve');
    return this.data.read(() => visibleReport(this.data, caller, id, this.now));
  }

  update(caller: Caller, id: string, patch: LocalReportPatch, reason?: string): LabelReport {
    return materialize(this.updateDocument(caller, id, patch, reason));
  }

  /**
   * Update, answering the report with its datapoint lists left as columns for `reportJson`. The
   * report is read once; the answer is rendered from the report the writer gives back.
   */
  updateDocument(caller: Caller, id: string, patch: LocalReportPatch, reason?: string): ReportDocument {
    requirePermission(caller, 'labelReports:update');
    return this.data.write(() => {
      const { before, after } = this.edited(caller, id, patch);
      const need = verdictSignatureNeed(this.data, caller, before, after, patch);
      if (need) throw unsignedChangeRefusal(caller, need, id);
      const saved = this.writer.edit(before, after, actorOf(caller), (changes) => changeReason(caller, changes, reason));
      return reportDocumentFor(this.data, saved, caller.companyId, this.now);
    });
  }

  /**
   * What a PATCH would do to the alert, without making it: the same checks as update (role,
   * limits), nothing written. The desk shows it beside the reason it asks for.
   */
  preview(caller: Caller, id: string, patch: LocalReportPatch): AlertPreview {
    requirePermission(caller, 'labelReports:update');
    return this.data.read(() => {
      const { before, after } = this.edited(caller, id, patch);
      const need = verdictSignatureNeed(this.data, caller, before, after, patch);
      const fourEyes = need !== null && this.data.users.settings(caller.companyId).fourEyes;
      const signature = need && {
        cause: need.cause,
        meaning: need.meaning,
        fourEyes,
        callerMaySign: !fourEyes && caller.person !== undefined && mayDo(caller.person, 'released'),
      };
      return { alertBefore: { ...before.figures.alert }, alertAfter: { ...after.figures.alert }, ...(signature ? { signature } : {}) };
    });
  }

  /**
   * The report before and after the patch, once the caller may make it (404, limits 400, role
   * 403); inside the caller's read or write. The signed changes judge their requests with it.
   */
  edited(caller: Caller, id: string, patch: LocalReportPatch): { before: Report; after: Report } {
    const before = this.writer.load(id);
    const role = before && roleOf(before, caller.companyId);
    if (!before || !role) throw notFound(id);
    const after = withValues(before, valuesOfPatch(patch), caller.companyId);
    if (patch.limits) checkLimits(after.senseConfig.limits);
    // A report already past the limit (held before there was one) may still drop or change its fields.
    const fields = after.customFields.length;
    if (fields > MAX_REPORT_CUSTOM_FIELDS && fields > before.customFields.length) throw new InvalidInputError('TOO_MANY_CUSTOM_FIELDS', tooManyCustomFields(fields));
    checkRole(role, patch);
    if (caller.person && !mayDo(caller.person, 'edit')) throw new RoleForbiddenError(`a ${caller.person.role} comments but does not edit a label report`);
    // A mirror takes its rules from the remote at every pull, and sync sends none back: an edit
    // here would quietly come undone.
    if (patch.alertsConfig !== undefined && this.data.sync.isMirrored(id)) {
      throw new ConflictError('ALERT_RULES_MIRRORED', 'the alert rules of a report mirrored from a remote instance are the remote’s: change them there');
    }
    return { before, after };
  }

  /** The report as a company sees it through retrieve, whoever asks: what its webhooks are sent. */
  companyDocument(companyId: string, id: string): ReportDocument {
    return visibleReport(this.data, { companyId }, id, this.now);
  }
}

/** A route's checks before it reads the request: the key's permission (403), then the report's visibility (404). */
export function authorizeFor(data: DataStore, caller: Caller, permission: Permission, id?: string): void {
  requirePermission(caller, permission);
  if (id !== undefined && !data.reports.isVisible(caller.companyId, id)) throw notFound(id);
}

/** The full report as the caller's company sees it: retrieve's answer. */
export function visibleReport(data: DataStore, caller: Pick<Caller, 'companyId'>, id: string, now: () => Date): ReportDocument {
  const report = data.reports.load(id);
  if (!report || roleOf(report, caller.companyId) === undefined) throw notFound(id);
  return reportDocumentFor(data, report, caller.companyId, now);
}

/** A report as `companyId` sees it: the answer of every write, rendered from the report it wrote. */
export function reportDocumentFor(data: DataStore, report: Report, companyId: string, now: () => Date, owners?: Map<string, Company>): ReportDocument {
  return fullReportDocument(report, companyId, ownerOf(data, report, owners), Math.floor(now().getTime() / 1000));
}

/** The owner company as the report shows it; `seen` keeps the ones a page has looked up already. */
function ownerOf(data: DataStore, report: Report, seen = new Map<string, Company>()): Company {
  const id = report.ownerCompanyId;
  let owner = seen.get(id);
  if (!owner) {
    const company = data.companies.find(id);
    owner = { id, name: company?.name ?? '', shortCode: company?.shortCode ?? '' };
    seen.set(id, owner);
  }
  return owner;
}

/** A list element with the company's review state of its report; one the state was not found for (removed since) has none to show. */
function withReviewState(element: MinimalLabelReport | ListedLabelReport, state: ReportReviewState | undefined): object {
  const { calculatedExcursions, ...review } = state ?? {
    decision: null,
    decisionWithdrawn: false,
    awaitingAcknowledgement: false,
    awaitingReview: false,
    calculatedExcursions: 0,
  };
  return { ...element, review, calculatedExcursions };
}

export function notFound(id: string): NotFoundError {
  return new NotFoundError('REPORT_NOT_FOUND', `no label report '${id}' is visible to this API key`);
}

function checkLimits(limits: Limits): void {
  if (limits.minTemperature > limits.maxTemperature) {
    throw new InvalidInputError(
      'INVALID_BODY',
      `limits: minTemperature ${limits.minTemperature} is above maxTemperature ${limits.maxTemperature}`,
    );
  }
  if (limits.minHumidity !== undefined && limits.maxHumidity !== undefined && limits.minHumidity > limits.maxHumidity) {
    throw new InvalidInputError('INVALID_BODY', `limits: minHumidity ${limits.minHumidity} is above maxHumidity ${limits.maxHumidity}`);
  }
}

/** Every key the body sets (an empty list counts) needs its least role, from the field registry. */
function checkRole(role: Role, patch: LocalReportPatch): void {
  const needed = (Object.keys(patch) as (keyof LocalReportPatch)[]).filter((k) => patch[k] !== undefined).map(roleToSet);
  if (role === 'viewer' && needed.some((r) => r !== 'viewer')) {
    throw new RoleForbiddenError(ROLE_MESSAGES.viewer);
  }
  if (role !== 'owner' && needed.includes('owner')) {
    throw new RoleForbiddenError(ROLE_MESSAGES.limits);
  }
}


