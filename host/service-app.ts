/**
 * The HTTP app over the service, with its sync controller: made here, in the composition, for
 * the host, the command line and tests alike. Apart from open-service.ts, so that a command
 * that only opens the database (import, export) does not load the HTTP stack.
 */
import type { FastifyInstance } from 'fastify';
import { buildApp, type AppOptions } from '../http/app';
import { SyncController, type SyncControllerOptions } from '../sync/controller';
import type { Service } from './open-service';

/** The app and its sync controller, not started: `startService` starts it once the app listens. */
export function serviceApp(
  service: Service,
  options: Omit<AppOptions, 'service' | 'sync'> & { sync?: SyncControllerOptions } = {},
): { app: FastifyInstance; sync: SyncController } {
  const { sync: syncOptions, ...appOptions } = options;
  const sync = new SyncController(service, syncOptions);
  return { app: buildApp({ ...appOptions, service, sync }), sync };
}
