/**
 * /v2/webhooks (docs/webhooks.md#registering-endpoints): registering endpoints, their secrets, a test event and the
 * deliveries log, for keys with `webhooks:manage`. As on the report routes, each route declares
 * what it needs and route-checks.ts checks it before anything in the request is read: key (401)
 * → permission (403) → the webhook is the company's (404) → body type and JSON (415, 400) →
 * query parameters and body fields (400) → a disabled webhook's test or redelivery (409).
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { DEFAULT_PAGE_SIZE, parsePage } from '../../query/list-query';
import { pageSchema } from '../../schema/report';
import {
  acceptedMessageSchema,
  createdWebhookSchema,
  createWebhookBodySchema,
  deliverySchema,
  rotatedSecretSchema,
  updateWebhookBodySchema,
  webhookSchema,
} from '../../schema/webhooks';
import type { ServedService } from '../served-service';
import { callerOf } from '../auth';
import { judgeBodiesLate, parseObjectBody } from '../body';
import { waitForDatabase } from '../../db/busy';
import { pageParameter, shape, type OperationDoc } from '../openapi';
import { queryParametersOf, type RouteChecks } from '../route-checks';

const WEBHOOK = shape('Webhook', webhookSchema);
const ACCEPTED = shape('AcceptedWebhookMessage', acceptedMessageSchema);
const DELIVERY_PAGE = shape('WebhookDeliveryPage', pageSchema(deliverySchema), [shape('WebhookDelivery', deliverySchema)]);

const webhookId = z.string().describe('The webhook id, as created');
const ID = { id: webhookId };
const NEEDS = ' (needs webhooks:manage)';

const CREATE_DOC: OperationDoc = {
  operationId: 'createWebhook',
  summary: `Register an endpoint for events about the key’s company’s reports${NEEDS}`,
  description:
    'Events are signed as Standard Webhooks specifies, with the secret in this answer: it is shown only here and on rotation. ' +
    'Targets: http or https; loopback and private LAN addresses are allowed, link-local, multicast and reserved ones are not.',
  body: shape('CreateWebhookBody', createWebhookBodySchema),
  responses: { 201: { description: 'The webhook, with its secret', shape: shape('CreatedWebhook', createdWebhookSchema) } },
};

const LIST_DOC: OperationDoc = {
  operationId: 'listWebhooks',
  summary: `The webhooks of the key’s company, oldest first${NEEDS}`,
  responses: { 200: { description: 'The webhooks, without their secrets', shape: shape('WebhookList', z.array(webhookSchema), [WEBHOOK]) } },
};

const GET_DOC: OperationDoc = {
  operationId: 'getWebhook',
  summary: `One webhook of the key’s company${NEEDS}`,
  params: ID,
  responses: { 200: { description: 'The webhook, without its secret', shape: WEBHOOK } },
};

const UPDATE_DOC: OperationDoc = {
  operationId: 'updateWebhook',
  summary: `Change a webhook’s url, events, description or whether it is enabled${NEEDS}`,
  description: 'Enabling a webhook that delivery disabled (after a 410, or five days of failures) resumes its pending messages.',
  params: ID,
  body: shape('UpdateWebhookBody', updateWebhookBodySchema),
  responses: { 200: { description: 'The webhook after the change', shape: WEBHOOK } },
};

const DELETE_DOC: OperationDoc = {
  operationId: 'deleteWebhook',
  summary: `Remove a webhook with its pending messages and deliveries log${NEEDS}`,
  params: ID,
  responses: { 204: { description: 'Removed' } },
};

const ROTATE_DOC: OperationDoc = {
  operationId: 'rotateWebhookSecret',
  summary: `A new signing secret${NEEDS}`,
  description: 'The previous secret keeps signing beside the new one for 24 hours, so receivers can switch without a gap.',
  params: ID,
  responses: { 200: { description: 'The new secret, shown this once', shape: shape('RotatedWebhookSecret', rotatedSecretSchema) } },
};

const TEST_DOC: OperationDoc = {
  operationId: 'testWebhook',
  summary: `Send a webhook.test event (data: {webhookId})${NEEDS}`,
  description: 'Delivered and retried like any other event; follow it in the deliveries log. A disabled webhook answers 409.',
  params: ID,
  responses: { 202: { description: 'The message on its way', shape: ACCEPTED } },
  refusals: [409],
};

const DELIVERIES_DOC: OperationDoc = {
  operationId: 'listWebhookDeliveries',
  summary: `The webhook’s delivery attempts, newest first, with each pending message’s next attempt${NEEDS}`,
  description: 'Attempts are kept 30 days.',
  params: ID,
  query: {
    pageNumber: pageParameter('The page to answer, counted from 1. Default 1.'),
    pageSize: pageParameter(`Entries per page. Default ${DEFAULT_PAGE_SIZE}.`),
  },
  responses: { 200: { description: 'One page of the log, and how many entries it has', shape: DELIVERY_PAGE } },
  refusals: [400],
};

const REDELIVER_DOC: OperationDoc = {
  operationId: 'redeliverWebhookMessage',
  summary: `Send a message again now, under its webhook-id${NEEDS}`,
  params: { id: webhookId, messageId: z.string().describe('The message id (msg_…), as the deliveries log names it') },
  responses: { 202: { description: 'The message on its way', shape: ACCEPTED } },
  refusals: [404, 409],
};

const MANAGE = 'webhooks:manage';
const COMPANY_WEBHOOKS: RouteChecks = { permission: MANAGE, query: [] };
const NEW_WEBHOOK: RouteChecks = { permission: MANAGE, body: true, query: [] };
const ONE_WEBHOOK: RouteChecks = { permission: MANAGE, visible: 'webhook', query: [] };
const CHANGED_WEBHOOK: RouteChecks = { permission: MANAGE, visible: 'webhook', body: true, query: [] };
const DELIVERIES: RouteChecks = { permission: MANAGE, visible: 'webhook', query: ['pageNumber', 'pageSize'] };

type WithId = { Params: { id: string } };

export function webhookRoutes(service: Pick<ServedService, 'webhooks'>, options: { busyWaitMs: number }) {
  const { webhooks } = service;
  const write = <T>(run: () => T) => waitForDatabase(run, options.busyWaitMs);

  return async function routes(app: FastifyInstance): Promise<void> {
    // Bodies are judged after authorization; the routes without one never look at what came.
    judgeBodiesLate(app);

    app.post('/v2/webhooks', { config: { openapi: CREATE_DOC, checks: NEW_WEBHOOK } }, async (request, reply) => {
      const caller = callerOf(request);
      const created = parseObjectBody(createWebhookBodySchema, request.body);
      return reply.code(201).send(await write(() => webhooks.create(caller, created)));
    });

    app.get('/v2/webhooks', { config: { openapi: LIST_DOC, checks: COMPANY_WEBHOOKS } }, async (request) => {
      return webhooks.list(callerOf(request));
    });

    app.get<WithId>('/v2/webhooks/:id', { config: { openapi: GET_DOC, checks: ONE_WEBHOOK } }, async (request) => {
      const caller = callerOf(request);
      return webhooks.get(caller, request.params.id);
    });

    app.patch<WithId>('/v2/webhooks/:id', { config: { openapi: UPDATE_DOC, checks: CHANGED_WEBHOOK } }, async (request) => {
      const caller = callerOf(request);
      const update = parseObjectBody(updateWebhookBodySchema, request.body);
      return write(() => webhooks.update(caller, request.params.id, update));
    });

    app.delete<WithId>('/v2/webhooks/:id', { config: { openapi: DELETE_DOC, checks: ONE_WEBHOOK } }, async (request, reply) => {
      const caller = callerOf(request);
      await write(() => webhooks.remove(caller, request.params.id));
      return reply.code(204).send();
    });

    app.post<WithId>('/v2/webhooks/:id/rotate-secret', { config: { openapi: ROTATE_DOC, checks: ONE_WEBHOOK } }, async (request) => {
      const caller = callerOf(request);
      return write(() => webhooks.rotateSecret(caller, request.params.id));
    });

    app.post<WithId>('/v2/webhooks/:id/test', { config: { openapi: TEST_DOC, checks: ONE_WEBHOOK } }, async (request, reply) => {
      const caller = callerOf(request);
      return reply.code(202).send(await write(() => webhooks.test(caller, request.params.id)));
    });

    app.get<WithId>('/v2/webhooks/:id/deliveries', { config: { openapi: DELIVERIES_DOC, checks: DELIVERIES } }, async (request) => {
      const caller = callerOf(request);
      const given = queryParametersOf(request);
      const page = {
        pageNumber: parsePage('pageNumber', given.get('pageNumber'), 1),
        pageSize: parsePage('pageSize', given.get('pageSize'), DEFAULT_PAGE_SIZE),
      };
      return webhooks.deliveries(caller, request.params.id, page);
    });

    app.post<{ Params: { id: string; messageId: string } }>(
      '/v2/webhooks/:id/deliveries/:messageId/redeliver',
      { config: { openapi: REDELIVER_DOC, checks: ONE_WEBHOOK } },
      async (request, reply) => {
        const caller = callerOf(request);
        return reply.code(202).send(await write(() => webhooks.redeliver(caller, request.params.id, request.params.messageId)));
      },
    );
  };
}
