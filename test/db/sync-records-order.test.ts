/**
 * Conflicts and dead letters are listed in the order they were recorded. A pull records a
 * page's conflicts within one millisecond, and their ids are random: ordered by time and then id,
 * two recorded together came back in either order.
 */
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { DataStore } from '../../db/data-store';
import { temporaryFolder } from './migration-fixture';

const dir = temporaryFolder('labeldesk-sync-records-order-');
const AT = '2026-05-01T10:00:00.000Z';
/** Ids that sort against the order they are recorded in. */
const IDS = Array.from({ length: 6 }, (_, i) => `id-${9 - i}`);

it('lists conflicts and dead letters recorded at one instant in the order recorded', () => {
  const data = DataStore.open(join(dir(), 'sync.sqlite'));
  try {
    IDS.forEach((id, i) => {
      data.sync.addConflict({ id, labelReportId: `r${i}`, field: 'labelReference', kind: 'field', base: 'a', local: 'b', remote: 'c', at: AT });
      data.sync.addDeadLetter({ id, labelReportId: `r${i}`, fields: { labelReference: { base: 'a', value: 'b' } }, status: 422, message: 'refused', at: AT });
    });
    // One recorded a moment later comes last whatever its id.
    data.sync.addConflict({ id: 'id-0', labelReportId: 'later', field: 'labelReference', kind: 'field', base: 'a', local: 'b', remote: 'c', at: '2026-05-01T10:00:00.001Z' });
    expect(data.sync.conflicts().map((c) => c.id)).toEqual([...IDS, 'id-0']);
    expect(data.sync.deadLetters().map((d) => d.id)).toEqual(IDS);
  } finally {
    data.close();
  }
});
