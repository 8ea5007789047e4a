/**
 * End to end: Settings › Webhooks in real Chromium at 1280×720, against the service as the
 * desktop app runs it (its session key may manage webhooks) and a real receiver on 127.0.0.1.
 * An endpoint is added, its secret seen once and checked against the receiver's signature, a
 * test event followed into the deliveries log, the secret rotated, the endpoint disabled and
 * deleted; a key without the permission is told so and asks nothing.
 */
import { rmSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDesktopService, type DesktopService } from '../../host/desktop-service';
import type { Webhook } from '../../schema/webhooks';
import { Receiver, type Received } from '../support/webhook-receiver';
import { launchChromium, prepare, shot, waitGone, waitText, watchProblems } from './browser';

let dir: string;
let desk: DesktopService;
let receiver: Receiver;
let browser: Browser;
/** A key of the same company that may do everything but manage webhooks. */
let keysOnlyKey: string;
const problems: string[] = [];

beforeAll(async () => {
  const { uiDir, dbFile, summary, ...prepared } = await prepare('e2e-webhooks', { reports: 40, seed: 3 });
  dir = prepared.dir;
  const key = summary.keys.find((k) => k.companyId === 'acme' && k.permissions.includes('apiKeys:manage') && !k.permissions.includes('webhooks:manage'));
  if (!key) throw new Error('the demo data has no acme key without webhooks:manage');
  keysOnlyKey = key.key;
  desk = await startDesktopService({ dbFile, port: 0, companyId: 'acme', staticDir: uiDir });
  receiver = await Receiver.start();
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await desk?.close();
  await receiver?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** `asked` collects the page's requests to /v2/webhooks from the first one on. */
async function openSettings(key: string, asked: string[] = []): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  // The copy buttons write to the clipboard, which the test reads back.
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: desk.url });
  const page = await context.newPage();
  watchProblems(page, problems);
  page.on('request', (r) => {
    if (r.url().includes('/v2/webhooks')) asked.push(r.url());
  });
  await page.goto(`${desk.url}/?view=settings#key=${encodeURIComponent(key)}`);
  await page.getByTestId('webhooks').waitFor();
  return { context, page };
}

async function listed(): Promise<Webhook[]> {
  const res = await fetch(`${desk.url}/v2/webhooks`, { headers: { 'x-api-key': desk.sessionKey! } });
  expect(res.status).toBe(200);
  return (await res.json()) as Webhook[];
}

function verify(secret: string, request: Received): unknown {
  const headers = Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, String(v)]));
  return new StandardWebhook(secret).verify(request.body, headers);
}

/** Focus moves in an effect after the render that shows the element: waited for like the element. */
async function waitFocus(page: Page, expected: string) {
  await expect
    .poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.textContent ?? ''))
    .toBe(expected);
}

