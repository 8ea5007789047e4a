/**
 * SQL for reading the audit trail across reports, newest first (docs/review-and-audit.md#the-audit-trail-across-reports):
 * the change log by seq and the review entries by id, both only ever appended, so newest first
 * is their primary keys walked backwards and needs no index of its own. A filter that matches
 * few entries (one person, one kind) could walk the whole table for one page; each walk looks at
 * most `budget` entries back from its cursor and says how far it got, so a page is answered
 * within a bounded cost and the reader asks on from there.
 */
import type { Statement } from 'better-sqlite3';
import type { Row } from './audit-chain';
import type { Db } from './database';

export interface AuditWalkFilter {
  companyId: string;
  reportId: string | null;
  userId: string | null;
  /** ISO 8601 instants, inclusive. */
  from: string | null;
  to: string | null;
  /** For the review entries: the kinds to keep (null: all). */
  reviewKinds: readonly string[] | null;
}

/** One walk: the matching rows (newest first, at most `limit` + 1) and how far back it looked. */
export interface AuditWindow {
  rows: Row[];
  /** The lowest id looked at, and its time, when the walk stopped at its budget; null when it looked at every entry below the cursor. */
  stoppedAt: { id: number; at: string } | null;
}

export class AuditWalk {
  private readonly changes: { match: Statement; window: Statement };
  private readonly reviews: { match: Statement; window: Statement };

  constructor(db: Db) {
    // The window is the budget's worth of entries below the cursor (of one report, through its index);
    // the match is what of it the filter keeps.
    const changeWindow = `SELECT * FROM change_log WHERE seq < @before AND (@reportId IS NULL OR label_report_id = @reportId) ORDER BY seq DESC LIMIT @budget`;
    this.changes = {
      match: db.prepare(
        `SELECT w.* FROM (${changeWindow}) w
         WHERE EXISTS (SELECT 1 FROM json_each(w.companies) WHERE value = @companyId)
           -- Another company's own flag or archive change is theirs alone, as in each report's history.
           AND (w.kind <> 'update' OR EXISTS (SELECT 1 FROM json_each(w.changes) c WHERE coalesce(c.value ->> '$.companyId', @companyId) = @companyId))
           AND (@userId IS NULL OR w.user_id = @userId) AND (@from IS NULL OR w.at >= @from) AND (@to IS NULL OR w.at <= @to)
         ORDER BY w.seq DESC LIMIT @limit`,
      ),
      window: db.prepare(`SELECT count(*) AS n, min(seq) AS id, min(at) AS at FROM (${changeWindow})`),
    };
    const reviewWindow = `SELECT * FROM report_reviews WHERE id < @before AND (@reportId IS NULL OR label_report_id = @reportId) ORDER BY id DESC LIMIT @budget`;
    this.reviews = {
      match: db.prepare(
        `SELECT w.* FROM (${reviewWindow}) w
         WHERE w.company_id = @companyId AND (@kinds IS NULL OR w.kind IN (SELECT value FROM json_each(@kinds)))
           AND (@userId IS NULL OR w.user_id = @userId) AND (@from IS NULL OR w.at >= @from) AND (@to IS NULL OR w.at <= @to)
         ORDER BY w.id DESC LIMIT @limit`,
      ),
      window: db.prepare(`SELECT count(*) AS n, min(id) AS id, min(at) AS at FROM (${reviewWindow})`),
    };
  }

  changeLog(filter: AuditWalkFilter, before: number, limit: number, budget: number): AuditWindow {
    return this.walk(this.changes, filter, before, limit, budget);
  }

  reviewEntries(filter: AuditWalkFilter, before: number, limit: number, budget: number): AuditWindow {
    return this.walk(this.reviews, filter, before, limit, budget);
  }

  private walk(sql: { match: Statement; window: Statement }, filter: AuditWalkFilter, before: number, limit: number, budget: number): AuditWindow {
    const { reviewKinds, ...rest } = filter;
    const params = { ...rest, kinds: reviewKinds ? JSON.stringify(reviewKinds) : null, before, budget, limit: limit + 1 };
    const rows = sql.match.all(params) as Row[];
    if (rows.length > limit) return { rows, stoppedAt: null };
    const window = sql.window.get(params) as { n: number; id: number | null; at: string | null };
    return { rows, stoppedAt: window.n === budget && window.id !== null ? { id: window.id, at: window.at! } : null };
  }
}
