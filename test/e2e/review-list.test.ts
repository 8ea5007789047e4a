/**
 * The reviewer's list in real Chromium against the real service.
 *
 * Bulk work (docs/review-and-audit.md#bulk-work): a
 * person picks three reports awaiting acknowledgement (a box, then Shift on another box), is
 * refused with a wrong password and nothing is signed, then signs once and each report carries
 * its own signed acknowledgement; the rows leave the filter they no longer match. By keyboard,
 * Space picks the row the arrows are on, and Flag flags it. axe finds nothing serious on the bar.
 *
 * My queue and saved views (docs/review-and-audit.md#my-queue-and-saved-views): an administrator's
 * queue is what awaits a decision, counted as the service counts it; a view saved by name comes
 * back after a reload; another person signing in at the same desk has their own views and a
 * reviewer's queue is the alerts to acknowledge.
 *
 * The audit trail across reports (docs/review-and-audit.md#the-audit-trail-across-reports): the
 * acknowledgements signed above, newest first with their signer and meaning; a person who wrote
 * nothing finds nothing; the CSV downloads with the same entries; a report opens from its row.
 *
 * Each of the three fits the window at 1280×720, 1366×768 and 1920×1080: no control off the
 * window's width, no label cut by its box.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERMISSIONS } from '../../schema/report';
import type { Caller } from '../../service/api-keys';
import { seriousViolations } from './axe';
import { addPerson, openDesk, shot, signIn, waitText, watchProblems, type Desk } from './browser';

const PASSWORD = 'correct horse battery';
const TOOL: Caller = { keyId: 'test', companyId: 'acme', permissions: new Set(PERMISSIONS) };

let desk: Desk;
let page: Page;
let ritaId: string;
const problems: string[] = [];

beforeAll(async () => {
  desk = await openDesk('review-list');
  addPerson(desk.service.service, 'acme', { login: 'anna', name: 'Anna Berg', role: 'admin', password: PASSWORD });
  ritaId = desk.service.service.users.create(null, 'acme', { login: 'rita', name: 'Rita Lund', role: 'reviewer', password: PASSWORD }).id;
  page = await (await desk.browser.newContext({ viewport: { width: 1280, height: 720 } })).newPage();
  // The wrong password answers 403, which Chromium logs.
  watchProblems(page, problems, /status of 403/);
  await page.goto(`${desk.service.url}/?review=awaitingAcknowledgement#key=${encodeURIComponent(desk.deskKey)}`);
  await signIn(page, 'anna', PASSWORD);
  await page.locator('.rows .row[data-index="2"]').waitFor();
});

afterAll(async () => {
  await desk?.close();
});

const rowId = (index: number) => page.locator(`.rows .row[data-index="${index}"]`).getAttribute('data-report-id');
const acknowledgementOf = (id: string) => desk.service.service.reviews.review(TOOL, id).acknowledgement;

describe('bulk work', () => {
  it('signs one acknowledgement per picked report with one password, after refusing a wrong one', async () => {
    const ids = [await rowId(0), await rowId(1), await rowId(2)] as string[];
    await page.locator('.rows .row[data-index="0"]').getByTestId('pick-box').click();
    await page.locator('.rows .row[data-index="2"]').getByTestId('pick-box').click({ modifiers: ['Shift'] });
    const bar = page.getByTestId('bulk-bar');
    await waitText(bar.getByTestId('bulk-count'), '3 selected');

    await bar.getByRole('button', { name: 'Acknowledge…' }).click();
    const form = bar.getByTestId('bulk-acknowledge-form');
    await form.locator('input[name=bulk-text]').fill('Seen on the dock');
    await form.locator('input[name=bulk-password]').fill('not the password');
    expect(await seriousViolations(page)).toEqual([]);
    await form.getByRole('button', { name: 'Sign' }).click();
    await bar.getByTestId('bulk-message').waitFor();
    expect(await bar.getByTestId('bulk-message').getAttribute('role')).toBe('alert');
    await waitText(bar.getByTestId('bulk-count'), '3 selected');
    for (const id of ids) expect(acknowledgementOf(id)).toBeNull();

    await form.locator('input[name=bulk-password]').fill(PASSWORD);
    await form.getByRole('button', { name: 'Sign' }).click();
    await waitText(bar.getByTestId('bulk-message'), 'Acknowledged the alerts of 3 reports.');
    await shot(page, 'bulk-work-acknowledged');
    for (const id of ids) {
      const ack = acknowledgementOf(id)!;
      expect([ack.note, ack.meaning, ack.by.person?.login]).toEqual(['Seen on the dock', 'Reviewed', 'anna']);
    }
    // Acknowledged, they no longer await acknowledgement: the list asked again and they are gone.
    await page.waitForFunction((gone) => gone.every((id) => !document.querySelector(`.rows .row[data-report-id="${id}"]`)) && document.querySelector('.rows .row[data-index="0"]') !== null, ids);
    expect(await bar.getByTestId('bulk-count').count()).toBe(0);
  });

  it('picks the keyboard’s row with Space and flags it', async () => {
    await page.getByTestId('report-table').focus();
    await page.keyboard.press('ArrowDown');
    const id = (await page.locator('.rows .row.is-selected').getAttribute('data-report-id'))!;
    await page.keyboard.press(' ');
    const bar = page.getByTestId('bulk-bar');
    await waitText(bar.getByTestId('bulk-count'), '1 selected');
    await bar.getByRole('button', { name: 'Flag', exact: true }).click();
    await waitText(bar.getByTestId('bulk-message'), 'Flagged 1 report.');
    expect(desk.service.service.reports.retrieve(TOOL, id).hasFlag).toBe(true);
    expect(problems).toEqual([]);
  });

  it('opens my queue, keeps a saved view for its person, and gives another person their own', async () => {
    const awaiting = async (review: string) => {
      const res = await fetch(`${desk.service.url}/local/labelReports?review=${review}&pageSize=1&output=minimal`, { headers: { 'x-api-key': desk.deskKey } });
      return String((await res.json()).totalDocuments);
    };
    const views = page.getByTestId('views-button');
    const count = page.getByTestId('report-count');
    // Another filter first: the queue replaces it.
    await page.goto(`${desk.service.url}/?alert=critical#key=${encodeURIComponent(desk.deskKey)}`);
    await page.locator('[data-chip=alert]:visible').waitFor();
    await views.click();
    await page.getByTestId('my-queue').click();
    await waitText(page.getByTestId('my-queue'), 'My queue: reports to decide');
    await page.locator('[data-chip=review]:visible').waitFor();
    expect(await page.locator('[data-chip=alert]:visible').count()).toBe(0);
    await waitText(count, await awaiting('awaitingReview'));

    await page.locator('input[name=view-name]').fill('To decide');
    await page.locator('input[name=view-name]').press('Enter');
    await waitText(page.getByTestId('saved-view'), 'To decide');
    await page.keyboard.press('Escape');
    await page.locator('[data-chip=review]:visible .chip__remove').click();
    await page.locator('[data-chip=review]:visible').waitFor({ state: 'detached' });

    // A reload keeps the person signed in on this tab, and their views on this desk.
    await page.reload();
    await views.click();
    await page.getByTestId('saved-view').click();
    await page.locator('[data-chip=review]:visible').waitFor();
    await waitText(count, await awaiting('awaitingReview'));
    await page.keyboard.press('Escape');

    await page.getByTestId('header-person').getByRole('button', { name: 'Sign out' }).click();
    await signIn(page, 'rita', PASSWORD);
    await views.click();
    await waitText(page.getByTestId('my-queue'), 'My queue: alerts to acknowledge');
    expect(await page.getByTestId('saved-view').count()).toBe(0);
    await page.getByTestId('my-queue').click();
    await waitText(count, await awaiting('awaitingAcknowledgement'));
    expect(await seriousViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('reads the audit trail across reports, narrows it, downloads it and opens a report from it', async () => {
    await page.getByTestId('header-person').getByRole('button', { name: 'Sign out' }).click();
    await signIn(page, 'anna', PASSWORD);
    await page.getByRole('tab', { name: 'Audit' }).click();
    const table = page.getByTestId('audit-table');
    await table.waitFor();
    // The demo's own entries are there too: Anna's acknowledgements are the ones signed above.
    await page.locator('select[name=audit-person]').selectOption({ label: 'Anna Berg (anna)' });
    await page.locator('select[name=audit-kind]').selectOption('acknowledgement');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=audit-table] tbody tr').length === 3 && [...document.querySelectorAll('[data-testid=audit-table] tbody tr')].every((r) => r.getAttribute('data-kind') === 'acknowledgement'));
    const details = await table.locator('tbody tr').evaluateAll((rows) => rows.map((r) => [r.children[3].textContent, r.children[4].textContent]));
    await shot(page, 'audit-trail');
    expect(details).toEqual(Array(3).fill(['Anna Berg (anna)', expect.stringContaining('Seen on the dock — signed “Reviewed”')]));
    expect(await seriousViolations(page)).toEqual([]);

    await page.locator('select[name=audit-person]').selectOption(ritaId);
    await page.getByTestId('audit-empty').waitFor();
    await page.locator('select[name=audit-person]').selectOption({ label: 'Anna Berg (anna)' });
    await table.waitFor();

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('audit-csv').click()]);
    const text = await new Promise<string>((resolve, reject) => {
      download.createReadStream().then((stream) => {
        let all = '';
        stream.on('data', (chunk) => (all += chunk));
        stream.on('end', () => resolve(all));
        stream.on('error', reject);
      }, reject);
    });
    expect(text.trim().split('\r\n').slice(1).map((line) => line.split(',')[4])).toEqual(['acknowledgement', 'acknowledgement', 'acknowledgement']);

    const reportId = (await table.locator('tbody tr').first().locator('button').getAttribute('title'))!;
    await table.locator('tbody tr').first().locator('button').click();
    await waitText(page.getByTestId('report-detail').locator('#detail-title'), (await desk.service.service.reports.retrieve(TOOL, reportId)).labelReference);
    expect(problems).toEqual([]);
  });
});

/** The three screens of a reviewer's desk: a laptop, the common office screen and a full-HD one. */
const SIZES = [
  { width: 1280, height: 720 },
  { width: 1366, height: 768 },
  { width: 1920, height: 1080 },
];

