/**
 * The kept counts per custom field value (custom_field_counts and custom_field_totals, migration
 * 019) after every kind of write the service makes: an activation, a PATCH of custom fields,
 * status, flag or archive state, a tap, a report written by an import and by sync, a bundle
 * import (a first one rebuilds the listing in bulk), a report removed. After each, both tables
 * hold exactly the counts that follow from the listing rows and custom field elements, and each
 * custom field's facet read from them equals the one counted from the matches, for every company
 * and browser filter.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../db/database';
import customFieldCounts from '../../db/migrations/019-custom-field-counts';
import { CUSTOM_FIELD_KEPT } from '../../db/read-model';
import type { SqlFilter } from '../../db/report-store';
import { parseListQuery } from '../../query/list-query';
import { MODES, STATUSES, type CustomFieldValue } from '../../schema/report';
import { databaseAt, temporaryFolder } from './migration-fixture';
import { assertAfterEveryWrite, bundle, callerOf, closeAll, openAll, OWNERS, reportOf, writeCommands, type Open } from './kept-counts-writes';
import { COMPANIES } from '../support/service-fixture';

const dir = temporaryFolder('labeldesk-custom-field-counts-');

const FIELDS = ['carrier', 'pallets'] as const;

/** The browser's filters the kept counts split by, alone and together. */
const FILTERS = [
  '',
  'isArchived[eq]false',
  'hasFlag[eq]true,isArchived[eq]false',
  'status[eq]active,alert.level[gte]1',
  'alert.level[lte]0',
  `mode[eq]${MODES[1]}`,
  'company.id[eq]nordic,isArchived[eq]false',
];

/**
 * Values that test the counting: one report holding a value twice, a text and the number it
 * reads as, a text written as a number another way (`10.0`, counted by the exact grouping), and
 * arrays that hold nothing a condition picks.
 */
const VALUE = fc.constantFrom<CustomFieldValue | null>(
  'DHL',
  'UPS',
  ['DHL', 'DHL'],
  ['DHL', 'UPS'],
  10,
  2.5,
  [10, 10, 3],
  '10',
  '10.0',
  ['10', 10],
  [],
  null,
);
const FIELD_VALUES = fc.array(fc.tuple(fc.constantFrom(...FIELDS), VALUE), { maxLength: 2 });

/** Each kept table's counts and the counts that follow from the listing rows and elements, as sorted text rows. */
function countsOf(raw: Database.Database): { kept: string[]; derived: string[] } {
  const rows = (sql: string) => (raw.prepare(sql).raw().all() as unknown[][]).map((r) => JSON.stringify(r, (_, v) => (Buffer.isBuffer(v) ? 'holds' : v))).sort();
  const kept: string[] = [];
  const derived: string[] = [];
  for (const [table, { key, rows: rowsOf }] of Object.entries(CUSTOM_FIELD_KEPT)) {
    kept.push(...rows(`SELECT '${table}', ${key.join(', ')}, n FROM ${table}`));
    derived.push(...rows(`SELECT '${table}', ${key.join(', ')}, count(*) FROM (${rowsOf()}) GROUP BY ${key.join(', ')}`));
  }
  return { kept, derived };
}

/** The same filter, which the kept counts no longer serve: counted from the matches. */
const fromMatches = (sql: SqlFilter): SqlFilter => ({ ...sql, where: `(${sql.where}) AND 1` });
const sorted = (rows: { key: string | null; count: number }[]) => [...rows].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));

function expectCountsExact({ data, raw }: Open, step: string): void {
  const { kept, derived } = countsOf(raw);
  expect(kept, step).toEqual(derived);
  for (const company of COMPANIES) {
    for (const filter of FILTERS) {
      const sql = data.reports.compile(parseListQuery({ filter, pageSize: '1', output: 'minimal' }));
      expect(data.reports.readsKeptCounts(sql), filter).toBe(true);
      data.read(() => {
        const total = data.reports.count(company.id, sql);
        for (const field of FIELDS) {
          const keptFacet = data.insights.customFieldCounts(company.id, sql, field, total);
          const counted = data.insights.customFieldCounts(company.id, fromMatches(sql), field, total);
          expect(sorted(keptFacet), `${step}: ${company.id} ${filter} ${field}`).toEqual(sorted(counted));
        }
      });
    }
  }
}

const command = writeCommands({ reports: 6, modes: 2, fields: FIELD_VALUES });

