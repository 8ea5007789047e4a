/**
 * GET /v2/labelReports, GET and PATCH /v2/labelReports/:id, and the review list beside them,
 * GET /local/labelReports (service/review-list.ts). Each route declares what it needs
 * and route-checks.ts checks it before the handler parses anything, so the order of docs/api.md#errors
 * holds: key (401) → key permission (403) → report visibility (404) → body type and JSON (415,
 * 400, see body.ts) → query parameters (400) → body fields (400) → role (403, in the service).
 */
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  LIST_PARAMETERS,
  parseListQuery,
  parsePage,
  WHOLE_REPORTS_PARAMETER,
  type ListOutput,
  type ListParameter,
  type RawQuery,
} from '../../query/list-query';
import {
  labelReportPatchSchema,
  localReportPatchSchema,
  labelReportSchema,
  listedLabelReportSchema,
  minimalLabelReportSchema,
  pageSchema,
} from '../../schema/report';
import type { ServedService } from '../served-service';
import { reportJson, type ReportDocument } from '../../service/report-json';
import { AUTH_QUERY_PARAMETERS, callerOf } from '../auth';
import { judgeBodiesLate, parseObjectBody } from '../body';
import { waitForDatabase } from '../../db/busy';
import { CLIENT_GONE, type ClientGate } from '../client-gate';
import { pageParameter, shape, type OperationDoc } from '../openapi';
import { queryParametersOf, type RouteChecks } from '../route-checks';
import {
  REVIEW_CONDITIONS,
  reviewListedPageSchema,
  reviewListedReportSchema,
  reviewMinimalPageSchema,
  reviewMinimalReportSchema,
  reviewStateSchema,
} from '../../schema/review-list';
import { parseReviewConditions } from '../../service/review-list';
import { parseUnsetConditions } from '../../query/unset-keys';
import { reasonFromHeader } from '../../service/change-reason';
import { alertPreviewSchema } from '../../schema/review';

/** The header a PATCH carries its reason in: the body keeps the shape of the interface. */
const CHANGE_REASON_HEADER = 'x-change-reason';

const REPORT = shape('LabelReport', labelReportSchema);
/** The LabelDesk extension's part of a page, there only when the request asks for it (WHOLE_REPORTS_PARAMETER). */
const wholeReports = {
  wholeReports: z
    .array(labelReportSchema)
    .optional()
    .describe('Only when wholeReports was asked (a LabelDesk extension): the page’s reports as GET /v2/labelReports/{id} answers each, those that fit.'),
};
const PAGE = shape('LabelReportPage', pageSchema(listedLabelReportSchema).extend(wholeReports).describe('The answer to output=normal (the default).'), [
  shape('ListedLabelReport', listedLabelReportSchema),
  REPORT,
]);
const MINIMAL_PAGE = shape('MinimalLabelReportPage', pageSchema(minimalLabelReportSchema).extend(wholeReports).describe('The answer to output=minimal.'), [
  shape('MinimalLabelReport', minimalLabelReportSchema),
  REPORT,
]);
const PATCH = shape('LabelReportPatch', labelReportPatchSchema);
const LOCAL_PATCH = shape('LocalLabelReportPatch', localReportPatchSchema);

const reportId = z.string().describe('The report id (a UUID in practice); any text is looked up as given.');

const LIST_QUERY = {
  filter: z
    .string()
    .describe(
      'Conditions key[op]value, comma separated (\\, is a literal comma), all of which must hold. ' +
        'op: eq, neq, gt, gte, lt, lte, like, ilike, includes. At most 50 conditions and 4096 characters.',
    ),
  order: z.string().describe('key[asc] or key[desc]; any direction other than asc sorts descending. Default created[asc].'),
  customFields: z.string().describe('Conditions customFieldId[op]value on custom fields, comma separated, same operators as filter.'),
  pageNumber: pageParameter('The page to answer, counted from 1. Default 1.'),
  pageSize: pageParameter('Reports per page. Default 100.'),
  output: z
    .enum(['normal', 'minimal'] as const satisfies readonly ListOutput[])
    .describe('normal: the full report with label reduced to uid and sequenceCode; minimal: the reduced keys with minimalSenseData. Default normal.'),
} satisfies Record<ListParameter, z.ZodType>;

const LIST_DOC: OperationDoc = {
  operationId: 'listLabelReports',
  summary: 'One page of the label reports the key’s company can see',
  query: {
    ...LIST_QUERY,
    [WHOLE_REPORTS_PARAMETER]: pageParameter(
      'A LabelDesk extension, not part of the interface: a number of bytes. The answer adds wholeReports, the page’s reports ' +
        'as GET /v2/labelReports/{id} answers each, in the page’s order, each that still fits in that many bytes of JSON ' +
        '(one that does not is left out, to be retrieved). A server without the extension answers the page without it.',
    ),
  },
  responses: {
    200: {
      description:
        'The page, and how many reports match in all: a LabelReportPage for output=normal, a MinimalLabelReportPage for output=minimal',
      shape: [PAGE, MINIMAL_PAGE],
    },
  },
  refusals: [400],
};

