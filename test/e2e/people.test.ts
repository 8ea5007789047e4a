/**
 * People at the desk in Chromium against the real service: the first administrator made from the
 * desk's own key (the password typed twice, a mismatch refused before anything is sent), who is then signed in and named in the header; an acknowledgement signed with a
 * wrong then the right password; the report's alert rules edited with a reason (lowering the alert: signed); the lock after inactivity (the page's clock moved past the
 * company's idle time, never slept through) that keeps the open report and asks only for the
 * password; signing out to the sign-in screen, whose lockout rule is said in words; an
 * administrator adding a person and setting a new password for them; a person the administrator
 * added signing in and made to choose their own password first (a short, a mistyped and a reused
 * one refused in words) before reaching the report list, then signing in with it.
 */
import { rmSync } from 'node:fs';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../../host/start-service';
import type { UserRole } from '../../model/person';
import { PERMISSIONS } from '../../schema/report';
import { findReportWithExcursions, type ReportWithExcursions } from '../support/report-fixture';
import { seriousViolations } from './axe';
import { confirmChange, launchChromium, prepare, shot, signChange, signIn, waitGone, waitText, watchProblems } from './browser';

let dir: string;
let service: RunningService;
let browser: Browser;
let page: Page;
let target: ReportWithExcursions;
let deskKey: string;
const problems: string[] = [];
const PASSWORD = 'correct horse battery';

beforeAll(async () => {
  const prepared = await prepare('people', { reports: 40, seed: 3 });
  dir = prepared.dir;
  target = findReportWithExcursions(prepared.dbFile, 'acme');
  service = await startService({ dbFile: prepared.dbFile, port: 0, staticDir: prepared.uiDir });
  // What the desktop's own key holds: every permission.
  deskKey = service.service.apiKeys.createSessionKey('acme', PERMISSIONS);
  browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1600, height: 1000 } });
  page = await context.newPage();
  // Refused signatures and passwords and the lock answer 400/401/403, which Chromium logs.
  watchProblems(page, problems, /status of 40[013]/);
  await page.clock.install();
});

