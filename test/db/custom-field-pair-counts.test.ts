/**
 * The kept counts of pairs of custom field values (custom_field_pair_counts, migration 025) after
 * every kind of write the service makes: an activation, a PATCH of custom fields, status, flag or
 * archive state, a tap, a report written by an import and by sync, a bundle import (a first one
 * rebuilds the listing in bulk), a report removed. After each, the table holds exactly the pairs
 * that follow from the listing rows and custom field elements, and the facet of each field under
 * a comparison of the other, read from it where it may be, equals the one counted from the
 * matches, for every company and the filters the pairs split by.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../db/database';
import { keptPairRows } from '../../db/field-counts';
import pairCounts from '../../db/migrations/025-custom-field-pair-counts';
import { PAIR_KEY, PAIR_ROWS } from '../../db/read-model';
import type { SqlFilter } from '../../db/report-store';
import { parseListQuery } from '../../query/list-query';
import { STATUSES, type CustomFieldValue } from '../../schema/report';
import { databaseAt, temporaryFolder } from './migration-fixture';
import { assertAfterEveryWrite, bundle, callerOf, closeAll, openAll, OWNERS, reportOf, writeCommands, type Open } from './kept-counts-writes';
import { COMPANIES } from '../support/service-fixture';

const dir = temporaryFolder('labeldesk-custom-field-pair-counts-');

const FIELDS = ['carrier', 'pallets'] as const;

/** Comparisons of one field, each with a filter the pairs split by (or one they do not: status). */
const ASKS: [compared: string, filter: string][] = [
  ['pallets[gte]3', ''],
  ['pallets[lt]10', 'isArchived[eq]false'],
  ['pallets[eq]10', 'company.id[eq]nordic,hasFlag[eq]false'],
  ['carrier[eq]DHL', ''],
  ['carrier[gte]E', 'isArchived[eq]false'],
  ['carrier[eq]10', ''],
  ['pallets[gt]2', 'status[eq]active'],
];

/**
 * Values that test the counting: a value held twice, several values of the counted field, a text
 * and the number it reads as, a text written as a number another way, arrays that hold nothing a
 * condition picks.
 */
const VALUE = fc.constantFrom<CustomFieldValue | null>('DHL', 'UPS', ['DHL', 'DHL'], ['DHL', 'UPS'], 10, 2.5, [10, 10], 3, '10', '10.0', [], null);
const FIELD_VALUES = fc.array(fc.tuple(fc.constantFrom(...FIELDS), VALUE), { maxLength: 2 });

/** The kept pairs and the pairs that follow from the listing rows and elements, as sorted text rows. */
function pairsOf(raw: Database.Database): { kept: string[]; derived: string[] } {
  const rows = (sql: string) => (raw.prepare(sql).raw().all() as unknown[][]).map((r) => JSON.stringify(r, (_, v) => (Buffer.isBuffer(v) ? 'holds' : v))).sort();
  return {
    kept: rows(`SELECT ${PAIR_KEY.join(', ')}, n FROM custom_field_pair_counts`),
    derived: rows(`SELECT ${PAIR_KEY.join(', ')}, count(*) FROM (${PAIR_ROWS}) GROUP BY ${PAIR_KEY.join(', ')}`),
  };
}

const fromMatches = (sql: SqlFilter): SqlFilter => ({ ...sql, countedByField: undefined });
const sorted = (rows: { key: string | null; count: number }[]) => [...rows].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));

/** Each field's facet under each comparison of the other, kept and counted; how many were read from the pairs. */
function expectFacetsExact({ data, raw }: Open, step: string): number {
  let fromPairs = 0;
  const access = { statement: (sql: string) => raw.prepare(sql), hasTable: () => true };
  for (const company of COMPANIES) {
    for (const [customFields, filter] of ASKS) {
      const sql = data.reports.compile(parseListQuery({ customFields, filter }));
      const counted = FIELDS.find((f) => !customFields.startsWith(f))!;
      if (keptPairRows(access, company.id, sql, counted)) fromPairs++;
      data.read(() => {
        const total = data.reports.count(company.id, fromMatches(sql));
        const label = `${step}: ${company.id} ${customFields} ${filter} → ${counted}`;
        expect(data.reports.count(company.id, sql), label).toBe(total);
        expect(sorted(data.insights.customFieldCounts(company.id, sql, counted, total)), label).toEqual(
          sorted(data.insights.customFieldCounts(company.id, fromMatches(sql), counted, total)),
        );
      });
    }
  }
  return fromPairs;
}

function expectPairsExact(open: Open, step: string): void {
  const { kept, derived } = pairsOf(open.raw);
  expect(kept, step).toEqual(derived);
  expectFacetsExact(open, step);
}

const command = writeCommands({ reports: 6, modes: 2, fields: FIELD_VALUES });

const SHAPE = { status: STATUSES[0], mode: 0, excursion: false, shared: false } as const;

