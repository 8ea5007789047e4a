/**
 * Endpoints for the desktop app and local tools beyond the /v2 interface: who the key is,
 * where the service listens, and local API key management.
 */
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../schema/api-error';
import { createApiKeyBodySchema, type ServiceInfo, type Session } from '../../schema/local';
import { requirePermission } from '../../service/api-keys';
import type { Service } from '../../service/open-service';
import { callerOf } from '../auth';
import { jsonBody, judgeBodiesLate, parseBody } from '../body';

export function localRoutes(service: Service, info: () => ServiceInfo) {
  return async function routes(app: FastifyInstance): Promise<void> {
    app.get('/local/info', async () => info());

    app.get('/local/session', async (request) => {
      const { companyId, permissions } = callerOf(request);
      const company = service.companies.find(companyId);
      const session: Session = { companyId, companyName: company?.name ?? companyId, permissions: [...permissions] };
      return session;
    });

    app.get('/local/apiKeys', async (request) => {
      const caller = callerOf(request);
      requirePermission(caller, 'apiKeys:manage');
      return service.apiKeys.list(caller.companyId);
    });

    // In a scope of its own: only this route judges its body after the permission; DELETE
    // keeps Fastify's answers for a body it does not take.
    await app.register(async (withBody) => {
      judgeBodiesLate(withBody);
      withBody.post('/local/apiKeys', async (request, reply) => {
        const caller = callerOf(request);
        requirePermission(caller, 'apiKeys:manage');
        const body = parseBody(createApiKeyBodySchema, jsonBody(request));
        return reply.code(201).send(service.apiKeys.create(caller.companyId, body.permissions, body.name));
      });
    });

    app.delete<{ Params: { id: string } }>('/local/apiKeys/:id', async (request, reply) => {
      const caller = callerOf(request);
      requirePermission(caller, 'apiKeys:manage');
      if (!service.apiKeys.revoke(request.params.id, caller.companyId)) {
        throw new ApiError(404, 'KEY_NOT_FOUND', `no active API key '${request.params.id}' of this company`);
      }
      return reply.code(204).send();
    });
  };
}
