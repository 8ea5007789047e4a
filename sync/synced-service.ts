/** What sync needs of the service: the mirror it writes, and the companies, to know its own is there. */
import type { ServiceRules } from '../service/rules';
import type { SyncMirror } from './mirror';

export interface SyncService {
  sync: SyncMirror;
  companies: Pick<ServiceRules['companies'], 'find'>;
}
