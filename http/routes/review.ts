/**
 * The review workflow under /local: a report's alert explained, its review (comments,
 * acknowledgement, decision), its history, CSV of its readings and of the list, and the plain
 * words beside the list (custom fields in use, companies by name). Each route declares what it
 * needs and route-checks.ts checks it in the order of docs/api.md#errors: key (401) → key permission
 * (403) → report visibility (404) → body type and JSON (415, 400) → query parameters (400); then
 * the handler reads the body's fields (400) and the service judges the role (403).
 */
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { LIST_PARAMETERS, parseListQuery, type RawQuery } from '../../query/list-query';
import { badRequest } from '../../schema/api-error';
import {
  acknowledgementBodySchema,
  acknowledgementSchema,
  alertExplanationSchema,
  commentBodySchema,
  commentSchema,
  companyNameListSchema,
  CSV_RANGES,
  customFieldUsageListSchema,
  decisionBodySchema,
  decisionSchema,
  reportHistorySchema,
  reviewSchema,
  type CsvRange,
} from '../../schema/review';
import type { ServedService } from '../served-service';
import { CSV_CONTENT_TYPE, READINGS_CSV_COLUMNS, REPORT_TABLE_CSV_COLUMNS } from '../../service/report-csv';
import { AUTH_QUERY_PARAMETERS, callerOf } from '../auth';
import { judgeBodiesLate, parseObjectBody } from '../body';
import { CLIENT_GONE, type ClientGate } from '../client-gate';
import { shape, type OperationDoc } from '../openapi';
import { queryParametersOf, type RouteChecks } from '../route-checks';
import { parseReviewConditions } from '../../service/review-list';
import { parseUnsetConditions } from '../../query/unset-keys';
import { auditPageSchema, AUDIT_KINDS, AUDIT_PAGE_MAX } from '../../schema/audit';
import { AUDIT_QUERY_PARAMETERS, AUDIT_WALK_BUDGET, parseAuditQuery } from '../../service/audit-viewer';

const reportId = z.string().describe('The report id (a UUID in practice); any text is looked up as given.');
const params = { id: reportId };
const csvText = shape('CsvText', z.string().describe('RFC 4180 CSV, UTF-8 with a byte order mark, CRLF line ends, a header row'));

