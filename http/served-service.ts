/** What the HTTP layer serves: the service's rules, and the mirror behind /local/sync. */
import type { AlarmService } from '../service/alarms';
import type { ServiceRules } from '../service/rules';
import type { SyncMirror } from '../sync/mirror';

export interface ServedService extends ServiceRules {
  sync: SyncMirror;
  alarms: AlarmService;
}
