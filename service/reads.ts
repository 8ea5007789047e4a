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
import type { LabelReportService } from './label-reports';
import { reportJson } from './report-json';

/** What a read answers when its client went away before its turn: the read did not run. */
export const NOT_WANTED: unique symbol = Symbol('not wanted');

/** Asked just before a read starts: false when nobody waits for its answer any more. */
export type StillWanted = () => boolean;

export interface Reads {
  /**
   * One page of GET /v2/labelReports as JSON chunks. The checks and the count happen before the
   * Promise settles, so a refusal is never a half sent answer; each chunk is read as the consumer
   * takes it, and one that stops taking stops the reads.
   */
  listJson(caller: Caller, q: ListQuery, wholeReportsBytes: number | undefined, stillWanted?: StillWanted): Promise<AsyncIterable<Buffer> | typeof NOT_WANTED>;
  /** One report's JSON, as GET /v2/labelReports/:id answers it. */
  retrieveJson(caller: Caller, id: string, stillWanted?: StillWanted): Promise<string | typeof NOT_WANTED>;
  close(): void;
}

/** The reads on the calling thread's connection: for a database in memory, which no worker can open. */
export class InThreadReads implements Reads {
  constructor(private readonly reports: LabelReportService) {}

  async listJson(caller: Caller, q: ListQuery, wholeReportsBytes: number | undefined, stillWanted?: StillWanted) {
    if (stillWanted && !stillWanted()) return NOT_WANTED;
    const chunks = this.reports.listJson(caller, q, wholeReportsBytes);
    return (async function* () {
      for (const chunk of chunks) {
        yield chunk;
        // A turn of the event loop between two chunks, so other requests are answered meanwhile.
        await nextTurn();
      }
    })();
  }

  async retrieveJson(caller: Caller, id: string, stillWanted?: StillWanted) {
    if (stillWanted && !stillWanted()) return NOT_WANTED;
    return reportJson(this.reports.retrieveDocument(caller, id));
  }

  close(): void {}
}
