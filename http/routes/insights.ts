/**
 * GET /local/insights/facets and /local/insights/groups: the list's query (filter and
 * customFields, the list's own parser), the same key and permission, and the same order of
 * refusals: key (401) → permission (403) → query parameters (400: unknown or repeated ones, then
 * filter, customFields, review as GET /local/labelReports judges them, then the route's own keys,
 * by and zone).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { parseListQuery, type ListQuery } from '../../query/list-query';
import { facetsSchema, facetValueSchema, groupSchema, groupsSchema, insightsScreenSchema } from '../../schema/insights';
import { REVIEW_CONDITIONS } from '../../schema/review-list';
import { parseReviewConditions } from '../../service/review-list';
import { parseUnsetConditions, UNSET_MKT, UNSET_START } from '../../query/unset-keys';
import type { Narrowing } from '../../service/insights';
import type { ServedService } from '../served-service';
import { callerOf } from '../auth';
import { CLIENT_GONE, type ClientGate } from '../client-gate';
import type { NOT_WANTED } from '../../service/reads';
import { shape, type OperationDoc } from '../openapi';
import { queryParametersOf, type RouteChecks } from '../route-checks';

const FILTER_QUERY = {
  filter: z.string().describe('As GET /v2/labelReports'),
  customFields: z.string().describe('As GET /v2/labelReports'),
  review: z
    .string()
    .describe(`As GET /local/labelReports: conditions on the company's review, comma separated, all of which must hold: ${REVIEW_CONDITIONS.join(', ')}. At most one decision.`),
  unset: z
    .string()
    .describe(`As GET /local/labelReports: keys whose value the report does not have, comma separated: customFields.<custom field id>, ${UNSET_MKT}, ${UNSET_START}.`),
};

const FACETS_DOC: OperationDoc = {
  operationId: 'getInsightFacets',
  summary: 'Each value of the asked keys among the reports the list query matches, with its count',
  query: {
    ...FILTER_QUERY,
    keys: z
      .string()
      .describe(
        'Comma separated: status, alert.level, mode, type, company.id, hasFlag, isArchived, decision, customFields.<custom field id>. Default: all but the custom fields.',
      ),
  },
  responses: { 200: { description: 'Per key, every value held by a matching report', shape: shape('InsightFacets', facetsSchema, [shape('InsightFacetValue', facetValueSchema)]) } },
  refusals: [400],
};

const GROUPS_DOC: OperationDoc = {
  operationId: 'getInsightGroups',
  summary: 'The reports the list query matches, split by a key or a time bucket, with the figures of each group',
  query: {
    ...FILTER_QUERY,
    by: z
      .string()
      .describe(
        'status, alert.level, mode, type, company.id, hasFlag, isArchived, customFields.<custom field id>, a time bucket: created.day, created.week, created.month, startTime.day, startTime.week, startTime.month, or the ranges of a figure: bins.secondsOutOfRange, bins.degreeHours, bins.mkt (each range a group, in order; value null: in no range, as a report without an MKT). Default created.month.',
      ),
    zone: z.string().describe('The IANA time zone whose days, weeks (from Monday) and months the time buckets are. Default UTC.'),
  },
  responses: { 200: { description: 'The groups: by time in order, else most reports first', shape: shape('InsightGroups', groupsSchema, [shape('InsightGroup', groupSchema)]) } },
  refusals: [400],
};

const SCREEN_DOC: OperationDoc = {
  operationId: 'getInsightScreen',
  summary: 'Every figure of the Insights screen for the reports the list query matches, read at once: the groups of a time bucket, of a split and of each figure’s ranges',
  query: {
    ...FILTER_QUERY,
    time: z.string().describe('A time bucket as `by` of GET /local/insights/groups: created.day, created.week, created.month, startTime.day, startTime.week, startTime.month. Default created.month.'),
    by: z.string().describe('The split, as `by` of GET /local/insights/groups. Default mode.'),
    zone: z.string().describe('As GET /local/insights/groups. Default UTC.'),
  },
  responses: {
    200: {
      description: 'time, split and bins (bins.secondsOutOfRange, bins.degreeHours, bins.mkt), each what GET /local/insights/groups answers for it',
      shape: shape('InsightScreen', insightsScreenSchema, [shape('InsightGroups', groupsSchema, [shape('InsightGroup', groupSchema)])]),
    },
  },
  refusals: [400],
};

const FACETS_CHECKS: RouteChecks = { permission: 'labelReports:read', query: ['filter', 'customFields', 'keys', 'review', 'unset'] };
const GROUPS_CHECKS: RouteChecks = { permission: 'labelReports:read', query: ['filter', 'customFields', 'by', 'zone', 'review', 'unset'] };
const SCREEN_CHECKS: RouteChecks = { permission: 'labelReports:read', query: ['filter', 'customFields', 'time', 'by', 'zone', 'review', 'unset'] };

/** The list's query and review conditions from the route's declared parameters, parsed by the review list's own parsers. */
function listQueryOf(request: FastifyRequest): { query: ListQuery; review: Narrowing } {
  const given = queryParametersOf(request);
  const query = parseListQuery({ filter: given.get('filter'), customFields: given.get('customFields') });
  const review = parseReviewConditions(given.get('review'));
  return { query, review: { review, unset: parseUnsetConditions(given.get('unset')) } };
}

export function insightsRoutes(service: Pick<ServedService, 'reads'>, options: { clients: ClientGate }) {
  const { clients } = options;
  /** Read on a read worker, off the event loop (service/read-pool.ts); nothing read for a client gone before its turn. */
  const answer = async <T>(request: FastifyRequest, reply: FastifyReply, read: (stillWanted: () => boolean) => Promise<T | typeof NOT_WANTED>) => {
    const result = await clients.readElsewhere(request, read);
    return result === CLIENT_GONE ? clients.abandon(request, reply) : reply.send(result);
  };
  return async function routes(app: FastifyInstance): Promise<void> {
    app.get('/local/insights/facets', { config: { openapi: FACETS_DOC, checks: FACETS_CHECKS } }, async (request, reply) => {
      const caller = callerOf(request);
      const { query, review } = listQueryOf(request);
      const keys = queryParametersOf(request).get('keys');
      return answer(request, reply, (wanted) => service.reads.insights('facets', [caller, query, keys, review], wanted));
    });

    app.get('/local/insights/groups', { config: { openapi: GROUPS_DOC, checks: GROUPS_CHECKS } }, async (request, reply) => {
      const caller = callerOf(request);
      const { query, review } = listQueryOf(request);
      const given = queryParametersOf(request);
      return answer(request, reply, (wanted) => service.reads.insights('groups', [caller, query, given.get('by'), given.get('zone'), review], wanted));
    });

    app.get('/local/insights/screen', { config: { openapi: SCREEN_DOC, checks: SCREEN_CHECKS } }, async (request, reply) => {
      const caller = callerOf(request);
      const { query, review } = listQueryOf(request);
      const given = queryParametersOf(request);
      return answer(request, reply, (wanted) => service.reads.insights('screen', [caller, query, { time: given.get('time'), by: given.get('by'), zone: given.get('zone') }, review], wanted));
    });
  };
}
