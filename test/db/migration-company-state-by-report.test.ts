/**
 * Migration 008 (the company states by report) upgrades a version-7 database holding reports
 * of two companies with flags and archive states: every state reads as before, a report's
 * states are found through the new index instead of a scan, and replacing or removing a report
 * takes exactly its own states with it.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { schemaVersion, SCHEMA_VERSION } from '../../db/database';
import { ReportStore } from '../../db/report-store';
import type { BundleReport } from '../../schema/bundle';
import { openService } from '../../host/open-service';
import { rowsFromReport } from '../../db/report-convert';
import { reportFromBundle } from '../../service/report-from-bundle';

/** A bundle report as the rows a database of any schema version takes. */
const recordFromBundle = (report: BundleReport) => rowsFromReport(reportFromBundle(report));
import { databaseAt, temporaryFolder } from './migration-fixture';
import { makeReport } from '../support/service-fixture';

const dir = temporaryFolder('labeldesk-migration-company-state-');

const COMPANY_STATE_VERSION = 8;

/** Reports of acme, some shared with nordic; both companies flag or archive some of them. */
function reports(): BundleReport[] {
  return Array.from({ length: 12 }, (_, i) => {
    const shared = i % 3 === 0;
    return makeReport(`s${String(i).padStart(2, '0')}`, {
      companyId: 'acme',
      access: shared ? [{ companyId: 'nordic', role: 'viewer' }] : [],
      companyState: [
        ...(i % 2 === 0 ? [{ companyId: 'acme', hasFlag: true, isArchived: i % 4 === 0 }] : []),
        ...(shared ? [{ companyId: 'nordic', hasFlag: false, isArchived: true }] : []),
      ],
    });
  });
}

type StateRow = { company_id: string; label_report_id: string; has_flag: number; is_archived: number };

describe('migration 008: company states by report', () => {
  it('upgrades a version-7 database with states: they read the same, by report through the index, and go with their report only', () => {
    const file = join(dir(), 'v7.sqlite');
    const db = databaseAt(file, COMPANY_STATE_VERSION - 1, reports());
    const allStates = (d: Database.Database) =>
      d.prepare('SELECT * FROM company_report_state ORDER BY label_report_id, company_id').all() as StateRow[];
    const before = allStates(db);
    // Not vacuous: both companies hold states, on several reports.
    expect(before.filter((s) => s.company_id === 'acme')).toHaveLength(6);
    expect(before.filter((s) => s.company_id === 'nordic')).toHaveLength(4);
    db.close();

    const upgraded = openService(file);
    upgraded.close();
    const raw = new Database(file);
    raw.pragma('foreign_keys = ON');
    expect(schemaVersion(raw)).toBe(SCHEMA_VERSION);
    expect(allStates(raw)).toEqual(before);
    const plan = (raw.prepare('EXPLAIN QUERY PLAN SELECT * FROM company_report_state WHERE label_report_id = ?').all('s00') as { detail: string }[])
      .map((p) => p.detail)
      .join('\n');
    expect(plan).toContain('USING INDEX company_report_state_report');
    expect(new ReportStore(raw).load('s00')!.states).toEqual(
      before
        .filter((s) => s.label_report_id === 's00')
        .map((s) => ({ companyId: s.company_id, hasFlag: s.has_flag === 1, isArchived: s.is_archived === 1 })),
    );

    // A report replaced whole (as sync and an import do) keeps only its new states; another removed takes its own with it.
    const replaced = recordFromBundle(makeReport('s00', { companyId: 'acme', access: [{ companyId: 'nordic', role: 'viewer' }], companyState: [] }));
    const store2 = new ReportStore(raw);
    raw.transaction(() => {
      store2.replace(replaced, rowsFromReport(store2.load('s00')!));
      store2.remove('s03');
    })();
    expect(allStates(raw)).toEqual(before.filter((s) => s.label_report_id !== 's00' && s.label_report_id !== 's03'));
    raw.close();
  });
});
