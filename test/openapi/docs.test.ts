/**
 * GET /docs in real Chromium: the reference of the service's own OpenAPI document renders from
 * files the service serves, without an API key and without reaching anything outside the
 * service, under the page's Content-Security-Policy.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DOCS_CONTENT_SECURITY_POLICY } from '../../http/docs';
import { launchChromium, shot, watchProblems } from '../e2e/browser';
import { exchange, expectErrorAnswer } from '../support/raw-http';
import { makeReport, startTestService, type TestService } from '../support/service-fixture';

let svc: TestService;
let browser: Browser;

beforeAll(async () => {
  svc = await startTestService([makeReport('r1')]);
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await svc?.stop();
});

describe('/docs', () => {
  test('is a page under its own policy, with the renderer served from this machine, and needs no key', async () => {
    const page = await fetch(`${svc.url}/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toBe(DOCS_CONTENT_SECURITY_POLICY);
    const html = await page.text();
    const scripts = [...html.matchAll(/<script src="([^"]+)"><\/script>/g)].map((m) => m[1]);
    expect(scripts).toEqual(['/docs/redoc.standalone.js', '/docs/start.js']);
    for (const src of scripts) {
      const script = await fetch(svc.url + src);
      expect(script.status, src).toBe(200);
      expect(script.headers.get('content-type'), src).toMatch(/^text\/javascript/);
      expect((await script.text()).length, src).toBeGreaterThan(0);
    }
  });

  test('stays behind the loopback Host guard', async () => {
    const answer = await exchange(svc.port, 'GET /docs HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n');
    expectErrorAnswer(answer, 403, 'HOST_FORBIDDEN');
  });

  test('renders the reference in Chromium, reaching nothing outside the service', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
    const outside: string[] = [];
    // Anything not the service (or the worker Redoc builds from a blob) would be the network.
    await context.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith(`${svc.url}/`) || url.startsWith('blob:')) return route.continue();
      outside.push(url);
      return route.abort();
    });
    const problems: string[] = [];
    const page = await context.newPage();
    // Redoc's menu shows Redocly's logo from their CDN; the policy blocks it and Redoc hides the image.
    watchProblems(page, problems, /Loading the image 'https:\/\/cdn\.redoc\.ly\/redoc\/logo-mini\.svg' violates the following Content Security Policy/);
    const asked: string[] = [];
    page.on('request', (r) => asked.push(`${r.method()} ${r.url()} ${r.headers()['x-api-key'] === undefined ? 'no key' : 'key'}`));

    await page.goto(`${svc.url}/docs`);
    const operation = page.locator('h2', { hasText: 'One page of the label reports the key’s company can see' });
    await expect.poll(() => operation.count(), { timeout: 60_000 }).toBe(1);
    await expect.poll(() => page.locator('h1', { hasText: 'LabelDesk' }).count()).toBe(1);
    // The tags group the menu.
    for (const tag of ['Label reports', 'Review', 'Webhooks', 'Sync', 'Keys', 'Local']) {
      expect(await page.getByRole('menuitem', { name: tag, exact: true }).count(), tag).toBeGreaterThan(0);
    }
    await shot(page, 'openapi-docs');

    expect(outside).toEqual([]);
    expect(asked).toContain(`GET ${svc.url}/openapi.json no key`);
    expect(problems).toEqual([]);
    await context.close();
  });
});
