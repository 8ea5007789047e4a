/**
 * Bulk work under /local (docs/review-and-audit.md#bulk-work): one action on a selection of
 * reports, acted on whole or not at all. The route reads the body (400) and hands it to the
 * service, which judges each report as alone (404, role 403, 409) and the signature (403).
 */
import type { FastifyInstance } from 'fastify';
import { bulkBodySchema, bulkResultSchema, BULK_MAX_REPORTS } from '../../schema/bulk';
import type { ServedService } from '../served-service';
import { callerOf } from '../auth';
import { judgeBodiesLate, parseObjectBody } from '../body';
import type { ClientGate } from '../client-gate';
import { shape, type OperationDoc } from '../openapi';
import type { RouteChecks } from '../route-checks';

const BULK_DOC: OperationDoc = {
  operationId: 'bulkLabelReports',
  summary: 'Acknowledge, decide, flag or archive a selection of reports at once (labelReports:update)',
  description:
    `Up to ${BULK_MAX_REPORTS} reports. Each is judged as the single-report route judges it (visibility 404, role 403, ` +
    'NO_ALERT_TO_ACKNOWLEDGE, ACKNOWLEDGEMENT_REQUIRED and FOUR_EYES 409); when any is refused, nothing is written and the ' +
    'refusal names each report at fault. acknowledge and decide are signed once, with one password, and write one signed ' +
    'entry per report; flag, unflag, archive and unarchive are changes logged per report.',
  body: shape('BulkBody', bulkBodySchema),
  responses: { 200: { description: 'The reports acted on, in the order given', shape: shape('BulkResult', bulkResultSchema) } },
  refusals: [404, 409],
};

const BULK: RouteChecks = { permission: 'labelReports:update', body: true, query: [] };

export function bulkRoutes(service: Pick<ServedService, 'bulk'>, options: { busyWaitMs: number; clients: ClientGate }) {
  const { clients } = options;
  return async function routes(app: FastifyInstance): Promise<void> {
    judgeBodiesLate(app);
    app.post('/local/labelReports/bulk', { config: { openapi: BULK_DOC, checks: BULK } }, async (request, reply) => {
      const caller = callerOf(request);
      const body = parseObjectBody(bulkBodySchema, request.body);
      return clients.write(request, reply, () => service.bulk.apply(caller, body), options.busyWaitMs);
    });
  };
}
