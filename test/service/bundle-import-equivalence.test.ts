/**
 * A first import builds in bulk what the writes of single reports keep up row by row: the
 * reports, the listing rows, the custom field elements, the text index, the kept counts and the
 * change log. On reports in the shape sites make them (bench/site-database.ts: shared reports,
 * custom fields, per-company states, one report with 10 000 datapoints), an import into an empty
 * database, parsed by the workers, holds exactly what the same reports written one by one hold.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { siteReport, SITE } from '../../bench/site-database';
import { derivedForListing } from '../db/listing-dump';
import { exported, inspect, serviceFile } from '../support/service-files';

const REPORTS = 150;
const NOW = () => new Date('2026-11-20T10:00:00.000Z');
const COMPANIES = [
  { id: SITE.company, name: 'Alpha Cold Chain', shortCode: 'ACC' },
  { id: SITE.otherCompany, name: 'Beta Foods', shortCode: 'BFD' },
];

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'labeldesk-import-equivalence-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The kept counts and the change log, with integer keys replaced by the ids they stand for. */
function countsAndLog(file: string) {
  const db = inspect(file);
  try {
    const counts = db
      .prepare(
        `SELECT c.company_id AS company, o.company_id AS owner, l.status, l.alert_level, l.mode, l.type, l.has_flag, l.is_archived, l.n
         FROM listing_counts l JOIN company_keys c ON c.ck = l.ck JOIN company_keys o ON o.ck = l.owner_ck
         ORDER BY 1, 2, 3, 4, 5, 6, 7, 8`,
      )
      .all();
    const log = db
      .prepare('SELECT seq, label_report_id, kind, changes, actor, api_key_id, companies, at, prev_hash, hash FROM change_log ORDER BY seq')
      .all();
    return { counts, log };
  } finally {
    db.close();
  }
}

describe('a first import, built in bulk', () => {
  it('holds exactly what the same reports written one by one hold', async () => {
    const reports = Array.from({ length: REPORTS }, (_, i) => siteReport(i, REPORTS));

    const imported = serviceFile(dir, { now: NOW });
    const text = JSON.stringify({ version: 1, companies: COMPANIES, apiKeys: [], labelReports: reports });
    const chunks: Buffer[] = [];
    for (let i = 0; i < text.length; i += 4096) chunks.push(Buffer.from(text.slice(i, i + 4096), 'utf8'));
    const result = await imported.importBundle(Readable.from(chunks), { parallel: true });
    expect(result).toMatchObject({ ok: true, counts: { companies: 2, apiKeys: 0, labelReports: REPORTS } });

    const oneByOne = serviceFile(dir, { now: NOW });
    for (const company of COMPANIES) oneByOne.companies.upsert(company);
    for (const report of reports) oneByOne.putReport(report, { kind: 'import' });

    expect(await exported(imported)).toEqual(await exported(oneByOne));
    imported.close();
    oneByOne.close();

    const bulk = derivedForListing(imported.file);
    expect(bulk.listing).toHaveLength(reports.reduce((n, r) => n + 1 + (r.access?.length ?? 0), 0));
    expect(bulk.elements.length).toBeGreaterThan(REPORTS);
    expect(bulk).toEqual(derivedForListing(oneByOne.file));
    const bulkCounts = countsAndLog(imported.file);
    expect(bulkCounts.log).toHaveLength(REPORTS);
    expect(bulkCounts).toEqual(countsAndLog(oneByOne.file));
  });
});
