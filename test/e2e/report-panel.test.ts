/**
 * The report panel in Chromium against the real service: a report with excursions shows its
 * excursion table, its alert rules in words and its chart; a comment and a decision are made;
 * the limits, reference, status, flag, a custom field and the trim are changed through the
 * panel, and each change shows in the history with its old and new value and the key's name.
 * A read-only key is told once, in words. The print view marks itself ready. The readings table
 * holds every reading with only those in view in the DOM, says which limit a reading is beyond
 * and which the trim leaves out, and a jump from an excursion lands on its first reading. The
 * app's report panel printed to PDF says what the command line's PDF of the same report says,
 * with the whole chart and none of the screen's forms or messages. An administrator's key sees
 * who opened, exported and printed the report under Access, newest first, and the app's Print
 * certificate prints the release certificate's sections with its checksum; a read-only key sees no Access.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumPath, reportPdf } from '../../cli/report';
import { openService } from '../../host/open-service';
import { startService } from '../../host/start-service';
import { CERTIFICATE_SECTIONS } from '../../renderer/lib/certificate-text';
import { limitText } from '../../renderer/components/ExcursionTable';
import { formatDuration, formatTemperature } from '../../renderer/lib/format';
import { fieldLabel, valueText } from '../../renderer/lib/history-text';
import { indexAtOrAfter, limitsBeyond, limitsSentence, outsideTrim, READING_ROW_HEIGHT } from '../../renderer/lib/readings';
import { formatTime, toDateTimeInput } from '../../renderer/lib/time-zone';
import type { LabelReport } from '../../schema/report';
import type { AlertExplanation } from '../../schema/review';
import type { CreatedApiKey } from '../../service/api-keys';
import { pdfText } from '../support/pdf-text';
import { parseListQuery } from '../../query/list-query';
import { alertLevelInfo } from '../../renderer/lib/format';
import { findReportWithExcursions, type ReportWithExcursions } from '../support/report-fixture';
import { formatUtc } from '../../sense/alert-rules';
import { confirmChange, launchChromium, prepare, shot, waitAttr, waitText, watchProblems } from './browser';

let dir: string;
let dbFile: string;
let uiDir: string;
let service: Awaited<ReturnType<typeof startService>>;
let browser: Browser;
let target: ReportWithExcursions;
let editor: CreatedApiKey;
let readOnly: CreatedApiKey;
let second: { id: string; level: number };
const problems: string[] = [];

beforeAll(async () => {
  const prepared = await prepare('report-panel', { reports: 60, seed: 3 });
  dir = prepared.dir;
  dbFile = prepared.dbFile;
  uiDir = prepared.uiDir;
  target = findReportWithExcursions(prepared.dbFile, 'acme');
  second = anotherAlertingReport(prepared.dbFile, 'acme', target.report.id);
  const acme = prepared.summary.keys.filter((k) => k.companyId === 'acme');
  editor = acme.find((k) => k.permissions.includes('labelReports:update'))!;
  readOnly = acme.find((k) => !k.permissions.includes('labelReports:update'))!;
  service = await startService({ dbFile: prepared.dbFile, port: 0, staticDir: prepared.uiDir });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await service?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function open(key: string, search: string, expected?: RegExp): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1600, height: 1000 } });
  const page = await context.newPage();
  watchProblems(page, problems, expected);
  await page.goto(`${service.url}/${search}#key=${encodeURIComponent(key)}`);
  return page;
}

/** The report and its alerts as the service has them now (the tests before have edited it). */
async function current(key: string): Promise<{ report: LabelReport; alerts: AlertExplanation }> {
  const get = async (path: string) => {
    const response = await fetch(`${service.url}${path}`, { headers: { 'x-api-key': key } });
    expect(response.status).toBe(200);
    return response.json();
  };
  const id = encodeURIComponent(target.report.id);
  return { report: (await get(`/v2/labelReports/${id}`)) as LabelReport, alerts: (await get(`/local/labelReports/${id}/alerts`)) as AlertExplanation };
}

