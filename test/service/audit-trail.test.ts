/**
 * The audit trail on real SQLite files: reasons for changes to the verdict, decisions withdrawn
 * when a change moves the alert (whatever made the change), the hash chains and what verifying
 * them finds after an edit behind the service's back, and the trail as CSV.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { openService, type Service } from '../../host/open-service';
import type { Caller } from '../../service/api-keys';
import { NO_REASON_FROM_TOOL } from '../../service/change-reason';
import { serviceFile } from '../support/service-files';
import { COMPANIES, makeReport, T0 } from '../support/service-fixture';

const root = mkdtempSync(join(tmpdir(), 'labeldesk-audit-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;

interface Desk {
  service: Service;
  file: string;
  tool: Caller;
  desk: Caller;
  nordic: Caller;
}

/** A database with r1 (a Moderate alert), seen by nordic as an editor; a tool key, the desktop's session key, and nordic's key. */
function openDesk(): Desk {
  const dir = join(root, String(++n));
  const service = serviceFile(mkdtempSync(dir), { now: () => new Date('2026-11-20T10:00:00.000Z') });
  for (const c of COMPANIES) service.companies.upsert(c);
  service.putReport(makeReport('r1', { access: [{ companyId: 'nordic', role: 'editor' }] } as never), { kind: 'import' });
  const tool = service.apiKeys.authenticate(service.apiKeys.create('acme', ['labelReports:read', 'labelReports:update', 'labelReports:create'], 'ERP').key);
  const desk = service.apiKeys.authenticate(service.apiKeys.createSessionKey('acme', ['labelReports:read', 'labelReports:update']));
  const nordic = service.apiKeys.authenticate(service.apiKeys.create('nordic', ['labelReports:read', 'labelReports:update'], 'Nordic QA').key);
  return { service, file: service.file, tool, desk, nordic };
}

/** Clears r1's excursions (9 and 10 °C above 8, 1 °C below 2). */
const RAISED = { limits: { minTemperature: 0, maxTemperature: 15 } };

function reasons(service: Service, id = 'r1'): (string | undefined)[] {
  return service.history(id).map((e) => e.reason);
}

describe('a reason for every change to the verdict', () => {
  it('the desktop window must give one: without it nothing changes', () => {
    const { service, desk } = openDesk();
    expect(() => service.reports.update(desk, 'r1', RAISED)).toThrow(/needs a reason/);
    expect(() => service.reports.update(desk, 'r1', RAISED, '   ')).toThrow(/needs a reason/);
    expect(() => service.reports.update(desk, 'r1', { status: 'archived' } as never)).toThrow(/needs a reason/);
    expect(() => service.reports.update(desk, 'r1', { trim: { start: T0, end: T0 + 1200 } } as never)).toThrow(/needs a reason/);
    expect(service.history('r1')).toHaveLength(1);
    expect(service.reports.retrieve(desk, 'r1').senseConfig.limits.maxTemperature).toBe(8);
    // Other fields need none.
    service.reports.update(desk, 'r1', { labelReference: 'PO-9' });
    service.reports.update(desk, 'r1', RAISED, '  Spec sheet allows 15 °C  ');
    expect(reasons(service)).toEqual([undefined, undefined, 'Spec sheet allows 15 °C']);
    service.close();
  });

  it('a tool that gives none still works, and the log says it gave none', () => {
    const { service, tool } = openDesk();
    service.reports.update(tool, 'r1', RAISED);
    service.reports.update(tool, 'r1', { limits: { minTemperature: 0, maxTemperature: 9 } }, 'ERP rule 4');
    expect(reasons(service)).toEqual([undefined, NO_REASON_FROM_TOOL, 'ERP rule 4']);
    expect(service.history('r1')[1].changes.slice(0, 3)).toEqual([
      { field: 'limits.minTemperature', old: 2, new: 0 },
      { field: 'limits.maxTemperature', old: 8, new: 15 },
      { field: 'alert.level', old: 1, new: 0 },
    ]);
    service.close();
  });

  it('an unchanged value is no change and needs no reason', () => {
    const { service, desk } = openDesk();
    service.reports.update(desk, 'r1', { limits: { minTemperature: 2, maxTemperature: 8 } });
    expect(service.history('r1')).toHaveLength(1);
    service.close();
  });
});

