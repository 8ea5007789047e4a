/**
 * The kept counts (listing_counts, migration 015) after every kind of write the service makes:
 * an activation, a PATCH (status, flag, archive), a tap, a report written by an import and by
 * sync, a bundle import (a first one rebuilds the listing in bulk), a report removed, its sharing
 * changed. After each, the table holds exactly the counts of the listing rows, and the count of
 * each browser filter read from it equals the COUNT(*) of its matches, for every company.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../db/database';
import listingCounts from '../../db/migrations/015-listing-counts';
import { parseListQuery } from '../../query/list-query';
import { MODES, STATUSES } from '../../schema/report';
import { databaseAt, temporaryFolder } from './migration-fixture';
import { assertAfterEveryWrite, bundle, callerOf, closeAll, openAll, OWNERS, reportOf, writeCommands, type Open } from './kept-counts-writes';
import { COMPANIES } from '../support/service-fixture';

const dir = temporaryFolder('labeldesk-listing-counts-');

/** The browser's filters, alone and together, and one that reads the matches (a created range). */
const FILTERS = [
  '',
  'isArchived[eq]false',
  'isArchived[eq]true',
  'hasFlag[eq]true,isArchived[eq]false',
  'status[eq]active,alert.level[gte]1,isArchived[eq]false',
  'alert.level[lte]0',
  `mode[eq]${MODES[2]},type[eq]tempSense`,
  'company.id[eq]nordic,isArchived[eq]false',
  'company.id[neq]acme',
];

const KEY = 'ck, owner_ck, status, alert_level, mode, type, has_flag, is_archived';

/** The kept counts and the counts of the listing rows, each as sorted text rows. */
function countsOf(raw: Database.Database): { kept: string[]; listed: string[] } {
  const rows = (sql: string) => (raw.prepare(sql).raw().all() as unknown[][]).map((r) => JSON.stringify(r)).sort();
  return {
    kept: rows(`SELECT ${KEY}, n FROM listing_counts`),
    listed: rows(`SELECT ${KEY}, count(*) FROM report_listing GROUP BY ${KEY}`),
  };
}

function expectCountsExact({ data, service, raw }: Open, step: string): void {
  const { kept, listed } = countsOf(raw);
  expect(kept, step).toEqual(listed);
  for (const company of COMPANIES) {
    for (const filter of FILTERS) {
      const q = parseListQuery({ filter, pageSize: '1', output: 'minimal' });
      const sql = data.reports.compile(q);
      expect(data.reports.readsKeptCounts(sql), filter).toBe(true);
      const matches = raw
        .prepare(`SELECT count(*) FROM report_listing l WHERE l.ck = (SELECT ck FROM company_keys WHERE company_id = ?) AND (${sql.where})`)
        .pluck()
        .get(company.id, ...sql.params);
      expect(data.reports.count(company.id, sql), `${step}: ${company.id} ${filter}`).toBe(matches);
      expect(service.reports.list(callerOf(company.id), q).totalDocuments, `${step}: ${company.id} ${filter} over the service`).toBe(matches);
    }
  }
}

const command = writeCommands({ reports: 8, modes: MODES.length });

describe('listing_counts', () => {
  it('holds exactly the counts of the listing rows after every kind of write, and counts every browser filter exactly', async () => {
    await assertAfterEveryWrite((run) => join(dir(), `run-${run}.sqlite`), command, expectCountsExact);
  }, 600_000);

  it('a first bundle import, which builds the listing in bulk, counts from the rows it built', async () => {
    const file = join(dir(), 'bulk.sqlite');
    const open = openAll(file);
    const { service } = open;
    try {
      for (const company of COMPANIES) service.companies.upsert(company);
      const reports = Array.from({ length: 30 }, (_, i) =>
        reportOf(`b${i}`, { owner: OWNERS[i % 2], status: STATUSES[i % 2], mode: i % MODES.length, excursion: i % 3 === 0, shared: i % 4 === 0, flag: i % 5 === 0, archive: i % 7 === 0 }),
      );
      expect((await service.importBundle(bundle(reports))).ok).toBe(true);
      expect(countsOf(open.raw).kept.length).toBeGreaterThan(5);
      expectCountsExact(open, 'after the first import');
      // A caller that narrows a compiled filter with a condition of its own is counted from the matches.
      const { data, raw } = open;
      const sql = data.reports.compile(parseListQuery({ filter: 'isArchived[eq]false' }));
      const narrowed = { ...sql, where: `(${sql.where}) AND (l.rk % 3 = ?)`, params: [...sql.params, 0] };
      expect(data.reports.readsKeptCounts(sql)).toBe(true);
      expect(data.reports.readsKeptCounts(narrowed)).toBe(false);
      expect(data.reports.count('acme', narrowed)).toBe(
        raw.prepare(`SELECT count(*) FROM report_listing l WHERE l.ck = (SELECT ck FROM company_keys WHERE company_id = 'acme') AND ${narrowed.where}`).pluck().get(...narrowed.params),
      );
      expect(data.reports.count('acme', narrowed)).toBeLessThan(data.reports.count('acme', sql));
      // The triggers are back: a write after the bulk rebuild is counted.
      service.reports.update(callerOf('acme'), 'b0', { isArchived: true, hasFlag: false });
      expectCountsExact(open, 'after a PATCH');
    } finally {
      closeAll(open);
    }
  });

  it('migration 015 counts the listing rows of a database that has them', () => {
    const version = MIGRATIONS.indexOf(listingCounts) + 1;
    const file = join(dir(), 'migrated.sqlite');
    const reports = Array.from({ length: 20 }, (_, i) =>
      reportOf(`m${i}`, { owner: OWNERS[i % 2], status: STATUSES[i % 2], mode: i % MODES.length, excursion: i % 3 === 0, shared: i % 4 === 0, flag: i % 5 === 0, archive: i % 6 === 0 }),
    );
    databaseAt(file, version - 1, reports).close();
    const open = openAll(file);
    try {
      expect(countsOf(open.raw).kept.length).toBeGreaterThan(5);
      expectCountsExact(open, 'after the migration');
      const names = open.raw.prepare(`SELECT name FROM sqlite_schema WHERE name LIKE 'listing_counts%' OR name IN ('listing_mean_kinetic_temperature', 'listing_degree_hour', 'listing_average_temperature')`).pluck().all();
      expect(names.sort()).toEqual([
        'listing_average_temperature',
        'listing_counts',
        'listing_counts_delete',
        'listing_counts_insert',
        'listing_counts_update',
        'listing_degree_hour',
        'listing_mean_kinetic_temperature',
      ]);
    } finally {
      closeAll(open);
    }
  });
});
