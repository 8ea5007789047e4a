/**
 * Bulk work under POST /local/labelReports/bulk (docs/review-and-audit.md#bulk-work): one action
 * on a selection of reports, acted on whole or not at all. A signed action (acknowledge,
 * decide) takes one password and gives each report its own signed entry.
 */
import { z } from 'zod';
import { acknowledgementBodySchema, decisionBodySchema } from './review';

/** As many reports as a reviewer selects on a few screens of the list; more is refused by name. */
export const BULK_MAX_REPORTS = 500;

const reportIds = z
  .array(z.string().min(1).max(200))
  .min(1, 'select at least one report')
  .max(BULK_MAX_REPORTS, `at most ${BULK_MAX_REPORTS} reports at once`)
  .refine((ids) => new Set(ids).size === ids.length, 'a report is named twice in reportIds')
  .describe(`The selected reports' ids, each once (1 to ${BULK_MAX_REPORTS})`);

const reason = z.string().trim().max(2000).optional().describe('Kept with each change in the history');

export const BULK_FLAG_ACTIONS = ['flag', 'unflag', 'archive', 'unarchive'] as const;
export type BulkFlagAction = (typeof BULK_FLAG_ACTIONS)[number];

export const bulkBodySchema = z.discriminatedUnion('action', [
  acknowledgementBodySchema.extend({ action: z.literal('acknowledge'), reportIds }),
  decisionBodySchema.extend({ action: z.literal('decide'), reportIds }),
  z.strictObject({ action: z.enum(BULK_FLAG_ACTIONS), reportIds, reason }),
]);
export type BulkBody = z.infer<typeof bulkBodySchema>;

export const bulkResultSchema = z.object({
  action: z.string(),
  /** Each report acted on, in the order given, with the review entry written for it (signed actions). */
  reports: z.array(z.object({ id: z.string(), entryId: z.string().optional() })),
});
export type BulkResult = z.infer<typeof bulkResultSchema>;
