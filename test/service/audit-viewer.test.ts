/**
 * The audit trail across reports on a real SQLite file (docs/review-and-audit.md#the-audit-trail-across-reports):
 * newest first across the change log and the review entries, as the company sees them (another
 * company's own flag change and review entries left out), narrowed by person, kind, report and
 * time. Read a page at a time within a walk budget so small that most pages stop at its edge, the
 * pages hold exactly the entries of one unbounded read, in its order, whatever the page size.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DataStore } from '../../db/data-store';
import type { Service } from '../../host/open-service';
import type { AuditEntry } from '../../schema/audit';
import type { Caller } from '../../service/api-keys';
import { AuditViewer, parseAuditQuery, type AuditQuery } from '../../service/audit-viewer';
import { serviceFile } from '../support/service-files';
import { COMPANIES, makeReport, series, T0 } from '../support/service-fixture';

const PASSWORD = 'correct horse battery';
const dir = mkdtempSync(join(tmpdir(), 'labeldesk-audit-viewer-'));
let service: Service & { file: string };
let data: DataStore;
let acme: Caller;
let nordic: Caller;
let anna: Caller;
let clock = Date.parse('2026-11-20T10:00:00.000Z');

const critical = (id: string, access: unknown[] = []) =>
  makeReport(id, { labelReference: `SHP-${id}`, access, reportedSenseData: { datapoints: series(T0, 600, [9, 10, 11, 12, 11, 10, 9, 5]) } } as never);

beforeAll(() => {
  // Each write a second after the one before, so the order by time is the order of writing.
  service = serviceFile(dir, { now: () => new Date((clock += 1000)) });
  for (const c of COMPANIES) service.companies.upsert(c);
  for (const id of ['r1', 'r2', 'r3']) service.putReport(critical(id, id === 'r1' ? [{ companyId: 'nordic', role: 'editor' }] : []), { kind: 'import' });
  acme = service.apiKeys.authenticate(service.apiKeys.create('acme', ['labelReports:read', 'labelReports:update'], 'ERP').key);
  nordic = service.apiKeys.authenticate(service.apiKeys.create('nordic', ['labelReports:read', 'labelReports:update'], 'Nordic QA').key);
  for (let i = 0; i < 3; i++) for (const id of ['r1', 'r2', 'r3']) service.reviews.comment(acme, id, { text: `note ${i} on ${id}` });
  service.reports.update(acme, 'r2', { hasFlag: true });
  // Nordic's own flag and its comment are nordic's: acme's trail has neither.
  service.reports.update(nordic, 'r1', { hasFlag: true });
  service.reviews.comment(nordic, 'r1', { text: 'nordic only' });
  service.reviews.acknowledge(acme, 'r3', { note: 'seen' });
  service.reviews.decide(acme, 'r3', { decision: 'onHold', reason: 'waiting' });
  service.users.saveSettings(null, 'acme', { changeAtFirstSignIn: false });
  service.users.create(null, 'acme', { login: 'anna', name: 'Anna Berg', role: 'admin', password: PASSWORD });
  anna = service.apiKeys.authenticate(service.users.signIn('anna', PASSWORD).token);
  service.reviews.comment(anna, 'r2', { text: 'anna looked' });
  service.reviews.acknowledge(anna, 'r2', { note: 'anna saw it', password: PASSWORD, zone: 'Europe/Berlin' });
  data = DataStore.open(service.file);
});
afterAll(() => {
  data?.close();
  service?.close();
  rmSync(dir, { recursive: true, force: true });
});

const query = (params: Record<string, string> = {}): AuditQuery => parseAuditQuery((name) => params[name]);

/** Every page of the query, following next, with the walk budget given. */
function allPages(viewer: AuditViewer, params: Record<string, string>): { entries: AuditEntry[]; pages: number; short: number } {
  const entries: AuditEntry[] = [];
  let cursor: string | undefined;
  let pages = 0;
  let short = 0;
  do {
    const page = viewer.page(acme, query({ ...params, ...(cursor ? { cursor } : {}) }));
    entries.push(...page.entries);
    if (page.searchedBackTo !== null) short++;
    cursor = page.next ?? undefined;
    expect(++pages).toBeLessThan(200);
  } while (cursor);
  return { entries, pages, short };
}

