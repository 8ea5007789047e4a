/**
 * CSV answers: one report's readings, and every report a list query matches (not one page).
 * The checks happen before the text starts, so a refusal is never half a file; the text is then
 * read a chunk at a time, as its consumer asks for it.
 */
import type { DataStore } from '../db/data-store';
import { decodeDatapoints } from '../model/datapoint-codec';
import { roleOf, type Report } from '../model/report';
import type { ListQuery } from '../query/list-query';
import type { CsvRange } from '../schema/review';
import { toTimeline } from '../sense';
import { requirePermission, type Caller } from './api-keys';
import { InvalidInputError, NotFoundError } from '../model/errors';
import { notFound } from './label-reports';
import { reviewWhere } from './review-list';
import { bothWhere, unsetWhere } from '../db/unset-where';
import type { ReviewCondition } from '../schema/review-list';
import { readingsCsv, reportTableCsvHeader, reportTableCsvLine } from './report-csv';

/** The list's CSV, a chunk at a time, and how many reports it holds. */
export interface CsvTable extends Iterable<string> {
  readonly reports: number;
}

/** Reports read per chunk of the list's CSV. */
const TABLE_CHUNK = 500;

export class ReportCsvExport {
  constructor(private readonly data: DataStore) {}

  /**
   * The report's readings, sorted, one line each. `range` defaults to the whole timeline;
   * `trimmed` keeps the trim's readings and is refused (400) for a report without a trim.
   */
  readings(caller: Caller, id: string, range: CsvRange = 'full'): Iterable<string> {
    requirePermission(caller, 'labelReports:read');
    const report = this.data.read(() => this.data.reports.load(id));
    if (!report || roleOf(report, caller.companyId) === undefined) throw notFound(id);
    return readingsOf(report, range);
  }

  /**
   * The readings of any report in the file, for the command line: whoever runs it holds the
   * database file itself, so no key and no company's view apply.
   */
  readingsOfReport(id: string, range: CsvRange = 'full'): Iterable<string> {
    const report = this.data.read(() => this.data.reports.load(id));
    if (!report) throw new NotFoundError('REPORT_NOT_FOUND', `no label report '${id}' in this database`);
    return readingsOf(report, range);
  }

  /**
   * Every report the query matches, in its order; `pageNumber`, `pageSize` and `output` do not
   * apply. The matching ids are taken at one moment (only ids are held); each chunk of reports
   * is read when the consumer asks for it, and one removed before then is left out.
   */
  table(caller: Caller, q: ListQuery, review: readonly ReviewCondition[] = [], unset: readonly string[] = []): CsvTable {
    requirePermission(caller, 'labelReports:read');
    const compiled = this.data.reports.compile(q);
    const narrow = bothWhere(reviewWhere(review, caller.companyId), unsetWhere(unset));
    const sql = narrow === null ? compiled : { ...compiled, where: `(${compiled.where}) AND (${narrow.sql})`, params: [...compiled.params, ...narrow.params] };
    // LIMIT -1: no limit in SQLite.
    const ids = this.data.read(() => this.data.reports.pageIds(caller.companyId, sql, -1, 0));
    const entries = (from: number) =>
      this.data.read(() => {
        const chunk = ids.slice(from, from + TABLE_CHUNK);
        const decisions = this.data.reviews.currentDecisions(caller.companyId, chunk);
        return this.data.reports.tableByIds(caller.companyId, chunk).map((r) => ({ ...r, decision: decisions.get(r.id) ?? null }));
      });
    const lines = function* () {
      yield reportTableCsvHeader();
      for (let from = 0; from < ids.length; from += TABLE_CHUNK) {
        yield entries(from).map(reportTableCsvLine).join('');
      }
    };
    return { reports: ids.length, [Symbol.iterator]: lines };
  }
}

function readingsOf(report: Report, range: CsvRange): Iterable<string> {
  const { trim } = report;
  if (range === 'trimmed' && trim === null) {
    throw new InvalidInputError('INVALID_PARAMETER', "range 'trimmed': the report has no trim; ask for range=full");
  }
  return readingsCsv(toTimeline(decodeDatapoints(report.datapoints)), trim, range, { reference: report.labelReference, limits: report.senseConfig.limits });
}

