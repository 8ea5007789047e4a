/**
 * The review list: GET /local/labelReports answers what GET /v2/labelReports answers, narrowed
 * by `review` (where the caller company's review of each report stands) and with that state on
 * every row. The /v2 filter keys stay the interface's: review state is this desk's own.
 */
import { awaitingAcknowledgement, awaitingReview, currentDecision, hasDecision, type SqlFragment } from '../db/review-state';
import { InvalidInputError } from '../model/errors';
import { REVIEW_CONDITIONS, type ReviewCondition } from '../schema/review-list';

/**
 * `review`: conditions separated by commas, all of which must hold, each at most once. Two
 * decisions at once could never hold, so they are refused rather than answered with nothing.
 */
export function parseReviewConditions(value: string | undefined): ReviewCondition[] {
  if (value === undefined) return [];
  const conditions = value.split(',');
  const seen = new Set<string>();
  for (const condition of conditions) {
    if (!(REVIEW_CONDITIONS as readonly string[]).includes(condition)) {
      throw new InvalidInputError('INVALID_REVIEW', `review '${condition}' is not one of ${REVIEW_CONDITIONS.join(', ')}`);
    }
    if (seen.has(condition)) throw new InvalidInputError('INVALID_REVIEW', `review '${condition}' is given twice`);
    seen.add(condition);
  }
  if (conditions.filter((c) => c.startsWith('decision.')).length > 1) {
    throw new InvalidInputError('INVALID_REVIEW', 'review names more than one decision; a report has one at a time');
  }
  return conditions as ReviewCondition[];
}

/** The conditions on the listing row `l` for the company; null when there are none. */
export function reviewWhere(conditions: readonly ReviewCondition[], companyId: string): SqlFragment | null {
  if (conditions.length === 0) return null;
  const parts = conditions.map((condition): SqlFragment => {
    switch (condition) {
      case 'awaitingReview':
        return awaitingReview('l.id', 'l.alert_level', companyId);
      case 'awaitingAcknowledgement':
        return awaitingAcknowledgement('l.id', 'l.alert_level', companyId);
      case 'decision.none': {
        const decision = currentDecision('l.id', companyId);
        return { sql: `${decision.sql} IS NULL`, params: decision.params };
      }
      default:
        return hasDecision('l.id', companyId, condition.slice('decision.'.length));
    }
  });
  return { sql: parts.map((p) => `(${p.sql})`).join(' AND '), params: parts.flatMap((p) => p.params) };
}
