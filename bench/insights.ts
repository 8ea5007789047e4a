/**
 * Insights at the size of a large site: a database made by `labeldesk import`
 * (bench/site-database.ts), the service started on it, and requests over loopback HTTP with the
 * site's key, as the Insights screen and local tools make them. Facets of every key the browser
 * shows at once, and a monthly group-by with every figure (and a few others), unfiltered and
 * filtered; beside them the list's first page and count for the same filters, and the load.
 * Then, at 100 000 reports, the Insights screen in Chromium (bench/insights-screen.ts): from a
 * filter change to every chart drawn.
 *
 *   npm run bench insights                       # 100 000 reports
 *   npm run bench insights -- --million          # 100 000 and 1 000 000 (building it takes most of an hour)
 *   BENCH_SAMPLES=30                             # requests per row
 *   BENCH_SCREEN_REPS=5                          # Insights screen repetitions; 0 leaves Chromium out
 *   BENCH_HTTP=0                                 # the Insights screen alone
 *   BENCH_CASES=facets,review                    # only the rows whose names hold one of these
 */
import { loadavg } from 'node:os';
import { startService } from '../host/start-service';
import { report } from './baseline';
import { fmt, SITE, siteDatabase } from './site-database';
import { SiteClient } from './site-client';
import { median, percentile } from './stats';
import { SCREEN_TARGET_MS, timeInsightsScreen, type ScreenSample } from './insights-screen';

const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 30);
const SCREEN_REPS = Number(process.env.BENCH_SCREEN_REPS ?? 5);
const ONLY = process.env.BENCH_CASES?.split(',').filter(Boolean) ?? [];
const log = (line: string) => console.log(`insights: ${line}`);
const BROWSER_KEYS = 'status,alert.level,mode,type,company.id,hasFlag,isArchived,decision,customFields.batch,customFields.pallets';
/** The keys the kept counts split by: their facets are summed from listing_counts when the filter splits by them too. */
const FIXED_KEYS = 'status,alert.level,mode,type,company.id,hasFlag,isArchived';

interface Case {
  name: string;
  path: string;
  /** ms, p50: [at 100 000, at 1 000 000]; null where the issue sets none (shown for comparison). */
  target: [number, number] | null;
}

const FILTERS: [string, string][] = [
  ['all', ''],
  ['not archived', 'filter=isArchived[eq]false'],
  ['air freight, alert ≥ 1', 'filter=mode[eq]airFreight,alert.level[gte]1'],
  ['pallets ≥ 20', 'customFields=pallets[gte]20'],
];

/** The five questions the Insights screen asked before it asked one: summed as one row. */
const FIVE = 'five:';
const FIVE_BYS = ['created.month', 'mode', 'bins.secondsOutOfRange', 'bins.degreeHours', 'bins.mkt'];

function cases(): Case[] {
  const out: Case[] = [];
  for (const [name, query] of FILTERS) {
    const q = query ? `&${query}` : '';
    out.push({ name: `facets, all browser keys — ${name}`, path: `/local/insights/facets?keys=${BROWSER_KEYS}${q}`, target: [30, 200] });
    out.push({ name: `  facets, the 7 fixed keys — ${name}`, path: `/local/insights/facets?keys=${FIXED_KEYS}${q}`, target: null });
    out.push({ name: `groups by created.month, Europe/Berlin — ${name}`, path: `/local/insights/groups?by=created.month&zone=Europe/Berlin${q}`, target: [50, 300] });
    out.push({ name: `  screen: every figure in one request — ${name}`, path: `/local/insights/screen?time=created.month&by=mode&zone=Europe/Berlin${q}`, target: null });
    out.push({ name: `  screen's five group-bys one after another — ${name}`, path: FIVE + q, target: null });
    out.push({ name: `  list page 1 (100) and count — ${name}`, path: `/v2/labelReports?output=minimal&pageSize=100${q}`, target: null });
  }
  out.push({ name: 'groups by mode — all', path: '/local/insights/groups?by=mode', target: null });
  out.push({ name: 'groups by customFields.batch (1 000 values) — all', path: '/local/insights/groups?by=customFields.batch', target: null });
  out.push({ name: 'groups by created.week, UTC — all', path: '/local/insights/groups?by=created.week', target: null });
  out.push({ name: 'groups by bins.mkt — all', path: '/local/insights/groups?by=bins.mkt', target: null });
  out.push({ name: 'groups by bins.secondsOutOfRange — awaiting review', path: '/local/insights/groups?by=bins.secondsOutOfRange&review=awaitingReview', target: null });
  out.push({ name: 'facets, all browser keys — awaiting review', path: `/local/insights/facets?keys=${BROWSER_KEYS}&review=awaitingReview`, target: null });
  return out;
}

