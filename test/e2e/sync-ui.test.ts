/**
 * End to end: sync set up and used from the window, in real Chromium at 1280×720. Two real
 * instances on loopback: a remote (startTestService) behind a fault proxy that can take it
 * offline, and the desktop service, configured through Settings › Sync. The desk tests the
 * connection, saves, sees "N of M" while the first pull runs (its second page held by the proxy)
 * and the header go to synced; an edit made while the remote is
 * unreachable is marked "not yet sent"; the same field changed on the remote makes a conflict,
 * resolved with "Keep mine", which the remote then holds.
 */
import { rmSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDesktopService, type DesktopService } from '../../host/desktop-service';
import { FaultProxy } from '../support/fault-proxy';
import { makeReport, startTestService, type TestService } from '../support/service-fixture';
import { putReports } from '../support/sync-reports';
import { confirmChange, launchChromium, prepare, shot, waitAttr, waitGone, waitText, watchProblems } from './browser';

const REPORTS = ['ship-1', 'ship-2', 'ship-3'];
/** More than one pull page (100 reports): older, so the three above head the list. */
const BULK = Array.from({ length: 147 }, (_, i) => `bulk-${String(i).padStart(3, '0')}`);
const TOTAL = REPORTS.length + BULK.length;

let dir: string;
let remote: TestService;
let proxy: FaultProxy;
let desk: DesktopService;
let browser: Browser;
const problems: string[] = [];