/** Text with every space taken out and in lower case, so a line broken elsewhere still matches. */
const bare = (text: string) => text.replace(/\s+/g, '').toLowerCase();

describe('the report panel in Chromium', () => {
  it('explains the alert, takes a comment and a decision, and shows every kind of change in the history', async () => {
    const { report, alerts } = target;
    const page = await open(editor.key, `?report=${encodeURIComponent(report.id)}`);
    try {
      const detail = page.getByTestId('report-detail');
      const rows = detail.getByTestId('excursion-row');
      await expect.poll(() => rows.count()).toBe(alerts.excursions.length);
      for (const [i, e] of alerts.excursions.entries()) {
        const text = (await rows.nth(i).textContent()) ?? '';
        expect(text).toContain(limitText(e));
        expect(text).toContain(formatDuration(e.durationSeconds));
      }
      for (const rule of alerts.rules) await waitText(detail.getByTestId('alert-rules'), rule.description);
      // The service's sentence, with the alert's time in the screen's zone instead of its UTC.
      const utc = formatUtc(alerts.alert.timestamp);
      for (const part of alerts.explanation.split(utc)) await waitText(detail.getByTestId('alert-explanation'), part);
      expect(await detail.getByTestId('alert-explanation').textContent()).not.toContain(utc);
      const chart = await detail.getByTestId('report-chart').boundingBox();
      expect(chart!.width).toBeGreaterThan(300);
      await shot(page, 'report-panel-alerts');

      // Limits: the maximum one degree up.
      const oldMax = report.senseConfig.limits.maxTemperature;
      await detail.locator('input[name=maxTemperature]').fill(String(oldMax + 1));
      await detail.getByRole('button', { name: 'Save limits' }).click();
      // Nothing is saved before the reason is given, beside what the change does to the alert.
      await confirmChange(detail, 'Carrier spec sheet allows one degree more.');
      await waitText(detail.getByTestId('save-limits'), 'Limits saved');

      // Reference and status, in one save.
      const newReference = `${report.labelReference}-E2E`;
      const newStatus = report.status === 'active' ? 'completed' : 'active';
      const bookkeeping = detail.getByTestId('bookkeeping-form');
      await bookkeeping.locator('input[name=labelReference]').fill(newReference);
      await bookkeeping.locator('select[name=status]').selectOption(newStatus);
      await bookkeeping.getByRole('button', { name: 'Save' }).click();
      await confirmChange(detail, 'Shipment delivered.');
      await waitText(detail.getByTestId('save-bookkeeping'), 'Saved');

      // The flag, a switch that shows its state.
      await waitAttr(detail.getByTestId('toggle-flag'), 'aria-pressed', String(report.hasFlag));
      await detail.getByTestId('toggle-flag').click();
      await waitAttr(detail.getByTestId('toggle-flag'), 'aria-pressed', String(!report.hasFlag));

      // A custom field.
      const cf = detail.getByTestId('cf-add');
      await cf.getByLabel('Field id').fill('e2e_carrier');
      await cf.getByLabel('Value').fill('Nordfrakt');
      await cf.getByRole('button', { name: 'Add field' }).click();
      await waitText(detail.getByTestId('save-customFields'), 'Custom fields saved');

      // The trim: from the second reading to the one before the last.
      const dps = report.calculatedSenseData.datapoints;
      const trim = { startTime: dps[1].timestamp, endTime: dps[dps.length - 2].timestamp };
      await detail.locator('input[name=trimStart]').fill(toDateTimeInput(trim.startTime, 'local'));
      await detail.locator('input[name=trimEnd]').fill(toDateTimeInput(trim.endTime, 'local'));
      await detail.getByRole('button', { name: 'Apply trim' }).click();
      await confirmChange(detail, 'First and last readings were taken at the dock.');
      await waitText(detail.getByTestId('trim-state'), 'Trimmed to');

      // A comment, and the decision with its reason.
      const comment = 'Pallet 3 sat on the dock for 40 minutes; checked with the carrier.';
      await detail.getByTestId('comment-form').locator('textarea[name=comment]').fill(comment);
      await detail.getByRole('button', { name: 'Add comment' }).click();
      await waitText(detail.getByTestId('comment-list'), comment);
      const decision = detail.getByTestId('decision-form');
      await decision.getByLabel('On hold').check();
      const reason = 'Waiting for the stability data of batch 7.';
      await decision.locator('textarea[name=reason]').fill(reason);
      await decision.getByRole('button', { name: 'Save decision' }).click();
      await waitText(detail.getByTestId('review-decision'), 'On hold');
      await waitText(detail.getByTestId('review-decision'), reason);
      await waitText(detail.getByTestId('review-decision'), editor.name!);

      // Every change in the history, old → new, by the key's name; the decision is the newest.
      const history = detail.getByTestId('history-list');
      const line = (field: string, old: unknown, now: unknown) =>
        `${fieldLabel(field, new Map())}: ${valueText(field, old, 'local')} → ${valueText(field, now, 'local')}`;
      await waitText(history, line('limits.maxTemperature', oldMax, oldMax + 1));
      await waitText(history, 'Reason: Carrier spec sheet allows one degree more.');
      await waitText(history, line('labelReference', report.labelReference, newReference));
      await waitText(history, line('status', report.status, newStatus));
      await waitText(history, line('hasFlag', report.hasFlag, !report.hasFlag));
      await waitText(history, line('customFields.e2e_carrier', null, 'Nordfrakt'));
      const oldTrim = report.trimmedSenseData
        ? { startTime: report.trimmedSenseData.datapoints[0].timestamp, endTime: report.trimmedSenseData.datapoints.at(-1)!.timestamp }
        : null;
      await waitText(history, line('trim', oldTrim, trim));
      await waitText(history, `Comment: ${comment}`);
      await waitText(history, `Decision: On hold, because: ${reason}`);
      await waitText(history, `key “${editor.name}”`);
      await expect.poll(() => history.getByTestId('history-entry').first().getAttribute('data-type')).toBe('decision');
      expect(formatTemperature(oldMax + 1)).toMatch(/°C$/);
      await detail.getByTestId('history-panel').scrollIntoViewIfNeeded();
      await shot(page, 'report-panel-history');
    } finally {
      await page.context().close();
    }
  }, 120_000);

  it('lists every reading with only those in view in the DOM, marks violations and the trim, and jumps from an excursion to its first reading', async () => {
    const { report, alerts } = await current(editor.key);
    const dps = report.calculatedSenseData.datapoints;
    const limits = report.senseConfig.limits;
    const trim = { start: report.trimmedSenseData!.datapoints[0].timestamp, end: report.trimmedSenseData!.datapoints.at(-1)!.timestamp };
    expect(alerts.excursions.length).toBeGreaterThan(0);
    const page = await open(editor.key, `?report=${encodeURIComponent(report.id)}`);
    try {
      const detail = page.getByTestId('report-detail');
      const table = detail.getByTestId('readings');
      const scroller = table.getByTestId('readings-scroll');
      const rows = table.getByTestId('reading-row');
      await rows.first().waitFor();
      await waitText(table.locator('h3'), `Readings (${dps.length.toLocaleString('en-US')})`);
      expect(await table.locator('table').getAttribute('aria-rowcount')).toBe(String(dps.length + 1));
      // Virtualised: a screenful of rows in the DOM, the scroll height of all of them.
      const inDom = await rows.count();
      expect(inDom).toBeGreaterThan(5);
      expect(inDom).toBeLessThan(60);
      expect(inDom).toBeLessThan(dps.length);
      const scrollHeight = await scroller.evaluate((el) => el.scrollHeight);
      expect(scrollHeight).toBeGreaterThanOrEqual(dps.length * READING_ROW_HEIGHT);
      // The first reading is left out by the trim (set to the second … last but one above), and says so.
      expect(outsideTrim(dps[0].timestamp, trim)).toBe(true);
      expect(await rows.first().getAttribute('data-index')).toBe('0');
      expect(await rows.first().textContent()).toContain('Left out by trim');
      expect(await rows.first().textContent()).toContain(formatTime(dps[0].timestamp, 'local', true));

      for (const [n, e] of alerts.excursions.entries()) {
        await detail.getByTestId('excursion-jump').nth(n).click();
        const index = indexAtOrAfter(dps, e.start);
        const focused = table.locator('[data-testid="reading-row"][aria-current="true"]');
        await expect.poll(() => focused.getAttribute('data-index')).toBe(String(index));
        expect(await table.locator('[aria-current="true"]').count()).toBe(1);
        // The violation is said in words, with the limit crossed: not colour alone.
        const beyond = limitsBeyond(dps[index], limits);
        expect(beyond.length).toBeGreaterThan(0);
        const text = (await focused.textContent()) ?? '';
        for (const words of beyond) expect(text).toContain(words);
        expect(text).toContain(formatTime(dps[index].timestamp, 'local', true));
        expect(await focused.getAttribute('data-state')).toBe('beyond');
        // In view inside the scrolling table, and the table in the window.
        const box = (await focused.boundingBox())!;
        const view = (await scroller.boundingBox())!;
        expect(box.y).toBeGreaterThanOrEqual(view.y);
        expect(box.y + box.height).toBeLessThanOrEqual(view.y + view.height + 1);
        expect(view.y).toBeGreaterThanOrEqual(0);
        expect(view.y + view.height).toBeLessThanOrEqual(1000);
        expect(await rows.count()).toBeLessThan(60);
      }
      const last = indexAtOrAfter(dps, alerts.excursions.at(-1)!.start);
      if (last > 20) expect(await scroller.evaluate((el) => el.scrollTop)).toBeGreaterThan(0);
      await shot(page, 'report-panel-readings');
    } finally {
      await page.context().close();
    }
  });

  it("prints the app's report panel as the command line prints the report: the same facts, the whole chart, no forms or messages", async () => {
    const { report, alerts } = await current(editor.key);
    const page = await open(editor.key, `?report=${encodeURIComponent(report.id)}`);
    const files = { app: join(dir, 'app-print.pdf'), view: join(dir, 'view-print.pdf'), cli: join(dir, 'cli.pdf') };
    let ticks: { value: number; lines: string[] }[] = [];
    let refusalText = '';
    try {
      const detail = page.getByTestId('report-detail');
      await detail.getByTestId('history-entry').first().waitFor();
      await detail.getByTestId('chart-tick').first().waitFor();
      // A refused save leaves its message on screen: the paper must not carry it.
      await detail.locator('input[name=maxTemperature]').fill('warm');
      await detail.getByRole('button', { name: 'Save limits' }).click();
      const refusal = detail.locator('.save-message--error');
      await refusal.waitFor();
      refusalText = (await refusal.textContent()) ?? '';
      expect(refusalText).not.toBe('');
      // Print media first at the window's width, as a print starts: the chart is laid out wider
      // than the paper, which once cut its right-hand end off the page.
      const canvas = detail.getByTestId('report-chart');
      const screenWidth = (await canvas.boundingBox())!.width;
      await page.emulateMedia({ media: 'print' });
      await expect.poll(async () => (await canvas.boundingBox())!.width).toBeGreaterThan(screenWidth + 100);
      // The owner's badge reads without its fill (printers drop fills): dark text on white, a heavy frame.
      const owner = await detail.locator('.role--owner').first().evaluate((el) => {
        const style = getComputedStyle(el);
        return { color: style.color, background: style.backgroundColor, border: style.borderTopWidth, shown: el.getBoundingClientRect().width > 0 };
      });
      expect(owner).toEqual({ color: 'rgb(0, 0, 0)', background: 'rgb(255, 255, 255)', border: '3px', shown: true });
      // The chart as the print draws it: read at once, before the screen's resize observer undoes it.
      ticks = await page.evaluate(() => {
        window.dispatchEvent(new Event('beforeprint'));
        return [...document.querySelectorAll<HTMLElement>('[data-testid="report-detail"] [data-testid="chart-tick"]')].map((el) => ({
          value: Number(el.dataset.value),
          lines: [...el.children].map((c) => c.textContent ?? ''),
        }));
      });
      writeFileSync(files.app, await page.pdf({ format: 'A4', preferCSSPageSize: true }));
    } finally {
      await page.context().close();
    }
    const view = await open(editor.key, `?view=print&report=${encodeURIComponent(report.id)}`);
    try {
      await view.locator('[data-print-ready="true"]').waitFor({ timeout: 30_000 });
      writeFileSync(files.view, await view.pdf({ format: 'A4', printBackground: true, preferCSSPageSize: true }));
    } finally {
      await view.context().close();
    }
    const cliService = openService(dbFile);
    try {
      writeFileSync(files.cli, await reportPdf({ service: cliService, uiDir, chromium: chromiumPath(), reportId: report.id, companyId: 'acme', browser }));
    } finally {
      cliService.close();
    }
    const read = { app: await pdfText(files.app), view: await pdfText(files.view), cli: await pdfText(files.cli) };
    const texts = { app: read.app.lines, view: read.view.lines, cli: read.cli.lines };
    for (const [name, pdf] of Object.entries(read)) {
      // Every page says which it is of how many.
      expect(pdf.pages, `${name} PDF pages`).toBeGreaterThan(1);
      for (let n = 1; n <= pdf.pages; n++) expect(pdf.lines, `${name} PDF: page ${n} of ${pdf.pages}`).toContain(`Page ${n} of ${pdf.pages}`);
      // The custom fields as words under their own heading, not an empty box (the value is in the history too).
      const heading = pdf.lines.findIndex((l) => l === 'Custom fields');
      expect(heading, `${name} PDF: a Custom fields heading`).toBeGreaterThanOrEqual(0);
      expect(bare(pdf.lines[heading + 1] ?? ''), `${name} PDF: the field under Custom fields`).toBe(bare('e2e_carrier Nordfrakt'));
    }

    // The chart's time axis runs to the end of the readings: its last tick lies within one step of it.
    expect(ticks.length).toBeGreaterThan(2);
    const dps = report.calculatedSenseData.datapoints;
    const step = ticks.at(-1)!.value - ticks.at(-2)!.value;
    expect(dps.at(-1)!.timestamp - ticks.at(-1)!.value).toBeLessThan(step);
    const axis = ticks.map((t) => t.lines[0]).join(' ');

    const facts = [
      report.labelReference,
      `Label ${report.label.sequenceCode}`,
      // The service's sentence, its UTC time put in the printout's one zone.
      ...alerts.explanation.split(formatUtc(alerts.alert.timestamp)),
      limitsSentence(report.senseConfig.limits),
      `Excursions (${alerts.excursions.length})`,
      ...alerts.excursions.flatMap((e) => [limitText(e), formatDuration(e.durationSeconds)]),
      ...alerts.rules.map((r) => r.description),
      'Trimmed to',
      'Nordfrakt',
      'Pallet 3 sat on the dock for 40 minutes; checked with the carrier.',
      'Waiting for the stability data of batch 7.',
      'History',
      'Decision: On hold, because: Waiting for the stability data of batch 7.',
      `Comment: Pallet 3 sat on the dock for 40 minutes; checked with the carrier.`,
      'Mean kinetic temperature',
      report.label.uid,
    ];
    for (const [name, lines] of Object.entries(texts)) {
      // The whole time axis, last tick included, printed as a line of its own.
      expect(lines, `${name} PDF: the chart's time axis`).toContain(axis);
      const all = bare(lines.join(' '));
      for (const fact of facts) expect(all, `${name} PDF: ${fact}`).toContain(bare(fact));
      expect(all, `${name} PDF: the alert's time in the one zone`).not.toContain(bare(formatUtc(alerts.alert.timestamp)));
    }
    const app = texts.app.join('\n');
    for (const screenOnly of ['Save limits', 'Save decision', 'Add comment', 'Apply trim', 'Add field', 'Cancel', 'Read only:', 'Download CSV', 'Filters', refusalText]) {
      expect(app, `the app's printout shows “${screenOnly}”`).not.toContain(screenOnly);
    }
    expect(texts.app.some((l) => /^Save\b/.test(l))).toBe(false);
  });

  it('asks for a reason when raised limits clear the alert, and shows the decision withdrawn', async () => {
    const page = await open(editor.key, `?report=${encodeURIComponent(second.id)}`);
    try {
      const detail = page.getByTestId('report-detail');
      const decision = detail.getByTestId('decision-form');
      await decision.getByLabel('Rejected').check();
      await decision.locator('textarea[name=reason]').fill('Excursion above the limit.');
      await decision.getByRole('button', { name: 'Save decision' }).click();
      await waitText(detail.getByTestId('review-decision'), 'Rejected');

      await detail.locator('input[name=minTemperature]').fill('-100');
      await detail.locator('input[name=maxTemperature]').fill('100');
      await detail.getByRole('button', { name: 'Save limits' }).click();
      const dialog = detail.getByTestId('change-reason');
      await waitText(dialog.getByTestId('change-effect'), `The alert will change from ${alertLevelInfo(second.level).label} to None`);
      // No reason, no change.
      expect(await dialog.getByRole('button', { name: 'Confirm change' }).isDisabled()).toBe(true);
      await dialog.locator('textarea[name=changeReason]').fill('Validated stability data for this product.');
      await dialog.getByRole('button', { name: 'Confirm change' }).click();
      await waitText(detail.getByTestId('save-limits'), 'Limits saved');
      const withdrawn = detail.getByTestId('review-withdrawal');
      await waitText(withdrawn, `alert changed from ${alertLevelInfo(second.level).label} to None`);
      await waitText(withdrawn, 'reason Validated stability data for this product.');
      await waitText(withdrawn, 'A new decision is needed.');
      const history = detail.getByTestId('history-list');
      await waitText(history, 'Reason: Validated stability data for this product.');
      await waitText(history, 'Decision withdrawn');
      await shot(page, 'report-panel-withdrawn');

      // The trail as CSV, from the panel: the reason, the old and new limit, the withdrawal, each entry's hash.
      const saving = page.waitForEvent('download');
      await detail.getByTestId('save-history-csv').click();
      const download = await saving;
      expect(download.suggestedFilename()).toBe(`label-report-${second.id}-history.csv`);
      const csv = readFileSync((await download.path())!, 'utf8');
      expect(csv).toContain('Validated stability data for this product.');
      expect(csv).toContain('withdrawal');
      expect(csv).toMatch(/\b[0-9a-f]{64}\b/);
    } finally {
      await page.context().close();
    }
  }, 120_000);

  it('tells a read-only key once, in words, and offers it no forms', async () => {
    const page = await open(readOnly.key, `?report=${encodeURIComponent(target.report.id)}`);
    try {
      const detail = page.getByTestId('report-detail');
      await detail.getByTestId('excursion-row').first().waitFor();
      await detail.getByTestId('review-decision').waitFor();
      const text = (await detail.textContent()) ?? '';
      expect(text.split('This key may only read reports').length - 1).toBe(1);
      expect(text).not.toMatch(/labelReports:|apiKeys:|\$\./);
      for (const form of ['comment-form', 'decision-form', 'acknowledge-form', 'limits-form', 'cf-add', 'trim-form']) {
        expect(await detail.getByTestId(form).count(), form).toBe(0);
      }
      expect(await detail.getByTestId('toggle-flag').isDisabled()).toBe(true);
      expect(await detail.getByTestId('access-panel').count()).toBe(0);
    } finally {
      await page.context().close();
    }
  });

  it('shows an administrator who opened, exported and printed the report, newest first', async () => {
    const admin = service.service.apiKeys.create('acme', ['labelReports:read', 'labelReports:update', 'apiKeys:manage'], 'Audit desk');
    const id = second.id;
    const context = await browser.newContext({ viewport: { width: 1600, height: 1000 } });
    const page = await context.newPage();
    watchProblems(page, problems);
    // The print dialog itself is the browser's: here it only says it was asked for.
    await page.addInitScript(() => {
      window.print = () => document.body.setAttribute('data-printed', 'true');
    });
    await page.goto(`${service.url}/?report=${encodeURIComponent(id)}#key=${encodeURIComponent(admin.key)}`);
    try {
      const detail = page.getByTestId('report-detail');
      const access = detail.getByTestId('access-panel');
      await access.waitFor();
      await access.locator('summary').click();
      const entries = access.getByTestId('access-entry');
      // The tests before opened this report too, with the editor's key: the company's entries all show.
      await waitText(entries, 'key “Audit desk” viewed');
      const before = await entries.count();
      const download = page.waitForEvent('download');
      await detail.getByTestId('save-csv').click();
      await download;
      await expect.poll(() => entries.count()).toBe(before + 1);
      await detail.getByTestId('save-pdf').click();
      await waitAttr(page.locator('body'), 'data-printed', 'true');
      await expect.poll(() => entries.count()).toBe(before + 2);
      const lines = (await entries.allTextContents()).slice(0, 3);
      expect(lines.map((l) => l.replace(/^.*?key “Audit desk” /, ''))).toEqual(['issued a release certificate', 'exported the readings CSV', 'viewed']);
      // What the app printed is the release certificate, the print view's sections, its checksum on every page, issued and current.
      const checksum = (await detail.getByTestId('release-certificate').getAttribute('data-certificate')) ?? '';
      await page.emulateMedia({ media: 'print' });
      const file = join(dir, 'app-certificate.pdf');
      writeFileSync(file, await page.pdf({ format: 'A4', preferCSSPageSize: true }));
      await page.emulateMedia({ media: 'screen' });
      const paper = await pdfText(file);
      for (const section of CERTIFICATE_SECTIONS) expect(paper.lines.some((l) => l.startsWith(section)), `the section ${section}`).toBe(true);
      for (let n = 1; n <= paper.pages; n++) expect(paper.lines).toContain(`Page ${n} of ${paper.pages}`);
      expect(paper.lines.filter((l) => l === `Certificate SHA-256 ${checksum}`)).toHaveLength(paper.pages);
      expect(paper.lines.some((l) => l.startsWith('Access ('))).toBe(false);
      expect(service.service.certificates.check(checksum).verdict).toBe('current');
      await waitText(access.locator('summary'), `Access (${before + 2})`);
      await access.scrollIntoViewIfNeeded();
      await shot(page, 'report-access');
    } finally {
      await context.close();
    }
  });

  it('lays one report out for print and says when it is ready', async () => {
    const page = await open(editor.key, `?view=print&report=${encodeURIComponent(target.report.id)}`);
    try {
      await page.locator('[data-print-ready="true"]').waitFor({ timeout: 30_000 });
      await expect.poll(() => page.getByTestId('excursion-row').count()).toBe(target.alerts.excursions.length);
      await waitText(page.getByTestId('print-decision'), 'On hold');
      await shot(page, 'report-print-view');
    } finally {
      await page.context().close();
    }
  });

  it('says in the print view when the report is not there', async () => {
    // The refused requests are the point here: Chromium logs them.
    const page = await open(editor.key, '?view=print&report=no-such-report', /status of 404/);
    try {
      const failed = page.locator('[data-print-error]');
      await failed.waitFor({ timeout: 30_000 });
      expect(await failed.getAttribute('data-print-error')).toMatch(/not there any more/);
    } finally {
      await page.context().close();
    }
  });

  it('zooms, pans and picks a trim from the chart with the keyboard alone', async () => {
    const page = await open(editor.key, `?report=${encodeURIComponent(target.report.id)}`);
    try {
      const detail = page.getByTestId('report-detail');
      await detail.getByTestId('chart-tick').first().waitFor();
      const chart = detail.locator('.chart__canvas');
      const view = async () => {
        const [start, end] = await Promise.all([chart.getAttribute('data-view-start'), chart.getAttribute('data-view-end')]);
        return start === null || end === null ? null : { start: Number(start), end: Number(end) };
      };
      const dps = target.report.calculatedSenseData.datapoints;
      const run = dps.at(-1)!.timestamp - dps[0].timestamp;
      const width = async () => {
        const v = await view();
        return v ? v.end - v.start : run;
      };
      expect(await view()).toBeNull();
      await chart.focus();
      await page.keyboard.press('+');
      await expect.poll(width).toBeLessThan(run * 0.75);
      const once = await width();
      await page.keyboard.press('+');
      await expect.poll(width).toBeLessThan(once * 0.75);
      const twice = (await view())!;
      // Later, then earlier again: the window moves by a share of itself and keeps its width.
      await page.keyboard.press('ArrowLeft');
      await expect.poll(async () => (await view())!.start).toBeLessThan(twice.start);
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowRight');
      await expect.poll(async () => (await view())!.start).toBeGreaterThan(twice.start);
      expect(Math.abs((await width()) - (twice.end - twice.start))).toBeLessThanOrEqual(2);
      // The toolbar's buttons do the same from the keyboard.
      const before = await width();
      await detail.getByTestId('chart-zoom-out').focus();
      await page.keyboard.press('Enter');
      await expect.poll(width).toBeGreaterThan(before * 1.3);
      // The window shown becomes the trim's range, ready to apply.
      const shown = (await view())!;
      await detail.getByRole('button', { name: 'Use zoomed range' }).focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => detail.locator('input[name=trimStart]').inputValue()).not.toBe('');
      const start = await detail.locator('input[name=trimStart]').inputValue();
      const startSeconds = await page.evaluate((text) => Date.parse(text) / 1000, start);
      // The view's start, within the second the attribute rounds to.
      expect(Math.abs(startSeconds - shown.start)).toBeLessThanOrEqual(1);
      await shot(page, 'report-chart-keyboard');
      // 0 on the chart shows the whole run again.
      await chart.focus();
      await page.keyboard.press('0');
      await expect.poll(view).toBeNull();
    } finally {
      await page.context().close();
    }
  });

  it('ran without console errors or CSP violations', () => {
    expect(problems).toEqual([]);
  });
});

/**
 * A report of the company's own, other than `except`, with an alert that temperature limits of
 * -100 and 100 °C clear (the service's preview says so) and without humidity limits.
 */
function anotherAlertingReport(dbFile: string, companyId: string, except: string): { id: string; level: number } {
  const service = openService(dbFile);
  try {
    const caller = { keyId: 'test', companyId, permissions: new Set(['labelReports:read', 'labelReports:update'] as const) };
    const page = service.reports.list(caller, parseListQuery({ filter: 'alert.level[gte]1', order: 'created[asc]', pageSize: '500', output: 'minimal' }));
    for (const row of page.data) {
      if (row.company.id !== companyId || row.id === except) continue;
      if (service.reports.retrieve(caller, row.id).senseConfig.limits.minHumidity !== undefined) continue;
      const preview = service.reports.preview(caller, row.id, { limits: { minTemperature: -100, maxTemperature: 100 } });
      if (preview.alertAfter.level === 0) return { id: row.id, level: row.alert.level };
    }
    throw new Error(`the demo data has no second report of ${companyId} whose alert wide limits clear`);
  } finally {
    service.close();
  }
}
