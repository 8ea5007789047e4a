/** The sync worker: cycles, timers and state. */
import type { Service } from '../service/open-service';
import type { SyncOptions, SyncWorker } from './index';

export function createSyncWorker(_service: Service, _options: SyncOptions): SyncWorker {
  throw new Error('the sync worker is being built');
}
