/**
 * Shipments under /local/shipments (docs/shipments.md): the list, one shipment, its readings for
 * the one chart, its facts, and the signed shipment decision. The same keys and order of refusals
 * as the review routes (docs/api.md#errors): key (401) → permission (403) → the shipment is the
 * company's to see (404) → body type and JSON (415, 400) → query parameters (400); then the body's
 * fields (400), the role (403), the rules (409) and the signature (403).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { decisionBodySchema } from '../../schema/review';
import {
  SHIPMENT_STATE_VALUES,
  TRANSPORT_MODES,
  shipmentDecisionSchema,
  shipmentFactsBodySchema,
  shipmentFactsSchema,
  shipmentGroupingSchema,
  shipmentListSchema,
  shipmentOfReportSchema,
  shipmentReadingsSchema,
  shipmentSchema,
} from '../../schema/shipment';
import { parseShipmentQuery, SHIPMENT_ORDER_KEYS, SHIPMENT_QUERY_PARAMETERS } from '../../service/shipments';
import type { ServedService } from '../served-service';
import { callerOf } from '../auth';
import { judgeBodiesLate, parseObjectBody } from '../body';
import type { ClientGate } from '../client-gate';
import { shape, type OperationDoc } from '../openapi';
import { queryParametersOf, type RouteChecks } from '../route-checks';

const params = { id: z.string().describe('The shipment id: its reference key, @, the UTC day its first label was created (SHP-2026-1@2026-10-07)') };

const LIST_DOC: OperationDoc = {
  operationId: 'listShipments',
  summary: 'The company’s shipments: its reports grouped by label reference, filtered and sorted, with the exact count',
  query: {
    alert: z.string().describe('Worst alert level among the labels, comma separated: -1, 0, 1, 2'),
    state: z.string().describe(`Review state, comma separated: ${SHIPMENT_STATE_VALUES.join(', ')}`),
    labelsMin: z.string().describe('At least this many labels'),
    labelsMax: z.string().describe('At most this many labels'),
    startFrom: z.string().describe('First start at or after this ISO 8601 date or instant'),
    startTo: z.string().describe('First start at or before this ISO 8601 date or instant'),
    mode: z.string().describe(`A leg of this mode: ${TRANSPORT_MODES.join(', ')}`),
    product: z.string().describe('The product, as the facts name it (case aside)'),
    order: z.string().describe(`${SHIPMENT_ORDER_KEYS.join(', ')}, each with [asc] or [desc] (default created[desc])`),
    pageNumber: z.string().describe('Default 1'),
    pageSize: z.string().describe('Default 50, at most 500'),
  },
  responses: { 200: { description: 'A page and the total', shape: shape('ShipmentList', shipmentListSchema) } },
};
const ONE_DOC: OperationDoc = {
  operationId: 'getShipment',
  summary: 'One shipment: its labels with excursions, time beyond each limit and review; its legs in order; its budget in words; its decisions and facts',
  params,
  responses: { 200: { description: 'The shipment', shape: shape('Shipment', shipmentSchema) } },
};
const READINGS_DOC: OperationDoc = {
  operationId: 'getShipmentReadings',
  summary: 'Every label’s readings, for one time-aligned chart',
  params,
  responses: { 200: { description: 'Per label: timestamps (epoch seconds), temperatures, limits', shape: shape('ShipmentReadings', shipmentReadingsSchema) } },
};
const FACTS_DOC: OperationDoc = {
  operationId: 'getShipmentFacts',
  summary: 'The facts the desk keeps on the shipment: origin, destination, product, legs, stability budget',
  params,
  responses: { 200: { description: 'The facts', shape: shape('ShipmentFacts', shipmentFactsSchema) } },
};
const PUT_FACTS_DOC: OperationDoc = {
  operationId: 'putShipmentFacts',
  summary: 'Change the shipment’s facts, with a reason (labelReports:update; owner or editor of every label)',
  description: 'The fields given replace the kept ones; null clears one. A person at the desk gives a reason (400 REASON_REQUIRED); each change is logged with it.',
  params,
  body: shape('ShipmentFactsBody', shipmentFactsBodySchema),
  responses: { 200: { description: 'The facts now', shape: shape('ShipmentFacts', shipmentFactsSchema) } },
};
const DECIDE_DOC: OperationDoc = {
  operationId: 'decideShipment',
  summary: 'Release, reject or hold the whole shipment: one signed decision, an entry naming it on each label’s review',
  description:
    'As PUT /local/labelReports/:id/decision for every label (role 403, ACKNOWLEDGEMENT_REQUIRED and FOUR_EYES 409, the signature 403), and refused 409 ACKNOWLEDGEMENT_REQUIRED while any label’s alert awaits acknowledgement. Withdrawn whole when a label’s alert changes later.',
  params,
  body: shape('ShipmentDecisionBody', decisionBodySchema),
  responses: { 200: { description: 'The shipment decision', shape: shape('ShipmentDecision', shipmentDecisionSchema) } },
  refusals: [409],
};

const GROUPING_DOC: OperationDoc = {
  operationId: 'getShipmentGrouping',
  summary: 'What the company groups its reports into shipments by: a custom field, or the label reference (null)',
  responses: { 200: { description: 'The grouping', shape: shape('ShipmentGrouping', shipmentGroupingSchema) } },
};
const PUT_GROUPING_DOC: OperationDoc = {
  operationId: 'putShipmentGrouping',
  summary: 'Group the company’s reports into shipments by a custom field, or by the label reference again (apiKeys:manage)',
  description: 'Every kept shipment of the company is made again at once. Facts and decisions stay with their shipment ids.',
  body: shape('ShipmentGroupingBody', shipmentGroupingSchema),
  responses: { 200: { description: 'The grouping now', shape: shape('ShipmentGrouping', shipmentGroupingSchema) } },
};
const OF_REPORT_DOC: OperationDoc = {
  operationId: 'getShipmentOfReport',
  summary: 'The shipment a report belongs to for the company, or null',
  params: { id: z.string().describe('The label report id') },
  responses: { 200: { description: 'Its shipment', shape: shape('ShipmentOfReport', shipmentOfReportSchema) } },
};

const GROUPING: RouteChecks = { permission: 'labelReports:read', query: [] };
const SET_GROUPING: RouteChecks = { permission: 'apiKeys:manage', body: true, query: [] };
const OF_REPORT: RouteChecks = { permission: 'labelReports:read', visible: 'report', query: [] };
const LIST: RouteChecks = { permission: 'labelReports:read', query: [...SHIPMENT_QUERY_PARAMETERS] };
const READ: RouteChecks = { permission: 'labelReports:read', visible: 'shipment', query: [] };
const UPDATE: RouteChecks = { permission: 'labelReports:update', visible: 'shipment', body: true, query: [] };

type WithId = { Params: { id: string } };

export function shipmentRoutes(service: Pick<ServedService, 'shipments'>, options: { busyWaitMs: number; clients: ClientGate }) {
  const { shipments } = service;
  const { clients } = options;
  const answer = <T>(request: FastifyRequest, reply: FastifyReply, read: () => T) => clients.answer(request, reply, read);
  const write = <T>(request: FastifyRequest, reply: FastifyReply, work: () => T) => clients.write(request, reply, work, options.busyWaitMs);
  return async function routes(app: FastifyInstance): Promise<void> {
    judgeBodiesLate(app);

    app.get('/local/shipments', { config: { openapi: LIST_DOC, checks: LIST } }, async (request, reply) => {
      const caller = callerOf(request);
      const given = queryParametersOf(request);
      const query = parseShipmentQuery((name) => given.get(name));
      return answer(request, reply, () => shipments.list(caller, query));
    });

    app.get('/local/shipments/grouping', { config: { openapi: GROUPING_DOC, checks: GROUPING } }, async (request, reply) => {
      const caller = callerOf(request);
      return answer(request, reply, () => shipments.grouping(caller));
    });

    app.put('/local/shipments/grouping', { config: { openapi: PUT_GROUPING_DOC, checks: SET_GROUPING } }, async (request, reply) => {
      const caller = callerOf(request);
      const body = parseObjectBody(shipmentGroupingSchema, request.body);
      return write(request, reply, () => shipments.setGrouping(caller, body));
    });

    app.get<WithId>('/local/labelReports/:id/shipment', { config: { openapi: OF_REPORT_DOC, checks: OF_REPORT } }, async (request, reply) => {
      const caller = callerOf(request);
      return answer(request, reply, () => shipments.ofReport(caller, request.params.id));
    });

    app.get<WithId>('/local/shipments/:id', { config: { openapi: ONE_DOC, checks: READ } }, async (request, reply) => {
      const caller = callerOf(request);
      return answer(request, reply, () => shipments.one(caller, request.params.id));
    });

    app.get<WithId>('/local/shipments/:id/readings', { config: { openapi: READINGS_DOC, checks: READ } }, async (request, reply) => {
      const caller = callerOf(request);
      return answer(request, reply, () => shipments.readings(caller, request.params.id));
    });

    app.get<WithId>('/local/shipments/:id/facts', { config: { openapi: FACTS_DOC, checks: READ } }, async (request, reply) => {
      const caller = callerOf(request);
      return answer(request, reply, () => shipments.facts(caller, request.params.id));
    });

    app.put<WithId>('/local/shipments/:id/facts', { config: { openapi: PUT_FACTS_DOC, checks: UPDATE } }, async (request, reply) => {
      const caller = callerOf(request);
      const body = parseObjectBody(shipmentFactsBodySchema, request.body);
      return write(request, reply, () => shipments.putFacts(caller, request.params.id, body));
    });

    app.put<WithId>('/local/shipments/:id/decision', { config: { openapi: DECIDE_DOC, checks: UPDATE } }, async (request, reply) => {
      const caller = callerOf(request);
      const body = parseObjectBody(decisionBodySchema, request.body);
      return write(request, reply, () => shipments.decide(caller, request.params.id, body));
    });
  };
}