describe('Settings › Webhooks in Chromium', () => {
  it('adds an endpoint, tests, redelivers, rotates, disables and deletes it', async () => {
    const { context, page } = await openSettings(desk.sessionKey!);
    try {
      const section = page.getByTestId('webhooks');
      await waitText(section, 'No endpoints yet.');

      // Add: the form opens with the address field focused.
      await section.getByRole('button', { name: 'Add endpoint…' }).click();
      const form = page.getByTestId('add-webhook-form');
      await page.keyboard.type(receiver.url('/labels'));
      await form.getByLabel('Description').fill('Dock 3 warehouse system');
      await form.getByRole('checkbox', { name: /Label tapped/ }).uncheck();
      await form.getByRole('button', { name: 'Add endpoint', exact: true }).click();

      // The secret, once, with the focus on it and a working copy button.
      const created = page.getByTestId('new-webhook');
      await waitText(created, 'it is shown only once and cannot be seen again');
      const secret = (await page.getByTestId('new-webhook-value').textContent()) ?? '';
      expect(secret).toMatch(/^whsec_/);
      await waitFocus(page, 'new-webhook');
      await created.getByRole('button', { name: 'Copy' }).click();
      await waitText(created, 'Copied');
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
      await created.getByRole('button', { name: 'I have copied it' }).click();
      await waitGone(created);
      expect(await page.content()).not.toContain(secret);

      const [webhook] = await listed();
      expect(webhook).toMatchObject({ url: receiver.url('/labels'), description: 'Dock 3 warehouse system', events: ['labelReport.activated'], enabled: true });
      const entry = page.getByTestId(`webhook-${webhook.id}`);
      await waitText(entry.getByTestId('webhook-state'), 'Enabled');
      await waitText(entry, 'Label activated');
      expect(await entry.textContent()).not.toContain('Label tapped');

      // A test event reaches the receiver signed with the secret shown, and the log shows its answer.
      await entry.getByRole('button', { name: 'Send test event' }).click();
      const [request] = await receiver.waitFor(1);
      expect(verify(secret, request)).toMatchObject({ type: 'webhook.test', data: { webhookId: webhook.id } });
      const log = entry.getByTestId('delivery-log');
      await waitText(log.getByTestId('delivery-response'), '204');
      await waitText(log.getByTestId('delivery'), 'Delivered');
      await waitText(log.getByTestId('delivery'), 'Test event');
      await waitText(log, 'Page 1 of 1 (1 entry)');
      await log.scrollIntoViewIfNeeded();
      await shot(page, 'settings-webhooks');
      // Nothing is cut off or needs sideways scrolling at 1280×720.
      expect(await page.locator('.settings').evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);

      // Redeliver: the same message again, under the same webhook-id.
      await log.getByRole('button', { name: /^Redeliver/ }).click();
      const [, again] = await receiver.waitFor(2);
      expect(again.headers['webhook-id']).toBe(request.headers['webhook-id']);
      await waitText(log, 'Page 1 of 1 (2 entries)');

      // Rotate, after a warning; the new secret shown once signs the next message.
      await entry.getByRole('button', { name: 'Rotate secret…' }).click();
      await waitText(entry, 'The old secret keeps working for 24 hours');
      await entry.getByRole('button', { name: 'Yes, make a new secret' }).click();
      const rotated = (await entry.getByTestId('new-webhook-secret-value').textContent()) ?? '';
      expect(rotated).toMatch(/^whsec_/);
      expect(rotated).not.toBe(secret);
      await entry.getByTestId('new-webhook-secret').getByRole('button', { name: 'I have copied it' }).click();
      await waitGone(entry.getByTestId('new-webhook-secret'));
      await entry.getByRole('button', { name: 'Send test event' }).click();
      const [, , third] = await receiver.waitFor(3);
      expect(verify(rotated, third)).toMatchObject({ type: 'webhook.test' });
      await waitText(log, 'Page 1 of 1 (3 entries)');

      // Disable: no test event or redelivery is offered then.
      await entry.getByRole('button', { name: 'Disable' }).click();
      await waitText(entry.getByTestId('webhook-state'), 'Disabled');
      await waitGone(entry.getByRole('button', { name: 'Send test event' }));
      await waitGone(entry.getByRole('button', { name: /^Redeliver/ }));
      expect((await listed())[0].enabled).toBe(false);

      // Delete asks first; Escape puts the question away and gives the focus back.
      await entry.getByRole('button', { name: 'Delete…' }).click();
      await waitText(entry, 'Delete this endpoint?');
      await waitFocus(page, 'Cancel');
      await page.keyboard.press('Escape');
      await waitGone(entry.getByRole('button', { name: 'Yes, delete' }));
      await waitFocus(page, 'Delete…');
      await page.keyboard.press('Enter');
      await entry.getByRole('button', { name: 'Yes, delete' }).click();
      await waitGone(entry);
      await waitText(page.getByTestId('webhooks-notice'), 'deleted');
      expect(await listed()).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('tells a key that may not manage webhooks so, in words, and asks the service nothing', async () => {
    const asked: string[] = [];
    const { context, page } = await openSettings(keysOnlyKey, asked);
    try {
      const section = page.getByTestId('webhooks');
      await waitText(section.getByTestId('webhooks-locked'), 'This key cannot manage webhooks');
      // The keys panel is still there: the session is this key's.
      await page.getByTestId('create-key-form').waitFor();
      expect(await section.getByRole('button').count()).toBe(0);
      expect(await section.textContent()).not.toContain('webhooks:manage');
      await section.scrollIntoViewIfNeeded();
      await shot(page, 'settings-webhooks-locked');
      expect(asked).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('ran without console errors or CSP violations', () => {
    expect(problems).toEqual([]);
  });
});
