/**
 * The app at the size of a large site, timed as a person meets it: the 100 000-report database
 * made by `labeldesk import` (bench/site-database.ts), the real `labeldesk serve` with the built
 * UI, and Chromium at 1920×1080 signed in with the site's key. Each figure runs from the person's
 * action (the event the page receives: a change, a click, Enter, the last scroll) to the frame
 * after the rows it asked for are in the table, checked against the service's own answer for that
 * question; no figure waits for time to pass. Timed: the first rows after start; each filter the
 * filter bar offers (status, alert, flag, archived, a search, a custom field, a date range); each
 * sort the headers offer; pages 500 and 900 through "go to row"; 20 scrollbar jumps 150 ms apart
 * then the rows where the last one lands; a search typed right after such jumps. Beside each
 * figure: the slowest list request the page made for it (Resource Timing), so the service's share
 * shows, and the target.
 *
 *   npm run bench -- app                   # BENCH_APP_REPS=5 repetitions, BENCH_APP_SIZE=100000 reports
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { build } from 'vite';
import { COLUMN_INFO, DEFAULT_COLUMNS } from '../renderer/lib/columns';
import { defaultFilters, defaultQuery, toApiParams, toggleSort, type ListFilters, type ListQuery, type SortState } from '../renderer/lib/list-query';
import { offsetAt, scrollScale } from '../renderer/lib/scaled-scroll';
import type { MinimalLabelReport, Page as ApiPage } from '../schema/report';
import { report } from './baseline';
import { fmt, SITE, siteCreated, siteDatabase } from './site-database';
import { median, percentile } from './stats';

const REPS = Number(process.env.BENCH_APP_REPS ?? 5);
const SIZE = Number(process.env.BENCH_APP_SIZE ?? 100_000);
const ROW = 44;
const PAGE_SIZE = 100;
const JUMP_GAP_MS = 150;
const WAIT_MS = 120_000;
const REPO = fileURLToPath(new URL('../', import.meta.url));
const log = (line: string) => console.log(`app: ${line}`);

/** Targets (ms) from the listing work: a filter or sort change, and the rows after scrollbar jumps. */
const CHANGE_TARGET = 150;
const JUMPS_TARGET = 300;

interface Sample {
  ms: number;
  /** The slowest list request the page made between the action and the rows, ms; 0 when none. */
  slowestList: number;
  lists: number;
  /** From the action to the first list request leaving, and from the last answer to the rows on screen, ms. */
  beforeRequest: number;
  afterAnswer: number;
}

class Timings {
  readonly rows = new Map<string, { target: number | null; samples: Sample[] }>();
  add(name: string, target: number | null, sample: Sample) {
    log(`  ${name}: ${sample.ms.toFixed(0)} ms (${sample.lists} list requests, the slowest ${sample.slowestList.toFixed(0)} ms)`);
    if (!this.rows.has(name)) this.rows.set(name, { target, samples: [] });
    this.rows.get(name)!.samples.push(sample);
  }
}

export async function run(): Promise<void> {
  const loadBefore = loadavg();
  const db = await siteDatabase(SIZE, log);
  log(`database: ${db.file} (${fmt(db.reports)} reports, made by labeldesk import)`);
  await build({ configFile: `${REPO}renderer/vite.config.ts`, logLevel: 'error' });
  const served = await startServe(db.file);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  const timings = new Timings();
  try {
    const service = new ServiceAnswers(served.url);
    for (let rep = 0; rep < REPS; rep++) {
      log(`repetition ${rep + 1} of ${REPS}`);
      await repetition(browser, served.url, service, timings);
    }
  } finally {
    await browser.close();
    served.child.kill('SIGTERM');
  }
  const loadAfter = loadavg();
  console.log('');
  for (const [name, { target, samples }] of timings.rows) {
    const ms = samples.map((s) => s.ms);
    const row = `app: ${fmt(SIZE)} reports, 1920×1080, ${name}`;
    const detail =
      `slowest list request p50 ${median(samples.map((s) => s.slowestList)).toFixed(0)} ms, ${median(samples.map((s) => s.lists))} list requests, ` +
      `action → request p50 ${median(samples.map((s) => s.beforeRequest)).toFixed(0)} ms, answer → rows p50 ${median(samples.map((s) => s.afterAnswer)).toFixed(0)} ms, n ${samples.length}`;
    report({ name: `${row}, p50`, value: median(ms), unit: 'ms', better: 'lower', ...(target !== null && { target }), detail });
    report({ name: `${row}, p95`, value: percentile(ms, 95), unit: 'ms', better: 'lower' }, '  ');
  }
  console.log('');
  log(`load average (1, 5, 15 min): before ${loadBefore.map((l) => l.toFixed(2)).join(' ')}, after ${loadAfter.map((l) => l.toFixed(2)).join(' ')}`);
}

