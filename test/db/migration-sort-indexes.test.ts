/**
 * Migration 009 (the sort indexes) upgrades a version-8 database holding reports of two
 * companies, with flags, archives, alerts and excursions: every answer the report browser's
 * requests got from version 8, page by page, is the one they get after it, and the indexes it
 * replaced are gone, the new ones in place and analysed.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { schemaVersion, SCHEMA_VERSION } from '../../db/database';
import { compileListQuery, compileOrder } from '../../db/query/compile';
import { parseListQuery } from '../../query/list-query';
import { defaultQuery, toApiParams, type ListFilters, type ListQuery as BrowserQuery, type SortColumn } from '../../renderer/lib/list-query';
import type { BundleReport } from '../../schema/bundle';
import { MODES } from '../../schema/report';
import { openService } from '../../host/open-service';
import { databaseAt, temporaryFolder } from './migration-fixture';
import { makeReport, series, T0 } from '../support/service-fixture';

const dir = temporaryFolder('labeldesk-migration-sort-indexes-');

const SORT_INDEXES_VERSION = 9;

/** Reports of two owners, shared both ways; every few a flag, an archive, an excursion or two. */
function reports(): BundleReport[] {
  return Array.from({ length: 40 }, (_, i) => {
    const owner = i % 4 === 3 ? 'nordic' : 'acme';
    const excursions = i % 5 === 0 ? [4, 9, 5, 9, 5] : i % 3 === 0 ? [4, 9, 5, 5] : [4, 5, 5, 4];
    return makeReport(`s${String(i).padStart(2, '0')}`, {
      created: new Date(Date.UTC(2026, 5, 1 + (i % 7), i)).toISOString(),
      companyId: owner,
      mode: MODES[i % 3],
      status: i % 4 === 0 ? 'active' : 'completed',
      reportedSenseData: { datapoints: series(T0, 600, excursions) },
      access: owner === 'nordic' ? [{ companyId: 'acme', role: 'viewer' }] : i % 6 === 0 ? [{ companyId: 'nordic', role: 'editor' }] : [],
      companyState: i % 3 === 1 ? [{ companyId: 'acme', hasFlag: i % 2 === 1, isArchived: i % 9 === 1 }] : [],
    });
  });
}

/** The browser's requests: its default view, each filter, each column sort both ways. */
function browserQueries(): Record<string, string>[] {
  const request = (change: (q: BrowserQuery) => void) => {
    const q = defaultQuery();
    change(q);
    return toApiParams(q) as unknown as Record<string, string>;
  };
  const filters = (patch: Partial<ListFilters>) => request((q) => Object.assign(q.filters, patch));
  const columns: SortColumn[] = ['status', 'mode', 'type', 'alert', 'flag', 'archived', 'excursions', 'updated', 'reference'];
  return [
    request(() => {}),
    filters({ status: 'active' }),
    filters({ alert: 'moderateOrWorse' }),
    filters({ status: 'completed', alert: 'none' }),
    filters({ mode: MODES[1] }),
    filters({ flagged: 'yes' }),
    filters({ archived: 'yes' }),
    filters({ archived: '' }),
    filters({ owner: 'nordic' }),
    ...columns.flatMap((column) =>
      (['asc', 'desc'] as const).flatMap((direction) => [
        request((q) => (q.sort = { column, direction })),
        request((q) => Object.assign(q, { sort: { column, direction }, filters: { ...q.filters, archived: '' } })),
      ]),
    ),
  ];
}

describe('migration 009: the sort indexes', () => {
  it('upgrades a version-8 database with data: the same pages, through the new indexes', () => {
    const file = join(dir(), 'v8.sqlite');
    const db = databaseAt(file, SORT_INDEXES_VERSION - 1, reports());
    const queries = browserQueries();
    // Version 8's answers, in one ordered read each.
    const before = (company: string) =>
      queries.map((query) => {
        const q = parseListQuery(query);
        const { where, params } = compileListQuery(q);
        return db
          .prepare(
            `SELECT l.id FROM report_listing l JOIN company_keys k ON k.ck = l.ck
             WHERE k.company_id = ? AND (${where}) ORDER BY ${compileOrder(q.order)}`,
          )
          .pluck()
          .all(company, ...params) as string[];
      });
    const answersBefore = { acme: before('acme'), nordic: before('nordic') };
    db.close();

    const upgraded = openService(file);
    const raw = new Database(file, { readonly: true });
    expect(schemaVersion(raw)).toBe(SCHEMA_VERSION);
    const indexes = raw.prepare(`SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'report_listing'`).pluck().all() as string[];
    for (const gone of ['listing_status_alert']) expect(indexes).not.toContain(gone);
    const analysed = new Set(raw.prepare(`SELECT idx FROM sqlite_stat1 WHERE tbl = 'report_listing'`).pluck().all() as string[]);
    for (const name of ['listing_archived', 'listing_status', 'listing_alert', 'listing_mode', 'listing_type', 'listing_flag', 'listing_violations_all', 'listing_id', 'listing_owner']) {
      expect(indexes).toContain(name);
      expect(analysed.has(name), name).toBe(true);
    }
    raw.close();

    for (const company of ['acme', 'nordic'] as const) {
      const caller = { keyId: 'k', companyId: company, permissions: new Set(['labelReports:read'] as const) };
      queries.forEach((query, i) => {
        const expected = answersBefore[company][i];
        // Pages of 3: each cut from the same order, the last one short.
        const pages: string[] = [];
        for (let pageNumber = 1; pageNumber <= Math.ceil(expected.length / 3) + 1; pageNumber++) {
          const page = upgraded.reports.list(caller, parseListQuery({ ...query, pageSize: '3', pageNumber: String(pageNumber), output: 'minimal' }));
          expect(page.totalDocuments, JSON.stringify(query)).toBe(expected.length);
          pages.push(...page.data.map((r) => r.id));
        }
        expect(pages, JSON.stringify(query)).toEqual(expected);
      });
    }
    // Not vacuous: the views differ, and none is empty for the company that owns most.
    expect(answersBefore.acme.every((ids) => ids.length > 0)).toBe(true);
    expect(new Set(answersBefore.acme.map((ids) => ids.join())).size).toBeGreaterThan(15);
    upgraded.close();
  });
});