describe('a change that moves the alert withdraws the decisions taken on it', () => {
  function decided(desk: Desk): void {
    desk.service.reviews.decide(desk.tool, 'r1', { decision: 'rejected', reason: 'excursion' });
    desk.service.reviews.decide(desk.nordic, 'r1', { decision: 'onHold', reason: 'waiting' });
  }

  it('a PATCH of the limits: every company with a decision gets a withdrawal, in the same transaction', () => {
    const d = openDesk();
    decided(d);
    d.service.reports.update(d.desk, 'r1', RAISED, 'spec allows 15');
    for (const caller of [d.tool, d.nordic]) {
      const review = d.service.reviews.review(caller, 'r1');
      expect(review.decision).toBeNull();
      expect(review.withdrawal?.text).toBe(
        'decision withdrawn: alert changed from Moderate to None by LabelDesk desktop app, reason spec allows 15',
      );
      expect(review.withdrawal?.alert.level).toBe(0);
    }
    const history = d.service.reportHistory.history(d.tool, 'r1').entries;
    expect(history.find((e) => e.type === 'withdrawal')).toMatchObject({ previous: 'rejected', alert: { level: 0 } });
    expect(history.find((e) => e.type === 'change' && e.kind === 'update')).toMatchObject({ reason: 'spec allows 15' });
    // A second change does not withdraw again: there is no decision left.
    d.service.reports.update(d.desk, 'r1', { limits: { minTemperature: 2, maxTemperature: 8 } }, 'back');
    const kinds = d.service.reportHistory.history(d.tool, 'r1').entries.map((e) => e.type);
    expect(kinds.filter((k) => k === 'withdrawal')).toHaveLength(1);
    // A new decision counts again.
    d.service.reviews.decide(d.tool, 'r1', { decision: 'released', reason: 'rechecked' });
    expect(d.service.reviews.review(d.tool, 'r1')).toMatchObject({ decision: { decision: 'released' } });
    expect(d.service.reviews.review(d.tool, 'r1').withdrawal).toBeUndefined();
    d.service.close();
  });

  it('a change by a signed-in person names the person in the withdrawal, as their own entries do', () => {
    const d = openDesk();
    decided(d);
    d.service.users.create(null, 'acme', { login: 'anna', name: 'Anna Berg', role: 'approver', password: 'correct horse battery' });
    const anna = d.service.apiKeys.authenticate(d.service.users.signIn('anna', 'correct horse battery').token);
    // Where people sign, a change that lowers the alert is a signed one (docs/review-and-audit.md#signed-verdict-changes).
    d.service.signedChanges.request(anna, 'r1', { patch: RAISED, reason: 'spec allows 15', signature: { password: 'correct horse battery' } });
    const withdrawal = d.service.reportHistory.history(d.tool, 'r1').entries.find((e) => e.type === 'withdrawal');
    expect(withdrawal).toMatchObject({
      text: 'decision withdrawn: alert changed from Moderate to None by Anna Berg (anna), reason spec allows 15',
      actor: { person: { login: 'anna', name: 'Anna Berg' } },
    });
    d.service.close();
  });

  it('a change that leaves the alert as it was withdraws nothing', () => {
    const d = openDesk();
    decided(d);
    d.service.reports.update(d.desk, 'r1', { limits: { minTemperature: 2, maxTemperature: 9.5 } }, 'tighter');
    expect(d.service.reviews.review(d.tool, 'r1').decision?.decision).toBe('rejected');
    d.service.close();
  });

  it('a trim that cuts the excursion away', () => {
    const d = openDesk();
    decided(d);
    d.service.reports.update(d.desk, 'r1', { trim: { start: T0 + 3000, end: T0 + 4200 } } as never, 'probe warm-up');
    expect(d.service.reviews.review(d.tool, 'r1').withdrawal?.text).toMatch(/from Moderate to None by LabelDesk desktop app, reason probe warm-up$/);
    d.service.close();
  });

  it('a tap, a sync pull and an import name who moved the alert', () => {
    const d = openDesk();
    d.service.reports.update(d.tool, 'r1', RAISED, 'wider');
    decided(d);
    d.service.intake.tap(d.tool, 'r1', { datapoints: [{ timestamp: T0 + 8 * 600, temperature: 30 }] } as never);
    expect(d.service.reviews.review(d.tool, 'r1').withdrawal?.text).toBe('decision withdrawn: alert changed from None to Moderate by the tap (ERP), reason none given');
    expect(d.service.reviews.review(d.nordic, 'r1').decision).toBeNull();

    d.service.reviews.decide(d.tool, 'r1', { decision: 'rejected', reason: 'again' });
    d.service.putReport(makeReport('r1', { access: [{ companyId: 'nordic', role: 'editor' }], senseConfig: { ...makeReport('r1').senseConfig, limits: { minTemperature: -50, maxTemperature: 50 } } } as never), { kind: 'sync' });
    expect(d.service.reviews.review(d.tool, 'r1').withdrawal?.text).toBe('decision withdrawn: alert changed from Moderate to None by the sync, reason none given');

    d.service.reviews.decide(d.tool, 'r1', { decision: 'released', reason: 'fine' });
    d.service.putReport(makeReport('r1', { access: [{ companyId: 'nordic', role: 'editor' }] } as never), { kind: 'import' });
    expect(d.service.reviews.review(d.tool, 'r1').withdrawal?.text).toBe('decision withdrawn: alert changed from None to Moderate by the import, reason none given');
    d.service.close();
  });
});

