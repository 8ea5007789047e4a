/**
 * The kept counts of pairs of custom field values (custom_field_pair_counts, migration 025) after
 * every kind of write the service makes: an activation, a PATCH of custom fields, status, flag or
 * archive state, a tap, a report written by an import and by sync, a bundle import (a first one
 * rebuilds the listing in bulk), a report removed. After each, the table holds exactly the pairs
 * that follow from the listing rows and custom field elements, and the facet of each field under
 * a comparison of the other, read from it where it may be, equals the one counted from the
 * matches, for every company and the filters the pairs split by. Reports holding more than
 * PAIRED_FIELDS fields (wide: their pairs are not kept, migration 028) come and go among them, and
 * the facets read from the pairs add theirs from their elements.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../db/database';
import { keptPairRows } from '../../db/field-counts';
import pairCounts from '../../db/migrations/025-custom-field-pair-counts';
import narrowPairs from '../../db/migrations/028-custom-field-pairs-of-narrow-reports';
import { PAIR_KEY, PAIR_ROWS, PAIRED_FIELDS, WIDTH_ROWS } from '../../db/read-model';
import type { SqlFilter } from '../../db/report-store';
import { parseListQuery } from '../../query/list-query';
import { STATUSES, type CustomFieldValue } from '../../schema/report';
import { databaseAt, temporaryFolder } from './migration-fixture';
import { assertAfterEveryWrite, bundle, callerOf, closeAll, openAll, OWNERS, reportOf, writeCommands, type Open, type WriteCommand } from './kept-counts-writes';
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
const NARROW_VALUES = fc.array(fc.tuple(fc.constantFrom(...FIELDS), VALUE), { maxLength: 2 });
/** Fields beside the two compared: with both, a report holding them all is wide. */
const FILLERS = Array.from({ length: PAIRED_FIELDS }, (_, i) => `f${i}`);
/** Some of the fillers set to one value, or removed: a report crosses PAIRED_FIELDS either way. */
const FILLER_VALUES = fc
  .tuple(
    fc.oneof(fc.constant(FILLERS), fc.constant(FILLERS.slice(1)), fc.subarray(FILLERS, { minLength: 1, maxLength: 2 }), fc.subarray(FILLERS)),
    fc.constantFrom<CustomFieldValue | null>(1, 'x', ['x', 'y'], [], null, null),
  )
  .map(([names, value]) => names.map((name): [string, CustomFieldValue | null] => [name, value]));
/** One or two fillers removed: a wide report written so comes back to PAIRED_FIELDS fields or stays wide. */
const FILLERS_REMOVED = fc.subarray(FILLERS, { minLength: 1, maxLength: 2 }).map((names) => names.map((name): [string, CustomFieldValue | null] => [name, null]));
const FIELD_VALUES = fc.oneof(NARROW_VALUES, fc.tuple(NARROW_VALUES, FILLER_VALUES).map(([a, b]) => [...a, ...b]), FILLERS_REMOVED);

/** The kept pairs and the pairs that follow from the listing rows and elements, as sorted text rows. */
function pairsOf(raw: Database.Database): { kept: string[]; derived: string[]; widths: string[]; counted: string[] } {
  const rows = (sql: string) => (raw.prepare(sql).raw().all() as unknown[][]).map((r) => JSON.stringify(r, (_, v) => (Buffer.isBuffer(v) ? 'holds' : v))).sort();
  return {
    kept: rows(`SELECT ${PAIR_KEY.join(', ')}, n FROM custom_field_pair_counts`),
    derived: rows(`SELECT ${PAIR_KEY.join(', ')}, count(*) FROM (${PAIR_ROWS}) GROUP BY ${PAIR_KEY.join(', ')}`),
    widths: rows('SELECT rk, fields FROM custom_field_widths'),
    counted: rows(WIDTH_ROWS),
  };
}

/** The reports wider than PAIRED_FIELDS, by the kept widths. */
const wideReports = (raw: Database.Database) => (raw.prepare(`SELECT rk FROM custom_field_widths WHERE fields > ${PAIRED_FIELDS} ORDER BY rk`).pluck().all() as number[]).join(',');

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
  const { kept, derived, widths, counted } = pairsOf(open.raw);
  expect(kept, step).toEqual(derived);
  expect(widths, step).toEqual(counted);
  expectFacetsExact(open, step);
}

/** How often the random writes had a wide report, and changed which reports were wide. */
const seen = { wide: 0, crossings: 0, narrowed: 0 };
const wideBefore = new WeakMap<Database.Database, string>();
function expectPairsExactCountingCrossings(open: Open, step: string): void {
  expectPairsExact(open, step);
  const wide = wideReports(open.raw);
  if (wide !== '') seen.wide++;
  const before = wideBefore.get(open.raw) ?? '';
  if (wide !== before) seen.crossings++;
  // A report no longer wide that is still there: a write made it narrow.
  if (before.split(',').some((rk) => rk !== '' && !wide.split(',').includes(rk) && open.raw.prepare('SELECT 1 FROM custom_field_widths WHERE rk = ?').get(Number(rk)))) seen.narrowed++;
  wideBefore.set(open.raw, wide);
}