const REVIEW_PAGE = shape('ReviewMinimalLabelReportPage', reviewMinimalPageSchema.describe('The answer to output=minimal, each report with its review state.'), [
  shape('ReviewMinimalLabelReport', reviewMinimalReportSchema),
  shape('ReviewState', reviewStateSchema),
]);
const REVIEW_NORMAL_PAGE = shape('ReviewListedLabelReportPage', reviewListedPageSchema.describe('The answer to output=normal (the default), each report with its review state.'), [
  shape('ReviewListedLabelReport', reviewListedReportSchema),
]);

const REVIEW_LIST_DOC: OperationDoc = {
  operationId: 'listLabelReportsForReview',
  summary: 'The list of /v2/labelReports, narrowed by where the key’s company’s review of each report stands, each report with that state',
  description:
    'Same parameters, paging, answer, refusals and order of checks as GET /v2/labelReports, plus review. ' +
    'A current decision is the newest one unless a newer withdrawal took it back; awaiting means the report has an alert ' +
    'and the company (owner or editor) has not acknowledged it at its current level, or has no current decision.',
  query: {
    ...LIST_QUERY,
    review: z
      .string()
      .describe(`Conditions on the company's review, comma separated, all of which must hold: ${REVIEW_CONDITIONS.join(', ')}. At most one decision.`),
    unset: z.string().describe('Keys whose value the report does not have, comma separated, all of which must be unset: customFields.<custom field id> (no text or number of it), calculatedSenseData.analysedValues.temperature.meanKineticTemperature (no MKT: no readings yet), calculatedSenseData.startTime (not started). The filter grammar compares values, so it cannot say these.'),
  },
  responses: { 200: { description: 'The page, and how many reports match in all', shape: [REVIEW_NORMAL_PAGE, REVIEW_PAGE] } },
  refusals: [400],
};

const RETRIEVE_DOC: OperationDoc = {
  operationId: 'getLabelReport',
  summary: 'One label report with its data',
  params: { id: reportId },
  responses: { 200: { description: 'The full report', shape: REPORT } },
};

const UPDATE_DOC: OperationDoc = {
  operationId: 'updateLabelReport',
  summary: 'Change some properties of one label report',
  description:
    'Send only the fields to change; nothing changes unless every field is allowed and valid. ' +
    'Editors may not change limits; viewers may change only hasFlag and isArchived (403). ' +
    'A change of limits, trim or status takes its reason in the x-change-reason header (percent-encoded UTF-8): ' +
    'the desktop app and signed-in people must give one (400 REASON_REQUIRED); a key that gives none is logged as "no reason given (tool)".',
  params: { id: reportId },
  body: PATCH,
  responses: { 200: { description: 'The report after the change', shape: REPORT } },
};

const LOCAL_UPDATE_DOC: OperationDoc = {
  operationId: 'updateLabelReportLocal',
  summary: 'Change some properties of one label report, its alert rules included',
  description:
    'The /v2 PATCH, with `alertsConfig` besides: `{"rules": [{"level": 1|2, "kind": "cumulative"|"singleEvent", "seconds": N}, …]}` ' +
    '(at least one rule) or null for the default rules. Only the owner changes alert rules (403); ' +
    'a report mirrored from a remote instance keeps the remote’s (409 ALERT_RULES_MIRRORED). Alert rules need a reason like limits.',
  params: { id: reportId },
  body: LOCAL_PATCH,
  responses: { 200: { description: 'The report after the change', shape: REPORT } },
};

const PREVIEW_DOC: OperationDoc = {
  operationId: 'previewLabelReportUpdate',
  summary: 'The alert a PATCH body would give the report, without changing it',
  description: 'The same checks as the PATCH (403, 404, 400); nothing is written. The desk shows the change to the alert beside the reason it asks for.',
  params: { id: reportId },
  body: LOCAL_PATCH,
  responses: { 200: { description: 'The alert now and after the change', shape: shape('AlertPreview', alertPreviewSchema) } },
};

const LIST_CHECKS: RouteChecks = { permission: 'labelReports:read', query: [...LIST_PARAMETERS, WHOLE_REPORTS_PARAMETER] };
const REVIEW_LIST_CHECKS: RouteChecks = { permission: 'labelReports:read', query: [...LIST_PARAMETERS, 'review', 'unset'] };
const RETRIEVE_CHECKS: RouteChecks = { permission: 'labelReports:read', visible: 'report', query: [] };
const UPDATE_CHECKS: RouteChecks = { permission: 'labelReports:update', visible: 'report', body: true, query: [] };

