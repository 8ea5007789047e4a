/**
 * `labeldesk report`: the PDF of a report with excursions, read back with pdfjs-dist, holds the
 * report's reference and each excursion's row; the CSV holds every reading; a missing report, a
 * missing Chromium or a missing UI build are told in words. The PDF, the CSV and the missing
 * Chromium go through the real binary, the other mistakes through the command line's entry in
 * this process. Each file written is one entry of who saw the report, the command line's; the
 * print view's own reads for the PDF are none.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatDuration, formatHumidity, formatTemperature } from '../../renderer/lib/format';
import { formatTime } from '../../renderer/lib/time-zone';
import { limitText } from '../../renderer/components/ExcursionTable';
import { prepare } from '../e2e/browser';
import { pdfText } from '../support/pdf-text';
import { findReportWithExcursions, type ReportWithExcursions } from '../support/report-fixture';
import { runLabeldesk, runLabeldeskInProcess } from './run-labeldesk';

let dir: string;
let uiDir: string;
let dbFile: string;
let target: ReportWithExcursions;

beforeAll(async () => {
  const prepared = await prepare('report-cli', { reports: 60, seed: 3 });
  ({ dir, uiDir, dbFile } = prepared);
  target = findReportWithExcursions(dbFile, 'acme');
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('labeldesk report', () => {
  it('writes the PDF of the print view: the reference and every excursion row', async () => {
    const out = join(dir, 'report.pdf');
    const run = await runLabeldesk(dir, ['report', '--db', dbFile, '--id', target.report.id, '--pdf', out, '--ui', uiDir, '--utc']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`wrote ${out}`);
    expect(readFileSync(out).subarray(0, 5).toString()).toBe('%PDF-');
    const { lines } = await pdfText(out);
    expect(lines.some((l) => l.includes(target.report.labelReference))).toBe(true);
    expect(lines.some((l) => l.includes(`Excursions (${target.alerts.excursions.length})`))).toBe(true);
    target.alerts.excursions.forEach((e, i) => {
      const peak = e.quantity === 'humidity' ? formatHumidity(e.peak) : formatTemperature(e.peak);
      const cells = [String(i + 1), formatTime(e.start, 'utc'), formatTime(e.end, 'utc'), formatDuration(e.durationSeconds), peak, limitText(e)];
      const row = lines.find((l) => l.startsWith(`${i + 1} ${formatTime(e.start, 'utc')}`));
      expect(row, `row ${i + 1} of the excursion table`).toBeDefined();
      // A PDF holds no spaces, only gaps: a tight one ("1 h") may read as "1h", so cells are
      // compared without spaces.
      const bare = (text: string) => text.replace(/\s+/g, '');
      for (const cell of cells) expect(bare(row!)).toContain(bare(cell));
    });
    // The alert rules in words, and the time zone said.
    const text = lines.join(' ');
    expect(text).toContain(target.alerts.rules[0].description);
    expect(text).toContain('all times in UTC');
  }, 120_000);

  it('records each file written as the command line’s export, and the print view’s reads as nothing', () => {
    const raw = new Database(dbFile, { readonly: true });
    try {
      const rows = raw.prepare('SELECT label_report_id AS report, kind, format, actor, detail FROM report_access ORDER BY id').all();
      // The release certificate the PDF carries is recorded as issued, then the PDF as exported.
      expect(rows).toEqual([
        { report: target.report.id, kind: 'export', format: 'certificate', actor: 'commandLine', detail: expect.stringMatching(/^\{"reportId".*"ranBy":"labeldesk report, run by .+ on .+"\}$/) },
        { report: target.report.id, kind: 'export', format: 'pdf', actor: 'commandLine', detail: expect.stringMatching(/^labeldesk report, run by .+ on .+$/) },
      ]);
    } finally {
      raw.close();
    }
  });

  it('names the zone of the desk it runs on beside the times, and numbers each page, in the PDF', async () => {
    const out = join(dir, 'report-local.pdf');
    // A desk whose own zone is UTC: the sentence and the tables name the same one zone.
    const run = await runLabeldesk(dir, ['report', '--db', dbFile, '--id', target.report.id, '--pdf', out, '--ui', uiDir], { TZ: 'UTC' });
    expect(run.code).toBe(0);
    const { lines, pages } = await pdfText(out);
    const text = lines.join(' ');
    expect(text).toContain('all times in local time (UTC)');
    expect(text).toContain('Start (UTC)');
    expect(text).not.toMatch(/all times in local time(?! \(UTC\))/);
    for (let n = 1; n <= pages; n++) expect(lines).toContain(`Page ${n} of ${pages}`);
  }, 120_000);

  it('writes the readings as CSV', async () => {
    const out = join(dir, 'readings.csv');
    const run = await runLabeldesk(dir, ['report', '--db', dbFile, '--id', target.report.id, '--csv', out]);
    expect(run.code).toBe(0);
    const lines = readFileSync(out, 'utf8').replace(/^\uFEFF/, '').trimEnd().split('\r\n');
    const dps = target.report.calculatedSenseData.datapoints;
    expect(lines[0]).toBe('timestamp,temperature,humidity,inTrimmedRange,verdict,reference,temperatureUnit,humidityUnit,minTemperature,maxTemperature,minHumidity,maxHumidity');
    expect(lines).toHaveLength(dps.length + 1);
    const first = lines[1].split(',');
    expect(first[0]).toBe(new Date(dps[0].timestamp * 1000).toISOString().replace('.000Z', 'Z'));
    expect(Number(first[1])).toBe(dps[0].temperature);
    const raw = new Database(dbFile, { readonly: true });
    try {
      expect(raw.prepare("SELECT format, actor FROM report_access WHERE id = (SELECT max(id) FROM report_access)").get()).toEqual({ format: 'readingsCsv', actor: 'commandLine' });
    } finally {
      raw.close();
    }
  });

  it('says so when the report is not there, and writes nothing', async () => {
    const out = join(dir, 'missing.pdf');
    const run = await runLabeldeskInProcess(['report', '--db', dbFile, '--id', 'no-such-report', '--pdf', out, '--ui', uiDir]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`there is no report 'no-such-report' in ${dbFile}`);
    expect(() => readFileSync(out)).toThrow();
  });

  it('says where Chromium was looked for when it is missing', async () => {
    const run = await runLabeldesk(dir, ['report', '--db', dbFile, '--id', target.report.id, '--pdf', join(dir, 'x.pdf'), '--ui', uiDir], {
      CHROMIUM_PATH: join(dir, 'no-chromium-here'),
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`Chromium was not found at ${join(dir, 'no-chromium-here')}`);
    expect(run.stderr).toContain('CHROMIUM_PATH');
  });

  it('asks for exactly one output and a report id', async () => {
    const both = await runLabeldeskInProcess(['report', '--db', dbFile, '--id', 'x', '--pdf', 'a.pdf', '--csv', 'a.csv']);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('give one of --pdf FILE or --csv FILE');
    const noId = await runLabeldeskInProcess(['report', '--db', dbFile, '--csv', 'a.csv']);
    expect(noId.code).toBe(2);
    expect(noId.stderr).toContain('--id');
  });

  it('tells how to build the UI when it is missing', async () => {
    const run = await runLabeldeskInProcess(['report', '--db', dbFile, '--id', target.report.id, '--pdf', join(dir, 'x.pdf'), '--ui', join(dir, 'no-ui')]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('npm run build:renderer');
  });
});
