/**
 * The report table past the height a browser lays out, in real Chromium against the real
 * service. A million rows cannot be imported here, so the renderer is built with a small scroll
 * cap (a few hundred rows' worth) and a few thousand demo reports are scaled into it, as a million
 * are into the real cap: the end is reachable, "go to row" and the keyboard land exactly, "rows
 * X–Y of N" says what is on screen, and the rows shown are the service's, in its order.
 */
import { rmSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService } from '../../host/start-service';
import { offsetAt, scrollScale } from '../../renderer/lib/scaled-scroll';
import type { MinimalLabelReport, Page as ApiPage } from '../../schema/report';
import { launchChromium, prepare, shot, waitText, watchProblems } from './browser';

// The size and seed of test/e2e/app.test.ts's data: the run makes that database once for the files that share it.
const REPORTS = Number(process.env.SCALED_TABLE_REPORTS ?? 3000);
const SEED = Number(process.env.SCALED_TABLE_SEED ?? 7);
/** Far below the real cap, so a few thousand rows are scaled as a million are. */
const CAP = 30_000;
const ROW = 44;
const HEADER = 44;
const QUERY = { order: 'created[desc]', filter: 'isArchived[eq]false' };

let dir: string;
let service: { url: string; close(): Promise<void> };
let browser: Browser;
let key: string;
const problems: string[] = [];

beforeAll(async () => {
  const { uiDir, dbFile, summary, ...prepared } = await prepare('scaled-table', { reports: REPORTS, seed: SEED }, { __LABELDESK_TABLE_MAX_SCROLL_HEIGHT__: String(CAP) });
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

/** Page `pageNumber` (1-based) of `pageSize` rows of the table's default question. */
async function servicePage(pageSize: number, pageNumber: number): Promise<MinimalLabelReport[]> {
  const res = await fetch(`${service.url}/v2/labelReports?${new URLSearchParams({ ...QUERY, output: 'minimal', pageSize: String(pageSize), pageNumber: String(pageNumber) })}`, {
    headers: { 'x-api-key': key },
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as ApiPage<MinimalLabelReport>).data;
}

/** The service's row at 1-based position n of the table's default question. */
async function serviceRow(n: number): Promise<MinimalLabelReport> {
  return (await servicePage(1, n))[0];
}

/**
 * The ids of the service's rows at 0-based positions firstIndex… of the same question: the pages
 * of `count` rows that hold them (two at most), rather than a request per row.
 */
async function serviceRows(firstIndex: number, count: number): Promise<string[]> {
  const first = Math.floor(firstIndex / count);
  const skip = firstIndex - first * count;
  const pages = await Promise.all(skip === 0 ? [servicePage(count, first + 1)] : [servicePage(count, first + 1), servicePage(count, first + 2)]);
  return pages
    .flat()
    .slice(skip, skip + count)
    .map((row) => row.id);
}

async function openApp(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1920, height: 1080 } });
  const page = await context.newPage();
  page.setDefaultTimeout(30_000);
  watchProblems(page, problems);
  await page.goto(`${service.url}/#key=${encodeURIComponent(key)}`);
  await page.getByTestId('report-count').waitFor();
  await page.locator('.rows .row[data-index="0"][data-report-id]').first().waitFor();
  return { context, page };
}

/** The rows in the table's viewport (wholly or in part), below its sticky header, top to bottom. */
async function rowsOnScreen(page: Page): Promise<{ index: number; id: string | null }[]> {
  return page.getByTestId('report-table').evaluate((table, header) => {
    const view = table.getBoundingClientRect();
    const top = view.top + table.clientTop + header;
    const bottom = view.top + table.clientTop + table.clientHeight;
    return [...table.querySelectorAll<HTMLElement>('.rows .row')]
      .filter((row) => {
        const box = row.getBoundingClientRect();
        return box.bottom > top + 0.5 && box.top < bottom - 0.5;
      })
      .map((row) => ({ index: Number(row.getAttribute('aria-rowindex')) - 2, id: row.getAttribute('data-report-id'), top: row.getBoundingClientRect().top }))
      .sort((a, b) => a.top - b.top)
      .map(({ index, id }) => ({ index, id }));
  }, HEADER);
}

/** Waits until the rows on screen are loaded, then returns them. */
async function loadedRowsOnScreen(page: Page) {
  let rows: { index: number; id: string | null }[] = [];
  await expect
    .poll(async () => {
      rows = await rowsOnScreen(page);
      return rows.length > 0 && rows.every((r) => r.id !== null);
    })
    .toBe(true);
  return rows;
}

async function expectRowsMatchService(page: Page) {
  const rows = await loadedRowsOnScreen(page);
  // Contiguous, in order: no row is skipped or repeated between the top and the bottom of the screen.
  for (let i = 1; i < rows.length; i++) expect(rows[i].index).toBe(rows[i - 1].index + 1);
  expect(rows.map((r) => r.id)).toEqual(await serviceRows(rows[0].index, rows.length));
  const total = Number(((await page.getByTestId('report-count').textContent()) ?? '').replace(/[^\d]/g, ''));
  await waitText(page.getByTestId('row-range'), `rows ${(rows[0].index + 1).toLocaleString()}–${(rows[rows.length - 1].index + 1).toLocaleString()} of ${total.toLocaleString()}`);
  return rows;
}

