/** What the HTTP layer serves: the service's rules, and the mirror behind /local/sync. */
import type { AlarmService } from '../service/alarms';
import type { Backups } from '../service/backups';
import type { Reads } from '../service/reads';
import type { ServiceRules } from '../service/rules';
import type { SyncMirror } from '../sync/mirror';

export interface ServedService extends ServiceRules {
  sync: SyncMirror;
  alarms: AlarmService;
  /** Backups of the database: listed, and one now (/local/backups). */
  backups: Backups;
  /** List pages and retrieve, read off the event loop (service/read-pool.ts). */
  reads: Reads;
}
