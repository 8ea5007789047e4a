/**
 * An import switches its new reports in ordered by report id, so that the id indexes they land
 * in are appended to rather than written at random pages, and it reads that order from indexes
 * on its staged tables, not from a sort of the staged rows. The change log keeps bundle order
 * (test/service/change-log.test.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/database';
import { ImportStaging, NEW_REPORT_INSERTS } from '../../db/import-staging';
import { COMPANIES, makeReport } from '../support/service-fixture';
import { column, serviceFile } from '../support/service-files';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'labeldesk-import-order-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const bundle = (reports: unknown[]) => Readable.from([Buffer.from(JSON.stringify({ version: 1, companies: COMPANIES, labelReports: reports }))]);

describe('switching staged reports in', () => {
  it('reads each insert in id order from an index of the staged table, with no temporary sort', () => {
    const file = serviceFile(dir).file;
    const db = openDatabase(file);
    try {
      const staging = new ImportStaging(db);
      // Nothing staged: this only builds the staged tables' order indexes.
      expect(staging.insertNewReports()).toBe(0);
      for (const sql of NEW_REPORT_INSERTS) {
        const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[]).map((row) => row.detail);
        expect(plan.join('\n'), sql).not.toMatch(/TEMP B-TREE FOR (RIGHT PART OF )?ORDER BY/);
        expect(plan.join('\n'), sql).toMatch(/USING (COVERING )?INDEX ld_import_staged_/);
      }
      staging.drop();
    } finally {
      db.close();
    }
  });

  it('stores the new reports and their children in id order whatever the bundle order', async () => {
    const service = serviceFile(dir);
    const ids = ['r-5', 'r-2', 'r-9', 'r-1', 'r-7', 'r-3'];
    const shared = { access: [{ companyId: 'nordic', role: 'viewer' as const }] };
    expect((await service.importBundle(bundle(ids.map((id) => makeReport(id, shared))))).ok).toBe(true);
    const sorted = [...ids].sort();
    expect(column(service.file, 'SELECT id FROM label_reports ORDER BY rowid')).toEqual(sorted);
    expect(column(service.file, 'SELECT label_report_id FROM report_datapoints ORDER BY rowid')).toEqual(sorted);
    expect(column(service.file, "SELECT label_report_id FROM access WHERE company_id = 'nordic' ORDER BY rowid")).toEqual(sorted);
    expect(column(service.file, "SELECT label_report_id FROM change_log WHERE kind = 'create' ORDER BY seq")).toEqual(ids);
  });
});
