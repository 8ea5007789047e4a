/** /local/backups, typed: every answer checked against schema/backups.ts, on the API client's one request path. */
import { backupSchema, backupStatusSchema, type BackupInfo, type BackupStatus } from '../../schema/backups';
import { parse, type ApiClient } from './client';

export type { BackupInfo, BackupStatus };

export interface BackupsClient {
  /** The desk's backups, the last good one and the schedule's state. */
  status(signal?: AbortSignal): Promise<BackupStatus>;
  /** A backup now; answers once it is verified (or failed). */
  backUpNow(): Promise<BackupInfo>;
}

export function backupsClient(api: ApiClient): BackupsClient {
  return {
    async status(signal) {
      return parse(backupStatusSchema, await api.request('GET', '/local/backups', { signal }), 'the backups');
    },
    async backUpNow() {
      return parse(backupSchema, await api.request('POST', '/local/backups'), 'a backup');
    },
  };
}
