/**
 * Migration 030 (shipments): a version-29 database's reports and reviews become shipment groups
 * at once (migration 033 replaces them by shipment_listing), and the tables of facts and decisions start empty.
 */
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { migrate, MIGRATIONS } from '../../db/database';
import shipments from '../../db/migrations/030-shipments';
import { makeReport } from '../support/service-fixture';
import { databaseAt, seededAt, temporaryFolder } from './migration-fixture';

const dir = temporaryFolder('labeldesk-migration-shipments-');
const BEFORE = MIGRATIONS.indexOf(shipments);

it('groups what the database held', () => {
  const db = databaseAt(join(dir(), 'groups.sqlite'), BEFORE, [
    makeReport('a', { labelReference: 'SHP-9' }),
    makeReport('b', { labelReference: 'shp -9', access: [{ companyId: 'nordic', role: 'viewer' }] }),
    makeReport('c', { labelReference: '' }),
  ]);
  migrate(db, BEFORE + 1);
  const rows = db.prepare('SELECT k.company_id, g.ref_key, g.labels, g.worst_alert FROM shipment_groups g JOIN company_keys k ON k.ck = g.ck ORDER BY 1, 2').all();
  expect(rows).toEqual([
    { company_id: 'acme', ref_key: 'SHP-9', labels: 2, worst_alert: 1 },
    { company_id: 'nordic', ref_key: 'SHP-9', labels: 1, worst_alert: 1 },
  ]);
  db.close();
});

it('counts the decisions a version-29 database held in each group’s tally', () => {
  const db = seededAt(join(dir(), 'seeded.sqlite'), BEFORE);
  migrate(db, BEFORE + 1);
  const tally = db.prepare('SELECT ref_key, labels, released + rejected + on_hold AS decided FROM shipment_groups g JOIN company_keys k ON k.ck = g.ck WHERE k.company_id = ? ORDER BY ref_key').all('acme');
  const decided = db.prepare(`SELECT count(*) FROM review_current WHERE company_id = 'acme' AND decision IS NOT NULL`).pluck().get();
  expect(tally.map((t: any) => t.labels)).toEqual([1, 1, 1]);
  expect(tally.reduce((n: number, t: any) => n + t.decided, 0)).toBe(decided);
  for (const table of ['shipment_facts', 'shipment_fact_changes', 'shipment_decisions', 'shipment_decision_reports', 'shipment_decision_withdrawals']) {
    expect(db.prepare(`SELECT count(*) FROM ${table}`).pluck().get(), table).toBe(0);
  }
  db.close();
});
