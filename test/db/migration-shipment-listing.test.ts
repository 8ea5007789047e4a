/**
 * Migration 033 (shipment listing): a version-32 database's shipment groups become one row per
 * shipment, a reference used again after the gap two of them, equal to the rebuild; the review
 * state and the product and leg modes of facts kept before the upgrade are in each row, and
 * migration 30's groups and their triggers are gone.
 */
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { migrate, MIGRATIONS } from '../../db/database';
import shipmentListing from '../../db/migrations/033-shipment-listing';
import { SHIPMENTS } from '../../db/read-model/shipments';
import { makeReport } from '../support/service-fixture';
import { databaseAt, seededAt, temporaryFolder } from './migration-fixture';

const dir = temporaryFolder('labeldesk-migration-shipment-listing-');
const BEFORE = MIGRATIONS.indexOf(shipmentListing);

const rows = (db: ReturnType<typeof databaseAt>) =>
  db.prepare('SELECT k.company_id, s.ref_key, s.first_created, s.labels, s.worst_alert, s.state, s.product, s.modes FROM shipment_listing s JOIN company_keys k ON k.ck = s.ck ORDER BY 1, 2, 3').all();

it('cuts each reference at the gap into shipment rows, as the rebuild does, with the facts kept before', () => {
  const db = databaseAt(join(dir(), 'listing.sqlite'), BEFORE, [
    makeReport('a', { labelReference: 'SHP-9', created: '2026-01-10T08:00:00.000Z', access: [{ companyId: 'nordic', role: 'viewer' }] }),
    makeReport('b', { labelReference: 'shp -9', created: '2026-03-11T08:00:00.000Z' }),
    makeReport('c', { labelReference: 'SHP-9', created: '2026-05-11T09:00:00.000Z' }),
    makeReport('d', { labelReference: '', created: '2026-05-11T09:00:00.000Z' }),
  ]);
  expect(db.prepare('SELECT count(*) FROM shipment_groups').pluck().get()).toBe(2);
  db.prepare(`INSERT INTO shipment_facts (company_id, shipment_id, product, legs, updated) VALUES ('acme', 'SHP-9@2026-01-10', 'Vaccine X', ?, '2026-05-12T00:00:00.000Z')`).run(
    JSON.stringify([{ mode: 'road', from: 'A', to: 'B' }, { mode: 'air', from: 'B', to: 'C' }, { mode: 'road', from: 'C', to: 'D' }]),
  );
  migrate(db);
  expect(rows(db)).toEqual([
    // 60 days apart is one shipment; 60 days and an hour begins the next.
    { company_id: 'acme', ref_key: 'SHP-9', first_created: '2026-01-10T08:00:00.000Z', labels: 2, worst_alert: 1, state: 'awaitingAcknowledgement', product: 'Vaccine X', modes: ',road,air,' },
    { company_id: 'acme', ref_key: 'SHP-9', first_created: '2026-05-11T09:00:00.000Z', labels: 1, worst_alert: 1, state: 'awaitingAcknowledgement', product: null, modes: null },
    { company_id: 'nordic', ref_key: 'SHP-9', first_created: '2026-01-10T08:00:00.000Z', labels: 1, worst_alert: 1, state: 'awaitingAcknowledgement', product: null, modes: null },
  ]);
  const kept = db.prepare('SELECT * FROM shipment_listing ORDER BY ck, ref_key, first_created').all();
  db.exec(SHIPMENTS.rebuild);
  expect(db.prepare('SELECT * FROM shipment_listing ORDER BY ck, ref_key, first_created').all()).toEqual(kept);
  expect(db.prepare(`SELECT name FROM sqlite_schema WHERE name LIKE 'shipment_groups%'`).pluck().all()).toEqual([]);
  db.close();
});

it('judges each shipment’s review state from the decisions a version-32 database held', () => {
  const db = seededAt(join(dir(), 'seeded.sqlite'), BEFORE);
  migrate(db);
  const states = db.prepare(`SELECT s.ref_key, s.state FROM shipment_listing s JOIN company_keys k ON k.ck = s.ck WHERE k.company_id = 'acme' ORDER BY 1`).all();
  // s1 is on hold; s2 is released, but its alert was not acknowledged since the withdrawal, which comes first; s3 was never reviewed.
  expect(states).toEqual([
    { ref_key: 'REF-S1', state: 'onHold' },
    { ref_key: 'REF-S2', state: 'awaitingAcknowledgement' },
    { ref_key: 'REF-S3', state: 'awaitingAcknowledgement' },
  ]);
  db.close();
});
