/**
 * Who saw a report (docs/review-and-audit.md#who-saw-a-report): the app's print tells the
 * service it printed, and the report's access entries are listed for administrators. The rule of
 * what is recorded is service/report-access.ts; the routes that answer a report or a file record
 * their own access after their answer is read.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { printedBodySchema, reportAccessSchema, accessEntrySchema } from '../../schema/report-access';
import { certificateBodySchema, certificateSchema, certifiedSignatureSchema } from '../../schema/certificate';
import type { ServedService } from '../served-service';
import { callerOf } from '../auth';
import { judgeBodiesLate, parseObjectBody } from '../body';
import { CLIENT_GONE, type ClientGate } from '../client-gate';
import { shape, type OperationDoc } from '../openapi';
import type { RouteChecks } from '../route-checks';

const params = { id: z.string().describe('The report id (a UUID in practice); any text is looked up as given.') };

const PRINTED_DOC: OperationDoc = {
  operationId: 'recordLabelReportPrinted',
  summary: 'Say the report is being printed from the app (or was saved as PDF by the desktop app), for the record of who saw it',
  description: 'The app calls it before it opens the print dialog. The body may be left out: it then says print.',
  params,
  body: shape('PrintedBody', printedBodySchema),
  responses: { 204: { description: 'Recorded' } },
};
const CERTIFICATE_DOC: OperationDoc = {
  operationId: 'issueLabelReportCertificate',
  summary: 'Issue the report’s release certificate: its checksum over the report’s version and the signatures standing, recorded with who issued it and when',
  description:
    'The app calls it before it prints the certificate (or the desktop app before it saves the PDF); the record is an entry of the access chain, and `labeldesk audit certificate CHECKSUM` checks it. The body may be left out: it then says print.',
  params,
  body: shape('CertificateBody', certificateBodySchema),
  responses: { 200: { description: 'The certificate issued', shape: shape('Certificate', certificateSchema, [shape('CertifiedSignature', certifiedSignatureSchema)]) } },
  refusals: [404],
};
const ACCESS_DOC: OperationDoc = {
  operationId: 'getLabelReportAccess',
  summary: 'Who viewed, printed or exported the report: the company’s entries and the command line’s, newest first (administrators; apiKeys:manage)',
  description:
    'A view is the report retrieved whole (GET /v2/labelReports/:id, also the app opening it); a print is the app’s print; an export is its PDF, its readings or history as CSV. ' +
    'Pages of the list are not recorded. A report the company cannot see answers 404.',
  params,
  responses: { 200: { description: 'The entries', shape: shape('ReportAccess', reportAccessSchema, [shape('ReportAccessEntry', accessEntrySchema)]) } },
  refusals: [404],
};

const PRINTED: RouteChecks = { permission: 'labelReports:read', visible: 'report', body: true, query: [] };
const ACCESS: RouteChecks = { permission: 'apiKeys:manage', query: [] };

type WithId = { Params: { id: string } };

export function reportAccessRoutes(service: Pick<ServedService, 'access' | 'certificates'>, options: { busyWaitMs: number; clients: ClientGate }) {
  const { access, certificates } = service;
  const { clients } = options;
  return async function routes(app: FastifyInstance): Promise<void> {
    judgeBodiesLate(app);

    app.post<WithId>('/local/labelReports/:id/printed', { config: { openapi: PRINTED_DOC, checks: PRINTED } }, async (request, reply) => {
      const caller = callerOf(request);
      const body = parseObjectBody(printedBodySchema, request.body === undefined ? {} : request.body);
      access.printed(caller, request.params.id, body.format ?? 'print');
      return reply.code(204).send();
    });

    app.post<WithId>('/local/labelReports/:id/certificate', { config: { openapi: CERTIFICATE_DOC, checks: PRINTED } }, async (request, reply) => {
      const caller = callerOf(request);
      const body = parseObjectBody(certificateBodySchema, request.body === undefined ? {} : request.body);
      return reply.send(certificates.issue(caller, request.params.id, body.format ?? 'print'));
    });

    app.get<WithId>('/local/labelReports/:id/access', { config: { openapi: ACCESS_DOC, checks: ACCESS } }, async (request, reply) => {
      const caller = callerOf(request);
      const list = await clients.run(request, () => access.list(caller, request.params.id));
      return list === CLIENT_GONE ? clients.abandon(request, reply) : reply.send(list);
    });
  };
}
