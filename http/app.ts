/**
 * The HTTP face of the service: /v2 (the label report interface), /local (desktop extras) and
 * the UI's static files, behind the loopback guard and the API key check.
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { UI_CONTENT_SECURITY_POLICY } from '../contract/content-security-policy';
import { VERSION } from '../contract/version';
import { ApiError } from '../schema/api-error';
import { MAX_REPORT_ID_LENGTH } from '../schema/bundle';
import type { ServedService } from './served-service';
import { addAnswerHeaders } from './answer-headers';
import { requireApiKey } from './auth';
import { BUSY_WAIT_MS } from '../db/busy';
import { ClientGate } from './client-gate';
import { registerDocs } from './docs';
import { registerErrorHandling } from './errors';
import { registerLocalGuard } from './local-guard';
import { nodeServerOptions, type ServerLimits } from './node-server';
import { registerOpenApi } from './openapi';
import { registerRouteChecks } from './route-checks';
import { insightsRoutes } from './routes/insights';
import { shipmentRoutes } from './routes/shipments';
import { bulkRoutes } from './routes/bulk';
import { labelIntakeRoutes } from './routes/label-intake';
import { labelReportRoutes } from './routes/label-reports';
import { localRoutes } from './routes/local';
import { peopleRoutes, sessionRoutes } from './routes/people';
import { reviewRoutes } from './routes/review';
import { reportAccessRoutes } from './routes/report-access';
import { changeRequestRoutes } from './routes/change-requests';
import { webhookRoutes } from './routes/webhooks';
import { alarmRoutes } from './routes/alarms';
import { backupRoutes } from './routes/backups';
import { syncRoutes } from './routes/sync';
import type { SyncController } from '../sync/controller';

export const BODY_LIMIT = 1024 * 1024;

export interface AppOptions {
  service: ServedService;
  /** Folder of the built UI; not served when absent. */
  staticDir?: string;
  version?: string;
  logger?: boolean;
  /** How long a write waits for a database another connection is writing to (default BUSY_WAIT_MS). */
  busyWaitMs?: number;
  /** Where an unexpected error is written, with its request id (default: standard error). */
  logError?: (line: string) => void;
  /** Timeouts, connection cap and header size; without them (inject only), Node's own. */
  limits?: ServerLimits;
  /** Told of each request whose work was dropped because its client had gone away (tests watch it). */
  onAbandoned?: (request: FastifyRequest) => void;
  /** Sync with a remote, as the composition made it (started or not). Stopped when the app closes. */
  sync: SyncController;
}

export function buildApp(options: AppOptions): FastifyInstance {
  const app = Fastify({
    bodyLimit: BODY_LIMIT,
    logger: options.logger ? { level: 'warn' } : false,
    // Unique across restarts, so the id a 500 names finds its one line in the log.
    genReqId: () => `req-${randomUUID()}`,
    // A client may send any id text; it is looked up, never parsed.
    // Above the longest report id (Fastify measures the decoded parameter).
    routerOptions: { maxParamLength: MAX_REPORT_ID_LENGTH * 2.5 },
    ...nodeServerOptions(options.limits),
    // Errors Fastify meets before routing (a malformed URL) answer the same body as ours.
    frameworkErrors: (err, _request, reply) => {
      const apiError = new ApiError(400, 'INVALID_URL', err.message);
      void (reply as FastifyReply).code(400).send(apiError.toBody());
    },
  });
  addAnswerHeaders(app.server);
  // Beyond the cap Node closes a new connection at once, so the file descriptors never run out.
  if (options.limits) app.server.maxConnections = options.limits.maxConnections;
  // Only JSON bodies are accepted; Fastify's text/plain parser would let other types through.
  app.removeContentTypeParser('text/plain');
  registerErrorHandling(app, options.logError ?? ((line) => process.stderr.write(line + '\n')));
  registerLocalGuard(app);
  // Before the routes, so it sees each of them; the document itself needs no key.
  registerOpenApi(
    app,
    {
      title: 'LabelDesk',
      version: options.version ?? VERSION,
      description: 'The label report API (/v2) and the local extras (/local) of a LabelDesk service. Rendered for reading at /docs.',
    },
    () => (app.server.listening ? info().baseUrl : null),
  );
  // Like the document it renders, the reference needs no key.
  registerDocs(app);

  const info = () => {
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    return { baseUrl: `http://127.0.0.1:${port}`, port, version: options.version ?? VERSION };
  };

  const { sync } = options;
  app.addHook('onClose', () => sync.close());

  // Signing in comes before any key: its answer is the key.
  app.register(sessionRoutes(options.service, { busyWaitMs: options.busyWaitMs ?? BUSY_WAIT_MS }));
  app.register(async (api) => {
    requireApiKey(api, options.service.apiKeys);
    // Before the routes, so that each must declare what it needs.
    registerRouteChecks(api, options.service);
    const busy = { busyWaitMs: options.busyWaitMs ?? BUSY_WAIT_MS, clients: new ClientGate(options.onAbandoned) };
    await api.register(labelReportRoutes(options.service, busy));
    await api.register(labelIntakeRoutes(options.service, busy));
    await api.register(localRoutes(options.service, info, busy));
    await api.register(peopleRoutes(options.service, busy));
    await api.register(webhookRoutes(options.service, busy));
    await api.register(reviewRoutes(options.service, busy));
    await api.register(reportAccessRoutes(options.service, busy));
    await api.register(changeRequestRoutes(options.service, busy));
    await api.register(insightsRoutes(options.service, busy));
    await api.register(shipmentRoutes(options.service, busy));
    await api.register(bulkRoutes(options.service, busy));
    await api.register(syncRoutes(options.service, sync, busy));
    await api.register(alarmRoutes(options.service, busy));
    await api.register(backupRoutes(options.service));
  });

  if (options.staticDir && existsSync(options.staticDir)) {
    app.register(fastifyStatic, {
      root: options.staticDir,
      setHeaders: (reply) => {
        reply.header('Content-Security-Policy', UI_CONTENT_SECURITY_POLICY);
      },
    });
  } else {
    app.get('/', async (_request, reply) =>
      reply.type('text/plain').send('The LabelDesk UI is not built here. Run: npm run build:renderer\n'),
    );
  }
  return app;
}