const key = (e: AuditEntry) => `${e.table}:${e.entry}`;

describe('the audit trail across reports', () => {
  it('lists what the company sees, newest first, changes and review entries merged', () => {
    const { entries, next } = service.auditViewer.page(acme, query({ pageSize: '200' }));
    expect(next).toBeNull();
    const ats = entries.map((e) => e.at);
    expect(ats).toEqual([...ats].sort().reverse());
    expect(entries[0]).toMatchObject({ table: 'review', kind: 'acknowledgement', reportId: 'r2', labelReference: 'SHP-r2', text: 'anna saw it', meaning: 'Reviewed', zone: 'Europe/Berlin', by: { person: { name: 'Anna Berg' } } });
    expect(entries.some((e) => e.text === 'nordic only')).toBe(false);
    // Acme's flag on r2 is there; nordic's own on r1 is not.
    const flags = entries.filter((e) => e.kind === 'change' && e.changes?.some((c) => c.field === 'hasFlag'));
    expect(flags.map((e) => e.reportId)).toEqual(['r2']);
    // Three imports, nine comments, one flag, an acknowledgement and a decision of acme's key, anna's comment and acknowledgement.
    expect(entries).toHaveLength(3 + 9 + 1 + 2 + 2);
    // The other company reads its own trail of r1.
    const theirs = service.auditViewer.page(nordic, query()).entries;
    expect(theirs.map((e) => e.text ?? e.change)).toEqual(['nordic only', 'update', 'create']);
  });

  it('narrows by person, kind, report and time', () => {
    const annaId = anna.person!.id;
    const by = (params: Record<string, string>) => service.auditViewer.page(acme, query(params)).entries;
    expect(by({ person: annaId }).map((e) => e.kind)).toEqual(['acknowledgement', 'comment']);
    expect(by({ kind: 'decision' }).map((e) => [e.reportId, e.decision])).toEqual([['r3', 'onHold']]);
    expect(by({ kind: 'change', report: 'r2' }).map((e) => e.change)).toEqual(['update', 'create']);
    const all = by({ pageSize: '200' });
    const middle = all[5].at;
    expect(by({ to: middle, pageSize: '200' })).toEqual(all.slice(5));
    expect(by({ from: middle, pageSize: '200' })).toEqual(all.slice(0, 6));
  });

  it('pages within a small walk budget hold exactly the unbounded read, in its order', () => {
    const small = new AuditViewer(data, 3);
    for (const params of <Record<string, string>[]>[{}, { kind: 'comment' }, { kind: 'change' }, { person: anna.person!.id }, { report: 'r2' }, { kind: 'decision,acknowledgement' }]) {
      const whole = service.auditViewer.page(acme, query({ ...params, pageSize: '200' })).entries.map(key);
      for (const pageSize of ['1', '2', '5']) {
        const paged = allPages(small, { ...params, pageSize });
        expect(paged.entries.map(key), `${JSON.stringify(params)} pageSize ${pageSize}`).toEqual(whole);
      }
    }
    // A rare person's entries are found through pages that stop short at the budget and say how far they looked.
    expect(allPages(small, { person: anna.person!.id, pageSize: '5' }).short).toBeGreaterThan(0);
  });

  it('refuses a query it cannot read, naming the parameter', () => {
    expect(() => query({ kind: 'gossip' })).toThrow("kind 'gossip' is not one of change, comment, acknowledgement, decision, withdrawal");
    expect(() => query({ from: 'yesterday' })).toThrow("from 'yesterday' is not an ISO 8601 date or instant");
    expect(() => query({ cursor: 'abc' })).toThrow("cursor 'abc' is not one this endpoint gave");
    expect(() => query({ pageSize: '201' })).toThrow('pageSize');
  });

  it('downloads the matches as the CSV of labeldesk audit export', () => {
    const text = [...service.auditViewer.csv(acme, { ...query({ kind: 'comment' }) })].join('');
    const lines = text.replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines[0]).toMatch(/^table,reportId,entry,at,kind,/);
    expect(lines.slice(1).every((l) => l.startsWith('report_reviews,') && l.includes(',comment,'))).toBe(true);
    expect(lines).toHaveLength(1 + 10);
  });
});
