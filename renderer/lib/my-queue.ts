/**
 * "My queue" (docs/review-and-audit.md#my-queue-and-saved-views): the reports that wait for what
 * the signed-in person's role does next. A reviewer acknowledges alerts; an approver or an
 * administrator decides on reports still without a decision; a tool's key (a desk without
 * people) is shown what awaits review. A viewer signs nothing, so has no queue.
 */
import type { UserRoleName } from '../../schema/people';
import type { ReviewFilter } from './list-query';

export interface Queue {
  review: ReviewFilter;
  /** The button's words. */
  title: string;
}

export function queueOf(role: UserRoleName | undefined): Queue | null {
  if (role === 'viewer') return null;
  if (role === 'reviewer') return { review: 'awaitingAcknowledgement', title: 'My queue: alerts to acknowledge' };
  return { review: 'awaitingReview', title: 'My queue: reports to decide' };
}