/** One pass over every action, in a fresh browser context (a cold start). */
async function repetition(browser: Browser, url: string, service: ServiceAnswers, timings: Timings) {
  const context = await browser.newContext({ viewport: { width: 1920, height: 1080 } });
  await context.addInitScript(PROBE_SCRIPT);
  const page = await context.newPage();
  page.setDefaultTimeout(WAIT_MS);
  try {
    let query = defaultQuery();
    const first = await service.firstId(query);
    // Start: from navigation to the first rows.
    await page.goto(`${url}/#key=${encodeURIComponent(SITE.key)}`);
    timings.add('first rows after start', null, await page.evaluate((id) => window.__labeldeskProbe.untilFromStart(id), first));

    // Filters, each from the defaults and back.
    await page.getByTestId('filters-button').click();
    await page.getByTestId('filter-panel').waitFor();
    const filterChange = async (name: string, patch: Partial<ListFilters>, act: () => Promise<unknown>, events: string[]) => {
      const next: ListQuery = { ...query, filters: { ...query.filters, ...patch } };
      timings.add(name, CHANGE_TARGET, await timed(page, await service.firstId(next), 0, events, act));
      query = { ...query, filters: defaultFilters() };
      await clearFilters(page, await service.firstId(query));
    };
    await filterChange('filter: status active', { status: 'active' }, () => page.locator('select[name=status]').selectOption('active'), ['change']);
    await filterChange('filter: alert moderate or worse', { alert: 'moderateOrWorse' }, () => page.locator('select[name=alert]').selectOption('moderateOrWorse'), ['change']);
    await filterChange('filter: flagged', { flagged: 'yes' }, () => page.locator('select[name=flagged]').selectOption('yes'), ['change']);
    await filterChange('filter: archived only', { archived: 'yes' }, () => page.locator('select[name=archived]').selectOption('yes'), ['change']);
    await filterChange('filter: archived shown with the others', { archived: '' }, () => page.locator('select[name=archived]').selectOption(''), ['change']);
    await filterChange('filter: search reference "po-12" (Enter)', { search: 'po-12' }, async () => {
      await page.locator('#search').fill('po-12');
      await page.locator('#search').press('Enter');
    }, ['keydown']);

    // A custom field: the empty row is added (untimed), then its condition sent with Enter.
    await page.getByRole('button', { name: '+ Custom field filter' }).click();
    const cf = page.getByTestId('custom-field-filter');
    await cf.getByLabel('Custom field', { exact: true }).fill('batch');
    await cf.getByLabel('Custom field value').fill('B-42');
    await filterChange('filter: custom field batch = B-42 (Enter)', { customFields: [{ fieldId: 'batch', op: 'eq', value: 'B-42' }] }, () => cf.getByLabel('Custom field value').press('Enter'), ['keydown']);

    // A date range: the start day first (untimed), then the end day closes the range.
    const newest = siteCreated(SIZE - 1, SIZE);
    const day = (epoch: number) => new Date(epoch * 1000).toISOString().slice(0, 10);
    const from = day(newest - 40 * 86_400);
    const to = day(newest - 34 * 86_400);
    await page.locator('input[name=createdFrom]').fill(from);
    query = { ...query, filters: { ...query.filters, createdFrom: from } };
    await until(page, 0, await service.firstId(query));
    await filterChange('filter: created in one week', { createdTo: to }, () => page.locator('input[name=createdTo]').fill(to), ['input', 'change']);
    await page.keyboard.press('Escape');

    // Sorts: each header the table shows, clicked in turn.
    for (const column of DEFAULT_COLUMNS) {
      const by = COLUMN_INFO[column].sort;
      if (by === undefined) continue;
      const sort: SortState = toggleSort(query.sort, by);
      query = { ...query, sort };
      const id = await service.firstId(query);
      timings.add(`sort: ${COLUMN_INFO[column].title.toLowerCase()} ${sort.direction}`, CHANGE_TARGET, await timed(page, id, 0, ['click'], () => page.locator(`button[data-sort="${sort.column}"]`).click()));
    }
    // Back to the default question (the created column is not among the default headers): a fresh start, untimed.
    query = defaultQuery();
    await page.goto(`${url}/#key=${encodeURIComponent(SITE.key)}`);
    await until(page, 0, first);

    // Deep pages through "go to row".
    for (const pageNumber of [500, 900]) {
      const row = (pageNumber - 1) * PAGE_SIZE + 1;
      const id = await service.idAt(query, row - 1);
      timings.add(`go to row ${fmt(row)} (page ${pageNumber})`, CHANGE_TARGET, await timed(page, id, row - 1, ['keydown'], async () => {
        await page.locator('input[name=goToRow]').fill(String(row));
        await page.locator('input[name=goToRow]').press('Enter');
      }));
    }

    // 20 scrollbar jumps, then the rows where the last lands; then jumps and a search typed at once.
    const total = await service.total(query);
    const view = await page.getByTestId('report-table').evaluate((el) => el.clientHeight - 44);
    const scale = scrollScale(total * ROW, view, Number.POSITIVE_INFINITY);
    const tops = (seed: number) => Array.from({ length: 20 }, (_, i) => Math.round((((i + seed) * 7919) % 97) / 97 * scale.maxScrollTop));
    const landing = tops(1);
    const index = Math.floor(offsetAt(scale, landing[19]) / ROW);
    timings.add('20 scrollbar jumps 150 ms apart: rows where the last lands', JUMPS_TARGET, await timedJumps(page, landing, await service.idAt(query, index), index));

    const searchAfter: ListQuery = { ...query, filters: { ...query.filters, search: 'po-34' } };
    const searchId = await service.firstId(searchAfter);
    await page.evaluate((args) => window.__labeldeskProbe.jump(args.tops, args.gap), { tops: tops(5), gap: JUMP_GAP_MS });
    timings.add('search typed right after 20 jumps (Enter)', CHANGE_TARGET, await timed(page, searchId, 0, ['keydown'], async () => {
      await page.locator('#search').fill('po-34');
      await page.locator('#search').press('Enter');
    }));
  } finally {
    await context.close();
  }
}

