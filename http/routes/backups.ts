/**
 * The desk's backups (docs/operations.md#backups-and-restore): `GET /local/backups` lists them
 * with what their verification found, the last good one and the schedule's state;
 * `POST /local/backups` takes one now and answers once it is verified. An administrator (or a
 * key with apiKeys:manage) only: a backup holds every company's data of the desk.
 */
import type { FastifyInstance } from 'fastify';
import { backupSchema, backupStatusSchema } from '../../schema/backups';
import type { ServedService } from '../served-service';
import { shape, type OperationDoc } from '../openapi';
import type { RouteChecks } from '../route-checks';

const BACKUP = shape('Backup', backupSchema);

const LIST_DOC: OperationDoc = {
  operationId: 'listBackups',
  summary: 'The desk’s backups with their verification, the last good one, and whether the schedule is overdue or the last backup failed (needs apiKeys:manage)',
  responses: { 200: { description: 'The backups, newest first, and the schedule’s state', shape: shape('BackupStatus', backupStatusSchema, [BACKUP]) } },
};

const CREATE_DOC: OperationDoc = {
  operationId: 'createBackup',
  summary: 'Back up the database now and verify the copy; answers once it is done, ok or with what failed (needs apiKeys:manage)',
  description:
    'The copy is made with SQLite’s online backup API in small steps, so other requests go on meanwhile; it is then opened read-only and verified. A backup already being taken is joined rather than started again. The folder is then rotated (7 daily, 4 weekly, 12 monthly unless LABELDESK_BACKUP_KEEP says otherwise).',
  responses: { 201: { description: 'The backup as listed', shape: BACKUP } },
};

const MANAGE: RouteChecks = { permission: 'apiKeys:manage', query: 'unchecked' };

export function backupRoutes(service: Pick<ServedService, 'backups'>) {
  return async function routes(app: FastifyInstance): Promise<void> {
    app.get('/local/backups', { config: { openapi: LIST_DOC, checks: MANAGE } }, async () => service.backups.status());

    app.post('/local/backups', { config: { openapi: CREATE_DOC, checks: MANAGE } }, async (_request, reply) => {
      await service.backups.backUp('manual');
      const newest = service.backups.status().backups[0];
      return reply.code(201).send(newest);
    });
  };
}
