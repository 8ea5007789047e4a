/**
 * The kept counts (listing_counts, migration 015) after every kind of write the service makes:
 * an activation, a PATCH (status, flag, archive), a tap, a report written by an import and by
 * sync, a bundle import (a first one rebuilds the listing in bulk), a report removed, its sharing
 * changed. After each, the table holds exactly the counts of the listing rows, and the count of
 * each browser filter read from it equals the COUNT(*) of its matches, for every company.
 */
import { join } from 'node:path';
import { Readable } from 'node:stream';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DataStore } from '../../db/data-store';
import { MIGRATIONS } from '../../db/database';
import listingCounts from '../../db/migrations/015-listing-counts';
import { parseListQuery } from '../../query/list-query';
import { MODES, STATUSES } from '../../schema/report';
import type { BundleReport } from '../../schema/bundle';
import type { Permission } from '../../schema/report';
import { openService, type Service } from '../../host/open-service';
import { databaseAt, temporaryFolder } from './migration-fixture';
import { assertAsyncProperty } from '../support/property';
import { COMPANIES, makeActivation, makeReport, series, T0 } from '../support/service-fixture';

const dir = temporaryFolder('labeldesk-listing-counts-');

const OWNERS = ['acme', 'nordic'] as const;
const PERMISSIONS = new Set<Permission>(['labelReports:read', 'labelReports:update', 'labelReports:create']);
const callerOf = (companyId: string) => ({ keyId: `k-${companyId}`, companyId, permissions: PERMISSIONS });

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

/** The service, a second connection through the store, and a bare one for the checks' own SQL. */
interface Open {
  service: Service;
  data: DataStore;
  raw: Database.Database;
}

function openAll(file: string): Open {
  const service = openService(file);
  return { service, data: DataStore.open(file), raw: new Database(file) };
}

function closeAll({ service, data, raw }: Open): void {
  service.close();
  data.close();
  raw.close();
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

interface Shape {
  owner: (typeof OWNERS)[number];
  status: (typeof STATUSES)[number];
  mode: number;
  excursion: boolean;
  shared: boolean;
  flag: boolean;
  archive: boolean;
}

const shape = fc.record({
  owner: fc.constantFrom(...OWNERS),
  status: fc.constantFrom(...STATUSES),
  mode: fc.nat(MODES.length - 1),
  excursion: fc.boolean(),
  shared: fc.boolean(),
  flag: fc.boolean(),
  archive: fc.boolean(),
});

function reportOf(id: string, s: Shape): BundleReport {
  const other = s.owner === 'acme' ? 'nordic' : 'acme';
  return makeReport(id, {
    companyId: s.owner,
    status: s.status,
    mode: MODES[s.mode],
    reportedSenseData: { datapoints: series(T0, 600, s.excursion ? [4, 5, 12, 5] : [4, 5, 5, 4]) },
    access: s.shared ? [{ companyId: other, role: 'viewer' }] : [],
    companyState: s.flag || s.archive ? [{ companyId: s.owner, hasFlag: s.flag, isArchived: s.archive }] : [],
  });
}

const bundle = (reports: BundleReport[]) =>
  Readable.from([Buffer.from(JSON.stringify({ version: 1, companies: COMPANIES, labelReports: reports }))]);

const ID = fc.nat(7).map((i) => `r${i}`);
const command = fc.oneof(
  fc.record({ kind: fc.constant('activate' as const), id: ID, owner: fc.constantFrom(...OWNERS) }),
  fc.record({
    kind: fc.constant('patch' as const),
    id: ID,
    by: fc.constantFrom(...OWNERS),
    patch: fc.record({ status: fc.constantFrom(...STATUSES), hasFlag: fc.boolean(), isArchived: fc.boolean() }, { requiredKeys: [] }),
  }),
  fc.record({ kind: fc.constant('tap' as const), id: ID, hot: fc.boolean() }),
  fc.record({ kind: fc.constantFrom('import' as const, 'sync' as const), id: ID, shape }),
  fc.record({ kind: fc.constant('bundle' as const), reports: fc.array(fc.tuple(ID, shape), { minLength: 1, maxLength: 4 }) }),
  fc.record({ kind: fc.constant('remove' as const), id: ID }),
);
type Command = typeof command extends fc.Arbitrary<infer C> ? C : never;

/** Runs one command; one the service refuses (a report not there, one there already) changes nothing. */
async function apply({ service, data }: Open, c: Command): Promise<void> {
  const refused = (run: () => unknown) => {
    try {
      run();
    } catch (error) {
      if (!(error instanceof Error) || !/not found|exists|NOT_FOUND|REPORT_EXISTS|permission|forbidden/i.test(`${error.message} ${(error as { code?: string }).code}`)) throw error;
    }
  };
  switch (c.kind) {
    case 'activate':
      return refused(() => service.intake.activate(callerOf(c.owner), makeActivation(c.id)));
    case 'patch':
      return refused(() => service.reports.update(callerOf(c.by), c.id, c.patch));
    case 'tap': {
      const owner = data.read(() => data.reports.load(c.id))?.ownerCompanyId ?? 'acme';
      return refused(() =>
        service.intake.tap(callerOf(owner), c.id, { datapoints: series(T0, 600, c.hot ? [4, 12, 13, 5] : [4, 5, 5, 5]) }),
      );
    }
    case 'import':
    case 'sync':
      return service.putReport(reportOf(c.id, c.shape), { kind: c.kind });
    case 'bundle': {
      const byId = new Map(c.reports.map(([id, s]) => [id, reportOf(id, s)]));
      const result = await service.importBundle(bundle([...byId.values()]));
      expect(result.ok, JSON.stringify(result)).toBe(true);
      return;
    }
    case 'remove':
      data.write(() => data.reports.remove(c.id));
      return;
  }
}

describe('listing_counts', () => {
  it('holds exactly the counts of the listing rows after every kind of write, and counts every browser filter exactly', async () => {
    let run = 0;
    await assertAsyncProperty(
      fc.asyncProperty(fc.array(command, { minLength: 1, maxLength: 12 }), async (commands) => {
        const file = join(dir(), `run-${run++}.sqlite`);
        const open = openAll(file);
        try {
          for (const company of COMPANIES) open.service.companies.upsert(company);
          for (const [i, c] of commands.entries()) {
            await apply(open, c);
            expectCountsExact(open, `after step ${i}: ${JSON.stringify(c)}`);
          }
        } finally {
          closeAll(open);
        }
      }),
      { numRuns: 25 },
    );
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
