/**
 * Shapes of the review list, GET /local/labelReports: the /v2 list's elements, each with where
 * the caller company's review of it stands.
 */
import { z } from 'zod';
import { listedLabelReportSchema, minimalLabelReportSchema, pageSchema } from './report';
import { DECISIONS } from './review';

/** What `review=` may ask for; conditions are separated by commas and must all hold. */
export const REVIEW_CONDITIONS = [
  'awaitingReview',
  'awaitingAcknowledgement',
  'decision.released',
  'decision.rejected',
  'decision.onHold',
  'decision.none',
] as const;
export type ReviewCondition = (typeof REVIEW_CONDITIONS)[number];

export const reviewStateSchema = z.object({
  /** The company's current decision: its newest, unless a newer withdrawal took it back; null when none stands. */
  decision: z.enum(DECISIONS).nullable(),
  /** The newest decision was withdrawn because the alert changed: decision is null and a new one is due. */
  decisionWithdrawn: z.boolean(),
  /** The report has an alert the company (owner or editor) has not acknowledged at its current level. */
  awaitingAcknowledgement: z.boolean(),
  /** The report has an alert and the company (owner or editor) has no current decision. */
  awaitingReview: z.boolean(),
});
export type ReviewState = z.infer<typeof reviewStateSchema>;

const reviewFields = {
  review: reviewStateSchema,
  /**
   * `calculatedSenseData.numberOfViolations.all`: the whole run's excursions, which the order key
   * of that name sorts by (minimalSenseData counts the trimmed range when a trim is set).
   */
  calculatedExcursions: z.int().nonnegative(),
};

export const reviewListedReportSchema = listedLabelReportSchema.extend(reviewFields);
export type ReviewListedReport = z.infer<typeof reviewListedReportSchema>;
export const reviewMinimalReportSchema = minimalLabelReportSchema.extend(reviewFields);
export type ReviewMinimalReport = z.infer<typeof reviewMinimalReportSchema>;
export const reviewMinimalPageSchema = pageSchema(reviewMinimalReportSchema);
export const reviewListedPageSchema = pageSchema(reviewListedReportSchema);
