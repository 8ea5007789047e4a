/**
 * End to end: the built renderer in real Chromium against the real service over a temp SQLite
 * file holding demo data (three companies, a few thousand reports), with screenshots of the main
 * screens under SCREENSHOTS=1.
 */
import { rmSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DemoSummary } from '../../service/demo-seeder';
import { startService } from '../../host/start-service';
import type { LabelReport, ListedLabelReport, MinimalLabelReport, Page as ApiPage } from '../../schema/report';
import { confirmChange, launchChromium, painted, prepare, shot, waitAttr, waitGone, waitText, watchProblems } from './browser';

const REPORTS = 3000;
const NOT_ARCHIVED = 'isArchived[eq]false';

let dir: string;
let service: { url: string; close(): Promise<void> };
let browser: Browser;
let keys: { acme: string; nordic: string; fresh: string };
/** Console errors and CSP violations seen by any page; the app must produce none. */
const problems: string[] = [];

function pickKey(summary: DemoSummary, companyId: string): string {
  const candidates = summary.keys.filter((k) => k.companyId === companyId && k.permissions.includes('labelReports:update'));
  const best = candidates.find((k) => k.permissions.includes('apiKeys:manage')) ?? candidates[0];
  if (!best) throw new Error(`the demo data has no update key for ${companyId}`);
  return best.key;
}

beforeAll(async () => {
  const { uiDir, dbFile, summary, ...prepared } = await prepare('e2e', { reports: REPORTS, seed: 7 });
  dir = prepared.dir;
  keys = { acme: pickKey(summary, 'acme'), nordic: pickKey(summary, 'nordic'), fresh: pickKey(summary, 'fresh') };
  service = await startService({ dbFile, port: 0, staticDir: uiDir });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await service?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

// ---------------------------------------------------------------------------------------------
// Helpers

async function api<T>(key: string, path: string, init: RequestInit = {}): Promise<{ status: number; body: T }> {
  const res = await fetch(`${service.url}${path}`, {
    ...init,
    headers: { 'x-api-key': key, ...(init.body ? { 'content-type': 'application/json' } : {}), ...(init.headers ?? {}) },
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
}

async function list(key: string, params: Record<string, string>): Promise<ApiPage<MinimalLabelReport>> {
  const q = new URLSearchParams({ output: 'minimal', ...params });
  const { status, body } = await api<ApiPage<MinimalLabelReport>>(key, `/v2/labelReports?${q}`);
  expect(status).toBe(200);
  return body;
}

async function getReport(key: string, id: string): Promise<LabelReport> {
  const { status, body } = await api<LabelReport>(key, `/v2/labelReports/${id}`);
  expect(status).toBe(200);
  return body;
}

async function patch(key: string, id: string, body: unknown) {
  return api<LabelReport & { message?: string }>(key, `/v2/labelReports/${id}`, { method: 'PATCH', body: JSON.stringify(body) });
}

async function openApp(key: string, search = '', ready = 'report-count'): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1600, height: 1000 } });
  const page = await context.newPage();
  // The wrong key typed on purpose in the settings test answers 401; Chromium logs that.
  watchProblems(page, problems, /status of 401/);
  await page.goto(`${service.url}/${search}#key=${encodeURIComponent(key)}`);
  await page.getByTestId(ready).waitFor();
  return { context, page };
}

async function count(page: Page): Promise<number> {
  const text = await page.getByTestId('report-count').textContent();
  return Number((text ?? '').replace(/[^\d]/g, ''));
}

/** Waits until the list shows `expected` reports and its first rows are loaded. */
async function waitForCount(page: Page, expected: number) {
  await expect.poll(() => count(page)).toBe(expected);
  if (expected > 0) await page.locator('.rows .row[data-report-id]').first().waitFor();
}

async function visibleIds(page: Page, n: number): Promise<string[]> {
  return page.locator('.rows .row[data-report-id]').evaluateAll(
    (rows, max) =>
      rows
        .map((r) => ({ i: Number(r.getAttribute('data-index')), id: r.getAttribute('data-report-id') ?? '' }))
        .sort((a, b) => a.i - b.i)
        .slice(0, max)
        .map((r) => r.id),
    n,
  );
}

// ---------------------------------------------------------------------------------------------

