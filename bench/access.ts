/**
 * The cost of recording who saw a report (docs/review-and-audit.md#who-saw-a-report): one
 * append to the access chain, as GET /v2/labelReports/:id makes it after its answer, on a real
 * file, timed in batches while the table grows to BENCH_ACCESS_ENTRIES (default 100 000), and the
 * retrieve itself beside it, with and without the append.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openService } from '../host/open-service';
import { SITE, siteReport } from './site-database';
import { report } from './baseline';
import { median, percentile } from './stats';

const ENTRIES = Number(process.env.BENCH_ACCESS_ENTRIES ?? 100_000);
const BATCH = 1_000;

export async function run(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'labeldesk-bench-access-'));
  const service = openService(join(dir, 'labeldesk.sqlite'));
  try {
    for (const company of [SITE.company, SITE.otherCompany]) service.companies.upsert({ id: company, name: company, shortCode: company.toUpperCase() });
    // Report 1 of the service bench's site: owned by its company, 50 datapoints.
    const subject = siteReport(1, 2);
    service.putReport(subject, { kind: 'import' });
    const id = subject.id;
    const caller = service.apiKeys.authenticate(service.apiKeys.create(SITE.company, ['labelReports:read'], 'bench').key);
    const batches: { at: number; us: number; cpuUs: number }[] = [];
    for (let done = 0; done < ENTRIES; done += BATCH) {
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      for (let i = 0; i < BATCH; i++) service.access.viewed(caller, id);
      const ms = performance.now() - t0;
      const cpu = process.cpuUsage(cpu0);
      batches.push({ at: done, us: (ms * 1000) / BATCH, cpuUs: (cpu.user + cpu.system) / BATCH });
    }
    const early = batches.slice(1, 11);
    const late = batches.slice(-10);
    const row = (name: string, of: typeof batches, pick: (b: (typeof batches)[number]) => number) =>
      report({ name: `access: ${name}`, value: median(of.map(pick)), unit: 'µs', better: 'lower', detail: `p95 ${percentile(of.map(pick), 95).toFixed(1)} µs, batches of ${BATCH}` });
    row('one append, table of 1 000–11 000, median', early, (b) => b.us);
    row(`one append, table of ${ENTRIES - 10 * BATCH}–${ENTRIES}, median`, late, (b) => b.us);
    row(`one append, table of ${ENTRIES - 10 * BATCH}–${ENTRIES}, CPU`, late, (b) => b.cpuUs);

    // The retrieve as the route reads it, alone and followed by its append.
    const retrieve = () => service.reports.retrieveDocument(caller, id);
    const time = (fn: () => void) => {
      const samples: number[] = [];
      for (let i = 0; i < 2_000; i++) {
        const t0 = performance.now();
        fn();
        samples.push((performance.now() - t0) * 1000);
      }
      return samples;
    };
    time(retrieve);
    const alone = time(retrieve);
    const recorded = time(() => {
      retrieve();
      service.access.viewed(caller, id);
    });
    report({ name: 'access: retrieve of one report, median', value: median(alone), unit: 'µs', better: 'lower' });
    report({ name: 'access: retrieve and its append, median', value: median(recorded), unit: 'µs', better: 'lower' });
    if (service.access.verify().problem !== null) throw new Error('the access chain is broken after the bench');
  } finally {
    service.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