describe('the hash chains', () => {
  /** A report with a few entries of each kind, closed; the file to tamper with. */
  function trail(): string {
    const d = openDesk();
    d.service.reviews.comment(d.tool, 'r1', { text: 'looking' });
    d.service.reviews.decide(d.tool, 'r1', { decision: 'rejected', reason: 'excursion' });
    d.service.reports.update(d.desk, 'r1', RAISED, 'spec allows 15');
    d.service.reports.update(d.tool, 'r1', { labelReference: 'PO-2' });
    d.service.reports.update(d.tool, 'r1', { labelReference: 'PO-3' });
    d.service.putReport(makeReport('r2'), { kind: 'import' });
    expect(d.service.audit.verify()).toEqual({ checked: 8, chains: 3, problems: [] });
    const file = d.file;
    d.service.close();
    return file;
  }

  function tampered(sql: string): ReturnType<Service['audit']['verify']> {
    const file = trail();
    const raw = new Database(file);
    expect(raw.prepare(sql).run().changes).toBeGreaterThan(0);
    raw.close();
    const service = openService(file);
    try {
      return service.audit.verify();
    } finally {
      service.close();
    }
  }

  it('every entry is sealed when written and linked to the one before it', () => {
    const file = trail();
    const raw = new Database(file, { readonly: true });
    const rows = raw.prepare("SELECT seq, prev_hash, hash FROM change_log WHERE label_report_id = 'r1' ORDER BY seq").all() as { prev_hash: string | null; hash: string }[];
    raw.close();
    expect(rows[0].prev_hash).toBeNull();
    for (let i = 1; i < rows.length; i++) expect(rows[i].prev_hash).toBe(rows[i - 1].hash);
    expect(rows.every((r) => /^[0-9a-f]{64}$/.test(r.hash))).toBe(true);
  });

  it('finds a reason changed', () => {
    expect(tampered("UPDATE change_log SET reason = 'routine' WHERE reason = 'spec allows 15'").problems).toEqual([
      expect.objectContaining({ reportId: 'r1', table: 'change_log', entry: 2, kind: 'contentChanged' }),
    ]);
  });

  it('finds an old value changed', () => {
    const result = tampered(`UPDATE change_log SET changes = replace(changes, '"old":8', '"old":15') WHERE seq = 2`);
    expect(result.problems).toEqual([expect.objectContaining({ table: 'change_log', entry: 2, kind: 'contentChanged' })]);
  });

  it('finds a decision changed', () => {
    const result = tampered("UPDATE report_reviews SET decision = 'released' WHERE kind = 'decision'");
    expect(result.problems).toEqual([expect.objectContaining({ reportId: 'r1', table: 'report_reviews', entry: 2, kind: 'contentChanged' })]);
  });

  it('finds an entry deleted from the middle', () => {
    const result = tampered('DELETE FROM change_log WHERE seq = 3');
    expect(result.problems).toEqual([expect.objectContaining({ table: 'change_log', entry: 4, kind: 'missingEntry' })]);
    expect(result.checked).toBe(7);
  });

  it('finds the first entry deleted, and a hash cleared (which no later open seals again)', () => {
    expect(tampered("DELETE FROM report_reviews WHERE kind = 'comment'").problems).toEqual([
      expect.objectContaining({ table: 'report_reviews', entry: 2, kind: 'missingEntry' }),
    ]);
    expect(tampered('UPDATE change_log SET hash = NULL WHERE seq = 3').problems).toEqual([
      expect.objectContaining({ table: 'change_log', entry: 3, kind: 'unsealed' }),
    ]);
  });

  it('finds entries swapped: links that skip', () => {
    const result = tampered("UPDATE change_log SET prev_hash = (SELECT prev_hash FROM change_log WHERE seq = 3) WHERE seq = 4");
    expect(result.problems).toEqual([expect.objectContaining({ table: 'change_log', entry: 4, kind: 'brokenLink' })]);
  });
});

describe('the trail as CSV', () => {
  it('every entry with its reason and hashes; a company sees its own review entries only', () => {
    const d = openDesk();
    d.service.reviews.decide(d.nordic, 'r1', { decision: 'onHold', reason: 'wait, "please"' });
    d.service.reports.update(d.desk, 'r1', RAISED, 'spec, page 2');
    const all = [...d.service.audit.csv()].join('');
    const lines = all.split('\r\n');
    expect(lines[0]).toBe('table,reportId,entry,at,kind,companyId,actor,apiKeyId,apiKeyName,userId,userLogin,userName,changes,reason,text,decision,alertLevel,alertTimestamp,meaning,zone,signature,prevHash,hash');
    expect(lines).toHaveLength(1 + 2 + 2 + 1);
    expect(all).toContain('"spec, page 2"');
    expect(all).toContain('"wait, ""please"""');
    const own = d.service.audit.companyCsv(d.tool, 'r1');
    expect(own.startsWith('\uFEFFtable,')).toBe(true);
    expect(own).toContain('spec, page 2');
    expect(all).toContain('withdrawal');
    // Nordic's decision and its withdrawal are nordic's.
    expect(own).not.toContain('please');
    expect(own).not.toContain('withdrawal');
    d.service.close();
  });
});
