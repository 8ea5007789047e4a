/**
 * Shapes of webhooks (docs/webhooks.md): registration, the deliveries log and the events sent.
 * The service, the command line and the renderer share them.
 */
import { z } from 'zod';
import { httpUrlSchema } from './http-url';

export const REPORT_EVENT_TYPES = ['labelReport.activated', 'labelReport.tapped', 'labelReport.alarm'] as const;
export const reportEventTypeSchema = z.enum(REPORT_EVENT_TYPES);
/** What a webhook takes unless told: the report events; alarms are asked for. */
export const DEFAULT_EVENT_TYPES: readonly ReportEventType[] = ['labelReport.activated', 'labelReport.tapped'];
export type ReportEventType = z.infer<typeof reportEventTypeSchema>;
/** What a message can be: a report event, or the test event sent on request. */
export type WebhookEventType = ReportEventType | 'webhook.test';

const url = httpUrlSchema();

const events = z.array(reportEventTypeSchema).min(1, 'name at least one event').max(REPORT_EVENT_TYPES.length);

export const createWebhookBodySchema = z.strictObject({
  url,
  events,
  description: z.string().max(500).optional(),
});
export type CreateWebhookBody = z.infer<typeof createWebhookBodySchema>;

export const updateWebhookBodySchema = z.strictObject({
  url: url.optional(),
  events: events.optional(),
  description: z.string().max(500).optional(),
  enabled: z.boolean().optional(),
});
export type UpdateWebhookBody = z.infer<typeof updateWebhookBodySchema>;

export const webhookSchema = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(reportEventTypeSchema),
  description: z.string(),
  enabled: z.boolean(),
  created: z.string(),
  /** Why delivery disabled the webhook (a 410, days of failures); null when enabled or disabled by hand. */
  disabledReason: z.string().nullable(),
});
export type Webhook = z.infer<typeof webhookSchema>;

/** The answer that carries the secret: creation only (rotation answers `rotatedSecretSchema`). */
export const createdWebhookSchema = webhookSchema.extend({ secret: z.string() });
export type CreatedWebhook = z.infer<typeof createdWebhookSchema>;

export const rotatedSecretSchema = z.object({ secret: z.string() });

/** The answer of a test or a redelivery: the message that is on its way (its webhook-id). */
export const acceptedMessageSchema = z.object({ messageId: z.string() });

export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export const deliverySchema = z.object({
  id: z.string(),
  messageId: z.string(),
  type: z.string(),
  attempt: z.int().nonnegative(),
  status: z.enum(DELIVERY_STATUSES),
  responseStatus: z.int().nullable(),
  error: z.string().nullable(),
  durationMs: z.number().nullable(),
  at: z.string(),
  nextAttemptAt: z.string().nullable(),
});
export type Delivery = z.infer<typeof deliverySchema>;

/** The body of every delivery (Standard Webhooks). */
export const webhookPayloadSchema = z.object({
  type: z.string(),
  timestamp: z.string(),
  data: z.unknown(),
});
export type WebhookPayload = z.infer<typeof webhookPayloadSchema>;
