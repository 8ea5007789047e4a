/**
 * GET /v2/labelReports, GET and PATCH /v2/labelReports/:id. Each route asks the service to
 * authorize the caller before it parses anything, so the order of decisions §3 holds: key (401,
 * in the hook) → key permission (403) → report visibility (404) → body type and JSON (415, 400,
 * see body.ts) → query parameters (400) → body fields (400) → role (403, in the service).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { parseListQuery, readQueryParameters, type RawQuery } from '../../query/list-query';
import { ApiError } from '../../schema/api-error';
import { labelReportPatchSchema, type LabelReportPatch } from '../../schema/report';
import type { Service } from '../../service/open-service';
import { reportJson, type ReportDocument } from '../../service/report-json';
import { AUTH_QUERY_PARAMETERS, callerOf } from '../auth';
import { jsonBody, judgeBodiesLate, parseBody } from '../body';

export function labelReportRoutes(service: Service) {
  return async function routes(app: FastifyInstance): Promise<void> {
    judgeBodiesLate(app);

    app.get('/v2/labelReports', async (request) => {
      const caller = callerOf(request);
      service.reports.authorize(caller, 'read');
      return service.reports.list(caller, parseListQuery(request.query as RawQuery, AUTH_QUERY_PARAMETERS));
    });

    app.get<{ Params: { id: string } }>('/v2/labelReports/:id', async (request, reply) => {
      const caller = callerOf(request);
      service.reports.authorize(caller, 'read', request.params.id);
      refuseQueryParameters(request);
      return sendReport(reply, service.reports.retrieveDocument(caller, request.params.id));
    });

    app.patch<{ Params: { id: string } }>('/v2/labelReports/:id', async (request, reply) => {
      const caller = callerOf(request);
      service.reports.authorize(caller, 'update', request.params.id);
      const body = jsonBody(request);
      refuseQueryParameters(request);
      const patch = parsePatch(body);
      return sendReport(reply, service.reports.updateDocument(caller, request.params.id, patch));
    });
  };
}

const AUTH_ONLY: ReadonlySet<string> = new Set(AUTH_QUERY_PARAMETERS);

/** Retrieve and PATCH take no query parameters but the API key's. */
function refuseQueryParameters(request: FastifyRequest): void {
  readQueryParameters(request.query as RawQuery, AUTH_ONLY);
}

function parsePatch(body: unknown): LabelReportPatch {
  // Said plainly: zod would describe a non-object body as a type mismatch at '$'.
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new ApiError(400, 'INVALID_BODY', 'the body must be a JSON object');
  }
  return parseBody(labelReportPatchSchema, body);
}

/** The report's JSON is written straight from the stored columns, not through JSON.stringify. */
function sendReport(reply: FastifyReply, document: ReportDocument): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(reportJson(document));
}
