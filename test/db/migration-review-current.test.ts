/**
 * Migration 016 (where each review stands, kept): the rows its backfill makes from a version-15
 * database's review entries, and the rows its triggers keep as entries are appended, both equal
 * to the definition read from the entries themselves (the newest decision or withdrawal
 * settles; an acknowledgement counts until the next withdrawal), on any sequence of entries.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { migrate, MIGRATIONS } from '../../db/database';
import reviewCurrent from '../../db/migrations/016-review-current';
import { makeReport } from '../support/service-fixture';
import { assertProperty } from '../support/property';
import { databaseAt, temporaryFolder } from './migration-fixture';

const dir = temporaryFolder('labeldesk-migration-review-current-');
const BEFORE = MIGRATIONS.indexOf(reviewCurrent);
const REPORTS = ['r0', 'r1', 'r2'];
const COMPANIES = ['acme', 'nordic'];

interface Entry {
  report: string;
  company: string;
  kind: 'comment' | 'acknowledgement' | 'decision' | 'withdrawal';
  decision: 'released' | 'rejected' | 'onHold';
  level: number;
}

const entryArb: fc.Arbitrary<Entry> = fc.record({
  report: fc.constantFrom(...REPORTS),
  company: fc.constantFrom(...COMPANIES),
  kind: fc.constantFrom('comment', 'acknowledgement', 'decision', 'withdrawal'),
  decision: fc.constantFrom('released', 'rejected', 'onHold'),
  level: fc.integer({ min: 1, max: 2 }),
});

function append(db: Database.Database, entries: readonly Entry[]): void {
  const insert = db.prepare(
    `INSERT INTO report_reviews (label_report_id, company_id, kind, text, decision, alert_level, alert_timestamp, api_key_id, api_key_name, at)
     VALUES (?, ?, ?, 'x', ?, ?, ?, 'k1', 'desk', '2026-11-01T00:00:00.000Z')`,
  );
  for (const e of entries) {
    const leveled = e.kind === 'acknowledgement' || e.kind === 'withdrawal';
    insert.run(e.report, e.company, e.kind, e.kind === 'decision' ? e.decision : null, leveled ? e.level : null, leveled ? 1 : null);
  }
}

/** The state each (report, company) should have, worked out from its entries in order. */
function expected(entries: readonly Entry[]) {
  const rows = new Map<string, { label_report_id: string; company_id: string; decision: string | null; withdrawn: number; acknowledged_level: number | null }>();
  for (const e of entries) {
    if (e.kind === 'comment') continue;
    const key = `${e.report}|${e.company}`;
    const row = rows.get(key) ?? { label_report_id: e.report, company_id: e.company, decision: null, withdrawn: 0, acknowledged_level: null };
    if (e.kind === 'decision') Object.assign(row, { decision: e.decision, withdrawn: 0 });
    if (e.kind === 'withdrawal') Object.assign(row, { decision: null, withdrawn: 1, acknowledged_level: null });
    if (e.kind === 'acknowledgement') row.acknowledged_level = Math.max(row.acknowledged_level ?? e.level, e.level);
    rows.set(key, row);
  }
  return [...rows.values()].sort((a, b) => (a.label_report_id + a.company_id).localeCompare(b.label_report_id + b.company_id));
}

function kept(db: Database.Database) {
  return db.prepare('SELECT * FROM review_current ORDER BY label_report_id || company_id').all();
}

it('is migration 16', () => {
  expect(BEFORE + 1).toBe(16);
});

it('backfills, and its triggers keep, what the entries say', () => {
  // One database at the version before, copied into memory for each case: migrating from
  // nothing each time costs more than the case.
  const made = databaseAt(join(dir(), 'review-current-base.sqlite'), BEFORE, REPORTS.map((id) => makeReport(id)));
  const base = made.serialize();
  made.close();
  assertProperty(
    fc.property(fc.array(entryArb, { maxLength: 40 }), fc.array(entryArb, { maxLength: 20 }), (before, after) => {
      const db = new Database(base);
      try {
        append(db, before);
        migrate(db);
        expect(kept(db)).toEqual(expected(before));
        append(db, after);
        expect(kept(db)).toEqual(expected([...before, ...after]));
      } finally {
        db.close();
      }
    }),
    { numRuns: 100 },
  );
});
