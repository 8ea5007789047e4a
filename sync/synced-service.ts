/** What sync needs of the service: the mirror it writes, and the companies, to know its own is there. */
import type { ServiceRules } from '../service/rules';
import type { SyncMirror } from './mirror';
import type { TeamHub } from '../service/hub';

export interface SyncService {
  sync: SyncMirror;
  companies: Pick<ServiceRules['companies'], 'find'>;
  /** The people of a hub, when the remote is one (docs/sync.md#a-hub-for-a-team). */
  hub: TeamHub;
}
