/** What the HTTP layer serves: the service's rules, and the mirror behind /local/sync. */
import type { AlarmService } from '../service/alarms';
import type { Backups } from '../service/backups';
import type { ServiceRules } from '../service/rules';
import type { SyncMirror } from '../sync/mirror';

export interface ServedService extends ServiceRules {
  sync: SyncMirror;
  alarms: AlarmService;
  /** Backups of the database: listed, and one now (/local/backups). */
  backups: Backups;
}
