/**
 * Endpoints for the desktop app and local tools beyond the /v2 interface: who the key is,
 * where the service listens, and local API key management. They read no query parameters, and
 * have never refused any: their checks leave the query unchecked.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ApiError } from '../../schema/api-error';
import { mayDo } from '../../model/person';
import { DECISIONS } from '../../schema/review';
import {
  apiKeyInfoSchema,
  createApiKeyBodySchema,
  createdApiKeySchema,
  serviceInfoSchema,
  sessionSchema,
  type ServiceInfo,
  type Session,
} from '../../schema/local';
import type { ServedService } from '../served-service';
import { callerOf } from '../auth';
import { judgeBodiesLate, parseBody } from '../body';
import { waitForDatabase } from '../../db/busy';
import { shape, type OperationDoc } from '../openapi';
import type { RouteChecks } from '../route-checks';

const API_KEY_INFO = shape('ApiKeyInfo', apiKeyInfoSchema);

const INFO_DOC: OperationDoc = {
  operationId: 'getServiceInfo',
  summary: 'Where the service listens, and its version',
  responses: { 200: { description: 'Base URL, port and version', shape: shape('ServiceInfo', serviceInfoSchema) } },
};

const SESSION_DOC: OperationDoc = {
  operationId: 'getSession',
  summary: 'Who the API key is: its company and permissions',
  responses: { 200: { description: 'The key’s company and permissions', shape: shape('Session', sessionSchema) } },
};

const LIST_KEYS_DOC: OperationDoc = {
  operationId: 'listApiKeys',
  summary: 'The API keys of the key’s company, without the keys themselves (needs apiKeys:manage)',
  responses: { 200: { description: 'The keys, revoked ones included', shape: shape('ApiKeyInfoList', z.array(apiKeyInfoSchema), [API_KEY_INFO]) } },
};

const CREATE_KEY_DOC: OperationDoc = {
  operationId: 'createApiKey',
  summary: 'A new API key for the key’s company (needs apiKeys:manage); with no permission the caller lacks (403 GRANT_EXCEEDS_CALLER)',
  body: shape('CreateApiKeyBody', createApiKeyBodySchema),
  responses: { 201: { description: 'The key, shown this once', shape: shape('CreatedApiKey', createdApiKeySchema) } },
};

const REVOKE_KEY_DOC: OperationDoc = {
  operationId: 'revokeApiKey',
  summary: 'Revoke one API key of the key’s company for good (needs apiKeys:manage)',
  params: { id: z.string().describe('The id of the key, as listed') },
  responses: { 204: { description: 'Revoked' } },
  refusals: [404],
};

const ANY_KEY: RouteChecks = { permission: null, query: 'unchecked' };
const MANAGE_KEYS: RouteChecks = { permission: 'apiKeys:manage', query: 'unchecked' };
const NEW_KEY: RouteChecks = { permission: 'apiKeys:manage', body: true, query: 'unchecked' };

export function localRoutes(service: Pick<ServedService, 'apiKeys' | 'companies' | 'users'>, info: () => ServiceInfo, options: { busyWaitMs: number }) {
  return async function routes(app: FastifyInstance): Promise<void> {
    app.get('/local/info', { config: { openapi: INFO_DOC, checks: ANY_KEY } }, async () => info());

    app.get('/local/session', { config: { openapi: SESSION_DOC, checks: ANY_KEY } }, async (request) => {
      const { keyId, companyId, permissions, person, passwordChangeDue } = callerOf(request);
      const company = service.companies.find(companyId);
      const session: Session = {
        keyId,
        companyId,
        companyName: company?.name ?? companyId,
        permissions: [...permissions],
        ...(person && { person, mayDecide: DECISIONS.filter((decision) => mayDo(person, decision)) }),
        hasPeople: service.users.hasPeople(companyId),
        ...(passwordChangeDue && { passwordChangeDue }),
      };
      return session;
    });

    app.get('/local/apiKeys', { config: { openapi: LIST_KEYS_DOC, checks: MANAGE_KEYS } }, async (request) => {
      return service.apiKeys.list(callerOf(request).companyId);
    });

    // In a scope of its own: only this route judges its body after the permission; DELETE
    // keeps Fastify's answers for a body it does not take.
    await app.register(async (withBody) => {
      judgeBodiesLate(withBody);
      withBody.post('/local/apiKeys', { config: { openapi: CREATE_KEY_DOC, checks: NEW_KEY } }, async (request, reply) => {
        const caller = callerOf(request);
        const body = parseBody(createApiKeyBodySchema, request.body);
        const created = await waitForDatabase(() => service.apiKeys.createFor(caller, body.permissions, body.name), options.busyWaitMs);
        return reply.code(201).send(created);
      });
    });

    app.delete<{ Params: { id: string } }>('/local/apiKeys/:id', { config: { openapi: REVOKE_KEY_DOC, checks: MANAGE_KEYS } }, async (request, reply) => {
      const caller = callerOf(request);
      if (!(await waitForDatabase(() => service.apiKeys.revoke(request.params.id, caller.companyId), options.busyWaitMs))) {
        throw new ApiError(404, 'KEY_NOT_FOUND', `no active API key '${request.params.id}' of this company`);
      }
      return reply.code(204).send();
    });
  };
}
