/**
 * Nobody waits behind another request: the real `labeldesk serve` on a site made by `labeldesk import`, a small
 * list (pageSize=10, output=minimal, another company's key) asked again and again, one at a time,
 * while other clients load the service, p50 and p99 of the small list's wall time:
 *
 *   idle                              nothing else
 *   while 100 big pages stream        100 parallel pageSize=100000 pages, each read whole
 *   while parallel PATCHes run        1 200 PATCHes, 100 at a time
 *
 * The list pages, retrieve, the list's CSV and Insights are read on the read workers
 * (service/read-pool.ts); the PATCHes write on the main thread.
 *
 *   npm run bench readers
 *   BENCH_READERS_REPORTS=100000 BENCH_READERS_PAGES=100 BENCH_READERS_PATCHES=1200
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openService } from '../host/open-service';
import { parseListQuery } from '../query/list-query';
import { defaultReaders } from '../service/read-pool';
import { report } from './baseline';
import { fmt, SITE, siteDatabase } from './site-database';
import { median, percentile } from './stats';

const REPORTS = Number(process.env.BENCH_READERS_REPORTS ?? 100_000);
const PAGES = Number(process.env.BENCH_READERS_PAGES ?? 100);
const PATCHES = Number(process.env.BENCH_READERS_PATCHES ?? 1200);
const PATCHES_AT_ONCE = 100;
const SMALL = '/v2/labelReports?pageSize=10&output=minimal';
const REPO = fileURLToPath(new URL('..', import.meta.url));

const log = (line: string) => console.log(`readers: ${line}`);

interface Answer {
  status: number;
  bytes: number;
}

function request(url: string, key: string, method = 'GET', body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers: { 'x-api-key': key, ...(body ? { 'content-type': 'application/json' } : {}) }, agent: false }, (res) => {
      let bytes = 0;
      res.on('data', (d: Buffer) => (bytes += d.length));
      res.on('end', () => resolve({ status: res.statusCode!, bytes }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The small list's wall times, one request at a time, until `load` settles (at least `min` of them). */
async function sampleWhile(url: string, key: string, load: Promise<unknown> | null, min: number): Promise<number[]> {
  let settled = load === null;
  void load?.then(() => (settled = true));
  const samples: number[] = [];
  while (!settled || samples.length < min) {
    const start = performance.now();
    const answer = await request(url + SMALL, key);
    if (answer.status !== 200) throw new Error(`the small list answered ${answer.status}`);
    samples.push(performance.now() - start);
    if (settled && load !== null) break;
  }
  return samples;
}

function row(name: string, samples: number[], detail: string): void {
  report({ name: `readers: small list ${name}, p50`, value: median(samples), unit: 'ms', better: 'lower', detail: `n ${samples.length}, ${detail}` });
  report({ name: `readers: small list ${name}, p99`, value: percentile(samples, 99), unit: 'ms', better: 'lower', detail: `n ${samples.length}` });
}

export async function run(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'labeldesk-bench-readers-'));
  let child: ChildProcess | undefined;
  try {
    // The site as `labeldesk import` made it, copied: the PATCHes below change it.
    const site = await siteDatabase(REPORTS, log);
    const dbFile = join(dir, 'site.sqlite');
    copyFileSync(site.file, dbFile);
    const seed = openService(dbFile, { readers: 'inThread' });
    // The small list's caller is another key of another company: the pool's turns are per caller.
    const smallKey = seed.apiKeys.create(SITE.otherCompany, ['labelReports:read'], 'bench small list').key;
    const heavyKey = SITE.key;
    const caller = seed.apiKeys.authenticate(heavyKey);
    // Reports the heavy key's company owns: those shared with it as viewer refuse a PATCH.
    const ids = seed.reports.list(caller, parseListQuery({ pageSize: String(2 * PATCHES), output: 'minimal' }))
      .data.map((r) => r.id)
      .filter((id) => seed.reports.retrieveDocument(caller, id).report.company.id === SITE.company);
    seed.close();
    log(`${fmt(REPORTS)} imported reports, ${defaultReaders()} read workers at most (${availableParallelism()} cores)`);

    child = spawn(process.execPath, [join(REPO, 'bin/labeldesk.js'), 'serve', '--db', dbFile, '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child!.stdout!.on('data', (d) => {
        out += d;
        const found = /http:\/\/[\d.]+:\d+/.exec(out);
        if (found) resolve(found[0]);
      });
      child!.once('exit', (code) => reject(new Error(`serve exited with ${code}`)));
    });
    // Warm: the workers started, the pages' statements prepared.
    await Promise.all([request(url + SMALL, smallKey), request(url + '/v2/labelReports?pageSize=100000&output=minimal', heavyKey)]);

    row('idle', await sampleWhile(url, smallKey, null, 50), 'nothing else running');

    let bigBytes = 0;
    const bigStart = performance.now();
    const pages = Promise.all(
      Array.from({ length: PAGES }, () =>
        request(url + '/v2/labelReports?pageSize=100000', heavyKey).then((a) => {
          if (a.status !== 200) throw new Error(`a big page answered ${a.status}`);
          bigBytes += a.bytes;
        }),
      ),
    );
    const whilePages = await sampleWhile(url, smallKey, pages, 5);
    await pages;
    row(`while ${PAGES} big pages stream`, whilePages, `${PAGES} pages of ${fmt(REPORTS)} reports (output=normal), ${(bigBytes / 2 ** 20).toFixed(0)} MiB in ${((performance.now() - bigStart) / 1000).toFixed(1)} s`);

    let next = 0;
    const statuses = new Map<number, number>();
    const patchStart = performance.now();
    const patcher = async () => {
      while (next < PATCHES) {
        const id = ids[next % ids.length];
        const i = next++;
        const answer = await request(`${url}/v2/labelReports/${encodeURIComponent(id)}`, heavyKey, 'PATCH', JSON.stringify({ labelReference: `BENCH-${i}` }));
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      }
    };
    const patches = Promise.all(Array.from({ length: PATCHES_AT_ONCE }, patcher));
    const whilePatches = await sampleWhile(url, smallKey, patches, 5);
    await patches;
    row(`while ${PATCHES} PATCHes run`, whilePatches, `${PATCHES} PATCHes, ${PATCHES_AT_ONCE} at a time, in ${((performance.now() - patchStart) / 1000).toFixed(1)} s, answered ${[...statuses].map(([status, n]) => `${n} × ${status}`).join(', ')}`);
  } finally {
    if (child && child.exitCode === null) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
    rmSync(dir, { recursive: true, force: true });
  }
}