describe('LabelDesk in Chromium', () => {
  it('lists, filters and sorts a large list exactly as the API answers', async () => {
    const { context, page } = await openApp(keys.acme);
    try {
      // Archived reports are put away until asked for.
      const all = await list(keys.acme, { pageSize: '1', order: 'created[desc]', filter: NOT_ARCHIVED });
      expect(all.totalDocuments).toBeGreaterThanOrEqual(1000);
      await waitForCount(page, all.totalDocuments);
      expect(await page.getByTestId('header-company').textContent()).not.toBe('');
      const firstPage = await list(keys.acme, { pageSize: '10', order: 'created[desc]', filter: NOT_ARCHIVED });
      expect(await visibleIds(page, 10)).toEqual(firstPage.data.map((r) => r.id));
      await shot(page, 'report-list');

      // Deep scroll: the rows far down come from their own page of the API.
      await page.locator('.table-scroll').evaluate((el) => el.scrollTo(0, 44 * 1500));
      await expect.poll(async () => (await visibleIds(page, 1))[0]).not.toBe(firstPage.data[0].id);
      await page.locator('.rows .row[data-index="1510"][data-report-id]').waitFor();
      const deepId = await page.locator('.rows .row[data-index="1510"]').getAttribute('data-report-id');
      const deep = await list(keys.acme, { pageSize: '10', pageNumber: '152', order: 'created[desc]', filter: NOT_ARCHIVED });
      expect(deepId).toBe(deep.data[0].id);

      // Filter by status and alert (in the Filters drop-down), then sort by reference (ascending, then descending).
      await page.getByTestId('filters-button').click();
      await page.locator('select[name=status]').selectOption('active');
      await page.locator('select[name=alert]').selectOption('moderateOrWorse');
      await page.locator('button[data-sort=reference]').click();
      const filter = `status[eq]active,alert.level[gte]1,${NOT_ARCHIVED}`;
      const asc = await list(keys.acme, { filter, order: 'labelReference[asc]', pageSize: '10' });
      expect(asc.totalDocuments).toBeGreaterThan(0);
      await waitForCount(page, asc.totalDocuments);
      await expect.poll(() => visibleIds(page, 10)).toEqual(asc.data.map((r) => r.id));
      await page.locator('button[data-sort=reference]').click();
      const desc = await list(keys.acme, { filter, order: 'labelReference[desc]', pageSize: '10' });
      await expect.poll(() => visibleIds(page, 10)).toEqual(desc.data.map((r) => r.id));
      expect(page.url()).toContain('status=active');
      expect(page.url()).toContain('sort=reference.desc');
      expect(page.url()).not.toContain('key=');

      // The view survives a reload.
      await page.reload();
      await waitForCount(page, desc.totalDocuments);
      await waitText(page.getByTestId('filter-chips'), 'Alert: Moderate or critical');
      await page.getByTestId('filters-button').click();
      expect(await page.locator('select[name=alert]').inputValue()).toBe('moderateOrWorse');
      await page.getByTestId('filters-button').click();
      await expect.poll(() => visibleIds(page, 10)).toEqual(desc.data.map((r) => r.id));

      // Search a piece of a reference (ilike, ANDed with the other filters).
      const withReference = desc.data.find((r) => r.labelReference.length >= 5) ?? desc.data[0];
      const needle = withReference.labelReference.slice(1, 5);
      await page.locator('#search').fill(needle);
      const searched = await list(keys.acme, {
        filter: `${filter},labelReference[ilike]%${needle.replace(/[\\%_*]/g, (c) => `\\${c}`).replace(/,/g, '\\,')}%`,
        order: 'labelReference[desc]',
        pageSize: '10',
      });
      await waitForCount(page, searched.totalDocuments);
      await expect.poll(() => visibleIds(page, 10)).toEqual(searched.data.map((r) => r.id));

      // Nothing matches: say so and offer to clear the filters.
      await page.locator('#search').fill('no such reference zzz');
      await waitText(page.getByTestId('empty-state'), 'No reports match these filters.');
      await shot(page, 'empty-state');
      await page.getByTestId('empty-state').getByRole('button', { name: 'Clear filters' }).click();
      await waitForCount(page, all.totalDocuments);

      // A custom field condition and a created-date range, checked against the API's answer.
      await page.getByTestId('filters-button').click();
      await page.getByRole('button', { name: '+ Custom field filter' }).click();
      const cf = page.getByTestId('custom-field-filter');
      await cf.getByLabel('Custom field', { exact: true }).fill('pallets');
      await cf.getByLabel('Operator').selectOption('gte');
      await cf.getByLabel('Custom field value').fill('20');
      await cf.getByLabel('Custom field value').press('Enter');
      const newest = new Date(firstPage.data[0].created);
      const day = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
      const fromDay = new Date(newest.getFullYear(), newest.getMonth(), newest.getDate() - 30);
      await page.locator('input[name=createdFrom]').fill(day(fromDay));
      const ranged = await list(keys.acme, {
        customFields: 'pallets[gte]20',
        filter: `${NOT_ARCHIVED},created[gte]${fromDay.toISOString()}`,
        order: 'labelReference[desc]', // clearing filters keeps the sort chosen above
        pageSize: '10',
      });
      expect(ranged.totalDocuments).toBeGreaterThan(0);
      expect(ranged.totalDocuments).toBeLessThan(all.totalDocuments);
      await waitForCount(page, ranged.totalDocuments);
      await expect.poll(() => visibleIds(page, 10)).toEqual(ranged.data.map((r) => r.id));
      expect(decodeURIComponent(page.url())).toContain('cf=pallets~gte~20');
      await shot(page, 'report-list-filtered');
    } finally {
      await context.close();
    }
  });

  it('opens a report with the keyboard and shows its figures', async () => {
    const { context, page } = await openApp(keys.acme, '?alert=critical');
    try {
      const critical = await list(keys.acme, { filter: `alert.level[eq]2,${NOT_ARCHIVED}`, order: 'created[desc]', pageSize: '3' });
      await waitForCount(page, critical.totalDocuments);
      // / focuses the search; the arrows select; Enter opens; Escape closes.
      await page.keyboard.press('/');
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('search');
      await page.locator('#search').blur();
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Enter');
      const id = critical.data[1].id;
      await page.getByTestId('report-detail').waitFor();
      await expect.poll(() => page.url()).toContain(`report=${id}`);
      const report = await getReport(keys.acme, id);
      const figures = report.trimmedSenseData ?? report.calculatedSenseData;
      const detail = page.getByTestId('report-detail');
      await expect.poll(() => detail.locator('h2').textContent()).toBe(report.labelReference || 'No reference');
      await waitText(detail.getByTestId('fig-excursions'), String(figures.numberOfViolations.all));
      await waitText(detail.getByTestId('fig-min'), `${figures.attainedValues.minTemperature!.toFixed(1)} °C`);
      await waitText(detail.getByTestId('fig-max'), `${figures.attainedValues.maxTemperature!.toFixed(1)} °C`);
      await waitText(detail.getByTestId('fig-avg'), `${figures.analysedValues.temperature.average!.toFixed(1)} °C`);
      await waitText(detail.getByTestId('fig-mkt'), `${figures.analysedValues.temperature.meanKineticTemperature!.toFixed(1)} °C`);
      await waitText(detail.getByTestId('fig-dh'), figures.analysedValues.temperature.degreeHour.toFixed(2));
      await waitText(detail.getByTestId('fig-battery'), `${report.label.estimatedBatteryDaysLeft} day`);
      await waitText(detail.getByTestId('fig-taps'), String(report.numberOfTaps));
      await waitText(detail.getByTestId('alert-line'), 'Critical');
      await waitText(detail.getByTestId('facts'), report.label.uid);
      await waitText(detail.getByTestId('facts'), report.label.firmwareVersionInfo.firmwareVersion);
      await waitText(detail.getByTestId('access-list'), 'your company');
      await detail.getByTestId('report-chart').waitFor();
      await painted(page); // the canvas drawn before the screenshot
      await shot(page, 'report-detail');

      // Zoom with the wheel, then reset.
      const box = (await detail.getByTestId('report-chart').boundingBox())!;
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await page.mouse.wheel(0, -600);
      const reset = detail.getByRole('button', { name: 'Reset zoom' });
      await expect.poll(() => reset.isEnabled()).toBe(true);
      await shot(page, 'report-detail-zoomed');
      await reset.click();
      await expect.poll(() => reset.isEnabled()).toBe(false);

      await page.locator('body').click({ position: { x: 5, y: 5 } });
      await page.keyboard.press('Escape');
      await waitGone(page.getByTestId('report-detail'));
      expect(page.url()).not.toContain('report=');
    } finally {
      await context.close();
    }
  });

  it('draws humidity on its own axis and trims a run through the detail', async () => {
    const humid = await api<ApiPage<ListedLabelReport>>(
      keys.acme,
      `/v2/labelReports?${new URLSearchParams({ filter: 'type[eq]humiditySense,company.id[eq]acme,calculatedSenseData.numberOfDatapointsRead[gte]20', pageSize: '20' })}`,
    );
    const target = humid.body.data.find((r) => r.trimmedSenseData === null) ?? humid.body.data[0];
    expect(target, 'the demo data has humidity reports').toBeTruthy();
    const { context, page } = await openApp(keys.acme, `?report=${target.id}`);
    try {
      const detail = page.getByTestId('report-detail');
      await detail.getByTestId('report-chart').waitFor();
      await waitText(detail.locator('.chart'), 'readings');
      await painted(page);
      await shot(page, 'report-detail-humidity');

      // Trim to the middle of the run with the two datetime inputs.
      const dps = target.calculatedSenseData.datapoints;
      const from = dps[Math.floor(dps.length / 4)].timestamp;
      const to = dps[Math.floor((dps.length * 3) / 4)].timestamp;
      const local = (t: number) => {
        const d = new Date(t * 1000);
        const p = (n: number) => String(n).padStart(2, '0');
        return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
      };
      if (target.trimmedSenseData !== null) {
        await detail.getByTestId('trim-form').getByRole('button', { name: 'Clear trim' }).click();
        await confirmChange(detail, 'The whole run counts again.');
        await waitText(detail.getByTestId('trim-state'), 'Not trimmed');
      }
      await detail.locator('input[name=trimStart]').fill(local(from));
      await detail.locator('input[name=trimEnd]').fill(local(to));
      await detail.getByRole('button', { name: 'Apply trim' }).click();
      await confirmChange(detail, 'Label activated before loading; the trim keeps the shipment.');
      await waitText(detail.getByTestId('trim-state'), 'Trimmed to');
      await waitText(detail.getByTestId('trim-note'), 'For the trimmed range');
      const trimmed = await getReport(keys.acme, target.id);
      const kept = trimmed.trimmedSenseData!.datapoints;
      expect(kept[0].timestamp).toBe(from);
      expect(kept[kept.length - 1].timestamp).toBe(to);
      await detail.locator('.chart').scrollIntoViewIfNeeded();
      await painted(page);
      await shot(page, 'report-detail-trimmed');

      await detail.getByTestId('trim-form').getByRole('button', { name: 'Clear trim' }).click();
      await confirmChange(detail, 'The whole run counts again.');
      await waitText(detail.getByTestId('trim-state'), 'Not trimmed');
      expect((await getReport(keys.acme, target.id)).trimmedSenseData).toBeNull();
      if (target.trimmedSenseData !== null) {
        const original = target.trimmedSenseData.datapoints;
        await patch(keys.acme, target.id, { trim: { startTime: original[0].timestamp, endTime: original[original.length - 1].timestamp } });
      }
    } finally {
      await context.close();
    }
  });

  it('lets the owner change limits and shows the new alert level at once', async () => {
    // A report of acme's own with an excursion, shared with nordic as editor.
    const candidates = await api<ApiPage<ListedLabelReport>>(
      keys.acme,
      `/v2/labelReports?${new URLSearchParams({ filter: 'alert.level[gte]1,company.id[eq]acme', order: 'created[desc]', pageSize: '50' })}`,
    );
    const plain = candidates.body.data.filter(
      (r) => r.senseConfig.limits.minHumidity === undefined && r.senseConfig.limits.maxHumidity === undefined,
    );
    const target = plain.find((r) => r.access.some((a) => a.companyId === 'nordic' && a.role === 'editor')) ?? plain[0];
    expect(target).toBeTruthy();
    const before = await getReport(keys.acme, target.id);
    const { context, page } = await openApp(keys.acme, `?report=${target.id}`);
    try {
      const detail = page.getByTestId('report-detail');
      await detail.getByTestId('limits-form').waitFor();
      const values = before.calculatedSenseData.datapoints.map((d) => d.temperature);
      const lo = Math.floor(Math.min(...values)) - 1;
      const hi = Math.ceil(Math.max(...values)) + 1;
      await detail.locator('input[name=minTemperature]').fill(String(lo));
      await detail.locator('input[name=maxTemperature]').fill(String(hi));
      await detail.getByRole('button', { name: 'Save limits' }).click();
      await confirmChange(detail, 'Product spec sheet, revision 4.');
      await waitText(detail.getByTestId('save-limits'), 'Limits saved');
      await waitText(detail.getByTestId('alert-line'), 'None');
      const after = await getReport(keys.acme, target.id);
      expect(after.senseConfig.limits).toMatchObject({ minTemperature: lo, maxTemperature: hi });
      expect(after.alert.level).toBe(0);
      await shot(page, 'limits-changed');

      // Back to the original limits: the alert comes back, again without a reload.
      await detail.locator('input[name=minTemperature]').fill(String(before.senseConfig.limits.minTemperature));
      await detail.locator('input[name=maxTemperature]').fill(String(before.senseConfig.limits.maxTemperature));
      await detail.getByRole('button', { name: 'Save limits' }).click();
      await confirmChange(detail, 'Product spec sheet, revision 4.');
      await waitText(detail.getByTestId('alert-line'), before.alert.level === 2 ? 'Critical' : 'Moderate');
      expect((await getReport(keys.acme, target.id)).alert).toEqual(before.alert);
    } finally {
      await context.close();
    }
  });

  it('tells an editor why limits cannot be changed', async () => {
    const shared = await api<ApiPage<ListedLabelReport>>(
      keys.nordic,
      `/v2/labelReports?${new URLSearchParams({ filter: 'company.id[eq]acme', pageSize: '50' })}`,
    );
    const target = shared.body.data.find((r) => r.access.some((a) => a.companyId === 'nordic' && a.role === 'editor'));
    expect(target, 'the demo data shares acme reports with nordic as editor').toBeTruthy();
    const { context, page } = await openApp(keys.nordic, `?report=${target!.id}`);
    try {
      const detail = page.getByTestId('report-detail');
      await waitText(detail.getByTestId('limits-locked'), 'Only the owning company');
      await waitText(detail.getByTestId('limits-locked'), 'your company is an editor');
      expect(await detail.getByTestId('limits-form').count()).toBe(0);
      // The editor's other tools are there.
      expect(await detail.getByTestId('bookkeeping-form').locator('input[name=labelReference]').isEnabled()).toBe(true);
      await detail.getByTestId('limits-locked').scrollIntoViewIfNeeded();
      await shot(page, 'editor-limits-locked');
      // And the service agrees, in the same words the UI would show on a refusal.
      const refused = await patch(keys.nordic, target!.id, { limits: { maxTemperature: 30 } });
      expect(refused.status).toBe(403);
      expect(refused.body.message).toBe('Only the label report owner can update limits');
    } finally {
      await context.close();
    }
  });

  it("keeps one company's flag and archive out of another company's view", async () => {
    const shared = await api<ApiPage<ListedLabelReport>>(
      keys.nordic,
      `/v2/labelReports?${new URLSearchParams({ filter: 'company.id[eq]acme,hasFlag[eq]false,isArchived[eq]false', pageSize: '200' })}`,
    );
    // Unflagged and unarchived for both companies (each company has its own state).
    const acmeClean = await list(keys.acme, { filter: 'hasFlag[eq]false,isArchived[eq]false', pageSize: '5000' });
    const clean = new Set(acmeClean.data.map((r) => r.id));
    const target = shared.body.data.find((r) => clean.has(r.id))!;
    expect(target).toBeTruthy();
    const acmeView = await openApp(keys.acme, `?report=${target.id}`);
    const nordicView = await openApp(keys.nordic, `?flagged=yes`);
    try {
      const nordicFlaggedBefore = await count(nordicView.page);
      const detail = acmeView.page.getByTestId('report-detail');
      const acmeFlag = detail.getByTestId('toggle-flag');
      await waitAttr(acmeFlag, 'aria-pressed', 'false');
      await acmeFlag.click();
      await waitAttr(acmeFlag, 'aria-pressed', 'true');
      // The acme list row follows the edit when it is on screen (before archiving takes it out of the list).
      const row = acmeView.page.locator(`.rows .row[data-report-id="${target.id}"]`);
      if ((await row.count()) > 0) await waitText(row, 'Flagged');
      // Archiving a report with an alert and no decision asks first.
      const review = await api<{ decision: unknown }>(keys.acme, `/local/labelReports/${target.id}/review`);
      const asks = target.alert.level >= 1 && review.body.decision === null;
      await detail.getByTestId('toggle-archive').click();
      if (asks) await detail.getByRole('button', { name: 'Archive', exact: true }).click();
      await waitAttr(detail.getByTestId('toggle-archive'), 'aria-pressed', 'true');

      const acmeReport = await getReport(keys.acme, target.id);
      expect(acmeReport).toMatchObject({ hasFlag: true, isArchived: true });
      const nordicReport = await getReport(keys.nordic, target.id);
      expect(nordicReport).toMatchObject({ hasFlag: false, isArchived: false });

      // Nordic's view: same count of flagged reports after a reload, and the report unflagged.
      await nordicView.page.reload();
      await waitForCount(nordicView.page, nordicFlaggedBefore);
      await nordicView.page.goto(`${service.url}/?report=${target.id}`);
      const nordicDetail = nordicView.page.getByTestId('report-detail');
      await waitAttr(nordicDetail.getByTestId('toggle-flag'), 'aria-pressed', 'false');
      await waitAttr(nordicDetail.getByTestId('toggle-archive'), 'aria-pressed', 'false');
      await shot(acmeView.page, 'flag-archive');

      // Undo for acme.
      await acmeFlag.click();
      await waitAttr(acmeFlag, 'aria-pressed', 'false');
      await detail.getByTestId('toggle-archive').click();
      await waitAttr(detail.getByTestId('toggle-archive'), 'aria-pressed', 'false');
    } finally {
      await acmeView.context.close();
      await nordicView.context.close();
    }
  });

  it('manages local API keys in the settings', async () => {
    const { context, page } = await openApp(keys.acme, '?view=settings', 'info-base-url');
    try {
      await waitText(page.getByTestId('info-base-url'), service.url);
      await waitText(page.getByTestId('curl-example'), `${service.url}/v2/labelReports`);
      const form = page.getByTestId('create-key-form');
      await form.locator('input[name=keyName]').fill('e2e export');
      await form.locator('input[name="labelReports:update"]').check();
      await form.getByRole('button', { name: 'Create key' }).click();
      await page.getByTestId('new-key-value').waitFor();
      const key = (await page.getByTestId('new-key-value').textContent()) ?? '';
      expect(key.length).toBeGreaterThan(16);
      await shot(page, 'settings-new-key');
      const session = (await api<{ companyId: string; permissions: string[] }>(key, '/local/session')).body;
      expect(session.companyId).toBe('acme');
      expect([...session.permissions].sort()).toEqual(['labelReports:read', 'labelReports:update']);
      await page.getByRole('button', { name: 'I have copied it' }).click();
      await waitGone(page.getByTestId('new-key'));
      const row = page.locator('tr', { hasText: 'e2e export' });
      await row.getByRole('button', { name: 'Revoke…' }).click();
      await row.getByRole('button', { name: 'Yes, revoke' }).click();
      await waitText(row, 'Revoked');
      expect((await api(key, '/local/session')).status).toBe(401);
      await shot(page, 'settings');

      // Switching to another company's key at the same desk.
      await page.getByRole('button', { name: 'Use another key' }).click();
      await page.getByTestId('connect-form').locator('input[name=apiKey]').fill('wrong-key-0123456789');
      await page.getByTestId('connect-form').getByRole('button', { name: 'Connect' }).click();
      await waitText(page.getByRole('alert'), 'That key was not accepted');
      await shot(page, 'connect');
      await page.getByTestId('connect-form').locator('input[name=apiKey]').fill(keys.fresh);
      await page.getByTestId('connect-form').getByRole('button', { name: 'Connect' }).click();
      await waitText(page.getByTestId('session-company'), '(fresh)');
    } finally {
      await context.close();
    }
  });

  it('ran without console errors or CSP violations', () => {
    expect(problems).toEqual([]);
  });
});

