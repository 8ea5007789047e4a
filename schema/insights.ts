/**
 * Shapes of /local/insights: facets (each value of a key with how many reports the list's filter
 * matches hold it) and groups (the list's matches split by a key or a time bucket, with the
 * figures QA reads per group). Server, command line and renderer share them.
 */
import { z } from 'zod';
import { DECISIONS } from './review';

/** The keys the browser shows facets of, in its order; custom fields are `customFields.<id>`. */
export const FACET_KEYS = ['status', 'alert.level', 'mode', 'type', 'company.id', 'hasFlag', 'isArchived', 'decision'] as const;
export type FacetKey = (typeof FACET_KEYS)[number];
export const CUSTOM_FIELD_PREFIX = 'customFields.';

/** Keys a group-by takes besides `customFields.<id>` and the time buckets. */
export const GROUP_KEYS = ['status', 'alert.level', 'mode', 'type', 'company.id', 'hasFlag', 'isArchived'] as const;
export type GroupKey = (typeof GROUP_KEYS)[number];
export const TIME_FIELDS = ['created', 'startTime'] as const;
export type TimeField = (typeof TIME_FIELDS)[number];
export const TIME_UNITS = ['day', 'week', 'month'] as const;
export type TimeUnit = (typeof TIME_UNITS)[number];
/** Group-bys into the ranges of a figure (contract/insights-tables.ts DISTRIBUTIONS), one group per range. */
export const BIN_KEYS = ['bins.secondsOutOfRange', 'bins.degreeHours', 'bins.mkt'] as const;
export type BinKey = (typeof BIN_KEYS)[number];

/** The alert levels a report can have, as the keys of `alertLevels`. */
export const ALERT_LEVELS = [-1, 0, 1, 2] as const;

/**
 * The list conditions that pick exactly a value's or a group's reports: appended to the
 * request's own `filter` and `customFields`, the list answers those reports and no other.
 * A decision's is a `review` condition of GET /local/labelReports, a value's absence (a custom
 * field not set, no MKT, not started) an `unset` key of it.
 */
const conditionsSchema = {
  filter: z.string().optional().describe('filter conditions that pick exactly these reports, to append to the request’s filter'),
  customFields: z.string().optional().describe('customFields conditions that pick exactly these reports, to append to the request’s customFields'),
  review: z
    .string()
    .optional()
    .describe('The review condition of GET /local/labelReports that picks exactly these reports (a decision), to append to the request’s review; absent when the request holds it already'),
  unset: z
    .string()
    .optional()
    .describe('The unset key of GET /local/labelReports that picks exactly these reports (a custom field not set, no MKT, not started), to append to the request’s unset; absent when the request holds it already'),
};

export const facetValueSchema = z.object({
  /** null: reports with no decision, or without the custom field. */
  value: z.union([z.string(), z.number(), z.boolean(), z.null()]),
  /** Words for the value where the value is an id (an owner company’s name). */
  label: z.string().optional(),
  count: z.int().nonnegative(),
  ...conditionsSchema,
});
export type FacetValue = z.infer<typeof facetValueSchema>;

export const facetsSchema = z.object({
  /** Reports the filter matches: the list’s totalDocuments. */
  totalDocuments: z.int().nonnegative(),
  facets: z.record(z.string(), z.array(facetValueSchema)).describe(
    'Per key asked, every value held by a matching report, most reports first. The counts of a key add up to totalDocuments, ' +
      'except for a custom field, where a report holding an array counts once under each of its values.',
  ),
});
export type Facets = z.infer<typeof facetsSchema>;

const decisionCountsSchema = z.object({
  ...Object.fromEntries(DECISIONS.map((d) => [d, z.int().nonnegative()])),
  none: z.int().nonnegative(),
}) as z.ZodObject<Record<(typeof DECISIONS)[number] | 'none', z.ZodInt>>;

export const groupSchema = z.object({
  /**
   * The key's value, the bucket's local start (`YYYY-MM-DD` for a day or the Monday of a week,
   * `YYYY-MM` for a month) or a range's words (`1–6 h`); null as in facets, and for a range the
   * reports in none of them (those without an MKT).
   */
  value: z.union([z.string(), z.number(), z.boolean(), z.null()]),
  label: z.string().optional(),
  /** A time bucket's bounds: from (inclusive) and to (exclusive), ISO 8601 UTC. */
  from: z.string().optional(),
  to: z.string().optional(),
  count: z.int().nonnegative(),
  /** Reports with at least one excursion (numberOfViolations.all > 0). */
  reportsWithExcursions: z.int().nonnegative(),
  /** Sum of numberOfViolations.all. */
  excursions: z.int().nonnegative(),
  /** Sum of durationOfViolations.all, in seconds. */
  secondsOutOfRange: z.number().nonnegative(),
  /** Sum of the temperature degree-hours. */
  degreeHours: z.number(),
  /** Mean and highest mean kinetic temperature of the reports that have one; null when none has. */
  mkt: z.object({ mean: z.number().nullable(), max: z.number().nullable() }),
  /** Reports per alert level (-1 no taps, 0 none, 1 moderate, 2 critical). */
  alertLevels: z.record(z.string(), z.int().nonnegative()),
  /** Reports per the company's current decision; none: not decided. */
  decisions: decisionCountsSchema,
  ...conditionsSchema,
});
export type Group = z.infer<typeof groupSchema>;

export const groupsSchema = z.object({
  /** Reports the filter matches: the list’s totalDocuments. */
  total: z.int().nonnegative(),
  by: z.string(),
  /** The IANA zone the time buckets are days, weeks and months of. */
  zone: z.string(),
  groups: z.array(groupSchema),
});
export type Groups = z.infer<typeof groupsSchema>;

/** Every figure of the Insights screen for one filter: each part as GET /local/insights/groups answers it. */
export const insightsScreenSchema = z.object({
  /** Reports the filter matches: the list’s totalDocuments. */
  total: z.int().nonnegative(),
  zone: z.string(),
  /** Grouped by the time bucket asked (`time`). */
  time: groupsSchema,
  /** Grouped by the split asked (`by`). */
  split: groupsSchema,
  /** Grouped by the ranges of time out of range, degree-hours and MKT, in that order. */
  bins: z.array(groupsSchema),
});
export type InsightsScreenFigures = z.infer<typeof insightsScreenSchema>;

/** How a group-by is asked for, once read from `by`. */
export type GroupBy =
  | { kind: 'key'; key: GroupKey }
  | { kind: 'customField'; field: string }
  | { kind: 'time'; field: TimeField; unit: TimeUnit }
  | { kind: 'bins'; key: BinKey };
