/**
 * The report browser on the desk screens staff have (1280×720, 1366×768, 1920×1080) in real
 * Chromium, against the real service behind a loopback proxy that counts the list requests the
 * page makes and how many of them were answered to the end. Bounding boxes say that the key
 * columns and the alert badges are never clipped and that the filter bar stays one line;
 * screenshots of each size, with a report open and closed, go to test-artifacts/screenshots/ under SCREENSHOTS=1.
 */
import { createServer, request as httpRequest } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync, rmSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService } from '../../host/start-service';
import type { MinimalLabelReport, Page as ApiPage } from '../../schema/report';
import { DEFAULT_COLUMNS, COLUMN_INFO } from '../../renderer/lib/columns';
import { launchChromium, prepare, shot, waitAttr, waitGone, waitText, watchProblems } from './browser';

// The size and seed of test/e2e/app.test.ts's data (more than 2 000 reports in acme's list, as
// the scroll test needs): the run makes that database once for the files that share it.
const REPORTS = Number(process.env.LAYOUT_REPORTS ?? 3000);
const SEED = Number(process.env.LAYOUT_SEED ?? 7);
const ROW = 44;
const NOT_ARCHIVED = 'isArchived[eq]false';
const SIZES = [
  { width: 1280, height: 720 },
  { width: 1366, height: 768 },
  { width: 1920, height: 1080 },
] as const;

let dir: string;
let served: { dbFile: string; uiDir: string };
let service: { url: string; close(): Promise<void> } | null;
let proxy: Server;
let proxyUrl: string;
let browser: Browser;
let adminKey: string;
const problems: string[] = [];

/** List requests seen by the proxy: asked for, and answered to the end (not abandoned by the page). */
const counts = { asked: 0, answered: 0 };

