/**
 * `labeldesk audit verify|export` on a real file: a sound trail exits 0 with the count of
 * entries checked; an entry edited behind the service's back exits 1 naming the report, the
 * table, the entry and what differs; the export is the trail as CSV, of every report or one.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { main } from '../../cli/main';
import { serviceFile } from '../support/service-files';
import { COMPANIES, makeReport } from '../support/service-fixture';
import { runLabeldesk } from './run-labeldesk';

let dir: string;
let file: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'labeldesk-audit-cli-'));
  const service = serviceFile(dir, { now: () => new Date('2026-11-20T10:00:00.000Z') });
  for (const c of COMPANIES) service.companies.upsert(c);
  service.putReport(makeReport('r1'), { kind: 'import' });
  service.putReport(makeReport('r2'), { kind: 'import' });
  const tool = service.apiKeys.authenticate(service.apiKeys.create('acme', ['labelReports:read', 'labelReports:update'], 'ERP').key);
  service.reviews.decide(tool, 'r1', { decision: 'rejected', reason: 'excursion' });
  service.reports.update(tool, 'r1', { limits: { minTemperature: 0, maxTemperature: 15 } }, 'spec allows 15');
  file = service.file;
  service.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function run(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out = new PassThrough();
  const err = new PassThrough();
  const chunks = { out: [] as Buffer[], err: [] as Buffer[] };
  out.on('data', (c: Buffer) => chunks.out.push(c));
  err.on('data', (c: Buffer) => chunks.err.push(c));
  const code = await main(argv, { out, err });
  return { code, out: Buffer.concat(chunks.out).toString('utf8'), err: Buffer.concat(chunks.err).toString('utf8') };
}

it('exports the trail as CSV, of every report or of one', async () => {
  const all = await run(['audit', 'export', '--db', file]);
  expect(all.code).toBe(0);
  const lines = all.out.replace(/^\uFEFF/, '').split('\r\n').filter((l) => l !== '');
  // r1: create, the limits; r2: create; r1's decision and its withdrawal.
  expect(lines).toHaveLength(1 + 5);
  expect(lines[0].startsWith('table,reportId,entry,at,kind,')).toBe(true);
  expect(all.out).toContain('spec allows 15');
  expect(all.out).toContain('decision withdrawn: alert changed from Moderate to None by ERP, reason spec allows 15');
  const one = await run(['audit', 'export', '--db', file, '--report', 'r2']);
  expect(one.out.replace(/^\uFEFF/, '').split('\r\n').filter((l) => l !== '')).toHaveLength(2);
});

it('verifies a sound trail (exit 0), then finds an edited decision (exit 1) as the real command', async () => {
  const sound = await runLabeldesk(dir, ['audit', 'verify', '--db', file]);
  expect(sound.stderr).toBe('');
  expect(sound.code).toBe(0);
  expect(sound.stdout).toContain('5 entries in 3 chains checked: the audit trail is sound');

  const raw = new Database(file);
  raw.prepare("UPDATE report_reviews SET decision = 'released' WHERE kind = 'decision'").run();
  raw.prepare("UPDATE change_log SET reason = 'routine' WHERE reason = 'spec allows 15'").run();
  raw.close();
  const broken = await runLabeldesk(dir, ['audit', 'verify', '--db', file]);
  expect(broken.code).toBe(1);
  expect(broken.stdout).toContain('5 entries in 3 chains checked: 2 chains are broken');
  expect(broken.stdout).toMatch(/report r1, change_log seq 3: content changed: /);
  expect(broken.stdout).toMatch(/report r1, report_reviews id 1: content changed: /);
});

it('a missing database is told, and a wrong subcommand is a usage error', async () => {
  expect((await run(['audit', 'verify', '--db', join(dir, 'nope.sqlite')])).code).toBe(1);
  const wrong = await run(['audit', 'check']);
  expect(wrong.code).toBe(2);
  expect(wrong.err).toContain("unknown audit command 'check'");
});
