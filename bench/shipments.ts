/**
 * The shipments list at the size of a large site: a database made by `labeldesk import`
 * (bench/site-database.ts), the real `labeldesk serve` on a copy of it, and GET /local/shipments
 * over loopback HTTP for page 1 of each order and filter the app uses, p50 and p95 of sequential
 * requests. Then, in process on another copy, the cost of the writes that move shipment rows (a
 * PATCH of labelReference, which moves a report between shipments, and of limits,
 * which moves its alert) beside the same writes on a copy whose shipment upkeep is dropped: the
 * difference is what keeping shipment_listing costs a write. And the rebuild a bulk import runs.
 *
 *   npm run bench shipments
 *   BENCH_SHIPMENT_REPORTS=100000 BENCH_SHIPMENT_SAMPLES=60 BENCH_SHIPMENT_WRITES=300
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { openService } from '../host/open-service';
import { SHIPMENT_COUNTS, SHIPMENTS } from '../db/read-model/shipments';
import type { LabelReportPatch } from '../schema/report';
import type { Caller } from '../service/api-keys';
import { report } from './baseline';
import { loadAverage, serve } from './patch';
import { fmt, SITE, siteDatabase, siteReportId } from './site-database';
import { SiteClient } from './site-client';
import { median, percentile } from './stats';

const REPORTS = Number(process.env.BENCH_SHIPMENT_REPORTS ?? 100_000);
const SAMPLES = Number(process.env.BENCH_SHIPMENT_SAMPLES ?? 60);
const WRITES = Number(process.env.BENCH_SHIPMENT_WRITES ?? 300);
/** ms, p50 over HTTP: the list at 1 000 000 reports (docs/shipments.md#at-scale); here at the size measured. */
const LIST_TARGET = 50;

const CALLER: Caller = { keyId: 'bench-shipments', companyId: SITE.company, permissions: new Set(['labelReports:read', 'labelReports:update']) };

const LISTS: [string, string][] = [
  ['page 1, newest first', ''],
  ['by worst alert', 'order=worstAlert[desc]'],
  ['by labels', 'order=labels[desc]'],
  ['by first start, earliest first', 'order=firstStart[asc]'],
  ['alert Warning', 'alert=1'],
  ['awaiting review', 'state=awaitingReview'],
  ['3 labels or more', 'labelsMin=3'],
  ['started in a month', 'startFrom=2025-03-01&startTo=2025-03-31'],
  ['mode air', 'mode=air'],
  ['product', 'product=Vaccine%20X'],
  ['page 100', 'pageNumber=100'],
];

const log = (line: string) => console.log(`shipments: ${line}`);

