/**
 * axe-core on the six main screens (sign-in, the report browser, a report open, Insights,
 * Alarms, Settings) at the desk sizes staff have (1280×720, 1366×768, 1920×1080), in real
 * Chromium against the real service with a person signed in: nothing critical or serious.
 * What axe names moderate or minor is left to the review of each screen.
 */
import { rmSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../../host/start-service';
import { PERMISSIONS } from '../../schema/report';
import { findReportWithExcursions, type ReportWithExcursions } from '../support/report-fixture';
import { seriousViolations } from './axe';
import { addPerson, launchChromium, prepare, signIn, waitText, watchProblems } from './browser';

const SIZES = [
  { width: 1280, height: 720 },
  { width: 1366, height: 768 },
  { width: 1920, height: 1080 },
] as const;
const PASSWORD = 'correct horse battery';

let dir: string;
let service: RunningService;
let browser: Browser;
let deskKey: string;
let target: ReportWithExcursions;
const problems: string[] = [];

beforeAll(async () => {
  const prepared = await prepare('accessibility', { reports: 40, seed: 3 });
  dir = prepared.dir;
  target = findReportWithExcursions(prepared.dbFile, 'acme');
  service = await startService({ dbFile: prepared.dbFile, port: 0, staticDir: prepared.uiDir });
  deskKey = service.service.apiKeys.createSessionKey('acme', PERMISSIONS);
  addPerson(service.service, 'acme', { login: 'anna', name: 'Anna Berg', role: 'admin', password: PASSWORD });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await service?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function expectNoSerious(page: Page, screen: string) {
  const found = await seriousViolations(page);
  expect(found, `${screen}: ${JSON.stringify(found, null, 2)}`).toEqual([]);
}

describe('axe on the main screens', () => {
  for (const size of SIZES) {
    it(`finds nothing critical or serious at ${size.width}×${size.height}`, async () => {
      const context = await browser.newContext({ viewport: size });
      const page = await context.newPage();
      watchProblems(page, problems);
      try {
        await page.goto(`${service.url}/#key=${encodeURIComponent(deskKey)}`);
        await page.getByTestId('sign-in-form').waitFor();
        await expectNoSerious(page, 'sign-in');
        await signIn(page, 'anna', PASSWORD);

        await page.locator('.rows .row[data-report-id]').first().waitFor();
        await expectNoSerious(page, 'report browser');

        await page.locator(`.rows .row[data-report-id="${target.report.id}"]`).click();
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
