/**
 * End to end: alarms in real Chromium against the service as the desktop app runs it. A tap
 * raises an alarm; the header counts it, a notice names the report, the level and the excursion
 * and opens the report; the Alarms view lists it with who was told, and after the review's
 * acknowledgement shows it acknowledged and the count falls to none.
 */
import { rmSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDesktopService, type DesktopService } from '../../host/desktop-service';
import { alarmRuleBodySchema } from '../../schema/alarms';
import { ALL, calmReport, ONE_WARM, readingsAfter } from '../alarms/alarm-fixture';
import { launchChromium, prepare, shot, waitAttr, waitGone, waitText, watchProblems } from './browser';

let dir: string;
let desk: DesktopService;
let browser: Browser;
const problems: string[] = [];

beforeAll(async () => {
  const { uiDir, dbFile, ...prepared } = await prepare('e2e-alarms', { reports: 20, seed: 5 });
  dir = prepared.dir;
  desk = await startDesktopService({ dbFile, port: 0, companyId: 'acme', staticDir: uiDir });
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await desk?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('alarms in Chromium', () => {
  it('counts, announces and lists an alarm, opens its report, and shows it acknowledged', async () => {
    const { service } = desk.running;
    const tool = service.apiKeys.authenticate(service.apiKeys.create('acme', [...ALL, 'labelReports:create'], 'e2e tool').key);
    service.putReport(calmReport('alarm-r1', { labelReference: 'SHP-ALARM-1' }), { kind: 'import' });
    service.alarms.createRule(tool, 'acme', alarmRuleBodySchema.parse({ name: 'Any alert', minLevel: 1, steps: [{ emails: [] }], channels: ['desktop'] }));

    const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
    try {
      const page = await context.newPage();
      watchProblems(page, problems);
      await page.goto(`${desk.url}/#key=${encodeURIComponent(desk.sessionKey!)}`);
      const count = page.getByTestId('header-alarms');
      await waitAttr(count, 'aria-label', '0 unacknowledged alarms');

      service.intake.tap(tool, 'alarm-r1', readingsAfter(4, ONE_WARM));
      await page.getByRole('tab', { name: 'Alarms' }).click();
      await waitAttr(count, 'aria-label', '1 unacknowledged alarm');
      const notice = page.getByTestId('alarm-notices');
      await waitText(notice, 'Moderate alarm: SHP-ALARM-1');
      await waitText(notice, 'readings were out of limits for 10 min');
      const table = page.getByTestId('alarms-table');
      await waitText(table, 'SHP-ALARM-1');
      const row = table.locator('tbody tr').first();
      expect(await row.getAttribute('data-state')).toBe('open');
      await waitText(row, 'desktop the company’s desks');
      await shot(page, 'alarms-open');

      await notice.getByRole('button', { name: /Moderate alarm: SHP-ALARM-1/ }).click();
      await waitAttr(page.getByRole('tab', { name: 'Reports' }), 'aria-selected', 'true');
      await expect.poll(() => new URL(page.url()).searchParams.get('report')).toBe('alarm-r1');

      service.reviews.acknowledge(tool, 'alarm-r1', { note: 'pallet moved' });
      await page.getByRole('tab', { name: 'Alarms' }).click();
      await page.getByLabel('Alarms to show').selectOption('acknowledged');
      await waitText(page.getByTestId('alarms-table').locator('tbody tr').first(), 'Acknowledged by e2e tool');
      await waitAttr(count, 'aria-label', '0 unacknowledged alarms');
      await page.getByRole('button', { name: 'Dismiss' }).click();
      await waitGone(page.getByTestId('alarm-notices'));
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
