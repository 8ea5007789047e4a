/**
 * The report panel in Chromium against the real service: a report with excursions shows its
 * excursion table, its alert rules in words and its chart; a comment and a decision are made;
 * the limits, reference, status, flag, a custom field and the trim are changed through the
 * panel, and each change shows in the history with its old and new value and the key's name.
 * A read-only key is told once, in words. The print view marks itself ready.
 */
import { rmSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService } from '../../host/start-service';
import { limitText } from '../../renderer/components/ExcursionTable';
import { formatDuration, formatTemperature } from '../../renderer/lib/format';
import { fieldLabel, valueText } from '../../renderer/lib/history-text';
import { toDateTimeInput } from '../../renderer/lib/time-zone';
import type { CreatedApiKey } from '../../service/api-keys';
import { findReportWithExcursions, type ReportWithExcursions } from '../support/report-fixture';
import { formatUtc } from '../../sense/alert-rules';
import { launchChromium, prepare, shot, waitAttr, waitText, watchProblems } from './browser';

let dir: string;
let service: { url: string; close(): Promise<void> };
let browser: Browser;
let target: ReportWithExcursions;
let editor: CreatedApiKey;
let readOnly: CreatedApiKey;
const problems: string[] = [];

beforeAll(async () => {
  const prepared = await prepare('report-panel', { reports: 60, seed: 3 });
  dir = prepared.dir;
  target = findReportWithExcursions(prepared.dbFile, 'acme');
  const acme = prepared.summary.keys.filter((k) => k.companyId === 'acme');
  editor = acme.find((k) => k.permissions.includes('labelReports:update'))!;
  readOnly = acme.find((k) => !k.permissions.includes('labelReports:update'))!;
  service = await startService({ dbFile: prepared.dbFile, port: 0, staticDir: prepared.uiDir });
  browser = await launchChromium();
}, 120_000);

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
      await waitText(detail.getByTestId('save-limits'), 'Limits saved');

      // Reference and status, in one save.
      const newReference = `${report.labelReference}-E2E`;
      const newStatus = report.status === 'active' ? 'completed' : 'active';
      const bookkeeping = detail.getByTestId('bookkeeping-form');
      await bookkeeping.locator('input[name=labelReference]').fill(newReference);
      await bookkeeping.locator('select[name=status]').selectOption(newStatus);
      await bookkeeping.getByRole('button', { name: 'Save' }).click();
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
    } finally {
      await page.context().close();
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

  it('ran without console errors or CSP violations', () => {
    expect(problems).toEqual([]);
  });
});
