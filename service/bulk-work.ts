/**
 * Bulk work (docs/review-and-audit.md#bulk-work): one action on a selection of reports. The
 * selection is acted on whole or not at all: every report is judged by the rules it would meet
 * alone, and a refusal names each report at fault (up to a few, then how many more), so the
 * reviewer can deselect them and try again; nothing is written meanwhile. A signed action asks
 * for the password once and gives each report its own signed entry.
 */
import type { DataStore } from '../db/data-store';
import { Refusal } from '../model/errors';
import type { BulkBody, BulkFlagAction, BulkResult } from '../schema/bulk';
import type { LocalReportPatch } from '../schema/report';
import type { Caller } from './api-keys';
import type { LabelReportService } from './label-reports';
import type { JudgeEach, ReportReviews } from './report-review';

/** How many reports a refusal names before it counts the rest. */
const NAMED_AT_MOST = 5;

const PATCH_OF: Record<BulkFlagAction, LocalReportPatch> = {
  flag: { hasFlag: true },
  unflag: { hasFlag: false },
  archive: { isArchived: true },
  unarchive: { isArchived: false },
};

export class BulkWork {
  constructor(
    private readonly data: DataStore,
    private readonly reports: LabelReportService,
    private readonly reviews: ReportReviews,
  ) {}

  apply(caller: Caller, body: BulkBody): BulkResult {
    const ids = body.reportIds;
    const judgeEach = this.judgeNaming(caller);
    switch (body.action) {
      case 'acknowledge': {
        const { action, reportIds, ...ack } = body;
        const entries = this.reviews.acknowledgeEach(caller, reportIds, ack, judgeEach);
        return { action, reports: entries.map((e, i) => ({ id: ids[i], entryId: e.id })) };
      }
      case 'decide': {
        const { action, reportIds, ...decision } = body;
        const entries = this.reviews.decideEach(caller, reportIds, decision, { judge() {}, text: () => decision.reason, written() {} }, judgeEach);
        return { action, reports: entries.map((e) => ({ id: e.reportId, entryId: String(e.id) })) };
      }
      default: {
        const patch = PATCH_OF[body.action];
        this.data.write(() => {
          judgeEach(ids, (id) => this.reports.edited(caller, id, patch));
          for (const id of ids) this.reports.updateDocument(caller, id, patch, body.reason);
        });
        return { action: body.action, reports: ids.map((id) => ({ id })) };
      }
    }
  }

  /** Judges every report; when any is refused, refuses with the first refusal's kind and code, naming each report refused. */
  private judgeNaming(caller: Caller): JudgeEach {
    return (ids, judgeOne) => {
      const results = [];
      const refused: { id: string; refusal: Refusal }[] = [];
      for (const id of ids) {
        try {
          results.push(judgeOne(id));
        } catch (err) {
          if (!(err instanceof Refusal)) throw err;
          refused.push({ id, refusal: err });
        }
      }
      if (refused.length === 0) return results;
      const first = refused[0].refusal;
      if (ids.length === 1) throw first;
      const names = this.namesOf(caller, refused.slice(0, NAMED_AT_MOST).map((r) => r.id));
      const named = refused.slice(0, NAMED_AT_MOST).map((r, i) => `${names[i]}: ${r.refusal.message}`);
      const more = refused.length > NAMED_AT_MOST ? `; and ${refused.length - NAMED_AT_MOST} more` : '';
      first.message = `${refused.length} of ${ids.length} selected reports cannot be acted on, so none was: ${named.join('; ')}${more}`;
      throw first;
    };
  }

  /** A report as the reviewer knows it: its reference, else its id. */
  private namesOf(caller: Caller, ids: readonly string[]): string[] {
    const shown = new Map(this.data.read(() => this.data.reports.minimalByIds(caller.companyId, ids)).map((r) => [r.id, r.labelReference]));
    return ids.map((id) => (shown.get(id) ? `${shown.get(id)} (${id})` : id));
  }
}
