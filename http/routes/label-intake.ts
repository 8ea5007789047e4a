/**
 * POST /v2/labelReports (activation) and POST /v2/labelReports/:id/taps (docs/api.md#activation-and-taps). As for
 * the other report routes, route-checks.ts checks what each declares before the body is read, so
 * the order of docs/api.md#errors holds: key (401) → key permission (403) → report visibility (404,
 * taps) → body type and JSON (415, 400) → query parameters and body fields (400) → an existing
 * id (409) or the role (403, in the service).
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { activationBodySchema, tapBodySchema } from '../../schema/intake';
import { labelReportSchema } from '../../schema/report';
import type { ServedService } from '../served-service';
import { callerOf } from '../auth';
import { judgeBodiesLate, parseObjectBody } from '../body';
import { waitForDatabase } from '../../db/busy';
import { shape, type OperationDoc } from '../openapi';
import type { RouteChecks } from '../route-checks';
import { sendReport } from './label-reports';

const REPORT = shape('LabelReport', labelReportSchema);

const ACTIVATE_DOC: OperationDoc = {
  operationId: 'activateLabel',
  summary: 'Activate a label: a new label report of the key’s company (needs labelReports:create)',
  description:
    'A bundle report without the fields activation sets: the report starts active, untapped, without datapoints, ' +
    'owned by the key’s company. An id is made when none is given; an id already taken answers 409.',
  body: shape('ActivationBody', activationBodySchema),
  responses: { 201: { description: 'The new report', shape: REPORT } },
  refusals: [409],
};

const TAP_DOC: OperationDoc = {
  operationId: 'tapLabel',
  summary: 'Take in a tap’s reading of a label (needs labelReports:create; owner only)',
  description:
    'The datapoints join the stored ones (a timestamp already stored keeps its first reading), the tap is counted ' +
    'and every figure and the alert are calculated again. Only the owning company may tap (403).',
  params: { id: z.string().describe('The report id') },
  body: shape('TapReading', tapBodySchema),
  responses: { 200: { description: 'The report after the tap', shape: REPORT } },
};

const ACTIVATE_CHECKS: RouteChecks = { permission: 'labelReports:create', body: true, query: [] };
const TAP_CHECKS: RouteChecks = { permission: 'labelReports:create', visible: 'report', body: true, query: [] };

export function labelIntakeRoutes(service: Pick<ServedService, 'intake'>, options: { busyWaitMs: number }) {
  return async function routes(app: FastifyInstance): Promise<void> {
    judgeBodiesLate(app);

    app.post('/v2/labelReports', { config: { openapi: ACTIVATE_DOC, checks: ACTIVATE_CHECKS } }, async (request, reply) => {
      const caller = callerOf(request);
      const activation = parseObjectBody(activationBodySchema, request.body);
      const created = await waitForDatabase(() => service.intake.activate(caller, activation), options.busyWaitMs);
      return sendReport(reply.code(201), created);
    });

    app.post<{ Params: { id: string } }>('/v2/labelReports/:id/taps', { config: { openapi: TAP_DOC, checks: TAP_CHECKS } }, async (request, reply) => {
      const caller = callerOf(request);
      const reading = parseObjectBody(tapBodySchema, request.body);
      const tapped = await waitForDatabase(() => service.intake.tap(caller, request.params.id, reading), options.busyWaitMs);
      return sendReport(reply, tapped);
    });
  };
}