export function labelReportRoutes(service: Pick<ServedService, 'reports' | 'access' | 'reads'>, options: { busyWaitMs: number; clients: ClientGate }) {
  const { clients } = options;
  return async function routes(app: FastifyInstance): Promise<void> {
    judgeBodiesLate(app);

    app.get('/v2/labelReports', { config: { openapi: LIST_DOC, checks: LIST_CHECKS } }, async (request, reply) => {
      const caller = callerOf(request);
      const query = parseListQuery(request.query as RawQuery, [...AUTH_QUERY_PARAMETERS, WHOLE_REPORTS_PARAMETER]);
      const asked = queryParametersOf(request).get(WHOLE_REPORTS_PARAMETER);
      const wholeReportsBytes = asked === undefined ? undefined : parsePage(WHOLE_REPORTS_PARAMETER, asked, 0);
      // Read on a read worker, off the event loop; a client gone before its turn costs no read.
      const page = await clients.readElsewhere(request, (stillWanted) => service.reads.listJson(caller, query, wholeReportsBytes, stillWanted));
      if (page === CLIENT_GONE) return clients.abandon(request, reply);
      // Streamed with backpressure: a page of any size is written as the client reads it.
      const chunks = clients.streamFrom(request, page);
      return reply.type('application/json; charset=utf-8').send(Readable.from(chunks, { highWaterMark: 1 }));
    });

    app.get('/local/labelReports', { config: { openapi: REVIEW_LIST_DOC, checks: REVIEW_LIST_CHECKS } }, async (request, reply) => {
      const caller = callerOf(request);
      // The list's own parameters are judged first, in the order /v2 judges them; review last.
      const query = parseListQuery(request.query as RawQuery, [...AUTH_QUERY_PARAMETERS, 'review', 'unset']);
      const review = parseReviewConditions(queryParametersOf(request).get('review'));
      const unset = parseUnsetConditions(queryParametersOf(request).get('unset'));
      const page = await clients.run(request, () => service.reports.reviewListJson(caller, query, review, unset));
      if (page === CLIENT_GONE) return clients.abandon(request, reply);
      const chunks = clients.stream(request, page);
      return reply.type('application/json; charset=utf-8').send(Readable.from(chunks, { highWaterMark: 1 }));
    });

    app.get<{ Params: { id: string } }>('/v2/labelReports/:id', { config: { openapi: RETRIEVE_DOC, checks: RETRIEVE_CHECKS } }, async (request, reply) => {
      const caller = callerOf(request);
      const json = await clients.readElsewhere(request, (stillWanted) => service.reads.retrieveJson(caller, request.params.id, stillWanted));
      if (json === CLIENT_GONE) return clients.abandon(request, reply);
      // After the read, in a write of its own: the read never waits behind another writer.
      service.access.viewed(caller, request.params.id);
      return reply.type('application/json; charset=utf-8').send(json);
    });

    app.post<{ Params: { id: string } }>('/local/labelReports/:id/preview', { config: { openapi: PREVIEW_DOC, checks: UPDATE_CHECKS } }, async (request, reply) => {
      const caller = callerOf(request);
      const patch = parseObjectBody(localReportPatchSchema, request.body);
      return reply.send(service.reports.preview(caller, request.params.id, patch));
    });

    // One handler for both: /v2 keeps the interface's fields, /local adds the alert rules.
    const update = (schema: typeof labelReportPatchSchema | typeof localReportPatchSchema) =>
      async (request: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply) => {
        const caller = callerOf(request);
        const patch = parseObjectBody(schema, request.body);
        const updated = await waitForDatabase(
          () => service.reports.updateDocument(caller, request.params.id, patch, reasonFromHeader(request.headers[CHANGE_REASON_HEADER])),
          options.busyWaitMs,
          clients.signal(request, reply),
        );
        return sendReport(reply, updated);
      };
    app.patch<{ Params: { id: string } }>('/v2/labelReports/:id', { config: { openapi: UPDATE_DOC, checks: UPDATE_CHECKS } }, update(labelReportPatchSchema));
    app.patch<{ Params: { id: string } }>('/local/labelReports/:id', { config: { openapi: LOCAL_UPDATE_DOC, checks: UPDATE_CHECKS } }, update(localReportPatchSchema));
  };
}

/** The report's JSON is written straight from the stored columns, not through JSON.stringify. */
export function sendReport(reply: FastifyReply, document: ReportDocument): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(reportJson(document));
}
