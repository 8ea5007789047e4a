/**
 * `labeldesk insights`: the A4 PDF (read back with pdfjs-dist) and the CSV tables hold the
 * service's figures for the filter, narrowed by the review when asked; wrong options are told in
 * words. The PDF is written by the real binary, the rest through the command line's entry in
 * this process.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openService } from '../../host/open-service';
import { parseListQuery } from '../../query/list-query';
import type { Groups } from '../../schema/insights';
import { pdfText } from '../support/pdf-text';
import { runLabeldesk, runLabeldeskInProcess } from './run-labeldesk';

let dir: string;
let dbFile: string;
let byMode: Groups;
let awaiting: Groups;
let total: number;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'labeldesk-insights-cli-'));
  dbFile = join(dir, 'demo.sqlite');
  const service = openService(dbFile);
  try {
    service.createDemoData({ reports: 150, seed: 4 });
    const caller = { keyId: 'test', companyId: service.homeCompany()!, permissions: new Set(['labelReports:read'] as const) };
    byMode = service.insights.groups(caller, parseListQuery({ filter: 'status[eq]completed' }), 'mode', 'UTC');
    total = byMode.total;
    awaiting = service.insights.groups(caller, parseListQuery({}), 'mode', 'UTC', ['awaitingReview']);
  } finally {
    service.close();
  }
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('labeldesk insights', () => {
  it('writes an A4 PDF with the figures of the filter, each bar with its figure in words', async () => {
    const out = join(dir, 'insights.pdf');
    const run = await runLabeldesk(dir, ['insights', '--db', dbFile, '--filter', 'status[eq]completed', '--by', 'mode', '--pdf', out]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(readFileSync(out).subarray(0, 5).toString()).toBe('%PDF-');
    const { lines } = await pdfText(out);
    const text = lines.join('\n');
    expect(text).toContain(`${total.toLocaleString('en-US')} reports of`);
    expect(text).toContain('months in UTC');
    expect(text).toContain('Reports by mode');
    const first = byMode.groups[0];
    expect(lines.some((l) => l.includes(String(first.value)) && l.includes(first.count.toLocaleString('en-US')))).toBe(true);
  });

  it('writes one CSV per table, whose figures are the service’s', async () => {
    const out = join(dir, 'csv');
    const run = await runLabeldeskInProcess(['insights', '--db', dbFile, '--filter', 'status[eq]completed', '--by', 'mode', '--period', 'week', '--csv', out]);
    expect(run.code).toBe(0);
    expect(readdirSync(out).sort()).toEqual(
      ['alert-levels.csv', 'by-mode.csv', 'decisions.csv', 'distributions.csv', 'per-week.csv', 'ten-worst-by-excursion-rate-at-least-5-reports.csv'].sort(),
    );
    const csv = readFileSync(join(out, 'by-mode.csv'), 'utf8');
    expect(csv.startsWith('\ufeffmode,reports,with excursion')).toBe(true);
    const rows = csv.trim().split('\r\n').slice(1).map((r) => r.split(','));
    expect(rows.map((r) => [r[0], Number(r[1])])).toEqual(byMode.groups.map((g) => [String(g.value), g.count]));
    const weeks = readFileSync(join(out, 'per-week.csv'), 'utf8').trim().split('\r\n').slice(1);
    expect(weeks.reduce((sum, r) => sum + Number(r.split(',')[1]), 0)).toBe(total);
  });

  it('narrows by where the review stands, as the review list does', async () => {
    const out = join(dir, 'awaiting');
    const run = await runLabeldeskInProcess(['insights', '--db', dbFile, '--review', 'awaitingReview', '--by', 'mode', '--csv', out]);
    expect(run.code, run.stderr).toBe(0);
    const rows = readFileSync(join(out, 'by-mode.csv'), 'utf8').trim().split('\r\n').slice(1).map((r) => r.split(','));
    expect(awaiting.total).toBeGreaterThan(0);
    expect(awaiting.total).toBeLessThan(150);
    expect(rows.map((r) => [r[0], Number(r[1])])).toEqual(awaiting.groups.map((g) => [String(g.value), g.count]));
    const bad = await runLabeldeskInProcess(['insights', '--db', dbFile, '--review', 'signedOff', '--csv', out]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("review 'signedOff' is not one of");
  });

  it('tells what is wrong: no output, a bad period, an unknown zone or group-by key', async () => {
    const none = await runLabeldeskInProcess(['insights', '--db', dbFile]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('give one of --pdf FILE or --csv DIR');
    const period = await runLabeldeskInProcess(['insights', '--db', dbFile, '--period', 'year', '--csv', join(dir, 'x')]);
    expect(period.code).toBe(2);
    const zone = await runLabeldeskInProcess(['insights', '--db', dbFile, '--zone', 'Mars/Olympus', '--csv', join(dir, 'x')]);
    expect(zone.code).toBe(1);
    expect(zone.stderr).toContain("zone 'Mars/Olympus' is not an IANA time zone name");
    const by = await runLabeldeskInProcess(['insights', '--db', dbFile, '--by', 'colour', '--csv', join(dir, 'x')]);
    expect(by.stderr).toContain("unknown group-by key 'colour'");
  });
});
