/** GET /v2/labelReports, GET and PATCH /v2/labelReports/:id. */
import type { FastifyInstance } from 'fastify';
import type { QueryInput } from '../../service/label-reports';
import type { Service } from '../../service/open-service';
import { reportJson } from '../../service/report-json';

export function labelReportRoutes(service: Service) {
  return async function routes(app: FastifyInstance): Promise<void> {
    app.get('/v2/labelReports', async (request) => service.reports.list(request.caller, request.query as QueryInput));

    app.get<{ Params: { id: string } }>('/v2/labelReports/:id', async (request, reply) => {
      const document = service.reports.retrieveDocument(request.caller, request.params.id, request.query as QueryInput);
      return reply.type('application/json; charset=utf-8').send(reportJson(document));
    });

    app.patch<{ Params: { id: string } }>('/v2/labelReports/:id', async (request, reply) => {
      const document = service.reports.updateDocument(request.caller, request.params.id, request.body, request.query as QueryInput);
      return reply.type('application/json; charset=utf-8').send(reportJson(document));
    });
  };
}