const command = writeCommands({ reports: 3, modes: 2, fields: FIELD_VALUES });

const SHAPE = { status: STATUSES[0], mode: 0, excursion: false, shared: false } as const;

describe('custom_field_pair_counts', () => {
  it('holds exactly the pairs of custom field values after every kind of write, and each facet read from it is the counted one', async () => {
    await assertAfterEveryWrite((run) => join(dir(), `run-${run}.sqlite`), command, expectPairsExactCountingCrossings);
    expect(seen.wide).toBeGreaterThan(0);
    expect(seen.crossings).toBeGreaterThan(0);
  }, 600_000);

  it('holds exactly the pairs while writes of custom fields, flags and archive states move reports across PAIRED_FIELDS both ways', async () => {
    const id = fc.constantFrom('r0', 'r1');
    const shape = fc.record({
      owner: fc.constant('acme' as const),
      status: fc.constantFrom(...STATUSES),
      mode: fc.constant(0),
      excursion: fc.boolean(),
      shared: fc.boolean(),
      flag: fc.boolean(),
      archive: fc.boolean(),
      fields: fc.tuple(NARROW_VALUES, FILLER_VALUES).map(([a, b]) => [...a, ['carrier', 'DHL'], ['pallets', 3], ...b] as [string, CustomFieldValue | null][]),
    });
    const crossing: fc.Arbitrary<WriteCommand> = fc.oneof(
      fc.record({ kind: fc.constant('import' as const), id, shape }),
      fc.record({ kind: fc.constant('fields' as const), id, by: fc.constant('acme' as const), fields: fc.oneof(FIELD_VALUES, FILLER_VALUES, FILLERS_REMOVED) }),
      fc.record({ kind: fc.constant('fields' as const), id, by: fc.constant('acme' as const), fields: FILLERS_REMOVED }),
      fc.record({ kind: fc.constant('patch' as const), id, by: fc.constant('acme' as const), patch: fc.record({ hasFlag: fc.boolean(), isArchived: fc.boolean() }, { requiredKeys: [] }) }),
    );
    const narrowedBefore = seen.narrowed;
    await assertAfterEveryWrite((run) => join(dir(), `crossing-${run}.sqlite`), crossing, expectPairsExactCountingCrossings);
    expect(seen.narrowed).toBeGreaterThan(narrowedBefore);
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
            // One report in four wide, one in eight at PAIRED_FIELDS fields or fewer by one.
            ...FILLERS.slice(0, i % 4 === 1 ? PAIRED_FIELDS : i % 8 === 2 ? PAIRED_FIELDS - 2 : 0).map((f): [string, CustomFieldValue] => [f, i % 3]),
          ],
        }),
      );
      expect((await open.service.importBundle(bundle(reports))).ok).toBe(true);
      expect(wideReports(open.raw)).not.toBe('');
      expect(pairsOf(open.raw).kept.length).toBeGreaterThan(10);
      expectPairsExact(open, 'after the first import');
      // Pallets hold one value each: their comparisons are read from the pairs.
      expect(expectFacetsExact(open, 'after the first import')).toBeGreaterThan(0);
      open.service.reports.update(callerOf('acme'), 'b0', { customFields: [{ customFieldId: 'carrier', value: ['UPS', 'FedEx'] }], isArchived: true });
      expectPairsExact(open, 'after a PATCH');
      open.service.reports.update(callerOf(OWNERS[1]), 'b1', { customFields: [{ customFieldId: 'f0', value: null }], hasFlag: true });
      expectPairsExact(open, 'after a PATCH that makes a wide report narrow');
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

  it('a report holding more than PAIRED_FIELDS fields keeps no pairs, the facets read from the pairs add its own, and a field that crosses moves its pairs once', () => {
    const file = join(dir(), 'wide.sqlite');
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
      // Carrier, pallets and all fillers but one: PAIRED_FIELDS + 1 fields.
      const fillers = FILLERS.slice(1).map((f): [string, CustomFieldValue] => [f, 'x']);
      open.service.putReport(reportOf('w', { ...SHAPE, owner: 'acme', shared: true, flag: false, archive: false, fields: [['carrier', 'DHL'], ['pallets', 4], ...fillers] }), { kind: 'import' });
      const { data, raw } = open;
      const access = { statement: (sql: string) => raw.prepare(sql), hasTable: () => true };
      const rk = raw.prepare(`SELECT rk FROM report_keys WHERE report_id = 'w'`).pluck().get() as number;
      // Only w holds the fillers: the pair rows naming one are its own.
      const pairsOfW = () => raw.prepare(`SELECT count(*) FROM custom_field_pair_counts WHERE field LIKE 'f%' OR other_field LIKE 'f%'`).pluck().get() as number;
      const facet = (companyId: string, customFields: string, filter = '') =>
        data.read(() => {
          const sql = data.reports.compile(parseListQuery({ customFields, filter }));
          expect(keptPairRows(access, companyId, sql, 'carrier'), `${customFields} ${filter} is read from the pairs`).toBeDefined();
          return sorted(data.insights.customFieldCounts(companyId, sql, 'carrier', data.reports.count(companyId, sql)));
        });
      expect(wideReports(raw)).toBe(String(rk));
      expect(pairsOfW()).toBe(0);
      expectPairsExact(open, 'a wide report');
      expect(facet('acme', 'pallets[gte]2')).toEqual(sorted([{ key: 'DHL', count: 3 }, { key: 'UPS', count: 2 }]));
      expect(facet('acme', 'pallets[eq]4', 'hasFlag[eq]false')).toEqual(sorted([{ key: 'DHL', count: 1 }, { key: 'UPS', count: 1 }]));
      // The view of the company it is shared with: the wide report alone.
      expect(facet('nordic', 'pallets[gte]2')).toEqual(sorted([{ key: 'DHL', count: 1 }]));
      open.service.reports.update(callerOf('acme'), 'w', { isArchived: true });
      expectPairsExact(open, 'a wide report archived');
      expect(facet('acme', 'pallets[gte]2', 'isArchived[eq]false')).toEqual(sorted([{ key: 'DHL', count: 2 }, { key: 'UPS', count: 2 }]));
      expect(facet('acme', 'pallets[gte]2', 'isArchived[eq]true')).toEqual(sorted([{ key: 'DHL', count: 1 }]));
      // One field fewer: PAIRED_FIELDS, its pairs kept again; one more: wide again, none kept.
      open.service.reports.update(callerOf('acme'), 'w', { customFields: [{ customFieldId: 'f1', value: null }] });
      expect(wideReports(raw)).toBe('');
      expect(pairsOfW()).toBeGreaterThan(0);
      expectPairsExact(open, 'a report made narrow');
      expect(facet('acme', 'pallets[gte]2', 'isArchived[eq]true')).toEqual(sorted([{ key: 'DHL', count: 1 }]));
      open.service.reports.update(callerOf('acme'), 'w', { customFields: [{ customFieldId: 'f0', value: [1, 2] }] });
      expect(wideReports(raw)).toBe(String(rk));
      expect(pairsOfW()).toBe(0);
      expectPairsExact(open, 'a report made wide');
      expect(facet('acme', 'pallets[gte]2')).toEqual(sorted([{ key: 'DHL', count: 3 }, { key: 'UPS', count: 2 }]));
      data.write(() => data.reports.remove('w'));
      expect(raw.prepare('SELECT count(*) FROM custom_field_widths WHERE rk = ?').pluck().get(rk)).toBe(0);
      expectPairsExact(open, 'a wide report removed');
    } finally {
      closeAll(open);
    }
  });

  it('a flag, an archive state or a custom field written on a report moves a bounded number of pair rows, however many fields it holds, and its other kept rows grow linearly', () => {
    const file = join(dir(), 'upkeep.sqlite');
    const open = openAll(file);
    try {
      for (const company of COMPANIES) open.service.companies.upsert(company);
      const widths = [0, 2, PAIRED_FIELDS, PAIRED_FIELDS + 1, 100, 200];
      for (const width of widths) {
        const fields = Array.from({ length: width }, (_, i): [string, CustomFieldValue] => [`g${i}`, i % 2 ? `v${i}` : i]);
        open.service.putReport(reportOf(`w${width}`, { ...SHAPE, owner: 'acme', flag: false, archive: false, fields }), { kind: 'import' });
      }
      const { raw } = open;
      // Rows of custom_field_pair_counts inserted, updated or deleted, counted on this connection.
      raw.exec(`CREATE TEMP TABLE touched (n INTEGER NOT NULL);
        CREATE TEMP TRIGGER touched_insert AFTER INSERT ON main.custom_field_pair_counts BEGIN INSERT INTO touched VALUES (1); END;
        CREATE TEMP TRIGGER touched_update AFTER UPDATE ON main.custom_field_pair_counts BEGIN INSERT INTO touched VALUES (1); END;
        CREATE TEMP TRIGGER touched_delete AFTER DELETE ON main.custom_field_pair_counts BEGIN INSERT INTO touched VALUES (1); END;`);
      const moved = (run: () => void) => {
        raw.exec('DELETE FROM touched');
        const before = raw.prepare('SELECT total_changes()').pluck().get() as number;
        run();
        const pairs = raw.prepare('SELECT count(*) FROM touched').pluck().get() as number;
        // total_changes counts the rows the temporary triggers wrote too.
        return { pairs, all: (raw.prepare('SELECT total_changes()').pluck().get() as number) - before - pairs };
      };
      const writes = {
        hasFlag: (id: string) =>
          raw
            .prepare(`INSERT INTO company_report_state (company_id, label_report_id, has_flag) VALUES ('acme', ?, 1) ON CONFLICT DO UPDATE SET has_flag = 1 - has_flag`)
            .run(id),
        isArchived: (id: string) =>
          raw
            .prepare(`INSERT INTO company_report_state (company_id, label_report_id, is_archived) VALUES ('acme', ?, 1) ON CONFLICT DO UPDATE SET is_archived = 1 - is_archived`)
            .run(id),
        field: (id: string) =>
          raw
            .prepare(`INSERT INTO custom_field_values (label_report_id, custom_field_id, value) VALUES (?, 'g1', '"a"') ON CONFLICT DO UPDATE SET value = json_quote(value || 'b')`)
            .run(id),
      };
      /** The pair rows of one listing row of a report holding PAIRED_FIELDS fields: each value beside each value and holding row of the others. */
      const narrowest = 2 * PAIRED_FIELDS * (PAIRED_FIELDS - 1);
      for (const [kind, write] of Object.entries(writes)) {
        const at = Object.fromEntries(widths.map((w) => [w, moved(() => write(`w${w}`))]));
        expect(at[0].pairs, kind).toBe(0);
        // A narrow report moves its pairs: each taken and put back, a change or two each way, and
        // a state written again moves the listing row twice (to no state, then to the new one)...
        expect(at[PAIRED_FIELDS].pairs, kind).toBeGreaterThan(0);
        expect(at[PAIRED_FIELDS].pairs, kind).toBeLessThanOrEqual(8 * narrowest);
        // ... a wide one none.
        for (const w of [100, 200]) expect(at[w].pairs, `${kind} on ${w} fields`).toBe(0);
        // One field past the bound, a value written again takes the field away (the report is
        // narrow for a moment, its pairs put back) and brings it back (they go again): bounded.
        if (kind === 'field') expect(at[PAIRED_FIELDS + 1].pairs).toBeLessThanOrEqual(4 * narrowest);
        else expect(at[PAIRED_FIELDS + 1].pairs, kind).toBe(0);
        // All it changes grows at most linearly with the fields: each value's row and each
        // field's holding row, in custom_field_counts and custom_field_totals, taken and put back
        // (twice for a state written again).
        for (const w of widths) expect(at[w].all, `${kind} on ${w} fields`).toBeLessThanOrEqual(at[0].all + 32 * w + 8 * narrowest);
      }
      // A field that makes a narrow report wide takes its pairs away once; removing it brings them back.
      const crossing = (value: string) => moved(() => raw.prepare(`INSERT INTO custom_field_values (label_report_id, custom_field_id, value) VALUES ('w${PAIRED_FIELDS}', 'extra', ?) ON CONFLICT DO UPDATE SET value = excluded.value`).run(value)).pairs;
      expect(crossing('"on"')).toBeLessThanOrEqual(2 * narrowest);
      expect(wideReports(raw)).toContain(String(raw.prepare(`SELECT rk FROM report_keys WHERE report_id = 'w${PAIRED_FIELDS}'`).pluck().get()));
      expect(moved(() => raw.prepare(`DELETE FROM custom_field_values WHERE label_report_id = 'w${PAIRED_FIELDS}' AND custom_field_id = 'extra'`).run()).pairs).toBeLessThanOrEqual(2 * narrowest);
      expectPairsExact(open, 'after the writes');
    } finally {
      closeAll(open);
    }
  });

  it('migration 028 takes away the pairs of the wide reports and counts the widths of a database that has custom field values', () => {
    const version = MIGRATIONS.indexOf(narrowPairs) + 1;
    const file = join(dir(), 'migrated-028.sqlite');
    const reports = Array.from({ length: 12 }, (_, i) =>
      reportOf(`n${i}`, {
        ...SHAPE,
        owner: OWNERS[i % 2],
        shared: i % 3 === 0,
        flag: i % 5 === 0,
        archive: false,
        fields: [['carrier', ['DHL', 'UPS'][i % 2]], ['pallets', i % 5], ...FILLERS.slice(0, i % 3 === 1 ? PAIRED_FIELDS : 1).map((f): [string, CustomFieldValue] => [f, i])],
      }),
    );
    databaseAt(file, version - 1, reports).close();
    const open = openAll(file);
    try {
      expect(wideReports(open.raw)).not.toBe('');
      expectPairsExact(open, 'after the migration');
    } finally {
      closeAll(open);
    }
  });
});
