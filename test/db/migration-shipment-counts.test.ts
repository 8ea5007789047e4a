/**
 * Migration 034 (shipment counts): a version-33 database's shipments are counted at once by
 * company, review state and worst alert, equal to the recount; later writes keep the counts.
 */
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { migrate, MIGRATIONS } from '../../db/database';
import shipmentCounts from '../../db/migrations/034-shipment-counts';
import { SHIPMENT_COUNTS } from '../../db/read-model/shipments';
import { ReportStore } from '../../db/report-store';
import { reportFromBundle } from '../../service/report-from-bundle';
import { makeReport, series, T0 } from '../support/service-fixture';
import { databaseAt, temporaryFolder } from './migration-fixture';

const dir = temporaryFolder('labeldesk-migration-shipment-counts-');
const BEFORE = MIGRATIONS.indexOf(shipmentCounts);
const CALM = { datapoints: series(T0, 600, [4, 5, 5]) };

const counts = (db: ReturnType<typeof databaseAt>) =>
  db.prepare('SELECT k.company_id, n.state, n.worst_alert, n.n FROM shipment_counts n JOIN company_keys k ON k.ck = n.ck ORDER BY 1, 2, 3').all();

it('counts the shipments a version-33 database held, as the recount does, and keeps them after', () => {
  const db = databaseAt(join(dir(), 'counts.sqlite'), BEFORE, [
    makeReport('a', { labelReference: 'SHP-1', access: [{ companyId: 'nordic', role: 'viewer' }] }),
    makeReport('b', { labelReference: 'shp-1', reportedSenseData: CALM }),
    makeReport('c', { labelReference: 'SHP-2', reportedSenseData: CALM }),
    makeReport('d', { labelReference: 'SHP-3', reportedSenseData: CALM }),
  ]);
  migrate(db);
  expect(counts(db)).toEqual([
    { company_id: 'acme', state: 'awaitingAcknowledgement', worst_alert: 1, n: 1 },
    { company_id: 'acme', state: 'awaitingReview', worst_alert: 0, n: 2 },
    { company_id: 'nordic', state: 'awaitingAcknowledgement', worst_alert: 1, n: 1 },
  ]);
  const recounted = () => {
    const kept = counts(db);
    db.exec('SAVEPOINT recount');
    db.exec(SHIPMENT_COUNTS.rebuild);
    const again = counts(db);
    db.exec('ROLLBACK TO recount');
    db.exec('RELEASE recount');
    return [kept, again];
  };
  const [kept, again] = recounted();
  expect(kept).toEqual(again);
  // d joins SHP-2: one shipment fewer awaiting review.
  const store = new ReportStore(db);
  const before = reportFromBundle(makeReport('d', { labelReference: 'SHP-3', reportedSenseData: CALM }));
  store.write(reportFromBundle(makeReport('d', { labelReference: 'SHP-2', reportedSenseData: CALM })), before);
  expect(counts(db)).toContainEqual({ company_id: 'acme', state: 'awaitingReview', worst_alert: 0, n: 1 });
  const [keptAfter, againAfter] = recounted();
  expect(keptAfter).toEqual(againAfter);
  db.close();
});
