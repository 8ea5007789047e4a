/**
 * Counts are reused while the data is unchanged, and never outlive a change: this connection's
 * own writes, another connection's commits, and a write that rolls back.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DataStore } from '../../db/data-store';
import { parseListQuery } from '../../query/list-query';
import { openService } from '../../host/open-service';
import { COMPANIES, makeReport } from '../support/service-fixture';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'labeldesk-count-cache-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const acme = { keyId: 'k', companyId: 'acme', permissions: new Set(['labelReports:read', 'labelReports:update'] as const) };
/** Counted from the kept counts, and counted by reading the matches (a condition they do not split by). */
const QUERIES = [
  ['kept counts', 'hasFlag[eq]true'],
  ['reading the matches', 'hasFlag[eq]true,numberOfTaps[gte]0'],
] as const;

describe.each(QUERIES)('the count of a query, from %s', (name, filter) => {
  const flagged = parseListQuery({ filter, pageSize: '1', output: 'minimal' });
  it('follows every change, from this connection, from another, and not from one rolled back', () => {
    const file = join(dir, `counts-${name.replaceAll(' ', '-')}.sqlite`);
    const service = openService(file);
    for (const c of COMPANIES) service.companies.upsert(c);
    for (const id of ['c1', 'c2', 'c3']) service.putReport(makeReport(id), { kind: 'import' });
    const total = () => service.reports.list(acme, flagged).totalDocuments;
    expect([total(), total()]).toEqual([0, 0]);

    service.reports.update(acme, 'c1', { hasFlag: true });
    expect(total()).toBe(1);

    const other = openService(file);
    other.reports.update(acme, 'c2', { hasFlag: true });
    expect(total()).toBe(2);

    const data = DataStore.open(file);
    const sql = data.reports.compile(flagged);
    expect(data.reports.readsKeptCounts(sql)).toBe(name === 'kept counts');
    expect(data.reports.count('acme', sql)).toBe(2);
    expect(() =>
      data.write(() => {
        data.reports.setCompanyState({ company_id: 'acme', label_report_id: 'c3', has_flag: 1, is_archived: 0 });
        expect(data.reports.count('acme', sql)).toBe(3);
        throw new Error('roll back');
      }),
    ).toThrow('roll back');
    expect(data.reports.count('acme', sql)).toBe(2);
    expect(total()).toBe(2);
    for (const s of [service, other, data]) s.close();
  });
});