/**
 * What of `container` a person could not read or reach at this size: a control or label off the
 * window's width, or one whose text its box cuts. Empty when all of it fits.
 */
function unfit(page: Page, container: string): Promise<string[]> {
  return page.locator(container).evaluate((root) => {
    const found: string[] = [];
    for (const el of root.querySelectorAll<HTMLElement>('button, input, select, label, a, [role=status], [role=alert], th')) {
      const box = el.getBoundingClientRect();
      if (box.width === 0 && box.height === 0) continue;
      const name = `${el.tagName.toLowerCase()} “${(el.textContent || el.getAttribute('aria-label') || el.getAttribute('name') || '').trim().slice(0, 40)}”`;
      if (box.left < 0 || box.right > document.documentElement.clientWidth + 1) found.push(`${name} is off the window`);
      else if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflow !== 'visible') found.push(`${name} is cut`);
    }
    return found;
  });
}

describe('at each screen size', () => {
  it('the bulk bar, my queue and saved views, and the audit trail fit the window at 1280, 1366 and 1920 wide', async () => {
    // The list as a reviewer opens it, without the report the audit trail opened.
    await page.goto(`${desk.service.url}/?review=awaitingAcknowledgement#key=${encodeURIComponent(desk.deskKey)}`);
    await page.locator('.rows .row[data-index="1"]').waitFor();
    for (const size of SIZES) {
      await page.setViewportSize(size);
      const at = `${size.width}×${size.height}`;
      await page.getByRole('tab', { name: 'Reports' }).click();
      await page.locator('.rows .row[data-index="0"]').getByTestId('pick-box').click();
      await page.locator('.rows .row[data-index="1"]').getByTestId('pick-box').click({ modifiers: ['Shift'] });
      const bar = page.getByTestId('bulk-bar');
      await waitText(bar.getByTestId('bulk-count'), '2 selected');
      await bar.getByRole('button', { name: 'Decide…' }).click();
      await bar.locator('input[name=bulk-password]').waitFor();
      expect(await unfit(page, '[data-testid=bulk-bar]'), `the bulk bar at ${at}`).toEqual([]);
      await page.keyboard.press('Escape');
      await bar.getByRole('button', { name: 'Clear selection' }).click();
      await bar.getByTestId('bulk-count').waitFor({ state: 'detached' });

      await page.getByTestId('views-button').click();
      await page.getByTestId('views-panel').waitFor();
      expect(await unfit(page, '[data-testid=views-panel]'), `my queue and saved views at ${at}`).toEqual([]);
      await page.keyboard.press('Escape');

      await page.getByRole('tab', { name: 'Audit' }).click();
      await page.getByTestId('audit-table').waitFor();
      expect(await unfit(page, '[data-testid=audit-screen]'), `the audit trail at ${at}`).toEqual([]);
    }
    await page.setViewportSize(SIZES[0]);
    expect(problems).toEqual([]);
  });
});
