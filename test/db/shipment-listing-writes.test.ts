/**
 * A write touching one report moves its own shipment's row alone: a tap that raises a label's
 * alert writes the row of its shipment and leaves the other shipment of the same reference (used
 * again after the gap) and every other shipment as they were; a reference moved writes the two
 * shipments it leaves and joins. The rows written are caught by triggers of the test's own.
 */
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { COMPANIES, makeReport, series, T0 } from '../support/service-fixture';
import { callerOf, closeAll, openAll } from './kept-counts-writes';
import { temporaryFolder } from './migration-fixture';

const dir = temporaryFolder('labeldesk-shipment-listing-writes-');

it('moves only the rows of the shipments a write touches', async () => {
  const open = openAll(join(dir(), 'writes.sqlite'));
  try {
    for (const company of COMPANIES) open.service.companies.upsert(company);
    const put = (id: string, reference: string, created: string) =>
      open.service.putReport(makeReport(id, { labelReference: reference, created, reportedSenseData: { datapoints: series(T0, 600, [4, 5, 5]) } }), { kind: 'import' });
    await put('a', 'SHP-1', '2026-01-10T08:00:00.000Z');
    await put('b', 'SHP-1', '2026-01-11T08:00:00.000Z');
    await put('c', 'shp-1', '2026-05-01T08:00:00.000Z');
    await put('d', 'SHP-2', '2026-05-20T08:00:00.000Z');
    for (let i = 0; i < 20; i++) await put(`o${i}`, `OTHER-${i}`, '2026-05-20T08:00:00.000Z');
    const raw = open.raw;
    raw.exec(`CREATE TABLE written (what TEXT);
      CREATE TRIGGER w_insert AFTER INSERT ON shipment_listing BEGIN INSERT INTO written VALUES ('insert ' || NEW.ref_key || '@' || substr(NEW.first_created, 1, 10)); END;
      CREATE TRIGGER w_update AFTER UPDATE ON shipment_listing BEGIN INSERT INTO written VALUES ('update ' || NEW.ref_key || '@' || substr(NEW.first_created, 1, 10)); END;
      CREATE TRIGGER w_delete AFTER DELETE ON shipment_listing BEGIN INSERT INTO written VALUES ('delete ' || OLD.ref_key || '@' || substr(OLD.first_created, 1, 10)); END;`);
    const take = () => {
      const rows = raw.prepare('SELECT what FROM written ORDER BY rowid').pluck().all() as string[];
      raw.exec('DELETE FROM written');
      return rows;
    };
    const acme = callerOf('acme');
    // A tap that raises b's alert: only the January shipment of SHP-1 moves.
    open.service.intake.tap(acme, 'b', { datapoints: series(T0 + 6000, 600, [12, 13, 12]) });
    expect(raw.prepare(`SELECT alert_level FROM report_listing WHERE id = 'b'`).pluck().all()).toEqual([1]);
    expect(take()).toEqual(['update SHP-1@2026-01-10']);
    // d's reference moved to SHP-1, 19 days after c: SHP-2 goes, the May shipment of SHP-1 takes d in.
    open.service.reports.update(acme, 'd', { labelReference: ' shp-1' });
    expect(take()).toEqual(['delete SHP-2@2026-05-20', 'update SHP-1@2026-05-01']);
    // A decision on a: the January shipment's state moves, nothing else.
    open.service.reviews.acknowledge(acme, 'b', {});
    expect(take()).toEqual(['update SHP-1@2026-01-10']);
    // A write that moves nothing the list reads (a flag) writes no shipment row.
    open.service.reports.update(acme, 'c', { hasFlag: true });
    expect(take()).toEqual([]);
  } finally {
    closeAll(open);
  }
});
