/**
 * /local/sync (docs/sync.md#state-over-http-and-in-the-ui): the sync state, a cycle now,
 * conflicts and dead letters with their actions, and for the app the edits not yet sent and
 * the settings (the remote key is taken, never shown). Reading needs any valid key; acting
 * needs `sync:manage`, checked (route-checks.ts) before the body is read.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  deadLetterActionBodySchema,
  deadLetterSchema,
  outboxEntrySchema,
  refusedReportSchema,
  reportSyncStateSchema,
  resolveConflictBodySchema,
  syncConflictSchema,
  syncSettingsBodySchema,
  syncSettingsSchema,
  syncStatusSchema,
  syncTestBodySchema,
  syncTestResultSchema,
} from '../../schema/sync';
import type { ServedService } from '../served-service';
import type { SyncController } from '../../sync/controller';
import { judgeBodiesLate, parseObjectBody } from '../body';
import { waitForDatabase } from '../../db/busy';
import { shape, type OperationDoc } from '../openapi';
import type { RouteChecks } from '../route-checks';

const NEEDS = ' (needs sync:manage)';
const SETTINGS = shape('SyncSettings', syncSettingsSchema);

const STATUS_DOC: OperationDoc = {
  operationId: 'getSyncStatus',
  summary: 'The state of sync with the remote: what it does, when it last completed, what waits',
  responses: { 200: { description: 'The sync status; configured false and state off when no remote is set', shape: shape('SyncStatus', syncStatusSchema) } },
};
const TRIGGER_DOC: OperationDoc = {
  operationId: 'syncNow',
  summary: `Start a sync cycle now (pull, reconcile when due, push)${NEEDS}`,
  responses: { 202: { description: 'The cycle is on its way; follow it in GET /local/sync' } },
  refusals: [409],
};
const CONFLICTS_DOC: OperationDoc = {
  operationId: 'listSyncConflicts',
  summary: 'Fields changed both here and on the remote, with the base, local and remote values',
  responses: { 200: { description: 'The conflicts, oldest first', shape: shape('SyncConflictList', z.array(syncConflictSchema), [shape('SyncConflict', syncConflictSchema)]) } },
};
const RESOLVE_DOC: OperationDoc = {
  operationId: 'resolveSyncConflict',
  summary: `Keep the local value (sent again) or the remote one${NEEDS}`,
  params: { id: z.string().describe('The conflict id, as listed') },
  body: shape('ResolveSyncConflictBody', resolveConflictBodySchema),
  responses: { 204: { description: 'Resolved: the conflict left the list' } },
  refusals: [404, 409],
};
const DEAD_LETTERS_DOC: OperationDoc = {
  operationId: 'listSyncDeadLetters',
  summary: 'Local edits the remote refused, with its answer',
  responses: { 200: { description: 'The refused edits, oldest first', shape: shape('SyncDeadLetterList', z.array(deadLetterSchema), [shape('SyncDeadLetter', deadLetterSchema)]) } },
};
const DEAD_LETTER_DOC: OperationDoc = {
  operationId: 'actOnSyncDeadLetter',
  summary: `Send a refused edit again, or discard it and show the remote’s values${NEEDS}`,
  params: { id: z.string().describe('The dead letter id, as listed') },
  body: shape('SyncDeadLetterActionBody', deadLetterActionBodySchema),
  responses: { 204: { description: 'Done: the dead letter left the list' } },
  refusals: [404],
};
const OUTBOX_DOC: OperationDoc = {
  operationId: 'listSyncOutbox',
  summary: 'Reports edited here whose edits are not yet sent to the remote',
  responses: { 200: { description: 'One entry per report, oldest first', shape: shape('SyncOutboxList', z.array(outboxEntrySchema), [shape('SyncOutboxEntry', outboxEntrySchema)]) } },
};
const REFUSED_DOC: OperationDoc = {
  operationId: 'listSyncRefused',
  summary: 'Reports the remote sent that this desk did not take, with why; each is tried again at the next reconciliation',
  responses: { 200: { description: 'The refused reports, newest first', shape: shape('SyncRefusedList', z.array(refusedReportSchema), [shape('SyncRefused', refusedReportSchema)]) } },
};
const REPORT_STATE_DOC: OperationDoc = {
  operationId: 'getReportSyncState',
  summary: 'Whether a report mirrors the remote, whose figures it shows, and which of its edits wait to be sent',
  params: { id: z.string().describe('The label report id') },
  responses: { 200: { description: 'The report’s sync state', shape: shape('ReportSyncState', reportSyncStateSchema) } },
  refusals: [404],
};
const SETTINGS_DOC: OperationDoc = {
  operationId: 'getSyncSettings',
  summary: 'The remote this service syncs with, and whether it holds a key for it (never the key)',
  responses: { 200: { description: 'The settings', shape: SETTINGS } },
};
const PUT_SETTINGS_DOC: OperationDoc = {
  operationId: 'setSyncSettings',
  summary: `Set the remote (remoteUrl null turns sync off); the key is kept in memory only${NEEDS}`,
  body: shape('SyncSettingsBody', syncSettingsBodySchema),
  responses: { 200: { description: 'The settings now; sync restarts with them', shape: SETTINGS } },
};
const TEST_DOC: OperationDoc = {
  operationId: 'testSyncConnection',
  summary: `Try a remote with these settings, saving nothing${NEEDS}`,
  body: shape('SyncTestBody', syncTestBodySchema),
  responses: { 200: { description: 'Whether the remote answered the key, and as which company', shape: shape('SyncTestResult', syncTestResultSchema) } },
};

const READ: RouteChecks = { permission: null, query: [] };
const ACT: RouteChecks = { permission: 'sync:manage', query: [] };
const READ_REPORT: RouteChecks = { permission: 'labelReports:read', visible: 'report', query: [] };
const ACT_ON_BODY: RouteChecks = { permission: 'sync:manage', body: true, query: [] };

type WithId = { Params: { id: string } };

export function syncRoutes(service: Pick<ServedService, 'sync'>, sync: SyncController, options: { busyWaitMs: number }) {
  const write = <T>(run: () => T) => waitForDatabase(run, options.busyWaitMs);

  return async function routes(app: FastifyInstance): Promise<void> {
    judgeBodiesLate(app);

    app.get('/local/sync', { config: { openapi: STATUS_DOC, checks: READ } }, async () => {
      return sync.status();
    });

    app.post('/local/sync', { config: { openapi: TRIGGER_DOC, checks: ACT } }, async (_request, reply) => {
      sync.trigger();
      return reply.code(202).send();
    });

    app.get('/local/sync/conflicts', { config: { openapi: CONFLICTS_DOC, checks: READ } }, async () => {
      return service.sync.conflicts();
    });

    app.post<WithId>('/local/sync/conflicts/:id', { config: { openapi: RESOLVE_DOC, checks: ACT_ON_BODY } }, async (request, reply) => {
      const { keep } = parseObjectBody(resolveConflictBodySchema, request.body);
      await write(() => service.sync.resolveConflict(request.params.id, keep));
      return reply.code(204).send();
    });

    app.get('/local/sync/dead-letters', { config: { openapi: DEAD_LETTERS_DOC, checks: READ } }, async () => {
      return service.sync.deadLetters();
    });

    app.post<WithId>('/local/sync/dead-letters/:id', { config: { openapi: DEAD_LETTER_DOC, checks: ACT_ON_BODY } }, async (request, reply) => {
      const { action } = parseObjectBody(deadLetterActionBodySchema, request.body);
      await write(() => service.sync.actOnDeadLetter(request.params.id, action));
      return reply.code(204).send();
    });

    app.get('/local/sync/outbox', { config: { openapi: OUTBOX_DOC, checks: READ } }, async () => {
      return service.sync.outboxEntries();
    });

    app.get('/local/sync/refused', { config: { openapi: REFUSED_DOC, checks: READ } }, async () => {
      return service.sync.refused();
    });

    app.get<WithId>('/local/sync/reports/:id', { config: { openapi: REPORT_STATE_DOC, checks: READ_REPORT } }, async (request) => {
      return service.sync.reportState(request.params.id);
    });

    app.get('/local/sync/settings', { config: { openapi: SETTINGS_DOC, checks: READ } }, async () => {
      return sync.settings();
    });

    app.put('/local/sync/settings', { config: { openapi: PUT_SETTINGS_DOC, checks: ACT_ON_BODY } }, async (request) => {
      return sync.updateSettings(parseObjectBody(syncSettingsBodySchema, request.body));
    });

    app.post('/local/sync/test', { config: { openapi: TEST_DOC, checks: ACT_ON_BODY } }, async (request) => {
      return sync.test(parseObjectBody(syncTestBodySchema, request.body));
    });
  };
}