beforeAll(async () => {
  // The desk's database has the companies and no reports: everything it shows comes by sync.
  const { uiDir, dbFile, ...prepared } = await prepare('e2e-sync', { reports: 0, seed: 5 });
  dir = prepared.dir;
  remote = await startTestService([
    ...REPORTS.map((id, i) => makeReport(id, { labelReference: `SHP-${i + 1}` })),
    ...BULK.map((id) => makeReport(id, { created: '2026-05-01T08:00:00.000Z' })),
  ]);
  proxy = await FaultProxy.start(remote.url);
  desk = await startDesktopService({ dbFile, port: 0, companyId: 'acme', staticDir: uiDir });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await desk?.close();
  await proxy?.close();
  await remote?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function remoteReference(id: string): Promise<string | null> {
  const res = await fetch(`${remote.url}/v2/labelReports/${id}`, { headers: { 'x-api-key': remote.keys.acme } });
  expect(res.status).toBe(200);
  return ((await res.json()) as { labelReference: string | null }).labelReference;
}

async function open(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  const page = await context.newPage();
  watchProblems(page, problems);
  await page.goto(`${desk.url}/?view=settings#key=${encodeURIComponent(desk.sessionKey!)}`);
  await page.getByTestId('sync-settings').waitFor();
  return { context, page };
}

describe('sync in Chromium', () => {
  it('is set up from Settings, shows its state in the header, marks unsent edits and resolves a conflict', async () => {
    const { context, page } = await open();
    try {
      const indicator = page.getByTestId('sync-indicator');
      const settings = page.getByTestId('sync-settings');
      await waitAttr(indicator, 'data-state', 'off');
      await waitText(indicator, 'Sync off');

      // Test the connection: the remote names the company, which fills the empty field.
      await settings.getByLabel('Remote address').fill(proxy.url);
      await settings.getByLabel('Remote API key').fill(remote.keys.acme);
      await settings.getByRole('button', { name: 'Test connection' }).click();
      await waitText(page.getByTestId('sync-test-result'), 'Acme Cold Chain');
      await expect.poll(() => settings.getByLabel('Company (optional)').inputValue()).toBe('acme');

      // Save: outside the desktop app the key stays in the service's memory, and the page says so;
      // the key is never shown back. The first cycle starts; its second list page waits at the proxy.
      const secondPage = proxy.hold({ method: 'GET', path: /^\/v2\/labelReports\?/ }, 'request', 2);
      await settings.getByRole('button', { name: 'Save and sync' }).click();
      await waitText(page.getByTestId('sync-notice'), 'in memory only');
      // The field is emptied once the save has answered, a render after the notice.
      await expect.poll(() => settings.getByLabel('Remote API key').inputValue()).toBe('');
      expect(await page.content()).not.toContain(remote.keys.acme);

      await secondPage.arrived;
      await waitAttr(indicator, 'data-state', 'pulling');
      await waitText(indicator, `Receiving changes · 100 of ${TOTAL}`);
      await shot(page, 'sync-pulling');
      secondPage.release();
      await waitAttr(indicator, 'data-state', 'idle');
      await settings.getByRole('button', { name: 'Sync now' }).click();
      await waitAttr(indicator, 'data-state', 'idle');
      await waitText(indicator, 'synced just now');
      await shot(page, 'sync-settings');

      // Every report arrived.
      await page.getByRole('tab', { name: 'Reports' }).click();
      await waitText(page.getByTestId('report-count'), String(TOTAL));
      const row = page.locator('[data-report-id="ship-1"]');
      await row.waitFor();
      expect(await row.getByTestId('pending-mark').count()).toBe(0);

      // The remote unreachable: an edit made here waits, marked in the row and in the detail.
      await proxy.offline();
      await row.click();
      const detail = page.getByTestId('report-detail');
      const form = detail.getByTestId('bookkeeping-form');
      await form.locator('input[name=labelReference]').fill('SHP-1 mine');
      await form.getByRole('button', { name: 'Save' }).click();
      await waitText(detail.getByTestId('pending-mark'), 'Not yet sent');
      await waitText(row.getByTestId('pending-mark'), 'Not sent');
      await waitAttr(indicator, 'data-state', 'offline');
      await waitText(indicator, '1 edit not yet sent');
      await waitText(indicator.getByTestId('sync-error'), 'Cannot reach');
      // The long error gives way: the state and the count stay whole.
      const summaryFits = () =>
        indicator.evaluate((el) => el.querySelector('[data-testid=sync-summary]')!.getBoundingClientRect().right <= el.getBoundingClientRect().right);
      expect(await summaryFits()).toBe(true);
      await shot(page, 'sync-offline-pending');

      // Meanwhile the same field changes on the remote; back online, sync makes a conflict.
      const res = await fetch(`${remote.url}/v2/labelReports/ship-1`, {
        method: 'PATCH',
        headers: { 'x-api-key': remote.keys.acme, 'content-type': 'application/json' },
        body: JSON.stringify({ labelReference: 'SHP-1 theirs' }),
      });
      expect(res.status).toBe(200);
      await proxy.online();
      await indicator.click();
      await page.getByTestId('sync-settings').waitFor();
      await settings.getByRole('button', { name: 'Sync now' }).click();
      await waitText(indicator, '1 conflict');
      const conflicts = page.getByTestId('sync-conflicts');
      await waitText(conflicts, 'Reference');
      await waitText(conflicts.getByTestId('conflict-base'), 'SHP-1');
      await waitText(conflicts.getByTestId('conflict-local'), 'SHP-1 mine');
      await waitText(conflicts.getByTestId('conflict-remote'), 'SHP-1 theirs');
      await shot(page, 'sync-conflict');
      // The remote's value is in force until someone decides.
      expect(await remoteReference('ship-1')).toBe('SHP-1 theirs');

      await conflicts.getByRole('button', { name: 'Keep mine' }).click();
      await waitText(conflicts, 'No conflicts.');
      await expect.poll(() => remoteReference('ship-1'), { timeout: 20_000 }).toBe('SHP-1 mine');
      await waitAttr(indicator, 'data-state', 'idle');
      await expect.poll(() => indicator.textContent(), { timeout: 20_000 }).not.toMatch(/not yet sent|conflict/);
      await page.getByRole('tab', { name: 'Reports' }).click();
      await waitGone(page.locator('[data-report-id="ship-1"]').getByTestId('pending-mark'));

      // Nothing is cut off at 1280×720.
      expect(await indicator.evaluate((el) => el.getBoundingClientRect().right <= window.innerWidth)).toBe(true);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('says whose figures a report shows, and lists a report the remote sent wrongly with why', async () => {
    const { context, page } = await open();
    try {
      const indicator = page.getByTestId('sync-indicator');
      const settings = page.getByTestId('sync-settings');
      await waitAttr(indicator, 'data-state', 'idle');

      // A new report on the remote, whose retrieve the remote answers with another report.
      putReports(remote.service, [makeReport('ship-4', { labelReference: 'SHP-4', updated: new Date().toISOString() })]);
      const wrong = await (await fetch(`${remote.url}/v2/labelReports/ship-2`, { headers: { 'x-api-key': remote.keys.acme } })).json();
      const rule = proxy.failAll({ kind: 'status', status: 200, body: wrong }, { method: 'GET', path: /^\/v2\/labelReports\/ship-4$/ });
      try {
        await settings.getByRole('button', { name: 'Sync now' }).click();
        await waitText(indicator, '1 refused report');
        const refused = page.getByTestId('sync-refused').getByTestId('refused-ship-4');
        await waitText(refused, "the remote answered with label report 'ship-2' when asked for 'ship-4'");
        await shot(page, 'sync-refused');
      } finally {
        rule.remove();
      }

      // A mirrored report's figures are the remote's; a local limit edit recalculates them here
      // until the remote has it.
      await page.getByRole('tab', { name: 'Reports' }).click();
      await page.locator('[data-report-id="ship-2"]').click();
      const detail = page.getByTestId('report-detail');
      await waitAttr(detail.getByTestId('figures-source'), 'data-source', 'remote');
      await waitText(detail.getByTestId('figures-source'), 'Calculated by the remote');
      await proxy.offline();
      await detail.locator('input[name=maxTemperature]').fill('4');
      await detail.getByRole('button', { name: 'Save limits' }).click();
      await confirmChange(detail, 'Colder product on this lane.');
      await waitText(detail.getByTestId('save-limits'), 'Limits saved');
      await waitAttr(detail.getByTestId('figures-source'), 'data-source', 'local-edit');
      await waitText(detail.getByTestId('figures-source'), 'Recalculated here after your edit, waiting for the remote');
      await shot(page, 'figures-recalculated-here');
      await proxy.online();
      await indicator.click();
      await settings.getByRole('button', { name: 'Sync now' }).click();
      await waitAttr(indicator, 'data-state', 'idle');
      // The report is still open: the pull that brought the remote's answer changes it in place.
      await page.getByRole('tab', { name: 'Reports' }).click();
      await waitAttr(page.getByTestId('report-detail').getByTestId('figures-source'), 'data-source', 'remote');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
