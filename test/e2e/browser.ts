/**
 * What the end-to-end tests share: the renderer built once per run (so a test never serves a
 * stale dist/ and never races other builds) beside a database of demo data, Chromium, a watch on
 * the page for console errors and CSP violations, and waiting for what the page shows.
 *
 * Screenshots go to test-artifacts/screenshots/ (gitignored).
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import type { Browser, Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import type { DemoOptions } from '../../demo';
import { startService, type RunningService } from '../../host/start-service';
import { PERMISSIONS } from '../../schema/report';
import type { UserRole } from '../../model/person';
import type { DemoSummary } from '../../service/demo-seeder';
import { findReportWithExcursions, type ReportWithExcursions } from '../support/report-fixture';
import { builtUi, demoDatabase } from '../support/run-cache';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const SHOTS = join(REPO, 'test-artifacts', 'screenshots');

export interface Prepared {
  /** The temp folder holding the database; the test removes it. */
  dir: string;
  /** The built renderer, shared by the run's files: only read it. */
  uiDir: string;
  dbFile: string;
  /** The demo data written, with its keys. */
  summary: DemoSummary;
}

/**
 * A temp folder with a database of demo data for a service to open, and the built renderer.
 * `define` sets the build's compile-time constants (a test may shrink a limit to reach it cheaply).
 * Both are made once per run (test/support/run-cache.ts); the database is this file's own copy.
 */
export async function prepare(name: string, demo: DemoOptions, define?: Record<string, string>): Promise<Prepared> {
  const dir = mkdtempSync(join(tmpdir(), `labeldesk-${name}-`));
  const uiDir = await builtUi(define);
  const dbFile = join(dir, 'demo.sqlite');
  return { dir, uiDir, dbFile, summary: await demoDatabase(dbFile, demo) };
}

/**
 * The Chromium the tests drive: CHROMIUM_PATH when set, else Debian's headless build of Chromium
 * (`chromium-headless-shell`, the same engine and version as the `chromium` package without the
 * desktop browser around it), which takes about 40 % less CPU per test than the full browser run
 * headless; the full browser where the headless build is not installed.
 */
/** The desk sizes staff have. */
export const DESK_SIZES = [
  { width: 1280, height: 720 },
  { width: 1366, height: 768 },
  { width: 1920, height: 1080 },
] as const;

export interface Desk {
  service: RunningService;
  /** What the desktop's own key holds: every permission of company acme. */
  deskKey: string;
  /** An acme report with excursions, to open. */
  target: ReportWithExcursions;
  browser: Browser;
  /** The app's address with the desktop's key, opening `reportId` when given. */
  appUrl(reportId?: string): string;
  close(): Promise<void>;
}

/** The service on loopback over 40 demo reports (seed 3), the desktop's key and Chromium: what most screens' tests start from. */
export async function openDesk(name: string): Promise<Desk> {
  const prepared = await prepare(name, { reports: 40, seed: 3 });
  const target = findReportWithExcursions(prepared.dbFile, 'acme');
  const service = await startService({ dbFile: prepared.dbFile, port: 0, staticDir: prepared.uiDir });
  const deskKey = service.service.apiKeys.createSessionKey('acme', PERMISSIONS);
  const browser = await launchChromium();
  return {
    service,
    deskKey,
    target,
    browser,
    appUrl: (reportId) => `${service.url}/${reportId ? `?report=${encodeURIComponent(reportId)}` : ''}#key=${encodeURIComponent(deskKey)}`,
    async close() {
      await browser.close();
      await service.close();
      rmSync(prepared.dir, { recursive: true, force: true });
    },
  };
}

export const TEST_CHROMIUM = process.env.CHROMIUM_PATH ?? ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].find((path) => existsSync(path)) ?? '/usr/bin/chromium';

/** This worker's Chromium, launched by the first file that asks and shared by the files after it. */
let shared: Promise<Browser> | undefined;