/** Arms the probe, acts, and returns the time from the action's event to the expected row on screen. */
async function timed(page: Page, id: string, index: number, events: string[], act: () => Promise<unknown>): Promise<Sample> {
  await page.evaluate((args) => window.__labeldeskProbe.arm(args.index, args.id, args.events), { index, id, events });
  await act();
  return page.evaluate(() => window.__labeldeskProbe.result());
}

async function timedJumps(page: Page, tops: number[], id: string, index: number): Promise<Sample> {
  await page.evaluate((args) => window.__labeldeskProbe.arm(args.index, args.id, []), { index, id });
  await page.evaluate((args) => window.__labeldeskProbe.jump(args.tops, args.gap), { tops, gap: JUMP_GAP_MS });
  return page.evaluate(() => window.__labeldeskProbe.result());
}

/** Waits, untimed, until row `index` shows report `id`. */
async function until(page: Page, index: number, id: string) {
  await page.waitForFunction(
    (args) => document.querySelector(`.rows .row[data-index="${args.index}"]`)?.getAttribute('data-report-id') === args.id,
    { index, id },
    { timeout: WAIT_MS },
  );
}

async function clearFilters(page: Page, firstId: string) {
  const clear = page.getByRole('button', { name: /^Clear filters/ });
  if (await clear.isEnabled()) await clear.click();
  await until(page, 0, firstId);
}

declare global {
  interface Window {
    __labeldeskProbe: {
      untilFromStart(id: string): Promise<Sample>;
      arm(index: number, id: string, events: string[]): void;
      jump(tops: number[], gapMs: number): Promise<void>;
      result(): Promise<Sample>;
    };
  }
}

/**
 * Runs in the page before the app. `arm` notes the time of the next of the given events (or of
 * the last scroll jump) and watches the table with a MutationObserver until row `index` shows
 * report `id`, after having shown something else (a changed question first empties the table);
 * the figure is taken at the next animation frame, when the rows are painted.
 */
