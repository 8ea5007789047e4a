/**
 * Bundle import benchmark: reports per second and peak memory of the real `labeldesk import`,
 * on bundles in the site's shape (bench/site-database.ts: 50 datapoints a report, one in 5 000
 * with 10 000; three quarters owned by one company, a quarter shared with it; custom fields).
 *
 * Imports 20 000 reports into a new database (target ≥ 20 000 reports/s), then twice as many
 * to show that the peak resident memory does not grow with the bundle (it is bounded by the
 * page cache, the workers and the largest report, not by the bundle). Each import is its own
 * process, its memory sampled from outside; it prints the wall and CPU time of each of its steps
 * (LABELDESK_IMPORT_PHASES), the CPU time being what a busy machine disturbs least. Other sizes,
 * e.g. past the page cache:
 *
 *   npm run bench -- import
 *   BENCH_IMPORT_SIZES=100000,300000 npm run bench -- import
 *
 * BENCH_IMPORT_ALARM_RULES=1 gives the database alarm rules before the import (every critical
 * report of either company, alpha's air freight from moderate on), so the import raises the
 * alarms of its new reports and queues their e-mails: the cost of that pass.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { openService } from '../host/open-service';
import { alarmRuleBodySchema } from '../schema/alarms';
import { report } from './baseline';
import { fmt, runImport, SITE, writeSiteBundle } from './site-database';

const REPORTS = 20_000;
const SIZES = (process.env.BENCH_IMPORT_SIZES ?? `${REPORTS},${2 * REPORTS}`).split(',').map(Number);
export const TARGET_PER_SECOND = 20_000;
const WITH_RULES = process.env.BENCH_IMPORT_ALARM_RULES === '1';

interface Measurement {
  reports: number;
  seconds: number;
  perSecond: number;
  peakRssMiB: number;
  cpuSeconds: number;
  phases: string[];
}

export async function run(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'labeldesk-bench-import-'));
  const quiet = () => {};
  try {
    console.log(`bundle import (labeldesk import): the site's shape, 50 datapoints a report (1 in 5 000 with 10 000); load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
    const measured: Measurement[] = [];
    for (const reports of SIZES) {
      const m = await measure(dir, reports, quiet);
      measured.push(m);
      const of = `import: ${fmt(m.reports)} reports${WITH_RULES ? ' with alarm rules' : ''}`;
      report({ name: `${of}, rate`, value: m.perSecond, unit: 'reports/s', better: 'higher', target: TARGET_PER_SECOND, detail: `${m.seconds.toFixed(1)} s` }, '  ');
      report({ name: `${of}, peak RSS`, value: m.peakRssMiB, unit: 'MiB', better: 'lower' }, '  ');
      report({ name: `${of}, CPU`, value: m.cpuSeconds, unit: 's', better: 'lower' }, '  ');
      report({ name: `${of}, reports per CPU second`, value: m.reports / m.cpuSeconds, unit: 'reports/s', better: 'higher' }, '  ');
      for (const phase of m.phases) console.log(`      ${phase}`);
    }
    const smallest = measured[0];
    const largest = measured[measured.length - 1];
    const growth = largest.reports / smallest.reports;
    const bounded = largest.peakRssMiB < 1.25 * smallest.peakRssMiB;
    if (measured.length > 1) {
      report(
        {
          name: `import: peak RSS growth from ${fmt(smallest.reports)} to ${fmt(largest.reports)} reports${WITH_RULES ? ' with alarm rules' : ''}`,
          value: largest.peakRssMiB / smallest.peakRssMiB,
          unit: '×',
          better: 'lower',
          detail: `for ×${growth.toFixed(1)} reports: ${bounded ? 'bounded' : 'NOT bounded'}`,
        },
        '  ',
      );
    }
    const best = Math.max(...measured.map((m) => m.perSecond));
    report(
      { name: `import: best rate of ${SIZES.map((n) => fmt(n)).join(', ')} reports${WITH_RULES ? ' with alarm rules' : ''}`, value: best, unit: 'reports/s', better: 'higher', target: TARGET_PER_SECOND },
      '  ',
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function measure(dir: string, reports: number, log: (line: string) => void): Promise<Measurement> {
  const bundle = join(dir, `bundle-${reports}.json`);
  const dbFile = join(dir, `import-${reports}.sqlite`);
  await writeSiteBundle(bundle, reports, log);
  console.log(`  bundle of ${fmt(reports)} reports: ${(statSync(bundle).size / 2 ** 20).toFixed(0)} MiB`);
  try {
    if (WITH_RULES) giveAlarmRules(dbFile);
    const { seconds, peakRssMiB, cpuSeconds, phases } = await runImport(bundle, dbFile, log);
    if (WITH_RULES) console.log(`  alarms raised: ${countAlarms(dbFile)}`);
    return { reports, seconds, perSecond: reports / seconds, peakRssMiB, cpuSeconds, phases };
  } finally {
    for (const f of [bundle, dbFile, dbFile + '-wal', dbFile + '-shm']) rmSync(f, { force: true });
  }
}

function giveAlarmRules(dbFile: string): void {
  const service = openService(dbFile);
  try {
    service.companies.upsert({ id: SITE.company, name: 'Alpha Cold Chain', shortCode: 'ACC' });
    service.companies.upsert({ id: SITE.otherCompany, name: 'Beta Foods', shortCode: 'BFD' });
    const rule = (body: Record<string, unknown>) => alarmRuleBodySchema.parse({ channels: ['email', 'desktop'], ...body });
    service.alarms.createRule(null, SITE.company, rule({ name: 'Critical', minLevel: 2, steps: [{ emails: ['qa@alpha.example'] }] }));
    service.alarms.createRule(null, SITE.company, rule({ name: 'Air freight', minLevel: 1, filter: 'mode[eq]airFreight', steps: [{ emails: ['air@alpha.example'] }] }));
    service.alarms.createRule(null, SITE.otherCompany, rule({ name: 'Critical', minLevel: 2, steps: [{ emails: ['qa@beta.example'] }] }));
  } finally {
    service.close();
  }
}

function countAlarms(dbFile: string): string {
  const service = openService(dbFile);
  try {
    const n = (companyId: string) =>
      service.alarms.list({ keyId: 'bench', companyId, permissions: new Set(['labelReports:read'] as const) }, { pageNumber: 1, pageSize: 1 }).totalDocuments;
    return `${fmt(n(SITE.company))} of ${SITE.company}, ${fmt(n(SITE.otherCompany))} of ${SITE.otherCompany}`;
  } finally {
    service.close();
  }
}