describe('custom_field_pair_counts', () => {
  it('holds exactly the pairs of custom field values after every kind of write, and each facet read from it is the counted one', async () => {
    await assertAfterEveryWrite((run) => join(dir(), `run-${run}.sqlite`), command, expectPairsExact);
  }, 600_000);

  it('a first bundle import, which builds the listing in bulk, counts the pairs from the rows it built, and the triggers are back after it', async () => {
    const file = join(dir(), 'bulk.sqlite');
    const open = openAll(file);
    try {
      for (const company of COMPANIES) open.service.companies.upsert(company);
      const carriers: CustomFieldValue[] = ['DHL', 'UPS', ['DHL', 'UPS'], 10, '10'];
      const reports = Array.from({ length: 30 }, (_, i) =>
        reportOf(`b${i}`, {
          ...SHAPE,
          owner: OWNERS[i % 2],
          shared: i % 4 === 0,
          flag: i % 5 === 0,
          archive: i % 7 === 0,
          fields: [
            ['carrier', i % 6 === 5 ? null : carriers[i % carriers.length]],
            ['pallets', i % 3 === 0 ? null : i % 4],
          ],
        }),
      );
      expect((await open.service.importBundle(bundle(reports))).ok).toBe(true);
      expect(pairsOf(open.raw).kept.length).toBeGreaterThan(10);
      expectPairsExact(open, 'after the first import');
      // Pallets hold one value each: their comparisons are read from the pairs.
      expect(expectFacetsExact(open, 'after the first import')).toBeGreaterThan(0);
      open.service.reports.update(callerOf('acme'), 'b0', { customFields: [{ customFieldId: 'carrier', value: ['UPS', 'FedEx'] }], isArchived: true });
      expectPairsExact(open, 'after a PATCH');
    } finally {
      closeAll(open);
    }
  });

  it('the facet of one field under a comparison of another is read from the pairs while each report holds one compared value, from the matches once one holds two', () => {
    const file = join(dir(), 'reads.sqlite');
    const open = openAll(file);
    try {
      for (const company of COMPANIES) open.service.companies.upsert(company);
      for (let i = 0; i < 6; i++) {
        const fields: [string, CustomFieldValue][] = [
          ['carrier', i % 2 ? 'DHL' : 'UPS'],
          ['pallets', i],
        ];
        open.service.putReport(reportOf(`p${i}`, { ...SHAPE, owner: 'acme', flag: false, archive: false, fields }), { kind: 'import' });
      }
      const { data, raw } = open;
      const facet = (customFields: string, filter = '') =>
        data.read(() => {
          const sql = data.reports.compile(parseListQuery({ customFields, filter }));
          return sorted(data.insights.customFieldCounts('acme', sql, 'carrier', data.reports.count('acme', sql)));
        });
      expect(facet('pallets[gte]2')).toEqual(sorted([{ key: 'DHL', count: 2 }, { key: 'UPS', count: 2 }]));
      // Counts changed behind the triggers' back show where the facet is read from.
      raw.prepare(`UPDATE custom_field_pair_counts SET n = n + 100 WHERE field = 'pallets' AND other_field = 'carrier' AND other_value = 'DHL'`).run();
      expect(facet('pallets[gte]2')).toEqual(sorted([{ key: 'DHL', count: 2 + 200 }, { key: 'UPS', count: 2 }]));
      expect(facet('pallets[gte]2', 'isArchived[eq]false')).toEqual(sorted([{ key: 'DHL', count: 2 + 200 }, { key: 'UPS', count: 2 }]));
      // A filter on a column the pairs do not split by: counted from the matches.
      expect(facet('pallets[gte]2', 'status[eq]active')).toEqual(sorted([{ key: 'DHL', count: 2 }, { key: 'UPS', count: 2 }]));
      // A report holding two pallet values: a pair sum would count it twice, so the matches are read.
      open.service.reports.update(callerOf('acme'), 'p5', { customFields: [{ customFieldId: 'pallets', value: [5, 7] }] });
      expect(facet('pallets[gte]2')).toEqual(sorted([{ key: 'DHL', count: 2 }, { key: 'UPS', count: 2 }]));
    } finally {
      closeAll(open);
    }
  });

  it('migration 025 counts the pairs of a database that has custom field values', () => {
    const version = MIGRATIONS.indexOf(pairCounts) + 1;
    const file = join(dir(), 'migrated.sqlite');
    const reports = Array.from({ length: 20 }, (_, i) =>
      reportOf(`m${i}`, {
        ...SHAPE,
        owner: OWNERS[i % 2],
        shared: i % 4 === 0,
        flag: i % 5 === 0,
        archive: i % 6 === 0,
        fields: [
          ['carrier', ['DHL', 'UPS', ['DHL', 'DHL'], 10][i % 4] as CustomFieldValue],
          ['pallets', i % 5],
        ],
      }),
    );
    databaseAt(file, version - 1, reports).close();
    const open = openAll(file);
    try {
      expect(pairsOf(open.raw).kept.length).toBeGreaterThan(10);
      expectPairsExact(open, 'after the migration');
    } finally {
      closeAll(open);
    }
  });
});
