/**
 * The release certificate: `labeldesk report --pdf` writes it with the e-signatures and their
 * meaning, the zone named, page X of Y and its checksum on every page; the issue is an entry of
 * the access chain `audit verify` checks; `labeldesk audit certificate` calls it genuine and
 * current, then, after a PATCH over HTTP that narrows the limits, genuine but changed (the limits
 * change named, with its change log entry), and a checksum altered by one digit unknown.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openService } from '../../host/open-service';
import { startService } from '../../host/start-service';
import { EXIT_CERTIFICATE_CHANGED, EXIT_CERTIFICATE_UNKNOWN } from '../../cli/audit';
import { CERTIFICATE_SECTIONS } from '../../renderer/lib/certificate-text';
import { PERMISSIONS } from '../../schema/report';
import { prepare } from '../e2e/browser';
import { pdfText } from '../support/pdf-text';
import { findReportWithExcursions, type ReportWithExcursions } from '../support/report-fixture';
import { runLabeldeskInProcess } from './run-labeldesk';

const PASSWORD = 'correct horse battery';
let dir: string;
let uiDir: string;
let dbFile: string;
let target: ReportWithExcursions;
let checksum = '';

beforeAll(async () => {
  const prepared = await prepare('certificate', { reports: 12, seed: 3 });
  ({ dir, uiDir, dbFile } = prepared);
  target = findReportWithExcursions(dbFile, 'acme');
  const service = openService(dbFile);
  try {
    service.users.create(null, 'acme', { login: 'quinn', name: 'Quinn Approver', role: 'approver', password: PASSWORD });
    const caller = service.apiKeys.authenticate(service.users.signIn('quinn', PASSWORD).token);
    service.reviews.acknowledge(caller, target.report.id, { password: PASSWORD, zone: 'Europe/Berlin', note: 'seen' });
    service.reviews.decide(caller, target.report.id, { decision: 'released', reason: 'product unharmed', password: PASSWORD, zone: 'Europe/Berlin' });
  } finally {
    service.close();
  }
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const audit = (...args: string[]) => runLabeldeskInProcess(['audit', ...args]);

describe('the release certificate', () => {
  it('is the PDF of labeldesk report: signatures with their meaning, who, role, when in the named zone, page X of Y and the checksum on every page', async () => {
    const out = join(dir, 'certificate.pdf');
    const run = await runLabeldeskInProcess(['report', '--db', dbFile, '--id', target.report.id, '--pdf', out, '--ui', uiDir, '--utc']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    checksum = /release certificate ([0-9a-f]{64}) issued/.exec(run.stdout)?.[1] ?? '';
    expect(checksum).toMatch(/^[0-9a-f]{64}$/);
    const { lines, pages } = await pdfText(out);
    const text = lines.join(' ');
    expect(text).toContain('Released — approved for release');
    expect(text).toContain('Acknowledged — reviewed');
    expect(text).toMatch(/signed by Quinn Approver \(quinn\), approver, .+ \(Europe\/Berlin\)/);
    expect(text).toContain('all times in UTC');
    for (const section of CERTIFICATE_SECTIONS) expect(lines.some((l) => l.startsWith(section)), `the section ${section}`).toBe(true);
    for (let n = 1; n <= pages; n++) expect(lines).toContain(`Page ${n} of ${pages}`);
    expect(lines.filter((l) => l === `Certificate SHA-256 ${checksum}`)).toHaveLength(pages);
  }, 120_000);

  it('is recorded in the access chain, which audit verify checks, and audit certificate calls it genuine and current', async () => {
    const raw = new Database(dbFile, { readonly: true });
    try {
      const row = raw.prepare("SELECT kind, actor, detail FROM report_access WHERE format = 'certificate'").get() as { kind: string; actor: string; detail: string };
      expect(row).toMatchObject({ kind: 'export', actor: 'commandLine' });
      expect(JSON.parse(row.detail)).toMatchObject({ checksum, reportId: target.report.id, companyId: 'acme', ranBy: expect.stringMatching(/^labeldesk report, run by /) });
    } finally {
      raw.close();
    }
    const verified = await audit('verify', '--db', dbFile);
    expect(verified.code).toBe(0);
    const checked = await audit('certificate', '--db', dbFile, checksum);
    expect(checked.code).toBe(0);
    expect(checked.stdout).toMatch(/^genuine, current: the release certificate of report .+ issued by labeldesk report, run by /);
    expect(checked.stdout).toContain('Approved for release by Quinn Approver (quinn), approver');
  });

  it('calls a checksum altered by one digit unknown, and refuses what is no checksum', async () => {
    const altered = checksum.slice(0, -1) + (checksum.endsWith('0') ? '1' : '0');
    const unknown = await audit('certificate', '--db', dbFile, altered);
    expect(unknown.code).toBe(EXIT_CERTIFICATE_UNKNOWN);
    expect(unknown.stdout).toMatch(/^unknown: not issued by this desk/);
    const bad = await audit('certificate', '--db', dbFile, 'abc');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('64 hexadecimal digits');
  });

  it('calls it genuine but changed once a PATCH narrows the limits, and names the change', async () => {
    const running = await startService({ dbFile, port: 0 });
    try {
      const key = running.service.apiKeys.createSessionKey('acme', PERMISSIONS);
      const limits = { ...target.report.senseConfig.limits, maxTemperature: target.report.senseConfig.limits.maxTemperature - 1 };
      const res = await fetch(`${running.url}/v2/labelReports/${encodeURIComponent(target.report.id)}`, {
        method: 'PATCH',
        headers: { 'x-api-key': key, 'content-type': 'application/json', 'x-change-reason': encodeURIComponent('tighter limits') },
        body: JSON.stringify({ limits }),
      });
      expect(res.status).toBe(200);
    } finally {
      await running.close();
    }
    const checked = await audit('certificate', '--db', dbFile, checksum);
    expect(checked.code).toBe(EXIT_CERTIFICATE_CHANGED);
    expect(checked.stdout).toMatch(/^genuine, but the report changed after it was issued \(.*limits changed.* \(change \d+ .*limits\.maxTemperature/);
  });
});
