/**
 * The heavy and frequent reads of label reports, as the HTTP layer asks for them: list pages (of
 * any size, as JSON chunks) and retrieve. Every method returns a Promise because the reads run
 * off the event loop, on the read workers of service/read-pool.ts; the writes stay on the one
 * writer connection of the main thread (service/label-reports.ts and the rest of the rules).
 * A database in memory cannot be opened by a second thread: there the same reads run here, in
 * the calling thread (`InThreadReads`).
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { ListQuery } from '../query/list-query';
import type { Caller } from './api-keys';
import type { InsightsService } from './insights';
import type { LabelReportService } from './label-reports';
import type { ReportCsvExport } from './report-csv-export';
import type { ReviewCondition } from '../schema/review-list';
import { reportJson } from './report-json';

/** What a read answers when its client went away before its turn: the read did not run. */
export const NOT_WANTED: unique symbol = Symbol('not wanted');

/** Asked just before a read starts: false when nobody waits for its answer any more. */
export type StillWanted = () => boolean;

/** The Insights reads (service/insights.ts), by name. */
export type InsightsKind = 'facets' | 'groups' | 'screen';

/** The list's CSV of every match: how many reports it holds, and its text in chunks. */
export interface CsvChunks {
  reports: number;
  chunks: AsyncIterable<Buffer>;
}

export interface Reads {
  /**
   * One page of GET /v2/labelReports as JSON chunks. The checks and the count happen before the
   * Promise settles, so a refusal is never a half sent answer; each chunk is read as the consumer
   * takes it, and one that stops taking stops the reads.
   */
  listJson(caller: Caller, q: ListQuery, wholeReportsBytes: number | undefined, stillWanted?: StillWanted): Promise<AsyncIterable<Buffer> | typeof NOT_WANTED>;
  /** One report's JSON, as GET /v2/labelReports/:id answers it. */
  retrieveJson(caller: Caller, id: string, stillWanted?: StillWanted): Promise<string | typeof NOT_WANTED>;
  /** GET /local/labelReports.csv: the ids taken at once, each chunk read as the consumer takes it. */
  listCsv(caller: Caller, q: ListQuery, review: readonly ReviewCondition[], unset: readonly string[], stillWanted?: StillWanted): Promise<CsvChunks | typeof NOT_WANTED>;
  /** One of the Insights figures, with the arguments InsightsService takes. */
  insights<K extends InsightsKind>(kind: K, args: Parameters<InsightsService[K]>, stillWanted?: StillWanted): Promise<ReturnType<InsightsService[K]> | typeof NOT_WANTED>;
  /** Gets ready for the first read (a worker started), so that it does not wait for that. */
  warm(): void;
  close(): void;
}

/** The reads on the calling thread's connection: for a database in memory, which no worker can open. */
export class InThreadReads implements Reads {
  constructor(private readonly rules: { reports: LabelReportService; csv: ReportCsvExport; insights: InsightsService }) {}

  async listJson(caller: Caller, q: ListQuery, wholeReportsBytes: number | undefined, stillWanted?: StillWanted) {
    if (stillWanted && !stillWanted()) return NOT_WANTED;
    return turnByTurn(this.rules.reports.listJson(caller, q, wholeReportsBytes));
  }

  async listCsv(caller: Caller, q: ListQuery, review: readonly ReviewCondition[], unset: readonly string[], stillWanted?: StillWanted) {
    if (stillWanted && !stillWanted()) return NOT_WANTED;
    const table = this.rules.csv.table(caller, q, review, unset);
    return { reports: table.reports, chunks: turnByTurn(table) };
  }

  async insights<K extends InsightsKind>(kind: K, args: Parameters<InsightsService[K]>, stillWanted?: StillWanted) {
    if (stillWanted && !stillWanted()) return NOT_WANTED;
    return (this.rules.insights[kind] as (...a: unknown[]) => ReturnType<InsightsService[K]>).apply(this.rules.insights, args);
  }

  async retrieveJson(caller: Caller, id: string, stillWanted?: StillWanted) {
    if (stillWanted && !stillWanted()) return NOT_WANTED;
    return reportJson(this.rules.reports.retrieveDocument(caller, id));
  }

  warm(): void {}

  close(): void {}
}

/** Chunks read one per turn of the event loop, so other requests are answered between two. */
async function* turnByTurn(chunks: Iterable<Buffer | string>): AsyncGenerator<Buffer> {
  for (const chunk of chunks) {
    if (chunk.length > 0) yield typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    await nextTurn();
  }
}
