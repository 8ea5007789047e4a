/** Writes the demo data (demo/) through the service's own paths: keys as hashes, reports through the writer. */
import type { DataStore } from '../db/data-store';
import { DEMO_COMPANIES, demoKeys, demoReport, referenceTime, type DemoKey, type DemoOptions } from '../demo';
import { describeZodError } from '../contract/zod-messages';
import type { Company } from '../schema/report';
import { hashKey } from './api-keys';
import { validateBundleReport } from './bundle-import/datapoint-check';
import { recordFromBundle } from './report-record';
import type { ReportWriter } from './report-writer';

export interface DemoSummary {
  companies: Company[];
  keys: DemoKey[];
  /** Label reports written. */
  reports: number;
}

/**
 * The demo companies, keys and `reports` label reports, upserting: running it twice with the
 * same seed changes nothing. One transaction.
 */
export function seedDemo(data: DataStore, writer: ReportWriter, options: DemoOptions): DemoSummary {
  const seedText = String(options.seed);
  const reference = referenceTime(seedText);
  const keys = demoKeys(options.seed);
  data.write(() => {
    for (const company of DEMO_COMPANIES) data.companies.upsert(company);
    for (const k of keys) {
      data.keys.upsert({
        id: k.id,
        keyHash: hashKey(k.key),
        companyId: k.companyId,
        name: k.name,
        permissions: k.permissions,
        created: new Date(reference * 1000).toISOString(),
        revoked: null,
      });
    }
    for (let i = 0; i < options.reports; i++) {
      const parsed = validateBundleReport(demoReport(seedText, i, reference));
      if (!parsed.success) throw new Error(`demo report ${i} is invalid: ${describeZodError(parsed.error)}`);
      writer.put(recordFromBundle(parsed.data), { kind: 'demo' });
    }
  });
  return { companies: DEMO_COMPANIES.map((c) => ({ ...c })), keys, reports: options.reports };
}
