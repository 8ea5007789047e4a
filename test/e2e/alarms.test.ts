/**
 * End to end: alarms in real Chromium against the service as the desktop app runs it. A tap
 * raises an alarm; the header counts it, a notice names the report, the level and the excursion
 * and opens the report; the Alarms view lists it with who was told, and after the review's
 * acknowledgement shows it acknowledged and the count falls to none. Settings › E-mail for
 * alarms sets the relay and sends a test mail to a real smtp-server, showing its answer.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDesktopService, type DesktopService } from '../../host/desktop-service';
import { alarmRuleBodySchema } from '../../schema/alarms';
import { SMTP_CA_FILE_ENV } from '../../alarms/smtp-relay';
import { ALL, calmReport, ONE_WARM, readingsAfter } from '../alarms/alarm-fixture';
import { startSmtpReceiver } from '../alarms/smtp-receiver';
import { TEST_RELAY_CERT, TEST_RELAY_KEY } from '../alarms/tls-fixture';
import { launchChromium, prepare, shot, waitAttr, waitGone, waitText, watchProblems } from './browser';

let dir: string;
let desk: DesktopService;
let browser: Browser;
const problems: string[] = [];

beforeAll(async () => {
  const { uiDir, dbFile, ...prepared } = await prepare('e2e-alarms', { reports: 20, seed: 5 });
  dir = prepared.dir;
  desk = await startDesktopService({ dbFile, port: 0, companyId: 'acme', staticDir: uiDir });
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await desk?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('alarms in Chromium', () => {
  it('counts, announces and lists an alarm, opens its report, and shows it acknowledged', async () => {
    const { service } = desk.running;
    const tool = service.apiKeys.authenticate(service.apiKeys.create('acme', [...ALL, 'labelReports:create'], 'e2e tool').key);
    service.putReport(calmReport('alarm-r1', { labelReference: 'SHP-ALARM-1' }), { kind: 'import' });
    service.alarms.createRule(tool, 'acme', alarmRuleBodySchema.parse({ name: 'Any alert', minLevel: 1, steps: [{ emails: [] }], channels: ['desktop'] }));

    const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
    try {
      const page = await context.newPage();
      watchProblems(page, problems);
      await page.goto(`${desk.url}/#key=${encodeURIComponent(desk.sessionKey!)}`);
      const count = page.getByTestId('header-alarms');
      await waitAttr(count, 'title', '0 unacknowledged alarms');

      service.intake.tap(tool, 'alarm-r1', readingsAfter(4, ONE_WARM));
      await page.getByRole('tab', { name: 'Alarms' }).click();
      await waitAttr(count, 'title', '1 unacknowledged alarm');
      const notice = page.getByTestId('alarm-notices');
      await waitText(notice, 'Moderate alarm: SHP-ALARM-1');
      await waitText(notice, 'readings were out of limits for 10 min');
      const table = page.getByTestId('alarms-table');
      await waitText(table, 'SHP-ALARM-1');
      const row = table.locator('tbody tr').first();
      expect(await row.getAttribute('data-state')).toBe('open');
      await waitText(row, 'desktop the company’s desks');
      await shot(page, 'alarms-open');

      await notice.getByRole('button', { name: /Moderate alarm: SHP-ALARM-1/ }).click();
      await waitAttr(page.getByRole('tab', { name: 'Reports' }), 'aria-selected', 'true');
      await expect.poll(() => new URL(page.url()).searchParams.get('report')).toBe('alarm-r1');

      service.reviews.acknowledge(tool, 'alarm-r1', { note: 'pallet moved' });
      await page.getByRole('tab', { name: 'Alarms' }).click();
      await page.getByLabel('Alarms to show').selectOption('acknowledged');
      await waitText(page.getByTestId('alarms-table').locator('tbody tr').first(), 'Acknowledged by e2e tool');
      await waitAttr(count, 'title', '0 unacknowledged alarms');
      await page.getByRole('button', { name: 'Dismiss' }).click();
      await waitGone(page.getByTestId('alarm-notices'));
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('the SMTP relay in Settings', () => {
  it('sets the relay with a write-only password, sends a test mail that arrives, and shows the relay’s answer or refusal in words', async () => {
    const password = 'correct horse battery';
    const receiver = await startSmtpReceiver(0, {
      key: TEST_RELAY_KEY,
      cert: TEST_RELAY_CERT,
      disabledCommands: [],
      onAuth(auth, _session, callback) {
        if (auth.username === 'alarms' && auth.password === password) callback(null, { user: auth.username });
        else callback(new Error('Invalid username or password'));
      },
    });
    // The relay's self-signed certificate, trusted as a desk would trust it.
    const caDir = mkdtempSync(join(tmpdir(), 'labeldesk-e2e-relay-ca-'));
    writeFileSync(join(caDir, 'relay.pem'), TEST_RELAY_CERT);
    const before = process.env[SMTP_CA_FILE_ENV];
    process.env[SMTP_CA_FILE_ENV] = join(caDir, 'relay.pem');
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      const page = await context.newPage();
      // Until a relay is set the service answers its settings with 404, which Chromium logs.
      watchProblems(page, problems, /status of 404/);
      await page.goto(`${desk.url}/#key=${encodeURIComponent(desk.sessionKey!)}`);
      await page.getByRole('tab', { name: 'Settings' }).click();
      const panel = page.getByTestId('smtp-settings');
      await panel.getByRole('button', { name: 'Relay settings…' }).click();
      const form = panel.getByTestId('smtp-form');
      await waitText(panel, 'Save a relay first');

      await form.getByRole('button', { name: 'Save relay' }).click();
      await waitText(panel.getByRole('alert'), 'Name the relay’s host, e.g. smtp.example.com.');

      await form.getByLabel('Host', { exact: true }).fill('127.0.0.1');
      await form.getByLabel('Security').selectOption('starttls');
      await form.getByLabel('Port', { exact: true }).fill(String(receiver.port));
      await form.getByLabel('User (optional)').fill('alarms');
      await form.getByLabel('Password').fill(password);
      await form.getByLabel('From address').fill('alarms@acme.example');
      await form.getByRole('button', { name: 'Save relay' }).click();
      await waitText(panel.getByTestId('smtp-saved'), 'Saved.');
      await waitText(panel.getByTestId('smtp-password-state'), 'Password: kept.');
      expect(await form.getByLabel('Password').inputValue()).toBe('');
      expect(await form.getByLabel('Password').getAttribute('placeholder')).toBe('kept');
      expect(desk.running.service.alarms.smtpSettings(null)).toMatchObject({ host: '127.0.0.1', port: receiver.port, security: 'starttls', user: 'alarms', hasPassword: true });

      const test = panel.getByTestId('smtp-test-form');
      await test.getByLabel('Send a test mail to').fill('qa@acme.example');
      await test.getByRole('button', { name: 'Send test mail' }).click();
      const [mail] = await receiver.received(1);
      expect(mail).toMatchObject({ to: ['qa@acme.example'], from: 'alarms@acme.example', subject: 'LabelDesk test e-mail', secure: true, user: 'alarms' });
      await waitText(panel.getByTestId('smtp-test-answer'), 'Sent: The relay took the mail to qa@acme.example: 250 ');
      await shot(page, 'smtp-settings-sent');

      await form.getByLabel('Password').fill('not the password');
      await form.getByRole('button', { name: 'Save relay' }).click();
      await waitText(panel.getByTestId('smtp-saved'), 'Saved.');
      await test.getByRole('button', { name: 'Send test mail' }).click();
      await waitText(
        panel.getByTestId('smtp-test-answer'),
        `Not sent: The SMTP relay 127.0.0.1:${receiver.port} refused the login of 'alarms': 535 Invalid username or password.`,
      );
      expect(receiver.mails).toHaveLength(1);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
      await receiver.close();
      if (before === undefined) delete process.env[SMTP_CA_FILE_ENV];
      else process.env[SMTP_CA_FILE_ENV] = before;
      rmSync(caDir, { recursive: true, force: true });
    }
  });
});
