/**
 * Shapes of the shipments under /local/shipments (docs/shipments.md): the list, one shipment with
 * its labels, legs and budget, the facts the desk keeps on it, and the signed shipment decision.
 */
import { z } from 'zod';
import { alertSchema, limitsSchema } from './sense';
import { DECISIONS, DIRECTIONS, QUANTITIES, excursionSchema, reviewAuthorSchema, timePerQuantitySchema } from './review';
import { customFieldIdSchema } from './report';

export const TRANSPORT_MODES = ['road', 'air', 'sea', 'rail', 'warehouse', 'other'] as const;
export type TransportMode = (typeof TRANSPORT_MODES)[number];

export const SHIPMENT_STATE_VALUES = ['awaitingAcknowledgement', 'awaitingReview', 'onHold', 'rejected', 'released'] as const;

const instant = z.iso.datetime({ offset: true });
const place = z.string().trim().min(1).max(200);

export const shipmentLegSchema = z.strictObject({
  mode: z.enum(TRANSPORT_MODES),
  from: place,
  to: place,
  /** When the leg began and ended (ISO 8601); the labels of a leg are those running then. */
  departure: instant.optional(),
  arrival: instant.optional(),
});
export type ShipmentLeg = z.infer<typeof shipmentLegSchema>;

/** The product's stability budget for one limit: minutes it may spend beyond the threshold, in all. */
export const budgetLimitSchema = z.strictObject({
  quantity: z.enum(QUANTITIES),
  direction: z.enum(DIRECTIONS),
  threshold: z.number().finite().min(-100).max(200),
  minutes: z.int().min(0).max(525_600),
});
export type BudgetLimit = z.infer<typeof budgetLimitSchema>;

export const shipmentFactsSchema = z.object({
  origin: z.string().nullable(),
  destination: z.string().nullable(),
  product: z.string().nullable(),
  legs: z.array(shipmentLegSchema),
  budget: z.array(budgetLimitSchema),
  updated: z.string().nullable(),
});
export type ShipmentFacts = z.infer<typeof shipmentFactsSchema>;

/** PUT /local/shipments/:id/facts: the fields given replace the kept ones (null clears); the reason is logged with them. */
export const shipmentFactsBodySchema = z.strictObject({
  origin: place.nullable().optional(),
  destination: place.nullable().optional(),
  product: z.string().trim().min(1).max(200).nullable().optional(),
  legs: z.array(shipmentLegSchema).max(20).optional(),
  budget: z.array(budgetLimitSchema).max(8).optional(),
  reason: z.string().max(2000).optional(),
});
export type ShipmentFactsBody = z.infer<typeof shipmentFactsBodySchema>;

export const shipmentSummarySchema = z.object({
  id: z.string(),
  /** The label reference as the first label carries it. */
  reference: z.string(),
  labels: z.int(),
  worstAlert: z.int(),
  state: z.enum(SHIPMENT_STATE_VALUES),
  firstCreated: z.string(),
  /** The first label's start (ISO 8601), null while none has started. */
  firstStart: z.string().nullable(),
  product: z.string().nullable(),
  modes: z.array(z.enum(TRANSPORT_MODES)),
  origin: z.string().nullable(),
  destination: z.string().nullable(),
});
export type ShipmentSummary = z.infer<typeof shipmentSummarySchema>;

export const shipmentListSchema = z.object({
  data: z.array(shipmentSummarySchema),
  totalDocuments: z.int(),
  pageNumber: z.int(),
  pageSize: z.int(),
});
export type ShipmentList = z.infer<typeof shipmentListSchema>;

export const shipmentLabelSchema = z.object({
  reportId: z.string(),
  labelName: z.string(),
  labelUid: z.string(),
  reference: z.string(),
  created: z.string(),
  startTime: z.string().nullable(),
  endTime: z.string().nullable(),
  interval: z.int(),
  limits: limitsSchema,
  alert: alertSchema,
  excursions: z.array(excursionSchema),
  timeAbove: timePerQuantitySchema,
  timeBelow: timePerQuantitySchema,
  review: z.object({
    decision: z.enum(DECISIONS).nullable(),
    decisionWithdrawn: z.boolean(),
    acknowledgedLevel: z.int().nullable(),
    awaitingAcknowledgement: z.boolean(),
  }),
});
export type ShipmentLabel = z.infer<typeof shipmentLabelSchema>;

export const budgetUseSchema = z.object({
  quantity: z.enum(QUANTITIES),
  direction: z.enum(DIRECTIONS),
  threshold: z.number(),
  minutes: z.int(),
  usedSeconds: z.number(),
  /** "41 of 120 minutes above 8 °C used" */
  words: z.string(),
  exceeded: z.boolean(),
});
export type BudgetUse = z.infer<typeof budgetUseSchema>;

export const shipmentLegViewSchema = shipmentLegSchema.extend({ labels: z.array(z.string()) });

export const shipmentDecisionSchema = z.object({
  id: z.string(),
  decision: z.enum(DECISIONS),
  reason: z.string(),
  by: reviewAuthorSchema,
  at: z.string(),
  meaning: z.string().optional(),
  zone: z.string().optional(),
  /** Each report's own review entry, naming this decision. */
  reports: z.array(z.object({ reportId: z.string(), reviewEntryId: z.string() })),
  withdrawal: z.object({ reportId: z.string(), text: z.string(), at: z.string() }).optional(),
});
export type ShipmentDecision = z.infer<typeof shipmentDecisionSchema>;

export const shipmentFactChangeSchema = z.object({
  id: z.string(),
  changes: z.array(z.object({ field: z.string(), old: z.unknown(), new: z.unknown() })),
  reason: z.string(),
  by: reviewAuthorSchema,
  at: z.string(),
});
export type ShipmentFactChange = z.infer<typeof shipmentFactChangeSchema>;

export const shipmentSchema = shipmentSummarySchema.extend({
  facts: shipmentFactsSchema,
  labelsOf: z.array(shipmentLabelSchema),
  legs: z.array(shipmentLegViewSchema),
  budget: z.array(budgetUseSchema),
  /** The standing shipment decision; null when none stands (none taken, or withdrawn). */
  decision: shipmentDecisionSchema.nullable(),
  decisions: z.array(shipmentDecisionSchema),
  factChanges: z.array(shipmentFactChangeSchema),
});
export type Shipment = z.infer<typeof shipmentSchema>;

/** Every label's readings, for the one chart: timestamps in epoch seconds. */
export const shipmentReadingsSchema = z.object({
  labels: z.array(
    z.object({
      reportId: z.string(),
      labelName: z.string(),
      timestamps: z.array(z.number()),
      temperatures: z.array(z.number()),
      limits: limitsSchema,
    }),
  ),
});
export type ShipmentReadings = z.infer<typeof shipmentReadingsSchema>;

/** What a company groups its reports into shipments by: a custom field's id, or null for the label reference. */
export const shipmentGroupingSchema = z.strictObject({
  field: customFieldIdSchema.nullable().describe('The custom field whose value groups reports into shipments; null: the label reference'),
});
export type ShipmentGrouping = z.infer<typeof shipmentGroupingSchema>;

export const shipmentOfReportSchema = z.object({ shipment: shipmentSummarySchema.nullable() });
