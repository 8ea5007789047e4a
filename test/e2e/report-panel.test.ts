/**
 * The report panel in Chromium against the real service: a report with excursions shows its
 * excursion table, its alert rules in words and its chart; a comment and a decision are made;
 * the limits, reference, status, flag, a custom field and the trim are changed through the
 * panel, and each change shows in the history with its old and new value and the key's name.
 * A read-only key is told once, in words. The print view marks itself ready.
 */
import { rmSync } from 'node:fs';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService } from '../../host/start-service';
import { limitText } from '../../renderer/components/ExcursionTable';
import { formatDuration, formatTemperature } from '../../renderer/lib/format';
import { fieldLabel, valueText } from '../../renderer/lib/history-text';
import { toDateTimeInput } from '../../renderer/lib/time-zone';
import type { CreatedApiKey } from '../../service/api-keys';
import { openService } from '../../host/open-service';
import { parseListQuery } from '../../query/list-query';
import { alertLevelInfo } from '../../renderer/lib/format';
import { findReportWithExcursions, type ReportWithExcursions } from '../support/report-fixture';
import { launchChromium, prepare, shot, waitAttr, waitText, watchProblems } from './browser';

let dir: string;
let service: { url: string; close(): Promise<void> };
let browser: Browser;
let target: ReportWithExcursions;
let editor: CreatedApiKey;
let readOnly: CreatedApiKey;
let second: { id: string; level: number };
const problems: string[] = [];

beforeAll(async () => {
  const prepared = await prepare('report-panel', { reports: 60, seed: 3 });
  dir = prepared.dir;
  target = findReportWithExcursions(prepared.dbFile, 'acme');
  second = anotherAlertingReport(prepared.dbFile, 'acme', target.report.id);
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

/** The confirmation a verdict change waits in: it tells what the alert does, and takes the reason. */
async function confirmChange(detail: Locator, reason: string): Promise<void> {
  const dialog = detail.getByTestId('change-reason');
  await waitText(dialog.getByTestId('change-effect'), 'The alert');
  await dialog.locator('textarea[name=changeReason]').fill(reason);
  await dialog.getByRole('button', { name: 'Confirm change' }).click();
  await expect.poll(() => dialog.count()).toBe(0);
}

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
      await waitText(detail.getByTestId('alert-explanation'), alerts.explanation);
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
