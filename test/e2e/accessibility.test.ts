/**
 * axe-core on the six main screens (sign-in, the report browser, a report open, Insights,
 * Alarms, Settings) at the desk sizes staff have (1280×720, 1366×768, 1920×1080), in real
 * Chromium against the real service with a person signed in: nothing critical or serious.
 * What axe names moderate or minor is left to the review of each screen.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from './axe';
import { addPerson, DESK_SIZES, openDesk, signIn, waitText, watchProblems, type Desk } from './browser';

const PASSWORD = 'correct horse battery';

let desk: Desk;
const problems: string[] = [];

beforeAll(async () => {
  desk = await openDesk('accessibility');
  addPerson(desk.service.service, 'acme', { login: 'anna', name: 'Anna Berg', role: 'admin', password: PASSWORD });
});

afterAll(async () => {
  await desk?.close();
});

async function expectNoSerious(page: Page, screen: string) {
  const found = await seriousViolations(page);
  expect(found, `${screen}: ${JSON.stringify(found, null, 2)}`).toEqual([]);
}

describe('axe on the main screens', () => {
  for (const size of DESK_SIZES) {
    it(`finds nothing critical or serious at ${size.width}×${size.height}`, async () => {
      const context = await desk.browser.newContext({ viewport: size });
      const page = await context.newPage();
      watchProblems(page, problems);
      try {
        await page.goto(desk.appUrl());
        await page.getByTestId('sign-in-form').waitFor();
        await expectNoSerious(page, 'sign-in');
        await signIn(page, 'anna', PASSWORD);

        await page.locator('.rows .row[data-report-id]').first().waitFor();
        await expectNoSerious(page, 'report browser');

        await page.locator(`.rows .row[data-report-id="${desk.target.report.id}"]`).click();
        const detail = page.getByTestId('report-detail');
        await detail.getByTestId('excursion-jump').first().waitFor();
        await expectNoSerious(page, 'report open');

        await page.getByRole('tab', { name: 'Insights' }).click();
        await page.locator('[data-testid=insights][data-ready=true]').waitFor();
        await expectNoSerious(page, 'insights');

        await page.getByRole('tab', { name: 'Alarms' }).click();
        await page.locator('.alarms-screen').waitFor();
        await expectNoSerious(page, 'alarms');

        await page.getByRole('tab', { name: 'Settings' }).click();
        await waitText(page.getByTestId('session-person'), 'Anna Berg');
        await expectNoSerious(page, 'settings');
        expect(problems).toEqual([]);
      } finally {
        await context.close();
      }
    });
  }
});
