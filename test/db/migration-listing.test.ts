/**
 * Migration 006 (the listing layout) upgrades a version-5 database holding reports, access
 * entries, per-company state and custom fields: every list answer is the one version 3 gave,
 * and what it derives equals what a fresh database derives from the same reports.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { schemaVersion, SCHEMA_VERSION } from '../../db/database';
import { parseListQuery } from '../../query/list-query';
import type { BundleReport } from '../../schema/bundle';
import { openService } from '../../host/open-service';
import { databaseAt, temporaryFolder } from './migration-fixture';
import { COMPANIES, makeReport, series, T0 } from '../support/service-fixture';
import { derivedForListing } from './listing-dump';

const dir = temporaryFolder('labeldesk-migration-listing-');

const LISTING_VERSION = 6;

/** Reports of two owners, shared both ways, with flags, archives, custom fields and alerts. */
function reports(): BundleReport[] {
  return Array.from({ length: 30 }, (_, i) => {
    const owner = i % 4 === 3 ? 'nordic' : 'acme';
    const temperatures = i % 3 === 0 ? [4, 5, 6, 5] : i % 3 === 1 ? [4, 9, 10, 5] : [4, 15, 16, 17];
    return makeReport(`m${String(i).padStart(2, '0')}`, {
      created: new Date(Date.UTC(2026, 5, 1 + (i % 10), i)).toISOString(),
      companyId: owner,
      status: i % 3 === 1 ? 'completed' : 'active',
      labelReference: i % 2 ? `PO-12${i}` : `ref-${i}`,
      reportedSenseData: { datapoints: series(T0, 600, temperatures) },
      access: owner === 'nordic' ? [{ companyId: 'acme', role: 'viewer' }] : i % 5 === 0 ? [{ companyId: 'nordic', role: 'editor' }] : [],
      companyState: i % 6 === 0 ? [{ companyId: 'acme', hasFlag: true, isArchived: i % 12 === 0 }] : [],
      customFields: [
        { customFieldId: 'batch', value: `B-${i % 5}` },
        { customFieldId: 'pallets', value: i % 2 ? i % 7 : [i % 7, 'loose'] },
      ],
    });
  });
}

/** [list query, the condition before the listing layout over r, s and the caller's entry a, and the order]. */
const QUERIES: [Record<string, string>, string, string][] = [
  [{}, '1', 'r.created ASC, r.id'],
  [{ order: 'created[desc]' }, '1', 'r.created DESC, r.id'],
  [{ filter: 'status[eq]active,alert.level[gte]1', order: 'created[desc]' }, "r.status = 'active' AND r.alert_level >= 1", 'r.created DESC, r.id'],
  [{ filter: 'hasFlag[eq]true' }, 'COALESCE(s.has_flag, 0) = 1', 'r.created, r.id'],
  [{ filter: 'isArchived[eq]false', order: 'updated[desc]' }, 'COALESCE(s.is_archived, 0) = 0', 'r.updated DESC, r.id'],
  [{ filter: 'company.id[neq]acme' }, "r.owner_company_id <> 'acme'", 'r.created, r.id'],
  [{ filter: 'labelReference[ilike]%po-12%' }, "r.label_reference LIKE '%po-12%'", 'r.created, r.id'],
  [{ filter: 'labelReference[like]ref%' }, "r.label_reference GLOB 'ref*'", 'r.created, r.id'],
  [{ filter: 'created[gte]2026-06-03T00:00:00Z,created[lt]2026-06-06T00:00:00Z' }, "r.created >= '2026-06-03' AND r.created < '2026-06-06'", 'r.created, r.id'],
  [
    { customFields: 'batch[eq]B-2' },
    "EXISTS (SELECT 1 FROM custom_field_values v, json_each(v.value) e WHERE v.label_report_id = r.id AND v.custom_field_id = 'batch' AND e.value = 'B-2')",
    'r.created, r.id',
  ],
  [
    { customFields: 'pallets[gte]4', order: 'numberOfTaps[asc]' },
    "EXISTS (SELECT 1 FROM custom_field_values v, json_each(v.value) e WHERE v.label_report_id = r.id AND v.custom_field_id = 'pallets' AND ((e.type = 'integer' AND e.value >= 4) OR (e.type = 'text' AND e.value >= '4')))",
    'r.number_of_taps, r.id',
  ],
  [{ order: 'calculatedSenseData.numberOfViolations.all[desc]' }, '1', "json_extract(r.calculated, '$.numberOfViolations.all') DESC, r.id"],
];

describe('migration 006: the listing layout', () => {
  it('upgrades a version-5 database with data: the same answers, the same derived rows as a fresh one', () => {
    const file = join(dir(), 'v3.sqlite');
    const db = databaseAt(file, LISTING_VERSION - 1, reports());
    const before = (company: string) =>
      QUERIES.map(([, where, order]) =>
        db
          .prepare(
            `SELECT r.id FROM access a JOIN label_reports r ON r.id = a.label_report_id
             LEFT JOIN company_report_state s ON s.label_report_id = r.id AND s.company_id = a.company_id
             WHERE a.company_id = ? AND ${where} ORDER BY ${order}`,
          )
          .pluck()
          .all(company),
      );
    const answersBefore = { acme: before('acme'), nordic: before('nordic') };
    db.close();

    const upgraded = openService(file);
    const raw = new Database(file, { readonly: true });
    expect(schemaVersion(raw)).toBe(SCHEMA_VERSION);
    raw.close();
    for (const company of ['acme', 'nordic'] as const) {
      const caller = { keyId: 'k', companyId: company, permissions: new Set(['labelReports:read'] as const) };
      const after = QUERIES.map(([query]) => {
        const page = upgraded.reports.list(caller, parseListQuery({ ...query, pageSize: '1000', output: 'minimal' }));
        expect(page.totalDocuments).toBe(page.data.length);
        return page.data.map((r) => r.id);
      });
      expect(after).toEqual(answersBefore[company]);
    }
    // Not vacuous: every filter finds some of the 30 reports, none all of them.
    expect(answersBefore.acme.map((ids) => ids.length)).toEqual([30, 30, 10, 5, 27, 7, 15, 15, 8, 6, 21, 30]);
    upgraded.close();

    const fresh = openService(join(dir(), 'fresh.sqlite'));
    for (const c of COMPANIES) fresh.companies.upsert(c);
    for (const report of reports()) fresh.putReport(report, { kind: 'import' });
    fresh.close();
    expect(derivedForListing(file)).toEqual(derivedForListing(join(dir(), 'fresh.sqlite')));
  });
});
