/** A round of edits on both sides of a sync pair, as two desks make them between syncs. */
import type { SyncPair } from './sync-pair';
import { freshReports, putReports } from './sync-reports';

/** Local edits of r-000…r-003, remote edits of r-006…r-008, and two new reports on the remote. */
export async function editBothSides(pair: SyncPair, round: number): Promise<void> {
  for (let i = 0; i < 4; i++) await pair.localEdit(`r-${String(i).padStart(3, '0')}`, { labelReference: `local ${round}.${i}` });
  for (let i = 6; i < 9; i++) await pair.remoteEdit(`r-${String(i).padStart(3, '0')}`, { status: round % 2 === 0 ? 'completed' : 'active', hasFlag: round % 2 === 0 });
  putReports(pair.remote.service, freshReports(2, `new${round}`));
}
