/**
 * Facets beside the filters and the Insights screen in real Chromium, against the real service
 * on demo data: each count is what the list then shows, a click adds and removes the filter, and
 * every bar of the Insights screen (time buckets, split values, the ranges of each figure, alert
 * levels, decisions, a custom field not set, the reports without an MKT) opens the browser
 * filtered to exactly its reports, with and without the browser's review and decision filters.
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

async function openApp(search = ''): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1600, height: 1000 } });
  const page = await context.newPage();
  watchProblems(page, problems);
  await page.goto(`${service.url}/${search}#key=${encodeURIComponent(key)}`);
  if (search.includes('view=insights')) await insightsReady(page);
  else await page.getByTestId('report-count').waitFor();
  return page;
}

/** The zone the page's Chromium counts weeks and months in. */
async function browserZone(): Promise<string> {
  const probe = await openApp();
  const zone = await probe.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
  await probe.context().close();
  return zone;
}

async function insightsReady(page: Page): Promise<void> {
  await expect.poll(() => page.getByTestId('insights').getAttribute('data-ready')).toBe('true');
}

/** The bars of a chart that open the browser, with the count each shows. */
async function bars(page: Page, chart: string): Promise<{ bar: string; count: number }[]> {
  const buttons = page.locator(`[data-chart="${chart}"] button[data-bar]`);
  return Promise.all(
    (await buttons.all()).map(async (b) => ({ bar: (await b.getAttribute('data-bar'))!, count: Number(await b.getAttribute('data-count')) })),
  );
}

/** The words of the filter chips in force. */
async function chipTitles(page: Page): Promise<string[]> {
  const titles = await page.getByTestId('filter-chips').locator('[data-chip]').evaluateAll((els) => els.map((el) => el.getAttribute('title') ?? ''));
  return [...new Set(titles)].sort();
}

/**
 * Opens the Insights screen at `search`, clicks each bar of each chart and checks the browser
 * then lists exactly the bar's count; back to the Insights screen by removing the chips the bar
 * added (a reload when that does not give the filters back). Returns how many bars each chart had.
 */
