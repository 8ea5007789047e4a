/**
 * Migration 007 (the rare-value indexes) upgrades a version-6 database holding reports of two
 * companies: every list answer on the keys it indexes is the one version 6 gave, and each of
 * those keys has an index leading with the company and its column.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { schemaVersion, SCHEMA_VERSION } from '../../db/database';
import { compileListQuery, compileOrder } from '../../db/query/compile';
import { FIELD_COLUMNS } from '../../db/query/field-columns';
import { parseListQuery } from '../../query/list-query';
import type { BundleReport } from '../../schema/bundle';
import { openService } from '../../host/open-service';
import { databaseAt, temporaryFolder } from './migration-fixture';
import { makeReport, series, T0 } from '../support/service-fixture';

const dir = temporaryFolder('labeldesk-migration-rare-value-');

const RARE_VALUE_VERSION = 7;

/** Reports of two owners; a few share a reference or a name, a few have long or humid runs. */
function reports(): BundleReport[] {
  return Array.from({ length: 30 }, (_, i) => {
    const owner = i % 4 === 3 ? 'nordic' : 'acme';
    const long = i % 10 === 4;
    const temperatures = long ? Array.from({ length: 40 }, (_, k) => 4 + (k % 3)) : [4, 5, 9, 5];
    const humidities = i % 7 === 2 ? temperatures.map((_, k) => (k === 1 ? 95 : 50)) : undefined;
    return makeReport(`m${String(i).padStart(2, '0')}`, {
      created: new Date(Date.UTC(2026, 5, 1 + (i % 10), i)).toISOString(),
      companyId: owner,
      labelReference: i % 6 === 0 ? 'PO-SHARED' : `PO-${1000 + i}`,
      ...(i % 5 === 0 ? { label: { ...makeReport('x').label, name: 'Freezer 9', uid: `uid-m${i}`, sequenceCode: `SEQ-m${i}` } } : {}),
      ...(humidities ? { senseConfig: { ...makeReport('x').senseConfig, limits: { minTemperature: 2, maxTemperature: 8, minHumidity: 20, maxHumidity: 80 } } } : {}),
      reportedSenseData: { datapoints: series(T0, 600, temperatures, humidities) },
      access: owner === 'nordic' ? [{ companyId: 'acme', role: 'viewer' }] : i % 5 === 0 ? [{ companyId: 'nordic', role: 'editor' }] : [],
    });
  });
}

const QUERIES: Record<string, string>[] = [
  { filter: 'labelReference[eq]PO-SHARED', order: 'created[desc]' },
  { filter: 'labelReference[eq]PO-1007' },
  { filter: 'label.uid[eq]uid-m10', order: 'updated[desc]' },
  { filter: 'label.sequenceCode[eq]SEQ-m15', order: 'id[desc]' },
  { filter: 'label.name[eq]Freezer 9', order: 'created[desc]' },
  { filter: 'label.name[lt]Label', order: 'labelReference[asc]' },
  { filter: 'calculatedSenseData.numberOfDatapointsRead[gte]10', order: 'created[desc]' },
  { filter: 'calculatedSenseData.numberOfDatapointsAvailable[lt]10' },
  { filter: 'calculatedSenseData.numberOfMeasurementsOccurred[gt]4', order: 'numberOfTaps[desc]' },
  { filter: 'calculatedSenseData.numberOfViolations.humidity[gte]1', order: 'created[desc]' },
  { filter: 'calculatedSenseData.durationOfViolations.humidity[gt]0,labelReference[neq]PO-SHARED', order: 'created[desc]' },
  { filter: 'labelReference[neq]PO-SHARED', order: 'created[desc]' },
];

describe('migration 007: the rare-value indexes', () => {
  it('upgrades a version-6 database with data: the same answers, through the new indexes', () => {
    const file = join(dir(), 'v6.sqlite');
    const db = databaseAt(file, RARE_VALUE_VERSION - 1, reports());
    // Version 6's answers, read in the order its indexes hold (no `+`).
    const before = (company: string) =>
      QUERIES.map((query) => {
        const q = parseListQuery({ ...query, pageSize: '1000' });
        const { where, params } = compileListQuery(q);
        return db
          .prepare(
            `SELECT l.id FROM report_listing l JOIN company_keys k ON k.ck = l.ck
             WHERE k.company_id = ? AND (${where}) ORDER BY ${compileOrder(q.order)}`,
          )
          .pluck()
          .all(company, ...params);
      });
    const answersBefore = { acme: before('acme'), nordic: before('nordic') };
    db.close();

    const upgraded = openService(file);
    const raw = new Database(file, { readonly: true });
    expect(schemaVersion(raw)).toBe(SCHEMA_VERSION);
    // Every key the compiler sends to a rare-value index has one: the company, then its column.
    const leading = new Set(
      (raw.prepare(`SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'report_listing'`).pluck().all() as string[]).map((index) =>
        (raw.prepare(`SELECT name FROM pragma_index_info(?) WHERE seqno < 2 ORDER BY seqno`).pluck().all(index) as string[]).join(','),
      ),
    );
    const rareKeys = [...FIELD_COLUMNS].filter(([, column]) => column.rareValueIndex);
    expect(rareKeys.length).toBe(9);
    for (const [key, column] of rareKeys) expect(leading.has(`ck,${column.sql.replace(/^l\./, '')}`), key).toBe(true);
    raw.close();

    for (const company of ['acme', 'nordic'] as const) {
      const caller = { keyId: 'k', companyId: company, permissions: new Set(['labelReports:read'] as const) };
      const after = QUERIES.map((query) => {
        const page = upgraded.reports.list(caller, parseListQuery({ ...query, pageSize: '1000', output: 'minimal' }));
        expect(page.totalDocuments).toBe(page.data.length);
        return page.data.map((r) => r.id);
      });
      expect(after).toEqual(answersBefore[company]);
    }
    // Not vacuous: every filter finds some of acme's reports, none all of them.
    expect(answersBefore.acme.map((ids) => ids.length)).toEqual([5, 1, 1, 1, 6, 6, 3, 27, 3, 4, 4, 25]);
    upgraded.close();
  });
});
