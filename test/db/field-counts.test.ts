/**
 * A filter of the kept keys and one comparison of a custom field is counted from the kept value
 * rows (db/field-counts.ts) while no report holds two values of the field, and from its matches
 * once one does. Either way the list's count and the insights' counts of the fixed keys are
 * those of the matches, for numbers, texts that look like numbers, reports without the field,
 * shared reports, flags and archived reports, on a real database.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { DataStore } from '../../db/data-store';
import { keptFieldRows } from '../../db/field-counts';
import type { SqlFilter } from '../../db/report-store';
import { openService } from '../../host/open-service';
import { parseListQuery } from '../../query/list-query';
import { temporaryFolder } from './migration-fixture';
import { makeReport, writeReportsFile } from '../support/service-fixture';

const dir = temporaryFolder('labeldesk-field-counts-');
const REPORTS = 300;
const KEYS = ['status', 'alert.level', 'mode', 'type', 'company.id', 'hasFlag', 'isArchived'] as const;

const CONDITIONS = [
  ['pallets[gte]20', ''],
  ['pallets[lt]7', 'isArchived[eq]false'],
  ['pallets[eq]10', ''],
  ['pallets[eq]10', 'status[eq]active,hasFlag[eq]false'],
  ['pallets[gt]3x', ''],
  ['batch[eq]B-3', 'company.id[eq]nordic'],
  ['batch[gte]B-5', 'mode[eq]airFreight'],
  ['batch[lte]B-2', 'isArchived[eq]true'],
] as const;

/** The counts read from the matches: the compiled filter without its kept form. */
const fromMatches = (f: SqlFilter): SqlFilter => ({ ...f, countedByField: undefined });

describe('counts of one custom field comparison', () => {
  it('are the matches’ counts, from the kept rows while each report holds one value, from the matches after', () => {
    const file = join(dir(), 'field-counts.sqlite');
    writeReportsFile(file, REPORTS, (i) =>
      makeReport(`f${String(i).padStart(4, '0')}`, {
        companyId: i % 4 === 3 ? 'nordic' : 'acme',
        access: i % 4 === 3 ? [{ companyId: 'acme', role: 'viewer' }] : [],
        status: i % 3 === 0 ? 'completed' : 'active',
        mode: i % 5 === 0 ? 'airFreight' : 'roadTransport',
        companyState: i % 7 === 0 ? [{ companyId: 'acme', hasFlag: true, isArchived: i % 14 === 0 }] : [],
        customFields: [
          ...(i % 9 === 8 ? [] : [{ customFieldId: 'batch', value: `B-${i % 8}` }]),
          // Numbers, and texts: one that reads as a number and compares as text, one that does not.
          ...(i % 11 === 10 ? [] : [{ customFieldId: 'pallets', value: i % 13 === 0 ? String(i % 40) : i % 17 === 0 ? 'x' : i % 40 }]),
        ],
      }),
    );
    const check = (expectKept: boolean) => {
      const data = DataStore.open(file);
      // The store's own choice, asked on a connection of the test's.
      const raw = new Database(file, { readonly: true });
      const access = { statement: (sql: string) => raw.prepare(sql), hasTable: () => true };
      try {
        for (const [customFields, filter] of CONDITIONS) {
          const f = data.reports.compile(parseListQuery({ customFields, filter }));
          const label = `${customFields} ${filter}`;
          expect(keptFieldRows(access, 'acme', f) !== undefined, label).toBe(expectKept);
          const matches = data.read(() => data.reports.count('acme', fromMatches(f)));
          expect(matches, label).toBeGreaterThan(0);
          expect(data.read(() => data.reports.count('acme', f)), label).toBe(matches);
          const sorted = (m: Map<string, { key: unknown; count: number }[]>) =>
            [...m].map(([k, rows]) => [k, [...rows].sort((a, b) => String(a.key).localeCompare(String(b.key)))]);
          // Every key at once, each alone (the browser asks for one when a custom field's facet is opened), and none.
          for (const keys of [KEYS, ...KEYS.map((key) => [key]), []]) {
            expect(sorted(data.read(() => data.insights.columnCounts('acme', f, keys))), `${label}: ${keys.join(',')}`).toEqual(
              sorted(data.read(() => data.insights.columnCounts('acme', fromMatches(f), keys))),
            );
          }
          // Each field's facet, the compared one from the kept rows too.
          for (const field of ['batch', 'pallets']) {
            expect(sorted(new Map([[field, data.read(() => data.insights.customFieldCounts('acme', f, field, matches))]])), `${label}: ${field}`).toEqual(
              sorted(new Map([[field, data.read(() => data.insights.customFieldCounts('acme', fromMatches(f), field, matches))]])),
            );
          }
          // Narrowed by a caller (a review condition), the count reads the matches.
          const narrowed = { ...f, where: `(${f.where}) AND (l.rk % 2 = ?)`, params: [...f.params, 0] };
          expect(keptFieldRows(access, 'acme', narrowed)).toBeUndefined();
        }
      } finally {
        raw.close();
        data.close();
      }
    };
    check(true);
    // One report holding two values of each field: the kept rows would count it twice.
    const again = openService(file);
    again.putReport(
      makeReport('f0005', { customFields: [{ customFieldId: 'batch', value: ['B-4', 'B-5'] }, { customFieldId: 'pallets', value: [10, 25] }] }),
      { kind: 'import' },
    );
    again.close();
    check(false);
  });
});
