/**
 * Settings › Alarms in Chromium against the service as the desktop app runs it: the Alarms view
 * says why it shows no alarm while no rule is on; a rule is made in the form, which refuses what
 * the API refuses in the same words (its schema, and the service's judgement of the filter); a
 * test notification of the rule reaches a real smtp-server relay and its answer is shown; quiet
 * hours and the digest are saved. People are picked by name and login, not by an id. At 1366×768.
 */
import { rmSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDesktopService, type DesktopService } from '../../host/desktop-service';
import { startSmtpReceiver, type SmtpReceiver } from '../alarms/smtp-receiver';
import { addPerson, DESK_SIZES, launchChromium, prepare, shot, signIn, waitText, watchProblems } from './browser';

const PASSWORD = 'correct horse battery';

let dir: string;
let desk: DesktopService;
let browser: Browser;
let receiver: SmtpReceiver;
let quinnId: string;
const problems: string[] = [];

beforeAll(async () => {
  const { uiDir, dbFile, ...prepared } = await prepare('e2e-alarm-rules', { reports: 20, seed: 5 });
  dir = prepared.dir;
  desk = await startDesktopService({ dbFile, port: 0, companyId: 'acme', staticDir: uiDir });
  receiver = await startSmtpReceiver();
  desk.running.service.alarms.saveSmtp(null, { host: '127.0.0.1', port: receiver.port, security: 'none', user: null, from: 'alarms@acme.example', appUrl: null });
  addPerson(desk.running.service, 'acme', { login: 'alma', name: 'Alma Ek', role: 'admin', password: PASSWORD });
  quinnId = desk.running.service.users.create(null, 'acme', { login: 'qa-lead', name: 'Quinn Adler', role: 'approver', password: PASSWORD, email: 'quinn@acme.example' }).id;
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await desk?.close();
  await receiver?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('Settings › Alarms in Chromium', () => {
  it('makes a rule with the API’s checks, sends its test notification to a real relay, and saves quiet hours and the digest', async () => {
    const context = await browser.newContext({ viewport: { width: 1366, height: 768 } });
    const page = await context.newPage();
    // The filter the service refuses answers 400, which Chromium logs.
    watchProblems(page, problems, /status of 400/);
    await page.goto(`${desk.url}/#key=${encodeURIComponent(desk.sessionKey!)}`);
    await signIn(page, 'alma', PASSWORD);
    await page.getByRole('tab', { name: 'Alarms' }).click();
    await waitText(page.getByTestId('alarms-empty'), 'No alarm rule is on yet, so reports with an alert raise no alarm: make one in Settings › Alarms.');

    await page.getByRole('tab', { name: 'Settings' }).click();
    const panel = page.getByTestId('alarms-settings');
    await waitText(panel.getByTestId('alarm-rules-empty'), 'No alarm rules yet');
    const form = panel.getByTestId('alarm-rule-form');
    await form.getByRole('button', { name: 'Add rule' }).click();
    await waitText(form.getByRole('alert'), 'Pick at least one person or give one address that is told first.');
    await form.locator('input[name=rule-first]').fill('qa@acme.example');
    await form.getByRole('button', { name: 'Add rule' }).click();
    await waitText(form.getByRole('alert'), 'Name the rule');
    await form.locator('input[name=rule-name]').fill('Critical air freight');
    await form.locator('input[name=rule-next]').fill('lead@acme.example');
    await form.getByRole('group', { name: 'People told next' }).getByLabel('Quinn Adler (qa-lead)').check();
    await form.getByRole('button', { name: 'Add rule' }).click();
    await waitText(form.getByRole('alert'), 'after how many minutes');
    await form.locator('input[name=rule-escalateAfterMinutes]').fill('120');
    // The filter's grammar is the service's to judge: its refusal shows in its words.
    await form.locator('input[name=rule-filter]').fill('flavour[eq]1');
    await form.getByRole('button', { name: 'Add rule' }).click();
    await waitText(form.getByRole('alert'), "unknown filter key 'flavour'");
    await form.locator('input[name=rule-filter]').fill('mode[eq]airFreight');
    await form.getByRole('button', { name: 'Add rule' }).click();
    const rule = panel.getByTestId('alarm-rule');
    await waitText(rule, 'Critical air freight');
    await waitText(rule, 'Critical, where mode[eq]airFreight. Tells qa@acme.example; after 120 min without an acknowledgement: Quinn Adler (qa-lead), lead@acme.example.');
    const [stored] = desk.running.service.alarms.rules(desk.running.service.apiKeys.authenticate(desk.sessionKey!));
    expect(stored).toMatchObject({ name: 'Critical air freight', minLevel: 2, filter: 'mode[eq]airFreight', steps: [{ users: [], emails: ['qa@acme.example'] }, { users: [quinnId], emails: ['lead@acme.example'] }], escalateAfterMinutes: 120, channels: ['email', 'desktop'] });

    await rule.getByRole('button', { name: 'Send a test notification' }).click();
    const [mail] = await receiver.received(1);
    expect(mail).toMatchObject({ to: ['qa@acme.example'], from: 'alarms@acme.example', subject: 'LabelDesk test e-mail' });
    await waitText(rule.getByTestId('alarm-rule-note'), 'Test notification: qa@acme.example: sent');

    const settings = panel.getByTestId('alarm-settings-form');
    await settings.locator('input[name=alarm-zone]').fill('Europe/Berlin');
    await settings.locator('input[name=quiet-from]').fill('22:00');
    await settings.getByRole('button', { name: 'Save quiet hours and digest' }).click();
    await waitText(settings.getByRole('alert'), 'Quiet hours need both their start and their end');
    await settings.locator('input[name=quiet-to]').fill('06:00');
    await settings.locator('input[name=digest-at]').fill('07:30');
    await settings.locator('input[name=digest-to]').fill('lead@acme.example');
    await settings.getByRole('button', { name: 'Save quiet hours and digest' }).click();
    await waitText(panel.getByTestId('alarm-settings-form'), 'Saved.');
    expect(desk.running.service.alarms.settingsOf('acme')).toMatchObject({ zone: 'Europe/Berlin', quietHours: { from: '22:00', to: '06:00' }, digest: { at: '07:30', to: ['lead@acme.example'] } });
    await panel.scrollIntoViewIfNeeded();
    await shot(page, 'alarm-rules-settings');

    await page.getByRole('tab', { name: 'Alarms' }).click();
    await waitText(page.getByTestId('alarms-empty'), 'An alarm is raised when a report’s alert rises to a rule’s level');
    expect(problems).toEqual([]);
    await context.close();
  });
});
