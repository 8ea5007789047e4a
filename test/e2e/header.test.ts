/**
 * The header on the desk screens staff have (1280×720, 1366×768, 1920×1080) in real Chromium,
 * with the worst it has to carry: a person with a long name signed in, sync set up against a
 * remote that refuses every connection (so the indicator holds a state, a count and an error).
 * It stays one line; the sync state is never cut; names that do not fit are cut with an
 * ellipsis and are whole in their tooltip; from 1600 px the sync error is shown (whole in its tooltip); axe finds
 * nothing serious in it (the zone selector and the alarm count were white on white).
 */
import { rmSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDesktopService, type DesktopService } from '../../host/desktop-service';
import { FaultProxy } from '../support/fault-proxy';
import { seriousViolations } from './axe';
import { addPerson, DESK_SIZES, launchChromium, prepare, shot, shownText, signIn, waitAttr, waitText, watchProblems } from './browser';

const PASSWORD = 'correct horse battery';
const NAME = 'Katharina Schneider-Ruppert';

let dir: string;
let desk: DesktopService;
let remote: FaultProxy;
let browser: Browser;
const problems: string[] = [];

beforeAll(async () => {
  const prepared = await prepare('header', { reports: 40, seed: 3 });
  dir = prepared.dir;
  desk = await startDesktopService({ dbFile: prepared.dbFile, port: 0, companyId: 'acme', staticDir: prepared.uiDir });
  addPerson(desk.running.service, 'acme', { login: 'kschneider', name: NAME, role: 'admin', password: PASSWORD });
  // A remote that refuses every connection: sync is offline with an error to show.
  remote = await FaultProxy.start('http://127.0.0.1:9');
  await remote.offline('refuse');
  const res = await fetch(`${desk.url}/local/sync/settings`, {
    method: 'PUT',
    headers: { 'x-api-key': desk.sessionKey!, 'content-type': 'application/json' },
    body: JSON.stringify({ remoteUrl: remote.url, remoteKey: 'ldk_remote-key-that-is-never-reached', companyId: 'acme' }),
  });
  expect(res.status).toBe(200);
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await desk?.close();
  await remote?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function signedIn(size: { width: number; height: number }): Promise<Page> {
  const context = await browser.newContext({ viewport: size });
  const page = await context.newPage();
  watchProblems(page, problems);
  await page.goto(`${desk.url}/#key=${encodeURIComponent(desk.sessionKey!)}`);
  await signIn(page, 'kschneider', PASSWORD);
  await page.locator('.rows .row[data-report-id]').first().waitFor();
  await waitAttr(page.getByTestId('sync-indicator'), 'data-state', 'offline');
  await waitText(page.getByTestId('sync-error'), 'Cannot reach');
  return page;
}

/** The header's parts as laid out: their boxes, and whether their text is cut. */
function layout(page: Page) {
  return page.evaluate(() => {
    const header = document.querySelector<HTMLElement>('.app-header')!;
    const cut = (el: Element | null) => (el ? el.scrollWidth > el.clientWidth + 1 : false);
    const box = (el: Element | null) => (el ? el.getBoundingClientRect().toJSON() : null) as DOMRect | null;
    const at = (testid: string) => document.querySelector(`[data-testid=${testid}]`);
    return {
      header: { height: header.getBoundingClientRect().height, scrolls: header.scrollWidth > header.clientWidth, width: window.innerWidth },
      parts: [...header.children].map((child) => ({ name: child.className, box: box(child)! })),
      summary: { box: box(at('sync-summary')), indicator: box(at('sync-indicator')) },
      error: { shown: (at('sync-error') as HTMLElement | null)?.offsetWidth ?? 0, cut: cut(at('sync-error')) },
      names: [at('header-company'), document.querySelector('.app-header__person-name')].map((el) => ({
        text: el?.textContent ?? '',
        title: el?.getAttribute('title') ?? '',
        cut: cut(el),
        lines: el ? Math.round(el.getBoundingClientRect().height / parseFloat(getComputedStyle(el).lineHeight)) : 0,
      })),
    };
  });
}

describe('the header at the desk sizes', () => {
  for (const size of DESK_SIZES) {
    it(`is one line at ${size.width}×${size.height}: the sync state whole, names cut only with their tooltip`, async () => {
      const page = await signedIn(size);
      try {
        const seen = await layout(page);
        // One line: no part drops below another, none leaves the window, nothing scrolls.
        expect(seen.header.scrolls).toBe(false);
        expect(seen.header.height).toBeLessThanOrEqual(56);
        for (const part of seen.parts) {
          expect(part.box.right, part.name).toBeLessThanOrEqual(seen.header.width);
          expect(part.box.height, part.name).toBeLessThanOrEqual(48);
        }
        // The sync state is never cut: its words end inside the indicator.
        expect(seen.summary.box!.right).toBeLessThanOrEqual(seen.summary.indicator!.right);
        for (const name of seen.names) {
          expect(name.lines, name.text).toBe(1);
          if (name.cut) expect(name.title).toContain(name.text);
        }
        expect(seen.names[1].title).toContain(`${NAME} (kschneider)`);
        // The error names the remote's address, so it may be long: from 1600 px it is shown, cut
        // after the names are whole, and its tooltip has it whole; below, only the tooltip has it.
        const error = await page.getByTestId('sync-error').evaluate((el) => ({ text: el.textContent, title: el.getAttribute('title') }));
        expect(error.title).toBe(error.text);
        if (size.width >= 1600) {
          expect(seen.error.shown).toBeGreaterThan(300);
          for (const name of seen.names) expect(name.cut, JSON.stringify(name)).toBe(false);
        } else {
          expect(seen.error.shown).toBe(0);
          expect(await page.getByTestId('sync-indicator').getAttribute('title')).toContain(error.text);
        }
        await shot(page, `header-${size.width}`);
        expect(await seriousViolations(page, '.app-header')).toEqual([]);
      } finally {
        await page.context().close();
      }
    });
  }

  it('names the alarm count in words that start with what is seen', async () => {
    const page = await signedIn(DESK_SIZES[0]);
    try {
      const alarms = page.getByTestId('header-alarms');
      const seen = await shownText(alarms);
      const spoken = await alarms.evaluate((el) => el.textContent!.replace(/\s+/g, ' ').trim());
      expect(seen).toMatch(/^Alarms \d+$/);
      expect(spoken).toBe(`${seen} unacknowledged`);
      expect(await alarms.getAttribute('aria-label')).toBeNull();
      // The zone selector reads dark on white, as every control of the page.
      const colours = await page.getByLabel('Time zone of every time shown').evaluate((el) => [getComputedStyle(el).color, getComputedStyle(el).backgroundColor]);
      expect(colours).toEqual(['rgb(17, 17, 17)', 'rgb(255, 255, 255)']);
    } finally {
      await page.context().close();
    }
  });

  it('says in Settings who is signed in, not where the key came from', async () => {
    const page = await signedIn(DESK_SIZES[0]);
    try {
      await page.getByRole('tab', { name: 'Settings' }).click();
      await waitText(page.getByTestId('session-person'), `${NAME} (kschneider), admin`);
      expect(await page.getByTestId('session-company').textContent()).not.toContain('key from');
      expect(problems).toEqual([]);
    } finally {
      await page.context().close();
    }
  });
});