export async function run(): Promise<void> {
  const sizes = process.argv.includes('--million') ? [100_000, 1_000_000] : [100_000];
  for (const size of sizes) {
    log(`— ${fmt(size)} reports —`);
    const db = await siteDatabase(size, log);
    const running = await startService({ dbFile: db.file, port: 0 });
    const client = new SiteClient();
    try {
      const asked = cases().filter((c) => ONLY.length === 0 || ONLY.some((part) => c.name.includes(part)));
      for (const c of process.env.BENCH_HTTP === '0' ? [] : asked) {
        const urls = c.path.startsWith(FIVE)
          ? FIVE_BYS.map((by) => `${running.url}/local/insights/groups?by=${by}&zone=Europe/Berlin${c.path.slice(FIVE.length)}`)
          : [running.url + c.path];
        for (const url of urls) {
          const first = await client.get(url);
          if (first.status !== 200) throw new Error(`${url} answered ${first.status}: ${first.body.toString().slice(0, 300)}`);
        }
        const samples: number[] = [];
        for (let i = 0; i < SAMPLES; i++) {
          const t0 = performance.now();
          for (const url of urls) await client.get(url);
          samples.push(performance.now() - t0);
        }
        const name = `insights: ${fmt(size)} reports, ${c.name.trim()}`;
        // Rows indented under the one they are beside stay indented.
        const indent = c.name.startsWith('  ') ? '  ' : '';
        report({ name: `${name}, p50`, value: median(samples), unit: 'ms', better: 'lower', ...(c.target !== null && { target: c.target[size <= 100_000 ? 0 : 1] }) }, indent);
        report({ name: `${name}, p95`, value: percentile(samples, 95), unit: 'ms', better: 'lower' }, indent + '  ');
      }
    } finally {
      client.close();
      await running.close();
    }
    if (size <= 100_000 && SCREEN_REPS > 0) await screen(db.file);
  }
  log(`site key company: ${SITE.company}; load average (1 min) is printed per row: two cores are shared`);
}

/** The Insights screen in Chromium: p50 and p95 per action, against the target, with the load. */
async function screen(dbFile: string): Promise<void> {
  const loadBefore = loadavg();
  const rows = new Map<string, ScreenSample[]>();
  await timeInsightsScreen(dbFile, SCREEN_REPS, (name, sample) => {
    log(`  screen: ${name}: ${sample.ms.toFixed(0)} ms (${sample.requests} requests, the slowest ${sample.slowest.toFixed(0)} ms)`);
    rows.set(name, [...(rows.get(name) ?? []), sample]);
  });
  const loadAfter = loadavg();
  console.log('');
  for (const [name, samples] of rows) {
    const ms = samples.map((s) => s.ms);
    const row = `insights-screen: 100 000 reports, 1920×1080, ${name}`;
    const detail = `slowest request p50 ${median(samples.map((s) => s.slowest)).toFixed(0)} ms, ${median(samples.map((s) => s.requests))} requests, n ${samples.length}`;
    report({ name: `${row}, p50`, value: median(ms), unit: 'ms', better: 'lower', target: SCREEN_TARGET_MS, detail });
    report({ name: `${row}, p95`, value: percentile(ms, 95), unit: 'ms', better: 'lower' }, '  ');
  }
  console.log('');
  log(`screen: load average (1, 5, 15 min): before ${loadBefore.map((l) => l.toFixed(2)).join(' ')}, after ${loadAfter.map((l) => l.toFixed(2)).join(' ')}`);
}
