/** Writes the demo data (demo/) through the service's own paths: keys as hashes, reports through the writer. */
import { randomUUID } from 'node:crypto';
import type { DataStore } from '../db/data-store';
import { DEMO_COMPANIES, DEMO_KEYS, demoReport, demoReview, referenceTime, type DemoOptions } from '../demo';
import { describeZodError } from '../contract/zod-messages';
import type { BundleReport } from '../schema/bundle';
import type { Company } from '../schema/report';
import type { Alert } from '../schema/sense';
import { generateKey, hashKey, type CreatedApiKey } from './api-keys';
import { validateBundleReport } from './bundle-import/datapoint-check';
import { reportFromBundle } from './report-from-bundle';
import type { ReportWriter } from './report-writer';

export interface DemoSummary {
  companies: Company[];
  /** The keys this run made, each shown only here; none when the demo keys exist already. */
  keys: CreatedApiKey[];
  /** Label reports written. */
  reports: number;
}

/**
 * The demo companies, keys and `reports` label reports, upserting: running it twice with the
 * same seed changes nothing. A demo key is made, with a random key, only where the company has
 * no valid key of that name yet, so keys differ from one database to the next. One transaction.
 */
export function seedDemo(data: DataStore, writer: ReportWriter, options: DemoOptions, now: () => Date): DemoSummary {
  const seedText = String(options.seed);
  const reference = referenceTime(seedText);
  const keys: CreatedApiKey[] = [];
  data.write(() => {
    for (const company of DEMO_COMPANIES) data.companies.upsert(company);
    for (const spec of DEMO_KEYS) {
      if (data.keys.list(spec.companyId).some((k) => k.name === spec.name && k.revoked === null)) continue;
      const key = generateKey();
      const created: CreatedApiKey = {
        id: randomUUID(),
        key,
        name: spec.name,
        companyId: spec.companyId,
        permissions: [...spec.permissions],
        created: now().toISOString(),
      };
      data.keys.upsert({ ...created, keyHash: hashKey(key), revoked: null });
      keys.push(created);
    }
    // As an import writes them: into an empty database, the listing is built once after the writes.
    writer.writingMany(options.reports, () => {
      for (let i = 0; i < options.reports; i++) {
        const parsed = validateBundleReport(demoReport(seedText, i, reference));
        if (!parsed.success) throw new Error(`demo report ${i} is invalid: ${describeZodError(parsed.error)}`);
        const report = reportFromBundle(parsed.data);
        writer.put(report, { kind: 'demo' });
        seedReview(data, seedText, i, parsed.data, report.figures.alert);
      }
    });
  });
  return { companies: DEMO_COMPANIES.map((c) => ({ ...c })), keys, reports: options.reports };
}

/**
 * The demo review of one report, written with the company's demo key that may update. A
 * company that has reviewed the report already keeps its review as it is: seeding again changes
 * nothing.
 */
function seedReview(data: DataStore, seed: string, i: number, report: BundleReport, alert: Alert): void {
  const unreviewed = new Map<string, boolean>();
  for (const entry of demoReview(seed, i, report, alert.level)) {
    let mayWrite = unreviewed.get(entry.companyId);
    if (mayWrite === undefined) unreviewed.set(entry.companyId, (mayWrite = data.reviews.entries(report.id, entry.companyId).length === 0));
    const key = demoWriteKey(data, entry.companyId);
    if (!mayWrite || !key) continue;
    data.reviews.append({
      reportId: report.id,
      companyId: entry.companyId,
      kind: entry.kind,
      text: entry.text,
      decision: entry.decision,
      alert: entry.kind === 'acknowledgement' ? alert : null,
      keyId: key.id,
      keyName: key.name,
      at: entry.at,
      person: null,
      meaning: null,
      zone: null,
    });
  }
}

function demoWriteKey(data: DataStore, companyId: string): { id: string; name: string | null } | undefined {
  const spec = DEMO_KEYS.find((k) => k.companyId === companyId && k.permissions.includes('labelReports:update'));
  return spec && data.keys.list(companyId).find((k) => k.name === spec.name && k.revoked === null);
}