afterAll(async () => {
  await browser?.close();
  await service?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Fills a form's fields by name, then presses its button. */
async function submitForm(form: Locator, values: Record<string, string>, button: string): Promise<void> {
  for (const [name, value] of Object.entries(values)) await form.locator(`[name="${name}"]`).fill(value);
  await form.getByRole('button', { name: button }).click();
}

/** Adds a person in Settings › People's form; answers their row once the table shows it. */
async function addInSettings(users: Locator, person: { name: string; login: string; role: UserRole; password: string }): Promise<Locator> {
  const create = users.getByTestId('create-user-form');
  await create.locator('select[name=role]').selectOption(person.role);
  await submitForm(create, { name: person.name, login: person.login, password: person.password }, 'Add');
  const row = users.locator(`tr[data-login=${person.login}]`);
  await row.waitFor();
  return row;
}

describe('people in Chromium', () => {
  it('asks for the first administrator, who is then signed in', async () => {
    await page.goto(`${service.url}/?report=${encodeURIComponent(target.report.id)}#key=${encodeURIComponent(deskKey)}`);
    const banner = page.getByTestId('first-admin');
    await banner.getByRole('button', { name: 'Set up the first administrator' }).click();
    const form = page.getByTestId('first-admin-form');
    await form.locator('input[name=name]').fill('Anna Berg');
    await form.locator('input[name=login]').fill('anna');
    await waitText(form, 'Password (at least 10 characters)');
    const created: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/local/users') && request.method() === 'POST') created.push(request.url());
    });
    // Typed differently the second time: refused before anything is sent.
    await form.locator('input[name=password]').fill(PASSWORD);
    await form.locator('input[name=password-again]').fill(`${PASSWORD} `);
    await form.getByRole('button', { name: 'Create and sign in' }).click();
    await waitText(form.getByRole('alert'), 'The two passwords differ');
    expect([created, service.service.users.hasPeople('acme')]).toEqual([[], false]);
    await page.setViewportSize({ width: 1280, height: 720 });
    expect(await seriousViolations(page, '[data-testid=first-admin-form]')).toEqual([]);
    await page.setViewportSize({ width: 1600, height: 1000 });
    await form.locator('input[name=password-again]').fill(PASSWORD);
    await form.getByRole('button', { name: 'Create and sign in' }).click();
    await waitText(page.getByTestId('header-person'), 'Anna Berg (anna)');
    expect(created).toHaveLength(1);
    await waitGone(page.getByTestId('first-admin'));
    expect(service.service.users.hasPeople('acme')).toBe(true);
  });

  it('signs an acknowledgement: a wrong password is refused in words, the right one signs', async () => {
    const detail = page.getByTestId('report-detail');
    await detail.getByTestId('acknowledge-form').getByRole('button').click();
    const dialog = page.getByTestId('signature-dialog');
    await waitText(dialog, 'You sign: Reviewed');
    await dialog.locator('input[name=signature-password]').fill('not my password');
    await dialog.getByRole('button', { name: 'Sign' }).click();
    await waitText(dialog.getByTestId('review-acknowledge-message'), 'The password is wrong: nothing was signed');
    await dialog.locator('input[name=signature-password]').fill(PASSWORD);
    await dialog.getByRole('button', { name: 'Sign' }).click();
    await waitGone(dialog);
    await waitText(detail.getByTestId('review-acknowledgement'), 'signed “Reviewed” by Anna Berg (anna)');
    await waitText(detail.getByTestId('history-signature'), 'signed “Reviewed”');
    // The decision form preselects nothing.
    const decision = detail.getByTestId('decision-form');
    expect(await decision.locator('input[name=decision]:checked').count()).toBe(0);
    await shot(page, 'people-signed');
  });

  it('edits the alert rules with a reason, the person named in the change log, and puts the defaults back', async () => {
    const detail = page.getByTestId('report-detail');
    const form = detail.getByTestId('alert-rules-form');
    const rows = form.getByTestId('alert-rule-row');
    for (let n = await rows.count(); n > 0; n--) await rows.nth(n - 1).getByRole('button', { name: 'Remove' }).click();
    await form.getByRole('button', { name: 'Save alert rules' }).click();
    await waitText(detail.getByTestId('save-alertRules'), 'at least one alert rule');
    await form.getByRole('button', { name: 'Add a rule' }).click();
    await rows.first().locator('select[name=rule-level]').selectOption('1');
    await rows.first().locator('input[name=rule-minutes]').fill('100000');
    await form.scrollIntoViewIfNeeded();
    await shot(page, 'people-alert-rules');
    await form.getByRole('button', { name: 'Save alert rules' }).click();
    await waitText(detail.getByTestId('change-effect'), 'to None');
    const why = 'Customer accepts any excursion under 69 days';
    // Lowering the alert is a signed change; an administrator with four eyes off signs it at once.
    await signChange(detail, why, PASSWORD);
    await waitText(detail.getByTestId('save-alertRules'), 'Signed “Approved change of alert rules”');

    const report = service.service.reports.retrieve({ keyId: 'test', companyId: 'acme', permissions: new Set(PERMISSIONS) }, target.report.id);
    expect([report.alertsConfig, report.alert.level]).toEqual([{ rules: [{ level: 1, kind: 'cumulative', seconds: 6_000_000 }] }, 0]);
    const change = service.service.history(target.report.id).find((e) => e.changes.some((c) => c.field === 'alertsConfig'));
    expect(change).toMatchObject({ reason: why, actor: { kind: 'apiKey', person: { name: 'Anna Berg' } }, signature: { meaning: 'Approved change of alert rules', signer: { login: 'anna' } } });

    await form.getByRole('button', { name: 'Use the default rules' }).click();
    await confirmChange(detail, 'Back to the company’s rules');
    await waitText(detail.getByTestId('save-alertRules'), 'Alert rules saved');
    const back = service.service.reports.retrieve({ keyId: 'test', companyId: 'acme', permissions: new Set(PERMISSIONS) }, target.report.id);
    expect([back.alertsConfig, back.alert.level]).toEqual([null, target.report.alert.level]);
  });

  it('locks after the company’s idle time, keeps the page, and unlocks with the password', async () => {
    const reason = page.getByTestId('decision-form').locator('textarea[name=reason]');
    await reason.fill('kept across the lock');
    await page.clock.fastForward('16:00');
    const lock = page.getByTestId('lock-screen');
    await waitText(lock, 'locked after inactivity');
    await lock.locator('input[name=unlock-password]').fill('wrong again!');
    await lock.getByRole('button', { name: 'Unlock' }).click();
    await waitText(lock, 'The password is wrong');
    await lock.locator('input[name=unlock-password]').fill(PASSWORD);
    await lock.getByRole('button', { name: 'Unlock' }).click();
    await waitGone(lock);
    expect(await reason.inputValue()).toBe('kept across the lock');
    // The person's typing tells the service they are there: its lock counts only that, not the
    // page's own reads.
    await page.clock.fastForward('02:00');
    const told = page.waitForRequest((request) => request.url().endsWith('/local/session/activity') && request.method() === 'POST');
    await reason.press('End');
    expect((await (await told).response())?.status()).toBe(204);
  });

  it('signs out to the sign-in screen, which says when an account locks', async () => {
    await page.getByTestId('header-person').getByRole('button', { name: 'Sign out' }).click();
    const form = page.getByTestId('sign-in-form');
    await form.waitFor();
    await waitText(page.locator('main'), 'After 5 failed attempts in a row an account locks until an administrator unlocks it');
    await form.locator('input[name=login]').fill('anna');
    await form.locator('input[name=password]').fill(PASSWORD);
    await form.getByRole('button', { name: 'Sign in' }).click();
    await waitText(page.getByTestId('header-person'), 'Anna Berg (anna)');
    expect(problems).toEqual([]);
  });

  it('lets the administrator add a person and set a new password in a form that says why one is refused', async () => {
    await page.getByRole('tablist', { name: 'Screens' }).getByRole('tab', { name: 'Settings' }).click();
    const users = page.getByTestId('users-settings');
    const row = await addInSettings(users, { name: 'Vera Sol', login: 'vera', role: 'viewer', password: PASSWORD });
    await row.getByRole('button', { name: 'Reset password' }).click();
    const reset = users.getByTestId('reset-password-form');
    await reset.locator('input[name=new-password]').fill('short');
    await reset.getByRole('button', { name: 'Set password' }).click();
    await waitText(users, '10 characters');
    await reset.locator('input[name=new-password]').fill('a much longer passphrase');
    await reset.getByRole('button', { name: 'Set password' }).click();
    // The company's changeAfterReset (on by default): Vera chooses her own at the next sign-in.
    await waitText(users.getByTestId('users-notice'), 'Vera Sol signs in with the new password next, and then chooses their own.');
    await waitGone(reset);
    expect(() => service.service.users.signIn('vera', PASSWORD)).toThrow();
    expect(service.service.users.signIn('vera', 'a much longer passphrase').person.login).toBe('vera');
    expect(problems).toEqual([]);
  });

  it('has a person the administrator added choose their own password at the first sign-in, then go on into the app', async () => {
    const given = 'otto was given this';
    const chosen = 'otto chose this himself';
    await addInSettings(page.getByTestId('users-settings'), { name: 'Otto Lind', login: 'otto', role: 'reviewer', password: given });
    await page.getByTestId('header-person').getByRole('button', { name: 'Sign out' }).click();

    await signIn(page, 'otto', given);
    const screen = page.getByTestId('change-password');
    await waitText(screen.getByRole('heading', { level: 1 }), 'Choose a new password');
    await waitText(screen.getByTestId('change-password-why'), 'An administrator chose your password');
    await waitText(screen.getByTestId('password-rules'), 'At least 10 characters.');
    await waitText(screen.getByTestId('password-rules'), 'None of your last 5 passwords');
    // Nothing of the app is there until the password is changed.
    expect(await page.getByTestId('report-table').count()).toBe(0);
    const form = screen.getByTestId('change-password-form');
    const attempt = async (current: string, next: string, again = next) => {
      await submitForm(form, { 'current-password': current, 'new-password': next, 'new-password-again': again }, 'Change password and go on');
    };
    const refusal = screen.getByRole('alert');
    // Judged on the screen: nothing is sent.
    const sent: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/local/session/password')) sent.push(request.method());
    });
    await attempt(given, 'too short');
    await waitText(refusal, 'The new password is too short: it has 9 characters, and at least 10 are needed.');
    await attempt(given, chosen, `${chosen}!`);
    await waitText(refusal, 'The two passwords differ');
    expect(sent).toEqual([]);
    // Judged by the service: the password it has now is one of the last five.
    await attempt(given, given);
    await waitText(refusal, 'The password is one of the last 5 of this person: choose one not used before.');
    await attempt('not the current one', chosen);
    await waitText(refusal, 'The current password is wrong');
    expect(sent).toEqual(['POST', 'POST']);
    await page.setViewportSize({ width: 1280, height: 720 });
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, 'people-change-password');
    await page.setViewportSize({ width: 1600, height: 1000 });
    await attempt(given, chosen);
    await waitGone(screen);
    await waitText(page.getByTestId('header-person'), 'Otto Lind (otto)');
    await page.getByTestId('report-table').waitFor();
    await waitText(page.getByTestId('row-range'), 'rows 1–');

    await page.getByTestId('header-person').getByRole('button', { name: 'Sign out' }).click();
    await signIn(page, 'otto', chosen);
    await waitText(page.getByTestId('header-person'), 'Otto Lind (otto)');
    await page.getByTestId('report-table').waitFor();
    expect(await page.getByTestId('change-password').count()).toBe(0);
    expect(service.service.users.listAll('acme').find((u) => u.login === 'otto')?.passwordChangeDue).toBeNull();
    expect(problems).toEqual([]);
  });

  it('keeps each person’s e-mail address and the company’s password rules in Settings › People, refusing a bad one in words before sending', async () => {
    await page.getByTestId('header-person').getByRole('button', { name: 'Sign out' }).click();
    await signIn(page, 'anna', PASSWORD);
    await page.getByRole('tablist', { name: 'Screens' }).getByRole('tab', { name: 'Settings' }).click();
    // A person is signed in: the panel names them and their role, not where the window's key came from.
    await waitText(page.getByTestId('session-person'), 'Anna Berg (anna), admin');
    expect(await page.getByTestId('session-company').textContent()).not.toContain('key from');
    await waitText(page.getByTestId('session-may'), 'Your role may: ');
    const users = page.getByTestId('users-settings');
    const writes: string[] = [];
    page.on('request', (request) => {
      if (request.method() !== 'GET' && /\/local\/(users|settings)/.test(request.url())) writes.push(`${request.method()} ${new URL(request.url()).pathname}`);
    });

    // A person with an address alarm e-mails reach; a malformed one is refused on the page.
    const create = users.getByTestId('create-user-form');
    await submitForm(create, { name: 'Lena Holm', login: 'lena', email: 'lena at example', password: 'lena was given this' }, 'Add');
    await waitText(users.getByRole('alert'), '“lena at example” is not an e-mail address.');
    expect(writes).toEqual([]);
    await submitForm(create, { email: 'lena@example.com' }, 'Add');
    await waitText(users.locator('tr[data-login=lena]'), 'lena@example.com');
    expect(writes).toEqual(['POST /local/users']);

    // Vera's address added, then taken away again.
    const vera = users.locator('tr[data-login=vera]');
    await waitText(vera, 'none');
    // Each row's buttons name their person, for a screen reader that lists the buttons alone.
    expect(await users.getByRole('button', { name: 'Disable vera', exact: true }).count()).toBe(1);
    await vera.getByRole('button', { name: 'Edit vera' }).click();
    const edit = users.getByTestId('edit-user-form');
    await submitForm(edit, { 'edit-email': 'vera@' }, 'Save');
    await waitText(users.getByRole('alert'), '“vera@” is not an e-mail address.');
    await submitForm(edit, { 'edit-email': 'vera@example.com' }, 'Save');
    await waitText(vera, 'vera@example.com');
    await waitGone(edit);
    const emailOf = (login: string) => service.service.users.listAll('acme').find((u) => u.login === login)?.email;
    expect([emailOf('lena'), emailOf('vera')]).toEqual(['lena@example.com', 'vera@example.com']);
    await vera.getByRole('button', { name: 'Edit vera' }).click();
    await submitForm(edit, { 'edit-email': '' }, 'Save');
    await waitGone(edit);
    await waitText(vera, 'none');
    expect(emailOf('vera')).toBeNull();

    // The password rules: out of range refused in the service's own bounds, then saved.
    const policy = users.getByTestId('password-policy-form');
    expect(await policy.locator('input[name=passwordMinLength]').inputValue()).toBe('10');
    writes.length = 0;
    await submitForm(policy, { passwordMinLength: '7' }, 'Save password rules');
    await waitText(users.getByRole('alert'), 'The least length of a password is a whole number from 8 to 128.');
    await submitForm(policy, { passwordMinLength: '12', passwordHistory: '' }, 'Save password rules');
    await waitText(users.getByRole('alert'), 'The earlier passwords that may not come back is a whole number from 0 to 24 (0: no rule).');
    expect(writes).toEqual([]);
    await policy.locator('input[name=changeAfterReset]').uncheck();
    await submitForm(policy, { passwordHistory: '3', passwordExpiryDays: '30' }, 'Save password rules');
    await waitText(users.getByTestId('users-notice'), 'The password rules are saved');
    expect(writes).toEqual(['PUT /local/settings']);
    expect(service.service.users.settings({ keyId: 'test', companyId: 'acme', permissions: new Set(PERMISSIONS) })).toMatchObject({
      passwordMinLength: 12,
      passwordHistory: 3,
      passwordExpiryDays: 30,
      changeAtFirstSignIn: true,
      changeAfterReset: false,
    });
    await waitText(create, 'Password (at least 12 characters)');
    // Without a change after a reset, the reset password is the person's from now on.
    await users.locator('tr[data-login=lena]').getByRole('button', { name: 'Reset password of lena' }).click();
    const reset = users.getByTestId('reset-password-form');
    await submitForm(reset, { 'new-password': 'eleven char' }, 'Set password');
    await waitText(users.getByRole('alert'), 'at least 12 characters');
    await submitForm(reset, { 'new-password': 'lena has twelve+' }, 'Set password');
    await waitText(users.getByTestId('users-notice'), 'Lena Holm signs in with the new password from now on.');

    await page.setViewportSize({ width: 1280, height: 720 });
    expect(await seriousViolations(page, '[data-testid=users-settings]')).toEqual([]);
    await users.scrollIntoViewIfNeeded();
    await shot(page, 'people-settings');
    await page.setViewportSize({ width: 1600, height: 1000 });

    // The change screen states the rules as saved.
    service.service.users.saveSettings(null, 'acme', { changeAfterReset: true });
    service.service.users.resetPassword(null, service.service.users.listAll('acme').find((u) => u.login === 'vera')!.id, 'vera was reset here');
    await page.getByTestId('header-person').getByRole('button', { name: 'Sign out' }).click();
    await signIn(page, 'vera', 'vera was reset here');
    const screen = page.getByTestId('change-password');
    await waitText(screen.getByTestId('change-password-why'), 'An administrator reset your password');
    await waitText(screen.getByTestId('password-rules'), 'At least 12 characters.');
    await waitText(screen.getByTestId('password-rules'), 'None of your last 3 passwords');
    await waitText(screen.getByTestId('password-rules'), 'It lasts 30 days');
    expect(problems).toEqual([]);
  });
});
