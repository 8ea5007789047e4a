/**
 * Shipments in real Chromium against the real service, at each desk size (1280×720, 1366×768,
 * 1920×1080): the Shipments tab lists the company's shipments with an exact count and filters
 * them; a shipment of three labels opens on one chart with a curve per label, its labels with
 * their alerts and reviews, its facts changed with a reason and its budget in words; a shipment
 * whose label's alert awaits acknowledgement cannot be decided; and an approver releases a
 * shipment with one signature, which every label's review then shows; axe finds nothing serious.
 * The list also opens from Insights.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeReport, series, T0 } from '../support/service-fixture';
import { seriousViolations } from './axe';
import { addPerson, DESK_SIZES, openDesk, shot, signIn, waitGone, waitText, watchProblems, type Desk } from './browser';

const PASSWORD = 'correct horse battery';

let desk: Desk;
const problems: string[] = [];

const CALM = series(T0, 600, [4, 5, 5, 4, 5, 5]);
const WARM = series(T0, 600, [4, 5, 9, 10, 5, 4]);

beforeAll(async () => {
  desk = await openDesk('shipments');
  const service = desk.service.service;
  const tool = service.apiKeys.authenticate(service.apiKeys.create('acme', ['labelReports:read', 'labelReports:update', 'labelReports:create'], 'e2e tool').key)!;
  const put = (id: string, reference: string, datapoints: typeof CALM) =>
    service.putReport(makeReport(id, { labelReference: reference, label: { ...makeReport(id).label, name: `Pallet ${id}` }, reportedSenseData: { datapoints } }), { kind: 'import' });
  for (const size of DESK_SIZES) {
    const reference = `SHP-E2E-${size.width}`;
    put(`${size.width}-a`, reference, CALM);
    put(`${size.width}-b`, reference.toLowerCase(), WARM);
    put(`${size.width}-c`, ` ${reference}`, CALM);
    // Its Moderate alert acknowledged before the company has people: a tool may then.
    service.reviews.acknowledge(tool, `${size.width}-b`, {});
  }
  put('warm-a', 'SHP-E2E-WARM', CALM);
  put('warm-b', 'SHP-E2E-WARM', WARM);
  put('warm-c', 'SHP-E2E-WARM', CALM);
  addPerson(service, 'acme', { login: 'anna', name: 'Anna Berg', role: 'approver', password: PASSWORD });
}, 120_000);

afterAll(async () => {
  await desk?.close();
});

async function shipmentsAt(size: { width: number; height: number }): Promise<Page> {
  const context = await desk.browser.newContext({ viewport: size });
  const page = await context.newPage();
  watchProblems(page, problems);
  await page.goto(desk.appUrl());
  await signIn(page, 'anna', PASSWORD);
  await page.getByRole('tab', { name: 'Shipments' }).click();
  await page.getByTestId('shipment-table').locator('tbody tr').first().waitFor();
  return page;
}

async function openShipment(page: Page, reference: string): Promise<void> {
  const filters = page.getByTestId('shipment-filters');
  await filters.locator('select[name=order]').selectOption('created[desc]');
  await filters.locator('input[name=labelsMin]').fill('3');
  // Four shipments of three labels: one per desk size and the warm one.
  await waitText(page.getByTestId('shipment-count'), '4 shipments');
  await page.getByTestId('shipment-table').getByRole('button', { name: reference }).click();
  await page.getByTestId('shipment-labels').locator('tbody tr').nth(2).waitFor();
}

describe('shipments at the desk', () => {
  for (const size of DESK_SIZES) {
    describe(`at ${size.width}×${size.height}`, () => {
      let page: Page;
      beforeAll(async () => {
        page = await shipmentsAt(size);
      }, 60_000);
      afterAll(async () => {
        await page?.context().close();
      });

      it('lists the shipments with an exact count, filtered by review state and alert', async () => {
        const filters = page.getByTestId('shipment-filters');
        await filters.locator('select[name=state]').selectOption('awaitingAcknowledgement');
        const states = () => page.getByTestId('shipment-table').locator('tbody td[data-state]').evaluateAll((cells) => cells.map((c) => c.getAttribute('data-state')));
        await expect.poll(async () => new Set(await states())).toEqual(new Set(['awaitingAcknowledgement']));
        await filters.locator('select[name=alert]').selectOption('1');
        await filters.locator('input[name=labelsMin]').fill('3');
        await waitText(page.getByTestId('shipment-count'), '1 shipment');
        await waitText(page.getByTestId('shipment-table'), 'SHP-E2E-WARM');
        await filters.locator('select[name=state]').selectOption('');
        await filters.locator('select[name=alert]').selectOption('');
        await waitText(page.getByTestId('shipment-count'), '4 shipments');
        // The page fits the screen's width: nothing beyond the window but the table's own scroll.
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
        await shot(page, `shipments-list-${size.width}`);
        expect(await seriousViolations(page, '[data-testid=shipments]')).toEqual([]);
      });

      it('refuses a decision while a label’s alert awaits acknowledgement', async () => {
        await openShipment(page, 'SHP-E2E-WARM');
        const form = page.getByTestId('shipment-decision-form');
        await waitText(form.getByTestId('shipment-unacknowledged'), 'Pallet warm-b');
        expect(await form.locator('button[type=submit]').isDisabled()).toBe(true);
        await page.getByRole('button', { name: '← Shipments' }).first().click();
      });

      it('shows a shipment on one chart, keeps its facts with a reason, and releases it with one signature', async () => {
        await openShipment(page, `SHP-E2E-${size.width}`);
        const view = page.getByTestId('shipment-view');
        // One curve per label, and the limits.
        await expect.poll(() => view.getByTestId('shipment-chart').locator('canvas').getAttribute('data-drawn')).toBe('3');
        await waitText(view.getByTestId('shipment-labels'), `Pallet ${size.width}-b`);
        await waitText(view.getByTestId('shipment-budget'), 'No stability budget');

        const facts = view.getByTestId('shipment-facts');
        await facts.locator('input[name=product]').fill('Vaccine X');
        await facts.getByRole('button', { name: 'Add leg' }).click();
        await facts.getByLabel('From, leg 1').fill('Basel');
        await facts.getByLabel('To, leg 1').fill('Oslo');
        await facts.getByRole('button', { name: 'Add limit' }).click();
        await facts.locator('textarea[name=facts-reason]').fill('from the waybill');
        await facts.getByRole('button', { name: 'Save facts' }).click();
        await waitText(facts.getByTestId('shipment-facts-message'), 'Facts saved.');
        // Pallet b read 9 and 10 °C for two readings of ten minutes: 20 of the 120 minutes above 8 °C.
        await waitText(view.getByTestId('shipment-budget'), '20 of 120 minutes above 8 °C used');
        await waitText(view.getByTestId('shipment-legs'), 'Road: Basel → Oslo');

        const form = view.getByTestId('shipment-decision-form');
        await form.locator('input[name=shipment-decision][value=released]').check();
        await form.locator('textarea[name=shipment-reason]').fill('within budget');
        await form.getByRole('button', { name: 'Sign decision…' }).click();
        const dialog = page.getByTestId('signature-dialog');
        await dialog.locator('input[name=signature-password]').fill(PASSWORD);
        await dialog.locator('button[type=submit]').click();
        await waitGone(dialog);
        await waitText(form.getByTestId('shipment-decision'), 'covering 3 labels');
        await waitText(view.getByTestId('shipment-state'), 'Released');
        const reviews = await view.getByTestId('shipment-labels').locator('tbody tr td:last-child').allTextContents();
        expect(reviews).toEqual(['Released', 'Released', 'Released']);
        await shot(page, `shipment-view-${size.width}`);
        expect(await seriousViolations(page, '[data-testid=shipment-view]')).toEqual([]);
        // Each report got its own entry naming the shipment decision.
        const entries = desk.service.service.reviews.review(desk.service.service.apiKeys.authenticate(desk.deskKey)!, `${size.width}-a`).decision;
        expect(entries?.reason).toMatch(new RegExp(`within budget \\(shipment SHP-E2E-${size.width}, shipment decision \\d+\\)`));
        await page.getByRole('button', { name: '← Shipments' }).first().click();
      });
    });
  }

  it('opens from Insights', async () => {
    const page = await shipmentsAt(DESK_SIZES[0]);
    try {
      await page.getByRole('tab', { name: 'Insights' }).click();
      await page.getByTestId('insights-shipments').click();
      await page.getByTestId('shipment-table').locator('tbody tr').first().waitFor();
      expect(await page.getByRole('tab', { name: 'Shipments' }).getAttribute('aria-selected')).toBe('true');
    } finally {
      await page.context().close();
    }
  });

  it('met no page errors', () => {
    expect(problems).toEqual([]);
  });
});