function launch(): Promise<Browser> {
  mkdirSync(SHOTS, { recursive: true });
  return chromium.launch({
    executablePath: TEST_CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}

/**
 * Chromium for one test file. Launching it costs more than most tests, so the worker's files
 * share one, each in contexts of its own (no cookie, storage or cache crosses from one context to
 * another). The browser given closes as the file expects, but closing ends only the contexts
 * still open; Chromium itself ends with the worker (playwright ends it when the process exits).
 */
export async function launchChromium(): Promise<Browser> {
  let browser = shared ? await shared.catch(() => undefined) : undefined;
  if (!browser?.isConnected()) {
    shared = launch();
    browser = await shared;
    const contextsOnly = async () => {
      await Promise.all(browser!.contexts().map((context) => context.close()));
    };
    browser.close = contextsOnly;
  }
  return browser;
}

/**
 * Collects the page's console errors and uncaught errors into `problems`; the app must produce
 * none. `expected` names console errors a test causes on purpose (Chromium logs refused requests).
 */
export function watchProblems(page: Page, problems: string[], expected?: RegExp): void {
  page.on('console', (m) => {
    if (m.type() === 'error' && !expected?.test(m.text())) problems.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
}

/** Playwright's web-first assertions are not vitest's; these poll the same way. */
export async function waitText(locator: Locator, expected: string) {
  await expect.poll(async () => ((await locator.count()) > 0 ? locator.first().textContent() : '')).toContain(expected);
}
export async function waitAttr(locator: Locator, name: string, expected: string) {
  await expect.poll(() => locator.getAttribute(name)).toBe(expected);
}
export async function waitGone(locator: Locator) {
  await expect.poll(() => locator.count()).toBe(0);
}

/** Resolves once the page has painted a frame after what it did so far (a chart drawn on its canvas, say). */
export async function painted(page: Page): Promise<void> {
  await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));
}

/**
 * A person of `companyId` who signs in with `password` at once: the company's rule that a
 * password chosen by someone else is changed at the first sign-in is turned off first.
 */
export function addPerson(service: RunningService['service'], companyId: string, person: { login: string; name: string; role: UserRole; password: string }): void {
  service.users.saveSettings(null, companyId, { changeAtFirstSignIn: false });
  service.users.create(null, companyId, person);
}

/** Signs a person in on the sign-in screen the page shows. */
export async function signIn(page: Page, login: string, password: string): Promise<void> {
  const form = page.getByTestId('sign-in-form');
  await form.locator('input[name=login]').fill(login);
  await form.locator('input[name=password]').fill(password);
  await form.getByRole('button', { name: 'Sign in' }).click();
}

/** The words an element shows: its text without the parts kept for assistive technology only (`.visually-hidden`). */
export function shownText(locator: Locator): Promise<string> {
  return locator.evaluate((el) => {
    const copy = el.cloneNode(true) as HTMLElement;
    for (const hidden of copy.querySelectorAll('.visually-hidden')) hidden.remove();
    return (copy.textContent ?? '').replace(/\s+/g, ' ').trim();
  });
}

/**
 * A picture of the page in test-artifacts/screenshots, when SCREENSHOTS=1 asks for them: a
 * picture costs the browser a render and a PNG encoding, and a run that only checks needs none.
 */
export async function shot(page: Page, name: string) {
  if (process.env.SCREENSHOTS === '1') await page.screenshot({ path: join(SHOTS, `${name}.png`) });
}

/** Confirms a signed verdict change the person at the page may sign at once: reason, then password. */
export async function signChange(detail: Locator, reason: string, password: string): Promise<void> {
  const dialog = detail.getByTestId('change-reason');
  await waitText(dialog.getByTestId('change-signature'), 'needs a signature');
  await dialog.locator('textarea[name=changeReason]').fill(reason);
  await dialog.locator('input[name=change-signature-password]').fill(password);
  await dialog.getByRole('button', { name: 'Sign and make the change' }).click();
  await expect.poll(() => dialog.count()).toBe(0);
}

/** The confirmation a verdict change waits in: it tells what the alert does, and takes the reason. */
export async function confirmChange(detail: Locator, reason: string): Promise<void> {
  const dialog = detail.getByTestId('change-reason');
  await waitText(dialog.getByTestId('change-effect'), 'The alert');
  await dialog.locator('textarea[name=changeReason]').fill(reason);
  await dialog.getByRole('button', { name: 'Confirm change' }).click();
  await expect.poll(() => dialog.count()).toBe(0);
}