const ALERTS_DOC: OperationDoc = {
  operationId: 'getLabelReportAlerts',
  summary: 'Why the report’s alert is what it is: excursions, time beyond each limit, the alert rules in words and which fired',
  params,
  responses: { 200: { description: 'On the trimmed range when a trim is set, like the alert', shape: shape('AlertExplanation', alertExplanationSchema) } },
};
const REVIEW_DOC: OperationDoc = {
  operationId: 'getLabelReportReview',
  summary: 'The caller company’s review of the report: the newest acknowledgement and decision, every comment',
  params,
  responses: { 200: { description: 'The review', shape: shape('Review', reviewSchema) } },
};
const COMMENT_DOC: OperationDoc = {
  operationId: 'addLabelReportComment',
  summary: 'Comment on the report (labelReports:update; any role, viewers included)',
  params,
  body: shape('CommentBody', commentBodySchema),
  responses: { 201: { description: 'The comment', shape: shape('Comment', commentSchema) } },
};
const ACKNOWLEDGE_DOC: OperationDoc = {
  operationId: 'acknowledgeLabelReportAlert',
  summary: 'Acknowledge the report’s alert (labelReports:update; owner or editor)',
  description: 'A report without an alert (level 0, or no taps) answers 409. The newest acknowledgement counts; earlier ones stay in the history.',
  params,
  body: shape('AcknowledgementBody', acknowledgementBodySchema),
  responses: { 200: { description: 'The acknowledgement', shape: shape('Acknowledgement', acknowledgementSchema) } },
  refusals: [409],
};
const DECIDE_DOC: OperationDoc = {
  operationId: 'decideLabelReport',
  summary: 'Release, reject or hold the shipment, with a reason (labelReports:update; owner or editor)',
  description: 'The newest decision counts; earlier ones stay in the history.',
  params,
  body: shape('DecisionBody', decisionBodySchema),
  responses: { 200: { description: 'The decision', shape: shape('Decision', decisionSchema) } },
};
const HISTORY_DOC: OperationDoc = {
  operationId: 'getLabelReportHistory',
  summary: 'Every change to the report (old → new, who, when) and the company’s review entries, newest first',
  params,
  responses: { 200: { description: 'The history', shape: shape('ReportHistory', reportHistorySchema) } },
};
const HISTORY_CSV_DOC: OperationDoc = {
  operationId: 'getLabelReportHistoryCsv',
  summary: 'The report’s audit trail as CSV: its change log (with reasons) and the company’s review entries, each with its hashes',
  params,
  responses: { 200: { description: 'Change log entries by seq, then review entries by id', shape: csvText, mediaType: 'text/csv' } },
};
const READINGS_CSV_DOC: OperationDoc = {
  operationId: 'getLabelReportReadingsCsv',
  summary: 'The report’s readings as CSV, each judged against the report’s limits',
  description:
    `Columns: ${READINGS_CSV_COLUMNS.join(', ')}. timestamp is ISO 8601 UTC; verdict is in or out (strictly beyond a limit, as the alert counts); ` +
    'reference, units (°C, %RH where humidity is measured) and limits are the report’s, on every line; an unset limit is empty.',
  params,
  query: {
    range: z.enum(CSV_RANGES).describe('full (default): every reading; trimmed: the trim’s readings only (400 without a trim)'),
  },
  responses: { 200: { description: 'The readings, oldest first', shape: csvText, mediaType: 'text/csv' } },
  refusals: [400],
};
const LIST_CSV_DOC: OperationDoc = {
  operationId: 'listLabelReportsCsv',
  summary: 'Every report the list query matches, as CSV with the table’s columns (not one page)',
  description: 'Takes the query of GET /v2/labelReports; pageNumber, pageSize and output do not apply.',
  query: {
    filter: z.string().describe('As GET /v2/labelReports'),
    order: z.string().describe('As GET /v2/labelReports'),
    customFields: z.string().describe('As GET /v2/labelReports'),
    review: z.string().describe('As GET /local/labelReports'),
    unset: z.string().describe('As GET /local/labelReports'),
  },
  responses: {
    200: {
      description:
        `Columns: ${REPORT_TABLE_CSV_COLUMNS.join(', ')}. decision, decisionSignedBy and decisionSignedAt are the caller company’s decision standing ` +
        '(empty when none); excursions, excursionSeconds and degreeHours are the whole run’s.',
      shape: csvText,
      mediaType: 'text/csv',
    },
  },
  refusals: [400],
};
const AUDIT_QUERY = {
  person: z.string().describe('Only what this person (their id, as /local/users lists it) wrote or signed'),
  kind: z.string().describe(`Comma separated: ${AUDIT_KINDS.join(', ')}`),
  from: z.string().describe('At or after this ISO 8601 instant (a bare date: from its first UTC millisecond)'),
  to: z.string().describe('At or before this ISO 8601 instant (a bare date: to its last UTC millisecond)'),
  report: z.string().describe('Only this report’s entries'),
};
const AUDIT_DOC: OperationDoc = {
  operationId: 'listAuditTrail',
  summary: 'The audit trail across the reports the company sees: changes and review entries, newest first',
  description:
    `A page at a time, following next as cursor. Each page looks at most ${AUDIT_WALK_BUDGET} entries of each chain back: a ` +
    'filter that matches few entries may answer a short page with searchedBackTo, the time down to which everything was looked at; asking with next searches on.',
  query: {
    ...AUDIT_QUERY,
    cursor: z.string().describe('The next of the page before'),
    pageSize: z.string().describe(`Default 50, at most ${AUDIT_PAGE_MAX}`),
  },
  responses: { 200: { description: 'A page of the trail', shape: shape('AuditPage', auditPageSchema) } },
  refusals: [400],
};
const AUDIT_CSV_DOC: OperationDoc = {
  operationId: 'listAuditTrailCsv',
  summary: 'Every entry of the audit trail the query matches, as CSV with the columns of labeldesk audit export, hashes included',
  description: 'The query of GET /local/audit without its paging: every match, newest first, streamed.',
  query: AUDIT_QUERY,
  responses: { 200: { description: 'Newest first', shape: csvText, mediaType: 'text/csv' } },
  refusals: [400],
};
const CUSTOM_FIELDS_DOC: OperationDoc = {
  operationId: 'listCustomFieldsInUse',
  summary: 'The custom field ids on the reports the company sees, each with its kind of values and how many reports hold it',
  responses: { 200: { description: 'Most used first', shape: shape('CustomFieldUsageList', customFieldUsageListSchema) } },
};
const COMPANIES_DOC: OperationDoc = {
  operationId: 'listCompaniesSeen',
  summary: 'The company itself and the companies in the access entries of the reports it sees, by name',
  responses: { 200: { description: 'By name', shape: shape('CompanyNameList', companyNameListSchema) } },
};