describe('custom_field_counts', () => {
  it('holds exactly the counts of the custom field values after every kind of write, and each facet read from it is the counted one', async () => {
    await assertAfterEveryWrite((run) => join(dir(), `run-${run}.sqlite`), command, expectCountsExact);
  }, 600_000);

  it('a first bundle import, which builds the listing in bulk, counts from the rows it built, and the triggers are back after it', async () => {
    const file = join(dir(), 'bulk.sqlite');
    const open = openAll(file);
    try {
      for (const company of COMPANIES) open.service.companies.upsert(company);
      const values: CustomFieldValue[] = ['DHL', 'UPS', ['DHL', 'DHL'], 10, [10, '10'], 2.5];
      const reports = Array.from({ length: 30 }, (_, i) =>
        reportOf(`b${i}`, {
          owner: OWNERS[i % 2],
          status: STATUSES[i % 2],
          mode: i % 2,
          excursion: i % 3 === 0,
          shared: i % 4 === 0,
          flag: i % 5 === 0,
          archive: i % 7 === 0,
          fields: [
            ['carrier', values[i % values.length]],
            ['pallets', i % 3 === 0 ? null : i % 4],
          ],
        }),
      );
      expect((await open.service.importBundle(bundle(reports))).ok).toBe(true);
      expect(countsOf(open.raw).kept.length).toBeGreaterThan(10);
      expectCountsExact(open, 'after the first import');
      open.service.reports.update(callerOf('acme'), 'b0', { customFields: [{ customFieldId: 'carrier', value: ['UPS', 'FedEx'] }], isArchived: true });
      expectCountsExact(open, 'after a PATCH');
    } finally {
      closeAll(open);
    }
  });

  it('a facet of a filter the kept counts split by is read from them (the coarse ones where they split by it), one they do not split by from the matches', () => {
    const file = join(dir(), 'reads.sqlite');
    const open = openAll(file);
    try {
      for (const company of COMPANIES) open.service.companies.upsert(company);
      for (let i = 0; i < 6; i++) {
        open.service.putReport(
          reportOf(`p${i}`, { owner: 'acme', status: 'active', mode: 0, excursion: false, shared: false, flag: false, archive: false, fields: [['carrier', i % 2 ? 'DHL' : 'UPS']] }),
          { kind: 'import' },
        );
      }
      const { data, raw } = open;
      const facet = (filter: string) =>
        data.read(() => {
          const sql = data.reports.compile(parseListQuery({ filter, pageSize: '1' }));
          return sorted(data.insights.customFieldCounts('acme', sql, 'carrier', data.reports.count('acme', sql)));
        });
      const before = facet('isArchived[eq]false');
      expect(before).toEqual(sorted([{ key: 'DHL', count: 3 }, { key: 'UPS', count: 3 }]));
      expect(facet('status[eq]active')).toEqual(before);
      // Counts changed behind the triggers' back show which table the facet reads: the coarse one
      // for a filter on the archive state, flag or owner alone, the fine one for the others.
      raw.prepare(`UPDATE custom_field_counts SET n = n + 100 WHERE field = 'carrier' AND value = 'DHL'`).run();
      raw.prepare(`UPDATE custom_field_totals SET n = n + 1000 WHERE field = 'carrier' AND value = 'DHL'`).run();
      expect(facet('isArchived[eq]false')).toEqual(sorted([{ key: 'DHL', count: 1003 }, { key: 'UPS', count: 3 }]));
      expect(facet('')).toEqual(sorted([{ key: 'DHL', count: 1003 }, { key: 'UPS', count: 3 }]));
      expect(facet('company.id[eq]acme,hasFlag[eq]false')).toEqual(sorted([{ key: 'DHL', count: 1003 }, { key: 'UPS', count: 3 }]));
      expect(facet('status[eq]active')).toEqual(sorted([{ key: 'DHL', count: 103 }, { key: 'UPS', count: 3 }]));
      expect(facet('created[gte]2000-01-01T00:00:00Z')).toEqual(before);
    } finally {
      closeAll(open);
    }
  });

  it('migration 019 counts the custom field values of a database that has them', () => {
    const version = MIGRATIONS.indexOf(customFieldCounts) + 1;
    const file = join(dir(), 'migrated.sqlite');
    const reports = Array.from({ length: 20 }, (_, i) =>
      reportOf(`m${i}`, {
        owner: OWNERS[i % 2],
        status: STATUSES[i % 2],
        mode: i % 2,
        excursion: i % 3 === 0,
        shared: i % 4 === 0,
        flag: i % 5 === 0,
        archive: i % 6 === 0,
        fields: [['carrier', ['DHL', 'UPS', ['DHL', 'DHL'], 10][i % 4] as CustomFieldValue]],
      }),
    );
    databaseAt(file, version - 1, reports).close();
    const open = openAll(file);
    try {
      expect(countsOf(open.raw).kept.length).toBeGreaterThan(10);
      expectCountsExact(open, 'after the migration');
    } finally {
      closeAll(open);
    }
  });
});
