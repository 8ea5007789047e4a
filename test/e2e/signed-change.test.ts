/**
 * A signed verdict change in Chromium against the real service, four eyes on
 * (docs/review-and-audit.md#signed-verdict-changes): a reviewer raises a limit that would clear
 * the report's alert; the confirmation says the change lowers the alert and needs a second
 * person's signature, and asks for approval, changing nothing. An approver, in another window,
 * sees the change awaiting a signature, is refused with a wrong password, signs with the right
 * one, and the alert falls; the history names both. At 1280×720 and 1366×768.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERMISSIONS } from '../../schema/report';
import type { Caller } from '../../service/api-keys';
import { openDesk, shot, waitGone, waitText, watchProblems, type Desk } from './browser';

let desk: Desk;
const problems: string[] = [];
const PASSWORD = 'correct horse battery';
const TOOL: Caller = { keyId: 'test', companyId: 'acme', permissions: new Set(PERMISSIONS) };

beforeAll(async () => {
  desk = await openDesk('signed-change');
  const users = desk.service.service.users;
  // The passwords are the test's own: no change asked at the first sign-in.
  users.saveSettings(null, 'acme', { fourEyes: true, changeAtFirstSignIn: false });
  users.create(null, 'acme', { login: 'anna', name: 'Anna Berg', role: 'admin', password: PASSWORD });
  users.create(null, 'acme', { login: 'rita', name: 'Rita Lund', role: 'reviewer', password: PASSWORD });
  users.create(null, 'acme', { login: 'paul', name: 'Paul Ek', role: 'approver', password: PASSWORD });
});

afterAll(async () => {
  await desk?.close();
});

async function signedIn(login: string, viewport: { width: number; height: number }): Promise<Page> {
  const page = await (await desk.browser.newContext({ viewport })).newPage();
  // A wrong signature password answers 403, which Chromium logs.
  watchProblems(page, problems, /status of 403/);
  await page.goto(desk.appUrl(desk.target.report.id));
  const form = page.getByTestId('sign-in-form');
  await form.locator('input[name=login]').fill(login);
  await form.locator('input[name=password]').fill(PASSWORD);
  await form.getByRole('button', { name: 'Sign in' }).click();
  await page.getByTestId('report-detail').getByTestId('limits-form').waitFor();
  return page;
}

describe('a signed verdict change in Chromium', () => {
  it('a reviewer’s change that lowers the alert waits for a second person’s signature', async () => {
    const page = await signedIn('rita', { width: 1280, height: 720 });
    const detail = page.getByTestId('report-detail');
    // Wide enough that no temperature reading of the run is out of limits.
    await detail.locator('input[name=minTemperature]').fill('-40');
    await detail.locator('input[name=maxTemperature]').fill('80');
    await detail.getByRole('button', { name: 'Save limits' }).click();
    const dialog = detail.getByTestId('change-reason');
    await waitText(dialog.getByTestId('change-effect'), 'The alert will change from Critical to');
    await waitText(dialog.getByTestId('change-signature'), 'This change lowers the alert, so it needs a signature: “Approved change of limits”');
    await waitText(dialog.getByTestId('change-signature'), 'Four eyes are on: a second person whose role may release');
    expect(await dialog.locator('input[type=password]').count()).toBe(0);
    await dialog.locator('textarea[name=changeReason]').fill('Product stable from -40 to 80 C per stability study');
    await dialog.scrollIntoViewIfNeeded();
    await shot(page, 'signed-change-request');
    await dialog.getByRole('button', { name: 'Ask for approval' }).click();
    await waitGone(dialog);
    await waitText(detail.getByTestId('save-limits'), 'Asked for approval');
    await waitText(detail.getByTestId('change-requests'), 'Waiting for another person’s signature');
    expect(desk.service.service.reports.retrieve(TOOL, desk.target.report.id).alert.level).toBe(desk.target.report.alert.level);
    expect(desk.service.service.signedChanges.pending(TOOL)).toHaveLength(1);
  });

  it('an approver signs it in another window; the alert falls and the history names both', async () => {
    const page = await signedIn('paul', { width: 1366, height: 768 });
    const detail = page.getByTestId('report-detail');
    const request = detail.getByTestId('change-request');
    await waitText(request, 'Approved change of limits: min temperature');
    await waitText(request, 'max temperature 80');
    await waitText(request, 'asked by Rita Lund (rita)');
    await request.getByRole('button', { name: 'Approve and sign…' }).click();
    const sign = request.getByTestId('change-request-sign');
    await sign.locator('input[name=approval-password]').fill('not my password');
    await sign.getByRole('button', { name: 'Sign and make the change' }).click();
    await waitText(request.getByTestId('change-request-problem'), 'The password is wrong: nothing was signed');
    expect(desk.service.service.reports.retrieve(TOOL, desk.target.report.id).alert.level).toBe(desk.target.report.alert.level);
    // The form stays open on a refusal, its password cleared.
    expect(await sign.locator('input[name=approval-password]').inputValue()).toBe('');
    await sign.locator('input[name=approval-password]').fill(PASSWORD);
    await sign.getByRole('button', { name: 'Sign and make the change' }).click();
    await waitGone(detail.getByTestId('change-requests'));
    expect(desk.service.service.reports.retrieve(TOOL, desk.target.report.id).alert.level).toBeLessThan(desk.target.report.alert.level);
    await waitText(detail.getByTestId('history-panel'), '“Approved change of limits” by Paul Ek (paul)');
    await waitText(detail.getByTestId('history-panel'), 'asked for by Rita Lund (rita)');
    await shot(page, 'signed-change-approved');
    expect(problems).toEqual([]);
  });
});