const PROBE_SCRIPT = `(() => {
  performance.setResourceTimingBufferSize(100000);
  let pending = null;
  const rowShows = (index, id) => document.querySelector('.rows .row[data-index="' + index + '"]')?.getAttribute('data-report-id') === id;
  const listRequests = (from, to) => performance.getEntriesByType('resource')
    .filter((e) => e.name.includes('/v2/labelReports?') && e.startTime >= from - 1 && e.startTime <= to);
  const sample = (start, end, lists) => ({
    ms: end - start,
    slowestList: Math.max(0, ...lists.map((e) => e.responseEnd - e.startTime)),
    lists: lists.length,
    beforeRequest: lists.length ? Math.min(...lists.map((e) => e.startTime)) - start : 0,
    afterAnswer: lists.length ? end - Math.max(...lists.map((e) => e.responseEnd)) : 0,
  });
  const watch = (index, id, startAt, needsChange) => new Promise((resolve) => {
    let changed = !needsChange || !rowShows(index, id);
    let done = false;
    const check = () => {
      if (done) return;
      if (!rowShows(index, id)) { changed = true; return; }
      if (!changed || startAt() === null) return;
      done = true;
      observer.disconnect();
      requestAnimationFrame(() => {
        const end = performance.now();
        const start = startAt();
        const lists = listRequests(start, end);
        resolve(sample(start, end, lists));
      });
    };
    const observer = new MutationObserver(check);
    observer.observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-report-id', 'data-index'] });
    check();
  });
  // From the very start of the page: the first report the first row shows, and when.
  const firstRows = new Promise((resolve) => {
    const observer = new MutationObserver(() => {
      const id = document.querySelector('.rows .row[data-index="0"]')?.getAttribute('data-report-id');
      if (!id) return;
      observer.disconnect();
      requestAnimationFrame(() => resolve({ id, end: performance.now() }));
    });
    observer.observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-report-id', 'data-index'] });
  });
  window.__labeldeskProbe = {
    async untilFromStart(id) {
      const first = await firstRows;
      if (first.id !== id) throw new Error('the first row shows ' + first.id + ', the service says ' + id);
      const lists = listRequests(0, first.end);
      return sample(0, first.end, lists);
    },
    arm(index, id, events) {
      let at = null;
      const note = (e) => {
        if (at === null) at = e.timeStamp;
        for (const type of events) window.removeEventListener(type, note, true);
      };
      for (const type of events) window.addEventListener(type, note, true);
      pending = { setAt: (t) => { at = t; }, result: watch(index, id, () => at, true) };
    },
    async jump(tops, gapMs) {
      const table = document.querySelector('[data-testid=report-table]');
      for (let i = 0; i < tops.length; i++) {
        if (i > 0) await new Promise((r) => setTimeout(r, gapMs));
        table.scrollTop = tops[i];
        if (i === tops.length - 1) pending?.setAt(performance.now());
      }
    },
    result() {
      const p = pending;
      pending = null;
      return p.result;
    },
  };
})();`;

/** The service's answers to the questions the table asks, for checking what the page shows. */
class ServiceAnswers {
  constructor(private readonly url: string) {}

  private async page(query: ListQuery, pageNumber: number, pageSize: number): Promise<ApiPage<MinimalLabelReport>> {
    const params = new URLSearchParams({ ...(toApiParams(query) as unknown as Record<string, string>), output: 'minimal', pageSize: String(pageSize), pageNumber: String(pageNumber) });
    const res = await fetch(`${this.url}/v2/labelReports?${params}`, { headers: { 'x-api-key': SITE.key } });
    if (res.status !== 200) throw new Error(`the service answered ${res.status} to ${params}: ${await res.text()}`);
    return (await res.json()) as ApiPage<MinimalLabelReport>;
  }

  async firstId(query: ListQuery): Promise<string> {
    const page = await this.page(query, 1, 1);
    if (page.data.length === 0) throw new Error(`no report matches ${JSON.stringify(toApiParams(query))}; the bench needs one`);
    return page.data[0].id;
  }

  async idAt(query: ListQuery, index: number): Promise<string> {
    const page = await this.page(query, Math.floor(index / PAGE_SIZE) + 1, PAGE_SIZE);
    return page.data[index % PAGE_SIZE].id;
  }

  async total(query: ListQuery): Promise<number> {
    return (await this.page(query, 1, 1)).totalDocuments;
  }
}

function startServe(dbFile: string): Promise<{ child: ChildProcess; url: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['bin/labeldesk.js', 'serve', '--db', dbFile, '--port', '0'], { cwd: REPO, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /http:\/\/[\d.]+:\d+/.exec(out);
      if (m) resolve({ child, url: m[0] });
    });
    child.on('exit', (code) => reject(new Error(`labeldesk serve exited with ${code} before listening: ${out}`)));
  });
}
