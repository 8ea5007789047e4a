/**
 * The Insights screen in Chromium at the size of a large site, timed as a person meets it: from
 * the event of the person's action (the click on the Insights tab after the browser's filters
 * changed, or a change of "Split by" or "Per") to the frame after every chart is drawn for the
 * new question. Beside each figure: how many /local/insights requests the screen made and the
 * slowest of them (Resource Timing), so the service's share shows.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Page } from 'playwright-core';
import { build } from 'vite';
import { startService } from '../host/start-service';
import { SITE } from './site-database';

const REPO = fileURLToPath(new URL('../', import.meta.url));
const WAIT_MS = 120_000;
/** The issue's target: charts shown within this after a filter change, at 100 000 reports. */
export const SCREEN_TARGET_MS = 500;
/** Charts the screen draws: time, split, three distributions, alert levels, decisions. */
const CHARTS = 7;

export interface ScreenSample {
  ms: number;
  requests: number;
  slowest: number;
}

/** The browser's filters before the Insights tab is clicked, as the address says them. */
const FILTERS: [string, string][] = [
  ['no filter (archived hidden)', ''],
  ['status active', 'status=active'],
  ['air freight, alert moderate or worse', 'mode=airFreight&alert=moderateOrWorse'],
  ['custom field pallets ≥ 20', `cf=${encodeURIComponent('pallets~gte~20')}`],
  ['awaiting review', 'review=awaitingReview'],
];

/**
 * Arms a watch for the next of `events` (capture phase, on window), then resolves at the frame
 * after the Insights screen shows every chart ready, having been not ready since the event.
 */
const PROBE = `(() => {
  window.__insightsProbe = {
    arm(events) {
      let at = null;
      const note = (e) => {
        if (at === null) at = e.timeStamp;
        for (const type of events) window.removeEventListener(type, note, true);
      };
      for (const type of events) window.addEventListener(type, note, true);
      const ready = () => {
        const screen = document.querySelector('[data-testid=insights]');
        return screen?.getAttribute('data-ready') === 'true' && screen.querySelectorAll('[data-chart] canvas').length >= ${CHARTS};
      };
      this.pending = new Promise((resolve) => {
        let changed = false;
        let done = false;
        const check = () => {
          if (done || at === null) return;
          if (!ready()) { changed = true; return; }
          if (!changed) return;
          done = true;
          observer.disconnect();
          requestAnimationFrame(() => {
            const end = performance.now();
            const requests = performance.getEntriesByType('resource').filter((e) => e.name.includes('/local/insights/') && e.startTime >= at - 1 && e.startTime <= end);
            resolve({ ms: end - at, requests: requests.length, slowest: Math.max(0, ...requests.map((e) => e.responseEnd - e.startTime)) });
          });
        };
        const observer = new MutationObserver(check);
        observer.observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-ready'] });
      });
    },
    result() { return this.pending; },
  };
})();`;

async function timed(page: Page, events: string[], act: () => Promise<unknown>): Promise<ScreenSample> {
  await page.evaluate((events) => (window as unknown as { __insightsProbe: { arm(e: string[]): void } }).__insightsProbe.arm(events), events);
  await act();
  return page.evaluate(() => (window as unknown as { __insightsProbe: { result(): Promise<ScreenSample> } }).__insightsProbe.result());
}

async function insightsReady(page: Page): Promise<void> {
  await page.waitForFunction(
    (charts) => {
      const screen = document.querySelector('[data-testid=insights]');
      return screen?.getAttribute('data-ready') === 'true' && screen.querySelectorAll('[data-chart] canvas').length >= charts;
    },
    CHARTS,
    { timeout: WAIT_MS },
  );
}

/**
 * Builds the renderer, serves it with the site's database and times the screen `reps` times per
 * action; `add` receives each sample under its action's name.
 */
export async function timeInsightsScreen(dbFile: string, reps: number, add: (name: string, sample: ScreenSample) => void): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'labeldesk-bench-insights-'));
  const uiDir = join(dir, 'ui');
  await build({ configFile: join(REPO, 'renderer/vite.config.ts'), logLevel: 'error', build: { outDir: uiDir, emptyOutDir: true } });
  const running = await startService({ dbFile, port: 0, staticDir: uiDir });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  try {
    for (let rep = 0; rep < reps; rep++) {
      const context = await browser.newContext({ viewport: { width: 1920, height: 1080 } });
      await context.addInitScript(PROBE);
      const page = await context.newPage();
      page.setDefaultTimeout(WAIT_MS);
      await page.evaluate(() => performance.setResourceTimingBufferSize(100_000)).catch(() => undefined);
      try {
        for (const [name, search] of FILTERS) {
          // The browser with the filter in force (untimed), then the Insights tab.
          await page.goto(`${running.url}/${search ? `?${search}` : ''}#key=${encodeURIComponent(SITE.key)}`);
          await page.getByTestId('report-count').waitFor({ timeout: WAIT_MS });
          add(`Insights tab after a filter change: ${name}`, await timed(page, ['click'], () => page.getByRole('tab', { name: 'Insights' }).click()));
        }
        await insightsReady(page);
        add('split by owner company (select)', await timed(page, ['change'], () => page.locator('select[name=by]').selectOption('company.id')));
        add('per week (select)', await timed(page, ['change'], () => page.locator('select[name=period]').selectOption('week')));
        add('by start of the recording (select)', await timed(page, ['change'], () => page.locator('select[name=timeField]').selectOption('startTime')));
      } finally {
        await context.close();
      }
    }
  } finally {
    await browser.close();
    await running.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
