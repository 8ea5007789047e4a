/**
 * The shipments list reads the kept shipment rows alone, never the reports: every filter
 * (worst alert, review state, labels, first start, mode, product) alone and with each order
 * (created, worst alert, labels, first start, each both ways), page and exact count, searches an
 * index of shipment_listing from the company; without a filter a page walks its order's index
 * and sorts nothing but its own rows, and a page that sorts its matches found them by a
 * condition's index; the count of a list filtered by worst alert and review state alone, or not
 * at all, sums the kept counts. On the plan site (test/db/plan-site.ts, imported with `labeldesk import`,
 * analysed as the import leaves it), with facts kept on some of its shipments.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DataStore } from '../../db/data-store';
import type { ShipmentConditions, ShipmentOrderKey } from '../../db/shipment-store';
import { SHIPMENT_ORDER_KEYS } from '../../service/shipments';
import { importPlanSite } from './plan-site';

const REPORTS = 3000;
const HOME = 'alpha';

let dir: string;
let data: DataStore;

beforeAll(async () => {
  let file: string;
  ({ dir, file } = await importPlanSite('labeldesk-shipment-plans-', REPORTS));
  // Facts on one shipment in twenty: a product, and legs by road and air.
  const raw = new Database(file);
  raw.exec(`INSERT INTO shipment_facts (company_id, shipment_id, product, legs, updated)
    SELECT 'alpha', s.ref_key || '@' || substr(s.first_created, 1, 10), 'Vaccine ' || (s.labels + s.rowid % 3), '[{"mode":"road","from":"A","to":"B"},{"mode":"air","from":"B","to":"C"}]', '2026-01-01T00:00:00.000Z'
      FROM (SELECT ref_key, first_created, labels, row_number() OVER (ORDER BY ref_key) AS rowid FROM shipment_listing WHERE ck = (SELECT ck FROM company_keys WHERE company_id = 'alpha')) s
     WHERE s.rowid % 20 = 0`);
  raw.exec('ANALYZE');
  raw.close();
  data = DataStore.open(file);
}, 120_000);

afterAll(() => {
  data?.close();
  rmSync(dir, { recursive: true, force: true });
});

const FILTERS: [string, ShipmentConditions][] = [
  ['none', {}],
  ['alert', { alertLevels: [1] }],
  ['critical', { alertLevels: [2] }],
  ['alerts', { alertLevels: [0, 1] }],
  ['state', { states: ['awaitingAcknowledgement'] }],
  ['states', { states: ['released', 'onHold'] }],
  ['labels', { labelsMin: 2, labelsMax: 5 }],
  ['start', { startFrom: 1_760_100_000, startTo: 1_760_400_000 }],
  ['mode', { mode: 'air' }],
  ['product', { product: 'vaccine 2' }],
  ['all', { alertLevels: [1], states: ['awaitingAcknowledgement'], labelsMin: 1, startFrom: 1_760_000_000, mode: 'road', product: 'Vaccine 1' }],
];

/** What is wrong with a plan: a read of the reports or their listing, a scan of a whole table or index. */
const faultsOf = (plan: readonly string[]) =>
  plan.filter((line) => /^SCAN /.test(line) || /\b(report_listing|label_reports|listing)\b/.test(line) || (/^SEARCH [gk] /.test(line) && !/\(ck=\?/.test(line)));

describe('the shipments list plans', () => {
  for (const [name, conditions] of FILTERS) {
    for (const order of SHIPMENT_ORDER_KEYS as readonly ShipmentOrderKey[]) {
      for (const descending of [true, false]) {
        it(`filter ${name}, order ${order}[${descending ? 'desc' : 'asc'}]: searches shipment_listing from the company`, () => {
          const query = { conditions, order, descending, limit: 50, offset: 0 };
          const plans = data.shipments.plans(HOME, query);
          const text = `page:\n  ${plans.page.join('\n  ')}\ncount:\n  ${plans.count.join('\n  ')}`;
          expect(faultsOf(plans.page), text).toEqual([]);
          expect(faultsOf(plans.count), text).toEqual([]);
          expect(plans.page.some((l) => /^SEARCH k USING (COVERING )?INDEX shipment_listing_\w+ \(ck=\?/.test(l)), text).toBe(true);
          // A walk sorts nothing but the page's own rows, once it has them; a page that sorts searched a condition's index.
          if (name === 'none') expect(plans.sorts).toBe(false);
          // Without a filter, or by worst alert and review state alone, the count sums the kept counts.
          if (['none', 'alert', 'critical', 'alerts', 'state', 'states'].includes(name)) expect(plans.count, text).toEqual([expect.stringMatching(/^SEARCH n USING PRIMARY KEY \(ck=\?/)]);
          if (!plans.sorts) expect(plans.page.filter((l) => /TEMP B-TREE/.test(l)), text).toHaveLength(1);
          // (The indexes of modes and products hold only the shipments with facts: a search of them is one of the condition.)
          else expect(plans.page.some((l) => /^SEARCH k USING (COVERING )?INDEX (shipment_listing_\w+ \(ck=\? AND |shipment_listing_(modes|product) )/.test(l)), text).toBe(true);
        });
      }
    }
  }

  it('counts exactly what the pages hold, and the site has shipments for each filter', () => {
    for (const [name, conditions] of FILTERS) {
      const query = { conditions, order: 'created' as const, descending: true, limit: 500, offset: 0 };
      const { rows, total } = data.read(() => data.shipments.page(HOME, query));
      expect(rows.length, name).toBe(Math.min(500, total));
      if (!['all', 'states', 'labels', 'critical'].includes(name)) expect(total, name).toBeGreaterThan(0);
    }
  });
});