const READ: RouteChecks = { permission: 'labelReports:read', visible: 'report', query: [] };
/** Comments, acknowledgements and decisions are changes to the report under labelReports:update; the service judges the role. */
const UPDATE: RouteChecks = { permission: 'labelReports:update', visible: 'report', body: true, query: [] };
const READINGS_CSV: RouteChecks = { permission: 'labelReports:read', visible: 'report', query: ['range'] };
/** The CSV of the list takes the list's query; its paging and output do not apply, but are not refused. */
const LIST_CSV: RouteChecks = { permission: 'labelReports:read', query: [...LIST_PARAMETERS, 'review', 'unset'] };
const READ_WORDS: RouteChecks = { permission: 'labelReports:read', query: [] };
const AUDIT: RouteChecks = { permission: 'labelReports:read', query: [...AUDIT_QUERY_PARAMETERS] };
const AUDIT_CSV: RouteChecks = { permission: 'labelReports:read', query: AUDIT_QUERY_PARAMETERS.filter((p) => p !== 'cursor' && p !== 'pageSize') };

type WithId = { Params: { id: string } };

export function reviewRoutes(service: Pick<ServedService, 'reviews' | 'csv' | 'reportHistory' | 'audit' | 'access' | 'auditViewer' | 'reads'>, options: { busyWaitMs: number; clients: ClientGate }) {
  const { reviews } = service;
  const { clients } = options;
  /** A read at its turn, for a client still there (client-gate.ts). */
  const answer = <T>(request: FastifyRequest, reply: FastifyReply, read: () => T) => clients.answer(request, reply, read);
  /** A write, waiting for a busy database as long as its client does. */
  const write = <T>(request: FastifyRequest, reply: FastifyReply, work: () => T) => clients.write(request, reply, work, options.busyWaitMs);
  /** CSV streamed a chunk per turn while the client reads. */
  const sendCsv = (request: FastifyRequest, reply: FastifyReply, text: Iterable<string> | AsyncIterable<Buffer>, filename: string) => {
    const safeName = filename.replace(/[^A-Za-z0-9._-]/g, '_');
    const chunks = Symbol.asyncIterator in text ? clients.streamFrom(request, text) : asBuffers(clients.stream(request, text));
    return reply
      .type(CSV_CONTENT_TYPE)
      .header('content-disposition', `attachment; filename="${safeName}"`)
      .send(Readable.from(chunks, { highWaterMark: 1 }));
  };
  return async function routes(app: FastifyInstance): Promise<void> {
    judgeBodiesLate(app);

    app.get<WithId>('/local/labelReports/:id/alerts', { config: { openapi: ALERTS_DOC, checks: READ } }, async (request, reply) => {
      const caller = callerOf(request);
      return answer(request, reply, () => reviews.alerts(caller, request.params.id));
    });

    app.get<WithId>('/local/labelReports/:id/review', { config: { openapi: REVIEW_DOC, checks: READ } }, async (request, reply) => {
      const caller = callerOf(request);
      return answer(request, reply, () => reviews.review(caller, request.params.id));
    });

    app.post<WithId>('/local/labelReports/:id/comments', { config: { openapi: COMMENT_DOC, checks: UPDATE } }, async (request, reply) => {
      const caller = callerOf(request);
      const body = parseObjectBody(commentBodySchema, request.body);
      const comment = await write(request, reply, () => reviews.comment(caller, request.params.id, body));
      return reply.code(201).send(comment);
    });

    app.put<WithId>('/local/labelReports/:id/acknowledgement', { config: { openapi: ACKNOWLEDGE_DOC, checks: UPDATE } }, async (request, reply) => {
      const caller = callerOf(request);
      // Without a body: nothing to say but "seen".
      const body = parseObjectBody(acknowledgementBodySchema, request.body === undefined ? {} : request.body);
      return write(request, reply, () => reviews.acknowledge(caller, request.params.id, body));
    });

    app.put<WithId>('/local/labelReports/:id/decision', { config: { openapi: DECIDE_DOC, checks: UPDATE } }, async (request, reply) => {
      const caller = callerOf(request);
      const body = parseObjectBody(decisionBodySchema, request.body);
      return write(request, reply, () => reviews.decide(caller, request.params.id, body));
    });

    app.get<WithId>('/local/labelReports/:id/history', { config: { openapi: HISTORY_DOC, checks: READ } }, async (request, reply) => {
      const caller = callerOf(request);
      return answer(request, reply, () => service.reportHistory.history(caller, request.params.id));
    });

    app.get<WithId>('/local/labelReports/:id/history.csv', { config: { openapi: HISTORY_CSV_DOC, checks: READ } }, async (request, reply) => {
      const caller = callerOf(request);
      const text = await clients.run(request, () => service.audit.companyCsv(caller, request.params.id));
      if (text === CLIENT_GONE) return clients.abandon(request, reply);
      service.access.exported(caller, request.params.id, 'historyCsv');
      return sendCsv(request, reply, [text], `label-report-${request.params.id}-history.csv`);
    });

    app.get<WithId>('/local/labelReports/:id/readings.csv', { config: { openapi: READINGS_CSV_DOC, checks: READINGS_CSV } }, async (request, reply) => {
      const caller = callerOf(request);
      const range = csvRange(request);
      const text = await clients.run(request, () => service.csv.readings(caller, request.params.id, range));
      if (text === CLIENT_GONE) return clients.abandon(request, reply);
      service.access.exported(caller, request.params.id, 'readingsCsv');
      return sendCsv(request, reply, text, `label-report-${request.params.id}-readings.csv`);
    });

    app.get('/local/labelReports.csv', { config: { openapi: LIST_CSV_DOC, checks: LIST_CSV } }, async (request, reply) => {
      const caller = callerOf(request);
      const query = parseListQuery(request.query as RawQuery, [...AUTH_QUERY_PARAMETERS, 'review', 'unset']);
      const review = parseReviewConditions(queryParametersOf(request).get('review'));
      const unset = parseUnsetConditions(queryParametersOf(request).get('unset'));
      // Read on a read worker, off the event loop (service/read-pool.ts).
      const table = await clients.readElsewhere(request, (stillWanted) => service.reads.listCsv(caller, query, review, unset, stillWanted));
      if (table === CLIENT_GONE) return clients.abandon(request, reply);
      service.access.listExported(caller, Object.fromEntries(queryParametersOf(request)), table.reports);
      return sendCsv(request, reply, table.chunks, 'label-reports.csv');
    });

    app.get('/local/audit', { config: { openapi: AUDIT_DOC, checks: AUDIT } }, async (request, reply) => {
      const caller = callerOf(request);
      const given = queryParametersOf(request);
      const query = parseAuditQuery((name) => given.get(name));
      return answer(request, reply, () => service.auditViewer.page(caller, query));
    });

    app.get('/local/audit.csv', { config: { openapi: AUDIT_CSV_DOC, checks: AUDIT_CSV } }, async (request, reply) => {
      const caller = callerOf(request);
      const given = queryParametersOf(request);
      const query = parseAuditQuery((name) => given.get(name));
      return sendCsv(request, reply, service.auditViewer.csv(caller, query), 'audit-trail.csv');
    });

    app.get('/local/customFields', { config: { openapi: CUSTOM_FIELDS_DOC, checks: READ_WORDS } }, async (request, reply) => {
      const caller = callerOf(request);
      return answer(request, reply, () => reviews.customFields(caller));
    });

    app.get('/local/companies', { config: { openapi: COMPANIES_DOC, checks: READ_WORDS } }, async (request, reply) => {
      const caller = callerOf(request);
      return answer(request, reply, () => reviews.companies(caller));
    });
  };
}

function csvRange(request: FastifyRequest): CsvRange {
  const range = queryParametersOf(request).get('range') ?? 'full';
  if (!(CSV_RANGES as readonly string[]).includes(range)) {
    throw badRequest('INVALID_PARAMETER', `range '${range}' is not one of ${CSV_RANGES.join(', ')}`);
  }
  return range as CsvRange;
}

async function* asBuffers(text: AsyncIterable<string>): AsyncGenerator<Buffer> {
  for await (const chunk of text) if (chunk !== '') yield Buffer.from(chunk, 'utf8');
}