/** Forwards everything to the service, as the page's own origin, counting the list requests (the review list, /local/labelReports). */
function startProxy(target: () => string | null): Promise<Server> {
  const server = createServer((req, res) => {
    const upstream = target();
    const isList = req.method === 'GET' && /^\/(v2|local)\/labelReports\?/.test(req.url ?? '');
    if (isList) counts.asked++;
    if (!upstream) {
      res.socket?.destroy();
      return;
    }
    const to = new URL(upstream);
    const headers = { ...req.headers, host: to.host };
    if (headers.origin) headers.origin = upstream;
    const forward = httpRequest({ host: to.hostname, port: to.port, method: req.method, path: req.url, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    forward.on('error', () => res.socket?.destroy());
    res.on('finish', () => {
      if (isList) counts.answered++;
    });
    // The page gave up on it: so does the proxy, as a browser's closed connection would.
    res.on('close', () => {
      if (!res.writableFinished) forward.destroy();
    });
    req.pipe(forward);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

beforeAll(async () => {
  const { uiDir, dbFile, summary, ...prepared } = await prepare('layout', { reports: REPORTS, seed: SEED });
  dir = prepared.dir;
  const admin = summary.keys.find((k) => k.companyId === 'acme' && k.permissions.includes('apiKeys:manage') && k.permissions.includes('labelReports:update'));
  if (!admin) throw new Error('the demo data has no managing key for acme');
  adminKey = admin.key;
  served = { dbFile, uiDir };
  const started = await startService({ dbFile, port: 0, staticDir: uiDir });
  service = started;
  proxy = await startProxy(() => service?.url ?? null);
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await service?.close();
  await new Promise((resolve) => (proxy ? proxy.close(resolve) : resolve(undefined)));
  if (dir) rmSync(dir, { recursive: true, force: true });
});

// ---------------------------------------------------------------------------------------------

async function api<T>(key: string, path: string, init: RequestInit = {}): Promise<{ status: number; body: T }> {
  const res = await fetch(`${service!.url}${path}`, {
    ...init,
    headers: { 'x-api-key': key, ...(init.body ? { 'content-type': 'application/json' } : {}) },
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
}

async function list(params: Record<string, string>): Promise<ApiPage<MinimalLabelReport>> {
  const { status, body } = await api<ApiPage<MinimalLabelReport>>(adminKey, `/v2/labelReports?${new URLSearchParams({ output: 'minimal', ...params })}`);
  expect(status).toBe(200);
  return body;
}

async function openApp(size: { width: number; height: number }, search = '', key = adminKey, ready = 'list'): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: size, acceptDownloads: true });
  const page = await context.newPage();
  // Chromium logs the requests refused on purpose: the revoked key's, and those to a stopped service.
  page.setDefaultTimeout(30_000);
  watchProblems(page, problems, /status of 401|net::ERR_/);
  await page.goto(`${proxyUrl}/${search}#key=${encodeURIComponent(key)}`);
  if (ready === 'list') {
    await page.getByTestId('report-count').waitFor();
    await page.locator('.rows .row[data-report-id]').first().waitFor();
  } else {
    await page.getByTestId(ready).first().waitFor();
  }
  return { context, page };
}

async function count(page: Page): Promise<number> {
  return Number(((await page.getByTestId('report-count').textContent()) ?? '').replace(/[^\d]/g, ''));
}

/** What the page shows of the table, in its own coordinates: visible area, headers and rows. */
async function measure(page: Page) {
  return page.evaluate(() => {
    const table = document.querySelector<HTMLElement>('[data-testid=report-table]')!;
    const r = table.getBoundingClientRect();
    const view = { left: r.left + table.clientLeft, top: r.top + table.clientTop, right: r.left + table.clientLeft + table.clientWidth, bottom: r.top + table.clientTop + table.clientHeight };
    const box = (el: Element) => {
      const b = el.getBoundingClientRect();
      return { left: b.left, right: b.right, top: b.top, bottom: b.bottom };
    };
    const headers = [...table.querySelectorAll<HTMLElement>('.row--header [role=columnheader]')].map((cell) => ({
      id: cell.dataset.column ?? '',
      box: box(cell),
      // Text that does not fit its cell is cut with an ellipsis.
      overflows: cell.scrollWidth > cell.clientWidth + 1,
    }));
    const rows = [...table.querySelectorAll<HTMLElement>('.rows .row[data-report-id]')]
      .sort((a, b) => Number(a.dataset.index) - Number(b.dataset.index))
      .map((row) => ({ row, b: row.getBoundingClientRect() }))
      .filter(({ b }) => b.top >= view.top + 44 - 1 && b.bottom <= view.bottom + 1)
      .map(({ row }) => {
        const badge = row.querySelector('.alert')!;
        const alertCell = row.querySelector<HTMLElement>('.cell--alert')!;
        const reference = row.querySelector<HTMLElement>('.cell--reference')!;
        const text = reference.querySelector<HTMLElement>('.cell-strong');
        return {
          id: row.dataset.reportId!,
          badge: box(badge),
          alertCell: box(alertCell),
          reference: box(reference),
          referenceCut: text ? text.scrollWidth > text.clientWidth + 1 : false,
          referenceTitle: text?.title ?? '',
          referenceText: text?.textContent ?? '',
        };
      });
    return { view, headers, rows, scrollLeft: table.scrollLeft, maxScrollLeft: table.scrollWidth - table.clientWidth };
  });
}

type Box = { left: number; right: number; top: number; bottom: number };
const inside = (inner: Box, outer: Box) => inner.left >= outer.left - 0.5 && inner.right <= outer.right + 0.5 && inner.top >= outer.top - 0.5 && inner.bottom <= outer.bottom + 0.5;

function expectHeadersWhole(m: Awaited<ReturnType<typeof measure>>, ids: readonly string[]) {
  for (const id of ids) {
    const header = m.headers.find((h) => h.id === id);
    expect(header, `the ${id} column is shown`).toBeTruthy();
    expect(inside(header!.box, m.view), `the ${id} header lies inside the table's visible area`).toBe(true);
    expect(header!.overflows, `the ${id} header's text fits`).toBe(false);
  }
}

function expectBadgesWhole(m: Awaited<ReturnType<typeof measure>>) {
  expect(m.rows.length).toBeGreaterThan(5);
  for (const row of m.rows) {
    expect(inside(row.badge, row.alertCell), `the alert badge of ${row.id} fits its cell`).toBe(true);
    expect(inside(row.badge, m.view), `the alert badge of ${row.id} is not cut by the table's edge`).toBe(true);
    expect(inside(row.reference, m.view), `the reference of ${row.id} is not cut by the table's edge`).toBe(true);
  }
}

/** The filter bar is one line: every part of it sits in the same band, and the band is one control high. */
async function expectOneLineFilterBar(page: Page) {
  const parts = await page.getByTestId('filter-bar').evaluate((bar) =>
    [...bar.children].map((c) => {
      const b = c.getBoundingClientRect();
      return { top: b.top, bottom: b.bottom };
    }),
  );
  const bar = (await page.getByTestId('filter-bar').boundingBox())!;
  expect(bar.height).toBeLessThanOrEqual(56);
  const top = Math.min(...parts.map((p) => p.top));
  const bottom = Math.max(...parts.map((p) => p.bottom));
  expect(bottom - top).toBeLessThanOrEqual(44);
}


/** Every chip shown lies whole inside the filter bar's chip line; the rest are counted by "+N more"; a shortened chip says all on hover. */
async function expectChipsWhole(page: Page, expected: number) {
  const m = await page.getByTestId('filter-chips').evaluate((ul) => {
    const line = ul.getBoundingClientRect();
    const chips = [...ul.querySelectorAll<HTMLElement>(':scope > li.chip')].map((li) => {
      const b = li.getBoundingClientRect();
      const text = li.querySelector<HTMLElement>('.chip__text')!;
      return { left: b.left, right: b.right, title: li.title, label: text.textContent ?? '', cut: text.scrollWidth > text.clientWidth + 1 };
    });
    const more = ul.querySelector<HTMLElement>('[data-testid=chips-more]');
    return {
      line: { left: line.left, right: line.right },
      chips,
      more: more ? Number(/\+(\d+)/.exec(more.textContent ?? '')?.[1] ?? NaN) : 0,
      moreRight: more?.getBoundingClientRect().right ?? 0,
    };
  });
  expect(m.chips.length + m.more, 'every filter in force has a chip, shown or behind +N more').toBe(expected);
  expect(m.chips.length).toBeGreaterThan(0);
  for (const chip of m.chips) {
    expect(chip.left >= m.line.left - 0.5 && chip.right <= m.line.right + 0.5, `chip “${chip.label}” lies whole in the bar`).toBe(true);
    if (chip.cut) expect(chip.title, `shortened chip “${chip.label}” says all on hover`).toBe(chip.label);
  }
  if (m.more > 0) expect(m.moreRight).toBeLessThanOrEqual(m.line.right + 0.5);
}

/** Removes a filter by its chip, from "+N more" when the chip waits there for room. */
async function removeChip(page: Page, label: string) {
  const chips = page.getByTestId('filter-chips');
  const button = chips.getByRole('button', { name: `Remove filter: ${label}` });
  if ((await button.count()) === 0) await page.getByTestId('chips-more').click();
  await button.click();
}

/** No date cell of the rows on screen cuts its text. */
async function expectDatesWhole(page: Page, column: 'created' | 'updated') {
  const cells = page.locator(`.rows .row[data-report-id] .cell--${column}`);
  expect(await cells.count()).toBeGreaterThan(0);
  const cut = await cells.evaluateAll((all) => all.filter((c) => c.scrollWidth > c.clientWidth + 1).map((c) => c.textContent));
  expect(cut, `${column} dates are whole`).toEqual([]);
}

/** Ten filters at once, more than the narrowest desk screen's filter bar has room for. */
const MANY_FILTERS = '?q=SHP-2026&status=active&alert=moderateOrWorse&review=awaitingReview&decision=none&mode=roadTransport&flagged=no&from=2020-01-01&to=2030-12-31&cf=carrier~ilike~D%25';
const MANY_CHIPS = 10;

// ---------------------------------------------------------------------------------------------

describe('report browser layout on desk screens', () => {
  for (const size of SIZES) {
    it(`fits ${size.width}×${size.height} with a report closed and open; the focus goes in and back`, async () => {
      const { context, page } = await openApp(size);
      try {
        const all = await list({ pageSize: '1', filter: NOT_ARCHIVED });
        await expect.poll(() => count(page)).toBe(all.totalDocuments);
        await expectOneLineFilterBar(page);
        const closed = await measure(page);
        expectHeadersWhole(closed, DEFAULT_COLUMNS);
        expect(closed.maxScrollLeft, 'the default columns need no sideways scrolling').toBeLessThanOrEqual(0);
        expectBadgesWhole(closed);
        await expectDatesWhole(page, 'created');
        // The list opens sorted by a column it shows, marked on its header.
        expect(await page.locator('.row--header [data-column=created]').getAttribute('aria-sort')).toBe('descending');
        for (const row of closed.rows) {
          // Every reference has room for its whole text, and its title carries it anyway.
          expect(row.referenceCut, `reference ${row.referenceText} is whole`).toBe(false);
          if (row.referenceText) expect(row.referenceTitle).toBe(row.referenceText);
        }
        await shot(page, `layout-${size.width}x${size.height}-list`);

        // Into the table with the keyboard (the first row takes the focus), down one, open it:
        // the focus is on the report's heading.
        await page.getByTestId('report-table').focus();
        await expect.poll(() => page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.reportId)).toBe(closed.rows[0].id);
        await page.keyboard.press('ArrowDown');
        const chosen = closed.rows[1].id;
        await expect.poll(() => page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.reportId)).toBe(chosen);
        await page.keyboard.press('Enter');
        await page.getByTestId('report-detail').locator('h2').waitFor();
        await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('detail-title');

        const pane = (await page.getByTestId('detail-pane').boundingBox())!;
        const body = (await page.locator('.browser__body').boundingBox())!;
        if (size.width < 1400) {
          // Narrow: the report takes the whole width over the table.
          expect(pane.width).toBeGreaterThanOrEqual(body.width - 1);
        } else {
          // Wide: side by side, and the table still shows Reference and Alert whole...
          expect(pane.width).toBeLessThan(body.width - 400);
          const open = await measure(page);
          expectHeadersWhole(open, ['reference', 'alert']);
          expectBadgesWhole(open);
          // ...also when scrolled sideways to its far end, where the last columns come into view.
          await page.getByTestId('report-table').evaluate((el) => el.scrollTo({ left: el.scrollWidth }));
          await expect.poll(async () => (await measure(page)).scrollLeft).toBeGreaterThan(0);
          const scrolled = await measure(page);
          expectHeadersWhole(scrolled, ['reference', 'alert', 'created', 'flag']);
          expectBadgesWhole(scrolled);
          await expectDatesWhole(page, 'created');
          await shot(page, `layout-${size.width}x${size.height}-report-scrolled`);
          await page.getByTestId('report-table').evaluate((el) => el.scrollTo({ left: 0 }));
        }
        await shot(page, `layout-${size.width}x${size.height}-report`);

        // Escape closes it, and the focus is back on the row it came from.
        await page.keyboard.press('Escape');
        await waitGone(page.getByTestId('report-detail'));
        await expect.poll(() => page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.reportId)).toBe(chosen);

        // Many filters at once: no chip is cut, what does not fit waits behind "+N more", one line still.
        await page.goto(`${proxyUrl}/${MANY_FILTERS}#key=${encodeURIComponent(adminKey)}`);
        await page.getByTestId('count-line').waitFor();
        await waitText(page.getByTestId('filter-chips'), 'Awaiting review');
        await expectChipsWhole(page, MANY_CHIPS);
        await expectOneLineFilterBar(page);
        await shot(page, `layout-${size.width}x${size.height}-many-filters`);
      } finally {
        await context.close();
      }
    });
  }

  it('resizes the report panel by dragging or with the keyboard, and remembers its width', async () => {
    const first = (await list({ pageSize: '1', filter: NOT_ARCHIVED })).data[0].id;
    const { context, page } = await openApp(SIZES[2], `?report=${first}`);
    try {
      const pane = page.getByTestId('detail-pane');
      const handle = page.getByTestId('split-handle');
      await pane.waitFor();
      const width = async () => (await pane.boundingBox())!.width;
      const start = await width();
      const h = (await handle.boundingBox())!;
      // A slow desk: the release may come before the page has rendered the last move.
      const cdp = await context.newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 20 });
      await page.mouse.move(h.x + h.width / 2, h.y + 200);
      await page.mouse.down();
      await page.mouse.move(h.x + h.width / 2 + 150, h.y + 200, { steps: 5 });
      await page.mouse.up();
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
      // The drag's end stores the width the pointer reached, however late the page renders.
      const storedWidth = () =>
        page.evaluate(() => {
          const key = Object.keys(localStorage).find((k) => k.startsWith('labeldesk.layout.'));
          return key ? (JSON.parse(localStorage.getItem(key)!).detailWidth as number | null) : null;
        });
      await expect.poll(storedWidth).toBeCloseTo(start - 150, -1);
      await expect.poll(width).toBeCloseTo(start - 150, -1);
      const dragged = await width();
      await handle.focus();
      await page.keyboard.press('ArrowLeft');
      await page.keyboard.press('ArrowLeft');
      await expect.poll(width).toBeCloseTo(dragged + 80, -1);
      expect(Number(await handle.getAttribute('aria-valuenow'))).toBeCloseTo(dragged + 80, -1);
      const chosen = await width();
      await page.reload();
      await pane.waitFor();
      await expect.poll(width).toBeCloseTo(chosen, 0);
    } finally {
      await context.close();
    }
  });

  it('remembers the chosen columns over a reload, for this key', async () => {
    const { context, page } = await openApp(SIZES[0]);
    try {
      await page.getByTestId('columns-button').click();
      const chooser = page.getByTestId('column-chooser');
      expect(await chooser.locator('input[name=reference]').isDisabled()).toBe(true);
      await chooser.locator('input[name=updated]').check();
      await chooser.locator('input[name=flag]').uncheck();
      await page.keyboard.press('Escape');
      await waitGone(chooser);
      const headers = () => page.locator('.row--header [role=columnheader]').evaluateAll((cells) => cells.map((c) => (c as HTMLElement).dataset.column));
      const chosen = ['reference', 'alert', 'label', 'status', 'strip', 'decision', 'created', 'updated'];
      await expect.poll(headers).toEqual(chosen);
      await page.reload();
      await page.locator('.rows .row[data-report-id]').first().waitFor();
      await expect.poll(headers).toEqual(chosen);
      expect(await page.locator('.row--header').textContent()).toContain(COLUMN_INFO.updated.title);
      // Back to the defaults for the other tests.
      await page.getByTestId('columns-button').click();
      await page.getByRole('button', { name: 'Default columns' }).click();
      await expect.poll(headers).toEqual([...DEFAULT_COLUMNS]);
    } finally {
      await context.close();
    }
  });

  it('at 1920 with the report open and Updated shown, shows every date whole and gives Reference no room the dates lack', async () => {
    const { context, page } = await openApp(SIZES[2]);
    try {
      await page.getByTestId('columns-button').click();
      await page.getByTestId('column-chooser').locator('input[name=updated]').check();
      await page.keyboard.press('Escape');
      await page.locator('.row--header [data-column=updated]').waitFor();
      await page.locator('.rows .row[data-report-id]').nth(1).click();
      await page.getByTestId('report-detail').locator('h2').waitFor();
      const widths = () =>
        page.getByTestId('report-table').evaluate((table) => {
          const cell = (id: string) => table.querySelector<HTMLElement>(`.row--header [data-column=${id}]`)!.getBoundingClientRect();
          const view = table.getBoundingClientRect();
          return { reference: cell('reference').width, updatedRight: cell('updated').right, viewRight: view.left + table.clientWidth, scrolls: table.scrollWidth > table.clientWidth + 1 };
        });
      const m = await widths();
      // Reference takes the room left over only when every column is in view; a table that scrolls sideways keeps it at its least.
      if (m.scrolls) expect(m.reference).toBeLessThanOrEqual(COLUMN_INFO.reference.minWidth + 1);
      else expect(m.updatedRight).toBeLessThanOrEqual(m.viewRight + 0.5);
      await expectDatesWhole(page, 'created');
      await expectDatesWhole(page, 'updated');
      // Scrolled to the far end, Updated's header and dates are whole in view.
      await page.getByTestId('report-table').evaluate((el) => el.scrollTo({ left: el.scrollWidth }));
      await expect.poll(async () => (await widths()).updatedRight <= (await widths()).viewRight + 0.5).toBe(true);
      expectHeadersWhole(await measure(page), ['updated']);
      await shot(page, 'layout-1920x1080-report-updated');
      await page.getByTestId('columns-button').click();
      await page.getByRole('button', { name: 'Default columns' }).click();
    } finally {
      await context.close();
    }
  });

  it('removes a filter with its chip, and downloads every match as CSV', async () => {
    const { context, page } = await openApp(SIZES[0], '?status=active&alert=moderateOrWorse');
    try {
      const both = await list({ filter: `status[eq]active,alert.level[gte]1,${NOT_ARCHIVED}`, pageSize: '1' });
      await expect.poll(() => count(page)).toBe(both.totalDocuments);
      const chips = page.getByTestId('filter-chips');
      await waitText(chips, 'Status: Active');
      await chips.getByRole('button', { name: 'Remove filter: Status: Active' }).click();
      const alertOnly = await list({ filter: `alert.level[gte]1,${NOT_ARCHIVED}`, pageSize: '5000' });
      expect(alertOnly.totalDocuments).toBeGreaterThan(both.totalDocuments);
      // More than a page of rows, so a CSV of one page would show.
      expect(alertOnly.totalDocuments).toBeGreaterThan(100);
      await expect.poll(() => count(page)).toBe(alertOnly.totalDocuments);
      expect(page.url()).not.toContain('status=');
      expect(await chips.textContent()).not.toContain('Status');

      const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('download-csv').click()]);
      const file = await download.path();
      // A byte order mark first, so spreadsheet programs read it as UTF-8.
      const records = parseCsv(readFileSync(file, 'utf8').replace(/^\uFEFF/, ''));
      const [header, ...rows] = records;
      expect(header[0]).toBe('id');
      expect(rows.length).toBe(alertOnly.totalDocuments);
      expect(new Set(rows.map((r) => r[0]))).toEqual(new Set(alertOnly.data.map((r) => r.id)));
      expect(download.suggestedFilename()).toMatch(/^label-reports-.*\.csv$/);

      // The archived ones too, once asked for: the default chip removes the default filter.
      await removeChip(page, 'Archived hidden');
      const withArchived = await list({ filter: 'alert.level[gte]1', pageSize: '1' });
      await expect.poll(() => count(page)).toBe(withArchived.totalDocuments);
      expect(page.url()).toContain('archived=any');
    } finally {
      await context.close();
    }
  });

  it('suggests custom fields, takes them in any case, and refuses text where a number is needed', async () => {
    const { context, page } = await openApp(SIZES[0]);
    try {
      await page.getByTestId('filters-button').click();
      await page.getByRole('button', { name: '+ Custom field filter' }).click();
      const row = page.getByTestId('custom-field-filter');
      const suggestions = await page.locator('#custom-field-ids option').evaluateAll((o) => o.map((x) => (x as HTMLOptionElement).value));
      expect(suggestions).toEqual(expect.arrayContaining(['carrier', 'pallets', 'po']));

      await row.getByLabel('Custom field', { exact: true }).fill('PALLETS');
      await row.getByLabel('Operator').selectOption('gte');
      await row.getByLabel('Custom field value').fill('20');
      await row.getByLabel('Custom field value').press('Enter');
      const twenty = await list({ filter: NOT_ARCHIVED, customFields: 'pallets[gte]20', pageSize: '1' });
      await expect.poll(() => count(page)).toBe(twenty.totalDocuments);
      expect(await row.getByLabel('Custom field', { exact: true }).inputValue()).toBe('pallets');
      await waitText(page.getByTestId('filter-chips'), 'pallets ≥ 20');

      // "ten" is explained beside the row and never sent: the next request is the one for 10.
      const asked = counts.asked;
      await row.getByLabel('Custom field value').fill('ten');
      await row.getByLabel('Custom field value').press('Enter');
      await waitText(row.getByTestId('custom-field-message'), '“ten” is not a number');
      await waitText(page.getByTestId('filter-chips'), 'pallets ≥ 20');
      await row.getByLabel('Custom field value').fill('10');
      await row.getByLabel('Custom field value').press('Enter');
      const ten = await list({ filter: NOT_ARCHIVED, customFields: 'pallets[gte]10', pageSize: '1' });
      await expect.poll(() => count(page)).toBe(ten.totalDocuments);
      expect(counts.asked - asked).toBe(1);

      // The pattern operators explain their wildcards, and that they compare text only.
      await row.getByLabel('Operator').selectOption('like');
      await waitText(row.getByTestId('custom-field-message'), 'holds numbers');
      await row.getByLabel('Custom field', { exact: true }).fill('Carrier');
      await row.getByLabel('Custom field value').fill('D%');
      await row.getByLabel('Custom field value').press('Enter');
      await waitText(row.getByTestId('custom-field-message'), 'Use % for any text');
      const carriers = await list({ filter: NOT_ARCHIVED, customFields: 'carrier[like]D%', pageSize: '1' });
      expect(carriers.totalDocuments).toBeGreaterThan(0);
      await expect.poll(() => count(page)).toBe(carriers.totalDocuments);
      await waitText(page.getByTestId('filter-chips'), 'carrier like D%');
      await shot(page, 'layout-custom-field-filter');
    } finally {
      await context.close();
    }
  });

  it('after 20 scrollbar jumps shows the rows where it lands, having asked for little, and goes to any row', async () => {
    const { context, page } = await openApp(SIZES[2]);
    try {
      const total = (await list({ pageSize: '1', filter: NOT_ARCHIVED })).totalDocuments;
      expect(total).toBeGreaterThan(2000);
      await expect.poll(() => count(page)).toBe(total);
      await page.locator('.rows .row[data-index="0"][data-report-id]').waitFor();
      const before = { ...counts };
      // 20 jumps across the whole list, each seen by the page, faster than scrolling settles: the
      // page's clock stands still while they happen, however slow the machine, and then runs
      // past the settle time.
      await page.clock.install();
      // Paused where the page's clock stands: no timer of the page is fired by a jump of time.
      // The clock runs on while its reading travels here and back; on a busy machine it may have
      // passed it, and the pause is refused as a jump into the past. Playwright has paused the
      // clock by then, so the next reading holds still and the next pause lands.
      for (let attempt = 1; ; attempt++) {
        try {
          await page.clock.pauseAt(await page.evaluate(() => Date.now() + 1));
          break;
        } catch (error) {
          if (attempt >= 5 || !/fast-forward to the past/.test(String(error))) throw error;
        }
      }
      const positions = Array.from({ length: 20 }, (_, i) => Math.round(((i * 7919) % 20) / 20 * (total - 30)) * ROW);
      const finalTop = Math.round(total * 0.61) * ROW;
      positions[19] = finalTop;
      for (const top of positions) {
        await page.getByTestId('report-table').evaluate((el, at) => {
          el.scrollTop = at;
          el.dispatchEvent(new Event('scroll'));
        }, top);
      }
      await page.clock.runFor(1_000);
      await page.clock.resume();
      const first = finalTop / ROW;
      await page.locator(`.rows .row[data-index="${first}"][data-report-id]`).waitFor();
      const shown = await page.locator(`.rows .row[data-index="${first}"]`).getAttribute('data-report-id');
      const expected = await list({ pageSize: '1', pageNumber: String(first + 1), order: 'created[desc]', filter: NOT_ARCHIVED });
      expect(shown).toBe(expected.data[0].id);
      const answered = counts.answered - before.answered;
      const asked = counts.asked - before.asked;
      console.log(`20 scroll jumps: ${asked} list requests asked, ${answered} answered to the end`);
      // The rows on screen and those just around them: a few pages, not one per jump.
      expect(answered).toBeLessThanOrEqual(4);
      await waitText(page.getByTestId('row-range'), `rows ${(first + 1).toLocaleString()}–`);
      await waitText(page.getByTestId('row-range'), ` of ${total.toLocaleString()}`);
      await shot(page, 'layout-after-scroll-jumps');

      // Go to a row by its number.
      await page.locator('input[name=goToRow]').fill('1234');
      await page.locator('input[name=goToRow]').press('Enter');
      const target = page.locator('.rows .row[data-index="1233"][data-report-id]');
      await target.waitFor();
      expect(await target.getAttribute('aria-selected')).toBe('true');
      const at = await list({ pageSize: '1', pageNumber: '1234', order: 'created[desc]', filter: NOT_ARCHIVED });
      expect(await target.getAttribute('data-report-id')).toBe(at.data[0].id);
    } finally {
      await context.close();
    }
  });

  it('finds what awaits review, shows each decision, asks before archiving an undecided alert, marks the sort and refuses a reversed range', async () => {
    type ReviewPage = ApiPage<MinimalLabelReport & { review: { decision: string | null; awaitingReview: boolean } }>;
    const reviewList = async (params: Record<string, string>) => {
      const res = await api<ReviewPage>(adminKey, `/local/labelReports?${new URLSearchParams({ output: 'minimal', filter: NOT_ARCHIVED, ...params })}`);
      expect(res.status).toBe(200);
      return res.body;
    };
    // Two reports that await review, decided through the review API.
    const awaiting = await reviewList({ review: 'awaitingReview', order: 'labelReference[asc]', pageSize: '3' });
    expect(awaiting.data.length).toBe(3);
    const [released, rejected, undecided] = awaiting.data;
    for (const [report, decision] of [[released, 'released'], [rejected, 'rejected']] as const) {
      const res = await api(adminKey, `/local/labelReports/${report.id}/decision`, { method: 'PUT', body: JSON.stringify({ decision, reason: 'checked at the desk' }) });
      expect(res.status).toBe(200);
    }
    const awaitingNow = (await reviewList({ review: 'awaitingReview', pageSize: '1' })).totalDocuments;
    expect(awaitingNow).toBe(awaiting.totalDocuments - 2);

    const { context, page } = await openApp(SIZES[1], `?review=awaitingReview&sort=reference.asc`);
    try {
      await expect.poll(() => count(page)).toBe(awaitingNow);
      await waitText(page.getByTestId('filter-chips'), 'Awaiting review');
      await expect.poll(() => page.locator('.rows .row[data-report-id]').first().getAttribute('data-report-id')).toBe(undecided.id);

      // The sort in force is marked on its header, in words for assistive technology and as an arrow.
      const reference = page.locator('.row--header [data-column=reference]');
      expect(await reference.getAttribute('aria-sort')).toBe('ascending');
      expect(await reference.locator('.sort-button__arrow').textContent()).toBe('▲');
      expect(await page.locator('.row--header [data-column=created]').getAttribute('aria-sort')).toBe('none');

      // The Decision column is shown without asking; the filter through the Filters panel, kept in the URL.
      expect(await page.locator('.row--header [data-column=decision]').count()).toBe(1);
      await page.getByTestId('filters-button').click();
      await page.getByTestId('filter-panel').locator('select[name=review]').selectOption('');
      await page.getByTestId('filter-panel').locator('select[name=decision]').selectOption('released');
      await page.keyboard.press('Escape');
      await waitText(page.getByTestId('filter-chips'), 'Decision: Released');
      await expect.poll(() => page.evaluate(() => location.search)).toContain('decision=released');
      const releasedCount = (await reviewList({ review: 'decision.released', pageSize: '1' })).totalDocuments;
      await expect.poll(() => count(page)).toBe(releasedCount);
      const releasedRow = page.locator(`.rows .row[data-report-id="${released.id}"]`);
      await page.locator('#search').fill(released.labelReference);
      await releasedRow.waitFor();
      await waitText(releasedRow.locator('.cell--decision'), 'Released');
      await page.locator('#search').fill('');

      // Undecided reports, in the order of the whole run's excursions the column shows.
      await page.goto(`${proxyUrl}/?decision=none&sort=excursions.desc#key=${encodeURIComponent(adminKey)}`);
      await page.locator('.rows .row[data-report-id]').first().waitFor();
      await expect.poll(() => count(page)).toBe((await reviewList({ review: 'decision.none', pageSize: '1' })).totalDocuments);
      const shown = await page.locator('.rows .row[data-report-id] [data-testid=excursion-count]').allTextContents();
      const figures = shown.map(Number);
      expect(figures.length).toBeGreaterThan(5);
      expect(figures).toEqual([...figures].sort((a, b) => b - a));
      expect(await page.locator('.rows .row[data-report-id] .cell--decision').first().textContent()).toBe('—');

      // Archiving the undecided alert asks first; once confirmed the row leaves the list at once.
      await page.goto(`${proxyUrl}/?review=awaitingReview&sort=reference.asc&report=${undecided.id}#key=${encodeURIComponent(adminKey)}`);
      await page.getByTestId('report-detail').locator('h2').waitFor();
      await expect.poll(() => count(page)).toBe(awaitingNow);
      await page.getByTestId('toggle-archive').click();
      await waitText(page.getByTestId('report-detail'), 'Archive it anyway?');
      expect(await page.getByTestId('toggle-archive').count()).toBe(0);
      await page.getByRole('button', { name: 'Archive', exact: true }).click();
      await expect.poll(() => count(page)).toBe(awaitingNow - 1);
      await waitGone(page.locator(`.rows .row[data-report-id="${undecided.id}"]`));
      await waitAttr(page.getByTestId('toggle-archive'), 'aria-pressed', 'true');
      // A decided report is archived without a question.
      await page.goto(`${proxyUrl}/?decision=released&report=${released.id}#key=${encodeURIComponent(adminKey)}`);
      await page.getByTestId('review-decision').waitFor();
      await waitText(page.getByTestId('review-decision'), 'Released');
      await page.getByTestId('toggle-archive').click();
      await waitAttr(page.getByTestId('toggle-archive'), 'aria-pressed', 'true');
      await waitGone(page.locator(`.rows .row[data-report-id="${released.id}"]`));
      for (const id of [undecided.id, released.id]) {
        expect((await api(adminKey, `/v2/labelReports/${id}`, { method: 'PATCH', body: JSON.stringify({ isArchived: false }) })).status).toBe(200);
      }

      // A reversed created range is refused in words, not answered with 0 reports.
      await page.goto(`${proxyUrl}/?from=2026-05-02&to=2026-05-01#key=${encodeURIComponent(adminKey)}`);
      await waitText(page.getByTestId('query-problem'), '“Created from” (2026-05-02) is after “Created to” (2026-05-01)');
      expect(await page.getByTestId('report-count').count()).toBe(0);
      await page.getByTestId('filters-button').click();
      await waitText(page.getByTestId('created-range-problem'), 'is after');
      expect(await page.locator('input[name=createdFrom]').getAttribute('aria-invalid')).toBe('true');
      await shot(page, 'layout-reversed-range');
      await page.keyboard.press('Escape');

      // Back to the default columns for the other tests.
      await page.getByTestId('columns-button').click();
      await page.getByRole('button', { name: 'Default columns' }).click();
    } finally {
      await context.close();
    }
  });

  it('warns before revoking the key this window is signed in with, then asks for another', async () => {
    const made = await api<{ id: string; key: string }>(adminKey, '/local/apiKeys', {
      method: 'POST',
      body: JSON.stringify({ name: 'desk of the day', permissions: ['labelReports:read', 'apiKeys:manage'] }),
    });
    expect(made.status).toBe(201);
    const { context, page } = await openApp(SIZES[0], '?view=settings', made.body.key, 'this-key');
    try {
      const row = page.getByTestId(`key-${made.body.id}`);
      await waitText(row.getByTestId('this-key'), 'this key');
      await row.getByRole('button', { name: 'Revoke…' }).click();
      await waitText(row.getByTestId('revoke-own-key-warning'), 'This is the key this window is signed in with');
      await shot(page, 'layout-revoke-own-key');
      await row.getByRole('button', { name: 'Yes, revoke and sign out' }).click();
      await waitText(page.getByTestId('connect-notice'), 'You revoked the key this window was signed in with');
      await page.getByTestId('connect-form').waitFor();
      expect(await page.getByRole('button', { name: 'Try again' }).count()).toBe(0);
      expect((await api(made.body.key, '/local/session')).status).toBe(401);
    } finally {
      await context.close();
    }
  });

  it('says once, in the header, that the service is unreachable, and shows no count meanwhile', async () => {
    const { context, page } = await openApp(SIZES[0]);
    try {
      const stopping = service!;
      service = null;
      await stopping.close();
      // Asking again (a filter change) finds no service; so would the heartbeat, a little later.
      await removeChip(page, 'Archived hidden');
      await page.getByTestId('offline-indicator').waitFor();
      await waitText(page.getByTestId('count-line'), 'No count while the service is unreachable');
      expect(await page.getByTestId('report-count').count()).toBe(0);
      expect(await page.getByRole('alert').count()).toBe(0);
      await shot(page, 'layout-offline');
      await page.getByRole('tab', { name: 'Settings' }).click();
      await page.locator('#keys-title').waitFor();
      expect(await page.getByTestId('offline-indicator').count()).toBe(1);
      expect(await page.getByText(/unreachable|not reachable/).count()).toBe(1);
      expect(await page.getByRole('alert').count()).toBe(0);
      await shot(page, 'layout-offline-settings');

      // The service comes back: the list does by itself.
      service = await startService({ dbFile: served.dbFile, port: 0, staticDir: served.uiDir });
      await page.getByRole('tab', { name: 'Reports' }).click();
      await waitGone(page.getByTestId('offline-indicator'));
      const row = page.locator('.rows .row[data-report-id]').first();
      await row.waitFor();
      const wanted = await row.getAttribute('data-report-id');

      // Gone again: a report opened meanwhile cannot be read, and says so beside Close, never under it.
      const again = service;
      service = null;
      await again.close();
      await row.click();
      const banner = page.getByTestId('report-detail').locator('.banner--error');
      await banner.waitFor();
      const close = (await page.getByTestId('report-detail').getByRole('button', { name: 'Close ✕' }).boundingBox())!;
      const retry = (await banner.getByRole('button', { name: 'Try again' }).boundingBox())!;
      const bannerBox = (await banner.boundingBox())!;
      const apart = (a: typeof close, b: typeof close) => a.x + a.width <= b.x || b.x + b.width <= a.x || a.y + a.height <= b.y || b.y + b.height <= a.y;
      expect(apart(close, bannerBox), 'Close sits clear of the error').toBe(true);
      expect(apart(close, retry)).toBe(true);
      await shot(page, 'layout-offline-report');

      // The service is back: the report opens by itself, and the header says all is well.
      service = await startService({ dbFile: served.dbFile, port: 0, staticDir: served.uiDir });
      await waitGone(page.getByTestId('offline-indicator'));
      await page.getByTestId('report-detail').locator('h2').waitFor();
      await waitGone(banner);
      expect(await page.getByTestId('report-detail').getAttribute('data-testid')).toBe('report-detail');
      await expect.poll(() => page.evaluate(() => new URLSearchParams(location.search).get('report'))).toBe(wanted);
    } finally {
      await context.close();
    }
  });

  it('ran without console errors or CSP violations', () => {
    expect(problems).toEqual([]);
  });
});

/** RFC 4180 records: quoted fields may hold commas, quotes and line breaks. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      record.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      record.push(field);
      records.push(record);
      record = [];
      field = '';
    } else field += c;
  }
  if (field !== '' || record.length > 0) {
    record.push(field);
    records.push(record);
  }
  return records;
}