export async function run(): Promise<void> {
  const site = await siteDatabase(REPORTS, log);
  const dir = mkdtempSync(join(tmpdir(), 'labeldesk-bench-shipments-'));
  try {
    const served = join(dir, 'served.sqlite');
    copyFileSync(site.file, served);
    const shipments = new Database(served, { readonly: true });
    const count = shipments.prepare('SELECT count(*), sum(labels > 1), max(labels) FROM shipment_listing').raw().get() as number[];
    shipments.close();
    log(`${fmt(REPORTS)} reports, ${fmt(count[0])} shipments (${fmt(count[1])} of more than one label, at most ${count[2]})`);
    await lists(served);
    const kept = join(dir, 'kept.sqlite');
    const bare = join(dir, 'bare.sqlite');
    copyFileSync(site.file, kept);
    copyFileSync(site.file, bare);
    const raw = new Database(bare);
    for (const t of SHIPMENTS.triggers) raw.exec(`DROP TRIGGER ${t.name}`);
    raw.close();
    log(`writes in process, ${WRITES} of each kind on reports of their own, the two copies in turn, load average before: ${loadAverage()}`);
    const { withUpkeep, without } = writes(kept, bare);
    for (const kind of Object.keys(withUpkeep) as (keyof typeof withUpkeep)[]) {
      const row = `shipments: ${fmt(REPORTS)} reports, PATCH ${kind} in process`;
      report({ name: `${row}, p50`, value: median(withUpkeep[kind]), unit: 'ms', better: 'lower', detail: `without the shipment upkeep ${median(without[kind]).toFixed(2)} ms` });
      report({ name: `${row}, the shipment upkeep's share (p50)`, value: median(withUpkeep[kind]) - median(without[kind]), unit: 'ms', better: 'lower' }, '  ');
    }
    log(`load average after the writes: ${loadAverage()}`);
    rebuild(kept);
    report({ name: `shipments: ${fmt(REPORTS)} reports, labeldesk import (all of it, as the site was built)`, value: site.importSeconds, unit: 's', better: 'lower' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function lists(file: string): Promise<void> {
  const server = await serve(file);
  const client = new SiteClient();
  try {
    log(`GET /local/shipments over loopback HTTP, ${SAMPLES} sequential requests a row, load average before: ${loadAverage()}`);
    for (const [name, query] of LISTS) {
      const url = `${server.url}/local/shipments${query ? `?${query}` : ''}`;
      const samples: number[] = [];
      let total = 0;
      for (let n = 0; n < SAMPLES + 5; n++) {
        const t0 = performance.now();
        const res = await client.get(url);
        const ms = performance.now() - t0;
        if (res.status !== 200) throw new Error(`GET ${url}: ${res.status} ${res.body.toString().slice(0, 300)}`);
        total = (JSON.parse(res.body.toString()) as { totalDocuments: number }).totalDocuments;
        // The first few fill the caches: untimed.
        if (n >= 5) samples.push(ms);
      }
      const row = `shipments: ${fmt(REPORTS)} reports, list ${name}`;
      report({ name: `${row}, p50`, value: median(samples), unit: 'ms', better: 'lower', target: LIST_TARGET, detail: `${fmt(total)} shipments counted` });
      report({ name: `${row}, p95`, value: percentile(samples, 95), unit: 'ms', better: 'lower' }, '  ');
    }
    log(`load average after: ${loadAverage()}`);
  } finally {
    client.close();
    server.child.kill();
  }
}

type Kind = 'labelReference' | 'limits';

/**
 * Times WRITES PATCHes of each kind, each on a report of its own owned by the site's company, on
 * both copies in turn (the same report on each): the machine's other work then weighs on both
 * alike. A few of each first, untimed, fill the caches.
 */
function writes(keptFile: string, bareFile: string): { withUpkeep: Record<Kind, number[]>; without: Record<Kind, number[]> } {
  const kept = openService(keptFile);
  const bare = openService(bareFile);
  try {
    const ids = Array.from({ length: 2 * WRITES }, (_, j) => {
      let i = Math.floor(((j + 0.5) * REPORTS) / (2 * WRITES));
      while (i % 4 === 3 || i % SITE.bigEvery === 0) i++;
      return siteReportId(i);
    });
    // A reference another report holds: the report leaves its shipment and joins one of several labels.
    // Limits so narrow that the alert moves.
    const patchOf = (kind: Kind, n: number): LabelReportPatch =>
      kind === 'labelReference' ? { labelReference: `PO-${10_000 + (n % 50)}` } : { limits: { minTemperature: -40, maxTemperature: -39 } };
    const withUpkeep: Record<Kind, number[]> = { labelReference: [], limits: [] };
    const without: Record<Kind, number[]> = { labelReference: [], limits: [] };
    for (const [k, kind] of (['labelReference', 'limits'] as const).entries()) {
      for (let n = 0; n < WRITES; n++) {
        const id = ids[k * WRITES + n];
        for (const [service, samples] of [[kept, withUpkeep], [bare, without]] as const) {
          const t0 = performance.now();
          service.reports.update(CALLER, id, patchOf(kind, n));
          if (n >= 10) samples[kind].push(performance.now() - t0);
        }
      }
    }
    return { withUpkeep, without };
  } finally {
    kept.close();
    bare.close();
  }
}

/**
 * The rebuilds a bulk import runs after the load, each timed alone (and rolled back), with the
 * kept tables' triggers set aside as the import sets them aside.
 */
function rebuild(file: string): void {
  const db = new Database(file);
  try {
    db.exec('BEGIN');
    for (const t of [...SHIPMENTS.triggers, ...SHIPMENT_COUNTS.triggers]) db.exec(`DROP TRIGGER ${t.name}`);
    for (const declaration of [SHIPMENTS, SHIPMENT_COUNTS]) {
      const t0 = performance.now();
      db.exec(declaration.rebuild);
      const ms = performance.now() - t0;
      report({ name: `shipments: ${fmt(REPORTS)} reports, rebuild of ${declaration.name} in a bulk import`, value: ms / 1000, unit: 's', better: 'lower', detail: `load average ${loadAverage()}` });
    }
    db.exec('ROLLBACK');
  } finally {
    db.close();
  }
}
