/**
 * Signed verdict changes under /local (docs/review-and-audit.md#signed-verdict-changes): a
 * report's change requests, asking for one (and signing it at once where allowed), approving one
 * with a signature, declining one; and the company's requests that wait for a signature. Each
 * route declares its checks (route-checks.ts, docs/api.md#errors); the service judges the role,
 * four eyes and the password.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  approvalBodySchema,
  changeRequestBodySchema,
  changeRequestListSchema,
  changeRequestSchema,
  declineBodySchema,
} from '../../schema/change-request';
import type { ServedService } from '../served-service';
import { callerOf } from '../auth';
import { judgeBodiesLate, parseObjectBody } from '../body';
import type { ClientGate } from '../client-gate';
import { shape, type OperationDoc } from '../openapi';
import type { RouteChecks } from '../route-checks';

const reportId = z.string().describe('The report id (a UUID in practice); any text is looked up as given.');
const requestId = z.string().describe('The change request’s id, as its answer gives it.');
const REQUEST = shape('ChangeRequest', changeRequestSchema);
const LIST = shape('ChangeRequestList', changeRequestListSchema);

const LIST_DOC: OperationDoc = {
  operationId: 'listLabelReportChangeRequests',
  summary: 'The company’s change requests of one report, newest first: pending, approved (signed) and declined',
  params: { id: reportId },
  responses: { 200: { description: 'Newest first, at most 500', shape: LIST } },
};
const PENDING_DOC: OperationDoc = {
  operationId: 'listPendingChangeRequests',
  summary: 'The company’s change requests waiting for a signature, across every report, newest first',
  responses: { 200: { description: 'Newest first, at most 500', shape: LIST } },
};
const REQUEST_DOC: OperationDoc = {
  operationId: 'requestLabelReportChange',
  summary: 'Ask for a signed verdict change: a change that lowers the report’s alert, or moves the alert of a report awaiting review',
  description:
    'Where people sign, such a change is refused as a PATCH (403 SIGNED_CHANGE_REQUIRED, or TOOL_CANNOT_LOWER_ALERT for a tool’s key) and asked for here: ' +
    '`patch` is the /local PATCH body, `reason` why. The request waits until a person whose role may release approves it with their signature ' +
    '(POST …/changeRequests/{requestId}/approval). With `signature` ({password, zone}) the caller signs it at once: only a person who may release, with four eyes off (409 FOUR_EYES). ' +
    'The PATCH’s own checks apply (403 role, 400 limits, 409 ALERT_RULES_MIRRORED); 409 SIGNATURE_NOT_NEEDED for a change a PATCH makes, 409 NOBODY_SIGNS for a company without people.',
  params: { id: reportId },
  body: shape('ChangeRequestBody', changeRequestBodySchema),
  responses: { 201: { description: 'The request: pending, or approved when signed at once', shape: REQUEST } },
  refusals: [409],
};
const APPROVE_DOC: OperationDoc = {
  operationId: 'approveLabelReportChange',
  summary: 'Approve a change request with your signature: the change is applied and logged naming both the signer and who asked',
  description:
    'A person whose role may release (approver, admin; else 403 ROLE_FORBIDDEN), with their password entered again (403 SIGNATURE_PASSWORD_WRONG, counted as a failed sign-in). ' +
    'With four eyes on, not the person who asked (409 FOUR_EYES). 409 CHANGE_REQUEST_STALE when the fields it sets changed since; 409 CHANGE_REQUEST_CLOSED when it is approved or declined already.',
  params: { id: reportId, requestId },
  body: shape('ChangeApprovalBody', approvalBodySchema),
  responses: { 200: { description: 'The request, approved, with the change log entry it wrote', shape: REQUEST } },
  refusals: [409],
};
const DECLINE_DOC: OperationDoc = {
  operationId: 'declineLabelReportChange',
  summary: 'Decline a change request (a person who may release), or withdraw your own',
  params: { id: reportId, requestId },
  body: shape('ChangeDeclineBody', declineBodySchema),
  responses: { 200: { description: 'The request, declined', shape: REQUEST } },
  refusals: [409],
};

const READ: RouteChecks = { permission: 'labelReports:read', visible: 'report', query: [] };
const READ_ALL: RouteChecks = { permission: 'labelReports:read', query: [] };
const WRITE: RouteChecks = { permission: 'labelReports:update', visible: 'report', body: true, query: [] };

type WithId = { Params: { id: string } };
type WithRequest = { Params: { id: string; requestId: string } };

export function changeRequestRoutes(service: Pick<ServedService, 'signedChanges'>, options: { busyWaitMs: number; clients: ClientGate }) {
  const { signedChanges } = service;
  const { clients } = options;
  const answer = <T>(request: FastifyRequest, reply: FastifyReply, read: () => T) => clients.answer(request, reply, read);
  const write = <T>(request: FastifyRequest, reply: FastifyReply, work: () => T) => clients.write(request, reply, work, options.busyWaitMs);
  return async function routes(app: FastifyInstance): Promise<void> {
    judgeBodiesLate(app);

    app.get('/local/changeRequests', { config: { openapi: PENDING_DOC, checks: READ_ALL } }, async (request, reply) => {
      const caller = callerOf(request);
      return answer(request, reply, () => signedChanges.pending(caller));
    });

    app.get<WithId>('/local/labelReports/:id/changeRequests', { config: { openapi: LIST_DOC, checks: READ } }, async (request, reply) => {
      const caller = callerOf(request);
      return answer(request, reply, () => signedChanges.forReport(caller, request.params.id));
    });

    app.post<WithId>('/local/labelReports/:id/changeRequests', { config: { openapi: REQUEST_DOC, checks: WRITE } }, async (request, reply) => {
      const caller = callerOf(request);
      const body = parseObjectBody(changeRequestBodySchema, request.body);
      const made = await write(request, reply, () => signedChanges.request(caller, request.params.id, body));
      return reply.code(201).send(made);
    });

    app.post<WithRequest>('/local/labelReports/:id/changeRequests/:requestId/approval', { config: { openapi: APPROVE_DOC, checks: WRITE } }, async (request, reply) => {
      const caller = callerOf(request);
      const body = parseObjectBody(approvalBodySchema, request.body);
      return write(request, reply, () => signedChanges.approve(caller, request.params.id, request.params.requestId, body));
    });

    app.post<WithRequest>('/local/labelReports/:id/changeRequests/:requestId/decline', { config: { openapi: DECLINE_DOC, checks: WRITE } }, async (request, reply) => {
      const caller = callerOf(request);
      const body = parseObjectBody(declineBodySchema, request.body === undefined ? {} : request.body);
      return write(request, reply, () => signedChanges.decline(caller, request.params.id, request.params.requestId, body));
    });
  };
}