async function openEveryBar(search: string, charts: string[]): Promise<Record<string, number>> {
  const opened: Record<string, number> = {};
  const page = await openApp(search);
  const reload = async () => {
    await page.goto(`${service.url}/${search}#key=${encodeURIComponent(key)}`);
    await insightsReady(page);
  };
  // The chips are read on the browser, where each bar opens.
  await page.getByRole('tab', { name: 'Reports' }).click();
  await page.getByTestId('report-count').waitFor();
  const before = await chipTitles(page);
  await page.getByRole('tab', { name: 'Insights' }).click();
  await insightsReady(page);
  for (const chart of charts) {
    const all = await bars(page, chart);
    opened[chart] = all.length;
    for (const { bar, count: shown } of all) {
      await page.locator(`[data-chart="${chart}"] button[data-bar="${bar}"]`).click();
      await page.getByTestId('report-count').waitFor();
      await expect.poll(() => count(page), { message: `${chart}: ${bar}` }).toBe(shown);
      for (const title of await chipTitles(page)) {
        if (!before.includes(title)) await page.getByTestId('filter-chips').getByRole('button', { name: `Remove filter: ${title}`, exact: true }).click();
      }
      if (JSON.stringify(await chipTitles(page)) !== JSON.stringify(before)) await reload();
      else {
        await page.getByRole('tab', { name: 'Insights' }).click();
        await insightsReady(page);
      }
    }
  }
  await page.context().close();
  return opened;
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

  it('opens every bar of the distributions, alert levels, decisions and start-time months on exactly its reports', async () => {
    const opened = await openEveryBar('?view=insights', ['distribution-0', 'distribution-1', 'distribution-2', 'alert-levels', 'decisions']);
    // The demo data has reports in several ranges of each figure, and decided and undecided ones.
    for (const chart of ['distribution-0', 'distribution-1', 'distribution-2', 'decisions']) expect(opened[chart], chart).toBeGreaterThan(1);
    const page = await openApp('?view=insights');
    await page.locator('select[name=timeField]').selectOption('startTime');
    await insightsReady(page);
    await waitText(page.locator('[data-chart="time"] figcaption'), 'started');
    const months = await bars(page, 'time');
    expect(months.length).toBeGreaterThan(0);
    const last = months[months.length - 1];
    await page.locator(`[data-chart="time"] button[data-bar="${last.bar}"]`).click();
    await expect.poll(() => count(page)).toBe(last.count);
    await waitText(page.getByTestId('filter-chips'), `Started in ${last.bar}`);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('opens a custom field’s “(not set)” bar and the reports without an MKT on exactly their reports', async () => {
    const zone = encodeURIComponent(await browserZone());
    const byCarrier = await api<Groups>(`/local/insights/groups?by=customFields.carrier&filter=isArchived[eq]false&zone=${zone}`);
    const notSet = byCarrier.groups.find((g) => g.value === null)!;
    expect(notSet.count).toBeGreaterThan(0);
    const page = await openApp('?view=insights');
    await page.locator('select[name=by]').selectOption('customFields.carrier');
    await insightsReady(page);
    await page.locator('[data-chart="split"] button[data-bar="(not set)"]').click();
    await expect.poll(() => count(page)).toBe(notSet.count);
    await waitText(page.getByTestId('filter-chips'), 'carrier: not set');

    // The address carries the chip: a reload lists the same reports.
    await page.reload();
    await page.getByTestId('report-count').waitFor();
    await expect.poll(() => count(page)).toBe(notSet.count);

    const byMkt = await api<Groups>(`/local/insights/groups?by=bins.mkt&filter=isArchived[eq]false&zone=${zone}`);
    const noMkt = byMkt.groups.find((g) => g.value === null)!;
    expect(noMkt.count).toBeGreaterThan(0);
    const fresh = await openApp('?view=insights');
    await fresh.locator('[data-chart="distribution-2"] button[data-note]').click();
    await expect.poll(() => count(fresh)).toBe(noMkt.count);
    await waitText(fresh.getByTestId('filter-chips'), 'no readings yet');
    expect(problems).toEqual([]);
    await page.context().close();
    await fresh.context().close();
  });

  it('with a review filter in force, counts what the browser lists, and each bar opens within it', async () => {
    const page = await openApp('?review=awaitingReview');
    const listed = await count(page);
    expect(listed).toBeGreaterThan(0);
    await page.getByTestId('facets-button').click();
    const modes = page.locator('[data-facet="mode"] .facet__count');
    await expect.poll(async () => (await modes.allTextContents()).reduce((sum, t) => sum + Number(t.replace(/[^\d]/g, '')), 0)).toBe(listed);
    await page.context().close();
    const opened = await openEveryBar('?view=insights&review=awaitingReview', ['split', 'decisions']);
    expect(opened.split).toBeGreaterThan(0);
    const decided = await openEveryBar('?view=insights&decision=released', ['split']);
    expect(decided.split).toBeGreaterThan(0);
    expect(problems).toEqual([]);
  });

  it('shows the browser’s filters it counts, and removing one there counts again without it', async () => {
    const zone = encodeURIComponent(await browserZone());
    const total = async (filter: string) => (await api<Groups>(`/local/insights/groups?by=mode${filter ? `&filter=${filter}` : ''}&zone=${zone}`)).total;
    const sea = await total('isArchived[eq]false,mode[eq]seaFreight');
    const unarchived = await total('isArchived[eq]false');
    const every = await total('');
    // The figures differ, so a screen that ignored a chip's removal would show the wrong one.
    expect(new Set([sea, unarchived, every]).size).toBe(3);

    const page = await openApp('?view=insights&mode=seaFreight');
    const filters = page.getByTestId('insights-filters');
    const shown = async () => Number(((await page.getByTestId('insights-total').textContent()) ?? '').replace(/[^\d]/g, ''));
    await waitText(filters, 'Mode: Sea');
    await waitText(filters, 'Archived hidden');
    await expect.poll(shown).toBe(sea);
    await shot(page, 'insights-filters');

    await filters.getByRole('button', { name: /^Remove filter: Mode: Sea/ }).click();
    await insightsReady(page);
    await waitGone(filters.locator('[data-chip="mode"]'));
    await expect.poll(shown).toBe(unarchived);
    // The browser lost the chip too: it is the same filter, not a copy.
    await page.getByRole('tab', { name: 'Reports' }).click();
    await expect.poll(() => count(page)).toBe(unarchived);
    await page.getByRole('tab', { name: 'Insights' }).click();
    await insightsReady(page);

    await filters.getByRole('button', { name: 'Remove filter: Archived hidden' }).click();
    await insightsReady(page);
    await waitText(filters, 'none, every report.');
    await expect.poll(shown).toBe(every);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
