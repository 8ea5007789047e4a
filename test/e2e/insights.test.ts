/**
 * Facets beside the filters and the Insights screen in real Chromium, against the real service
 * on demo data: each count is what the list then shows, a click adds and removes the filter, and
 * a bar of the Insights screen opens the browser filtered to exactly its reports.
 */
import { rmSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService } from '../../host/start-service';
import type { Facets, Groups } from '../../schema/insights';
import { launchChromium, prepare, shot, waitGone, waitText, watchProblems } from './browser';

let dir: string;
let service: { url: string; close(): Promise<void> };
let browser: Browser;
let key: string;
const problems: string[] = [];

beforeAll(async () => {
  const { uiDir, dbFile, summary, ...prepared } = await prepare('insights', { reports: 400, seed: 5 });
  dir = prepared.dir;
  const reader = summary.keys.find((k) => k.companyId === 'acme' && k.permissions.includes('labelReports:read'));
  if (!reader) throw new Error('the demo data has no reading key for acme');
  key = reader.key;
  service = await startService({ dbFile, port: 0, staticDir: uiDir });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await service?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function api<T>(path: string): Promise<T> {
  const res = await fetch(service.url + path, { headers: { 'x-api-key': key } });
  expect(res.status).toBe(200);
  return (await res.json()) as T;
}

async function count(page: Page): Promise<number> {
  const text = await page.getByTestId('report-count').textContent();
  return Number((text ?? '').replace(/[^\d]/g, ''));
}

async function openApp(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1600, height: 1000 } });
  const page = await context.newPage();
  watchProblems(page, problems);
  await page.goto(`${service.url}/#key=${encodeURIComponent(key)}`);
  await page.getByTestId('report-count').waitFor();
  return page;
}

describe('facets beside the filters', () => {
  it('shows each value with the count the list then shows, and a click adds and removes the filter', async () => {
    const page = await openApp();
    // The browser hides archived reports by default: the facets count the same reports.
    const expected = await api<Facets>('/local/insights/facets?keys=mode&filter=isArchived[eq]false');
    const air = expected.facets.mode.find((v) => v.value === 'airFreight')!;
    expect(air.count).toBeGreaterThan(0);
    await page.getByTestId('facets-button').click();
    const button = page.locator('[data-facet="mode"] button', { hasText: 'Air' });
    await waitText(button, air.count.toLocaleString('en-US'));
    await shot(page, 'facets');
    await button.click();
    await expect.poll(() => count(page)).toBe(air.count);
    await waitText(page.getByTestId('filter-chips'), 'Air');
    await expect.poll(() => button.getAttribute('aria-pressed')).toBe('true');
    // With the mode in force, the other values of mode count nothing, and the status counts add up to it.
    const status = page.locator('[data-facet="status"] .facet__count');
    await expect
      .poll(async () => (await status.allTextContents()).reduce((sum, t) => sum + Number(t.replace(/[^\d]/g, '')), 0))
      .toBe(air.count);
    await button.click();
    await expect.poll(() => button.getAttribute('aria-pressed')).toBe('false');
    await waitGone(page.getByTestId('filter-chips').locator('li', { hasText: 'Air' }));
    expect(problems).toEqual([]);
    await page.context().close();
  });
});

describe('the Insights screen', () => {
  it('draws every chart for the browser’s filters, says its zone once, and a bar opens the browser on exactly its reports', async () => {
    const page = await openApp();
    await page.getByRole('tab', { name: 'Insights' }).click();
    await expect.poll(() => page.getByTestId('insights').getAttribute('data-ready')).toBe('true');
    const zone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
    await waitText(page.getByTestId('insights-zone'), zone);
    expect(await page.locator('[data-chart] canvas').count()).toBe(7);
    await shot(page, 'insights');

    const byMode = await api<Groups>(`/local/insights/groups?by=mode&filter=isArchived[eq]false&zone=${encodeURIComponent(zone)}`);
    const sea = byMode.groups.find((g) => g.value === 'seaFreight')!;
    await page.locator('[data-chart="split"] button[data-bar^="Sea"]').click();
    await expect.poll(() => count(page)).toBe(sea.count);
    await waitText(page.getByTestId('filter-chips'), 'Sea');

    await page.getByRole('tab', { name: 'Insights' }).click();
    await expect.poll(() => page.getByTestId('insights').getAttribute('data-ready')).toBe('true');
    const byMonth = await api<Groups>(
      `/local/insights/groups?by=created.month&filter=isArchived[eq]false,mode[eq]seaFreight&zone=${encodeURIComponent(zone)}`,
    );
    const month = byMonth.groups[byMonth.groups.length - 1];
    await page.locator(`[data-chart="time"] button[data-bar="${String(month.value)}"]`).click();
    await expect.poll(() => count(page)).toBe(month.count);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
