/**
 * Endpoints for the desktop app and local tools beyond the /v2 interface: who the key is,
 * where the service listens, and local API key management.
 */
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../schema/api-error';
import { createApiKeyBodySchema, type ServiceInfo, type Session } from '../../schema/local';
import { requirePermission } from '../../service/api-keys';
import type { Service } from '../../service/open-service';
import { describeZodError } from '../../contract/zod-messages';


export function localRoutes(service: Service, info: () => ServiceInfo) {
  return async function routes(app: FastifyInstance): Promise<void> {
    app.get('/local/info', async () => info());

    app.get('/local/session', async (request) => {
      const { companyId, permissions } = request.caller;
      const company = service.companies.find(companyId);
      const session: Session = { companyId, companyName: company?.name ?? companyId, permissions: [...permissions] };
      return session;
    });

    app.get('/local/apiKeys', async (request) => {
      requirePermission(request.caller, 'apiKeys:manage');
      return service.apiKeys.list(request.caller.companyId);
    });

    app.post('/local/apiKeys', async (request, reply) => {
      requirePermission(request.caller, 'apiKeys:manage');
      const parsed = createApiKeyBodySchema.safeParse(request.body);
      if (!parsed.success) throw new ApiError(400, 'INVALID_BODY', describeZodError(parsed.error));
      const created = service.apiKeys.create(request.caller.companyId, parsed.data.permissions, parsed.data.name);
      return reply.code(201).send(created);
    });

    app.delete<{ Params: { id: string } }>('/local/apiKeys/:id', async (request, reply) => {
      requirePermission(request.caller, 'apiKeys:manage');
      if (!service.apiKeys.revoke(request.params.id, request.caller.companyId)) {
        throw new ApiError(404, 'KEY_NOT_FOUND', `no active API key '${request.params.id}' of this company`);
      }
      return reply.code(204).send();
    });
  };
}
