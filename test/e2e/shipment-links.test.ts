/**
 * From a report to its shipment, and the shipments screen in the address, in real Chromium
 * against the real service, in one page resized to each desk size (1280×720, 1366×768,
 * 1920×1080): the report panel names the report's shipment and opens it; the open shipment,
 * the list's filters and its order survive a reload; the list opens from Insights with them.
 * Then Settings groups the shipments by a custom field, and the panel names the new shipment.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeReport, series, T0 } from '../support/service-fixture';
import { DESK_SIZES, openDesk, waitText, watchProblems, type Desk } from './browser';

let desk: Desk;
let page: Page;
const problems: string[] = [];
const CALM = series(T0, 600, [4, 5, 5, 4]);
const SHIPMENT = 'SHP-LINK@2026-05-01';

beforeAll(async () => {
  desk = await openDesk('shipment-links');
  const service = desk.service.service;
  const put = (id: string, reference: string, day: string, truck: string) =>
    service.putReport(
      makeReport(id, {
        labelReference: reference,
        created: `2026-05-${day}T08:00:00.000Z`,
        label: { ...makeReport(id).label, name: `Box ${id}` },
        reportedSenseData: { datapoints: CALM },
        customFields: [{ customFieldId: 'truck', value: truck }] as never,
      }),
      { kind: 'import' },
    );
  put('link-a', 'SHP-LINK', '01', 'Truck 7');
  put('link-b', 'shp-link', '02', 'Truck 8');
  put('link-c', 'SHP-LINK-2', '03', ' truck 7');
  page = await (await desk.browser.newContext({ viewport: DESK_SIZES[0] })).newPage();
  watchProblems(page, problems);
}, 120_000);

afterAll(async () => {
  await page?.context().close();
  await desk?.close();
});


describe('from a report to its shipment, the view in the address', () => {
  for (const size of DESK_SIZES) {
    it(`at ${size.width}×${size.height}`, async () => {
      await page.setViewportSize(size);
      await page.goto(desk.appUrl('link-b'));
      const named = page.getByTestId('report-shipment');
      await waitText(named, 'SHP-LINK · 2 labels');
      await named.getByRole('button', { name: 'SHP-LINK' }).click();
      await waitText(page.getByTestId('shipment-labels'), 'Box link-b');
      expect(await page.getByTestId('shipment-labels').locator('tbody tr').count()).toBe(2);
      await page.waitForURL((url) => url.searchParams.get('shipment') === SHIPMENT && url.searchParams.get('view') === 'shipments');

      await page.reload();
      await waitText(page.getByTestId('shipment-labels'), 'Box link-a');
      expect(await page.getByRole('tab', { name: 'Shipments' }).getAttribute('aria-selected')).toBe('true');

      await page.getByTestId('shipment-view').getByRole('button', { name: '← Shipments' }).click();
      const filters = page.getByTestId('shipment-filters');
      await filters.locator('input[name=labelsMin]').fill('2');
      await filters.locator('select[name=order]').selectOption('labels[desc]');
      await waitText(page.getByTestId('shipment-count'), '1 shipment');
      await page.waitForURL((url) => url.searchParams.get('sh.labels') === '2' && url.searchParams.get('sh.order') === 'labels[desc]' && !url.searchParams.has('shipment'));

      await page.reload();
      await waitText(page.getByTestId('shipment-count'), '1 shipment');
      expect(await page.getByTestId('shipment-filters').locator('input[name=labelsMin]').inputValue()).toBe('2');
      expect(await page.getByTestId('shipment-filters').locator('select[name=order]').inputValue()).toBe('labels[desc]');
      expect(await page.getByTestId('shipment-table').locator('tbody tr').first().getAttribute('data-shipment-id')).toBe(SHIPMENT);

      await page.getByRole('tab', { name: 'Insights' }).click();
      await page.getByTestId('insights-shipments').click();
      await waitText(page.getByTestId('shipment-count'), '1 shipment');
      await page.getByTestId('shipment-filters').locator('input[name=labelsMin]').fill('');
      await page.waitForURL((url) => !url.searchParams.has('sh.labels'));
    }, 60_000);
  }

  it('grouped by a custom field in Settings, the report panel names the new shipment', async () => {
    await page.goto(desk.appUrl());
    await page.getByRole('tab', { name: 'Settings' }).click();
    const panel = page.getByTestId('shipment-grouping');
    await panel.getByRole('radio', { name: 'A custom field' }).check();
    await panel.locator('input[name=shipment-grouping-field]').fill('truck');
    await panel.getByRole('button', { name: 'Save' }).click();
    await waitText(page.getByTestId('shipment-grouping-saved'), 'grouped by the custom field truck');

    await page.goto(desk.appUrl('link-c'));
    await waitText(page.getByTestId('report-shipment'), 'Truck 7 · 2 labels');
    await page.getByTestId('report-shipment').getByRole('button', { name: 'Truck 7' }).click();
    await waitText(page.getByTestId('shipment-labels'), 'Box link-c');
    await page.waitForURL((url) => url.searchParams.get('shipment') === 'TRUCK7@2026-05-01');

    await page.getByRole('tab', { name: 'Settings' }).click();
    await page.getByTestId('shipment-grouping').getByRole('radio', { name: 'Label reference' }).check();
    await page.getByTestId('shipment-grouping').getByRole('button', { name: 'Save' }).click();
    await waitText(page.getByTestId('shipment-grouping-saved'), 'grouped by label reference');
    expect(problems).toEqual([]);
  }, 60_000);
});
