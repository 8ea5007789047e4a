/**
 * Where a company's review of a report stands, as SQL: the one definition the review list's
 * filters, its Decision column and the insights' decision figures all read, so a count and the
 * rows it stands for can never disagree.
 *
 * - The current decision is the company's newest 'decision' entry, unless a newer 'withdrawal'
 *   of the same company exists: a withdrawal says the alert changed under the decision, which no
 *   longer holds.
 * - Awaiting acknowledgement: the report has an alert (level ≥ 1), the company may act on it
 *   (owner or editor: a viewer can neither acknowledge nor decide) and it has no
 *   acknowledgement of at least the current level newer than its newest withdrawal.
 * - Awaiting review: the report has an alert, the company may act on it, and it has no current
 *   decision.
 *
 * Each fragment takes the SQL of the report id and of its current alert level, and binds the
 * company's id at each `?` (given as `params`), so it fits any statement with positional
 * parameters. They read `review_current`, which triggers on the review entries keep (migration
 * 016): one row per report and company, so no fragment walks a report's entries.
 */
import type { Statement } from 'better-sqlite3';
import type { Db } from './database';

/** A SQL expression or condition and the values of its `?`, in order. */
export interface SqlFragment {
  sql: string;
  params: unknown[];
}

/** The company's kept review state of the report (migration 016), as a subquery of one column. */
function kept(report: string, column: string, companyId: string): SqlFragment {
  return {
    sql: `(SELECT ${column} FROM review_current rc WHERE rc.label_report_id = ${report} AND rc.company_id = ?)`,
    params: [companyId],
  };
}

/** The current decision ('released', 'rejected', 'onHold'), or NULL: none made, or the newest withdrawn. */
export function currentDecision(report: string, companyId: string): SqlFragment {
  return kept(report, 'rc.decision', companyId);
}

/** 1 when the company's newest decision or withdrawal is a withdrawal, else 0 or NULL. */
export function decisionWithdrawn(report: string, companyId: string): SqlFragment {
  return kept(report, 'rc.withdrawn', companyId);
}

/** The report's current decision of the company is `decision`: the decided reports read from their index. */
export function hasDecision(report: string, companyId: string, decision: string): SqlFragment {
  return {
    sql: `+${report} IN (SELECT rd.label_report_id FROM review_current rd WHERE rd.company_id = ? AND rd.decision = ?)`,
    params: [companyId, decision],
  };
}

/** The company is the report's owner or one of its editors: who may acknowledge and decide. */
export function mayReview(report: string, companyId: string): SqlFragment {
  return {
    sql: `EXISTS (SELECT 1 FROM access ra WHERE ra.label_report_id = ${report} AND ra.company_id = ? AND ra.role IN ('owner', 'editor'))`,
    params: [companyId],
  };
}

export function awaitingAcknowledgement(report: string, level: string, companyId: string): SqlFragment {
  const may = mayReview(report, companyId);
  const acknowledged = kept(report, 'rc.acknowledged_level', companyId);
  return {
    sql: `(${level} >= 1 AND ${may.sql} AND coalesce(${acknowledged.sql}, -1) < ${level})`,
    params: [...may.params, ...acknowledged.params],
  };
}

export function awaitingReview(report: string, level: string, companyId: string): SqlFragment {
  const may = mayReview(report, companyId);
  const decision = currentDecision(report, companyId);
  return {
    sql: `(${level} >= 1 AND ${may.sql} AND ${decision.sql} IS NULL)`,
    params: [...may.params, ...decision.params],
  };
}

/**
 * A CTE `name(rk, decision)` of the reports the company has a current decision of, by report
 * key: the insights' decision figures. One parameter, the company.
 */
export function currentDecisionsCte(name: string): string {
  return `${name}(rk, decision) AS (
  SELECT k.rk, x.decision FROM review_current x JOIN report_keys k ON k.report_id = x.label_report_id
   WHERE x.company_id = ? AND x.decision IS NOT NULL)`;
}

/** Where the company's review of one report stands, with the whole run's excursion count the list sorts by. */
export interface ReportReviewState {
  decision: 'released' | 'rejected' | 'onHold' | null;
  decisionWithdrawn: boolean;
  awaitingAcknowledgement: boolean;
  awaitingReview: boolean;
  calculatedExcursions: number;
}

interface ReviewStateRow {
  id: string;
  excursions: number | null;
  decision: ReportReviewState['decision'];
  withdrawn: number | null;
  awaiting_acknowledgement: number;
  awaiting_review: number;
}

export class ReviewStateStore {
  private readonly select: Statement;
  private readonly company = '@company';

  constructor(db: Db) {
    const decision = currentDecision('l.id', '');
    const withdrawn = decisionWithdrawn('l.id', '');
    const acknowledgement = awaitingAcknowledgement('l.id', 'l.alert_level', '');
    const review = awaitingReview('l.id', 'l.alert_level', '');
    // Every `?` of the fragments binds the company: written as the named parameter here.
    const named = (sql: string) => sql.replaceAll('?', this.company);
    this.select = db.prepare(
      `SELECT l.id, l.calc_violations_all AS excursions,
              ${named(decision.sql)} AS decision, ${named(withdrawn.sql)} AS withdrawn,
              ${named(acknowledgement.sql)} AS awaiting_acknowledgement, ${named(review.sql)} AS awaiting_review
         FROM report_listing l
        WHERE l.ck = (SELECT ck FROM company_keys WHERE company_id = @company) AND l.id IN (SELECT value FROM json_each(@ids))`,
    );
  }

  /** The review state of each of these reports the company sees, by id. */
  of(companyId: string, ids: readonly string[]): Map<string, ReportReviewState> {
    const rows = this.select.all({ company: companyId, ids: JSON.stringify(ids) }) as ReviewStateRow[];
    return new Map(
      rows.map((row) => [
        row.id,
        {
          decision: row.decision,
          decisionWithdrawn: row.withdrawn === 1,
          awaitingAcknowledgement: row.awaiting_acknowledgement === 1,
          awaitingReview: row.awaiting_review === 1,
          calculatedExcursions: Number(row.excursions ?? 0),
        },
      ]),
    );
  }
}