async function goToRow(page: Page, n: number) {
  await page.locator('input[name=goToRow]').fill(String(n));
  await page.locator('input[name=goToRow]').press('Enter');
  const row = page.locator(`.rows .row[data-index="${n - 1}"][data-report-id]`);
  await row.waitFor();
  expect(await row.getAttribute('aria-selected')).toBe('true');
  expect(await row.getAttribute('data-report-id')).toBe((await serviceRow(n)).id);
  const onScreen = await loadedRowsOnScreen(page);
  expect(onScreen.map((r) => r.index)).toContain(n - 1);
}

describe('the report table scaled past the scroll cap', () => {
  it('reaches the last row, and shows the service’s rows in its order wherever it is scrolled', async () => {
    const { context, page } = await openApp();
    try {
      const total = (await fetch(`${service.url}/v2/labelReports?${new URLSearchParams({ ...QUERY, pageSize: '1' })}`, { headers: { 'x-api-key': key } }).then((r) => r.json())).totalDocuments as number;
      expect(total * ROW, 'the demo list is taller than the cap').toBeGreaterThan(3 * CAP);
      const table = page.getByTestId('report-table');
      expect(await table.getAttribute('data-scaled')).toBe('true');
      const heights = await table.evaluate((el) => ({ scroll: el.scrollHeight, client: el.clientHeight }));
      expect(heights.scroll).toBeLessThanOrEqual(CAP + HEADER);
      await expectRowsMatchService(page);

      // The end: the scrollbar at the bottom shows the last row at the bottom.
      await table.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
      const atEnd = await expectRowsMatchService(page);
      expect(atEnd[atEnd.length - 1].index).toBe(total - 1);
      await waitText(page.getByTestId('row-range'), `–${total.toLocaleString()} of ${total.toLocaleString()}`);
      await shot(page, 'scaled-table-end');

      // Anywhere between: the first row shown is the one the scale puts at that scroll position.
      const scale = scrollScale(total * ROW, heights.client - HEADER, CAP);
      for (const fraction of [0.13, 0.5, 0.77]) {
        const top = Math.round(scale.maxScrollTop * fraction);
        await table.evaluate((el, to) => el.scrollTo({ top: to }), top);
        const rows = await expectRowsMatchService(page);
        expect(rows[0].index).toBe(Math.floor(offsetAt(scale, top) / ROW));
      }

      // A small scroll inside a page moves the list by exactly one row.
      const pageLength = scale.maxScrollTop / (scale.boundaries + 1);
      expect(pageLength, 'pages long enough to scroll a row inside one').toBeGreaterThan(2 * ROW);
      const pageStart = Math.ceil(Math.floor(scale.boundaries / 2) * pageLength);
      await table.evaluate((el, to) => el.scrollTo({ top: to }), pageStart);
      const before = await expectRowsMatchService(page);
      await table.evaluate((el, to) => el.scrollTo({ top: to }), pageStart + ROW);
      await expect.poll(async () => (await loadedRowsOnScreen(page))[0].index).toBe(before[0].index + 1);
    } finally {
      await context.close();
    }
  });

  it('goes to any row exactly, and the keyboard reaches both ends', async () => {
    const { context, page } = await openApp();
    try {
      const total = Number(((await page.getByTestId('report-count').textContent()) ?? '').replace(/[^\d]/g, ''));
      for (const n of [total, 1, Math.floor(total / 2) + 7, 1234, total - 3]) await goToRow(page, n);
      await shot(page, 'scaled-table-go-to-row');

      const grid = page.getByTestId('report-table');
      await goToRow(page, 1);
      await grid.focus();
      await page.keyboard.press('End');
      await page.locator(`.rows .row[data-index="${total - 1}"][aria-selected=true]`).waitFor();
      expect((await loadedRowsOnScreen(page)).map((r) => r.index)).toContain(total - 1);
      await page.keyboard.press('PageUp');
      const up = page.locator(`.rows .row[aria-selected=true]`);
      await expect.poll(() => up.getAttribute('data-index')).toBe(String(total - 1 - 15));
      expect((await loadedRowsOnScreen(page)).map((r) => r.index)).toContain(total - 16);
      await page.keyboard.press('Home');
      await page.locator('.rows .row[data-index="0"][aria-selected=true]').waitFor();
      expect((await grid.evaluate((el) => el.scrollTop))).toBe(0);
      for (let i = 0; i < 3; i++) await page.keyboard.press('PageDown');
      await page.locator('.rows .row[data-index="45"][aria-selected=true]').waitFor();
      await page.keyboard.press('ArrowDown');
      await page.locator('.rows .row[data-index="46"][aria-selected=true]').waitFor();
      const rows = await expectRowsMatchService(page);
      expect(rows.map((r) => r.index)).toContain(46);
    } finally {
      await context.close();
    }
  });

  it('ran without console errors', () => {
    expect(problems).toEqual([]);
  });
});
