/**
 * Reports for a sync remote: each a different kind of what a company's key can see (its own,
 * shared with it as editor or viewer, one it must not see) with the values a mirror has to
 * carry over (custom fields, trim, per-company flags, humidity, sub-company, user, preset, alert
 * rules, battery life), and series of plain ones with `updated` where a test wants it.
 */
import type { BundleReport } from '../../schema/bundle';
import type { Service } from '../../host/open-service';
import { makeReport, series, T0 } from './service-fixture';

/** `updated` `seconds` after a fixed instant: reports of a test are ordered by it. */
export function at(seconds: number): string {
  return new Date(Date.UTC(2026, 5, 2, 8, 0, 0) + seconds * 1000).toISOString();
}

/** `count` plain reports of acme, `<prefix>-000`…, one second apart from `from` (or all at `from` when `step` is 0). */
export function plainReports(count: number, options: { prefix?: string; from?: number; step?: number } = {}): BundleReport[] {
  const { prefix = 'r', from = 0, step = 1 } = options;
  return Array.from({ length: count }, (_, i) =>
    makeReport(`${prefix}-${String(i).padStart(3, '0')}`, { updated: at(from + i * step), labelReference: `REF-${prefix}-${i}` }),
  );
}

/** `count` plain reports of acme written just now, as an activation would: ahead of any cursor. */
export function freshReports(count: number, prefix: string): BundleReport[] {
  const now = Date.now();
  return Array.from({ length: count }, (_, i) =>
    makeReport(`${prefix}-${String(i).padStart(3, '0')}`, { updated: new Date(now + i).toISOString(), labelReference: `REF-${prefix}-${i}` }),
  );
}

/** One of each kind a mirror meets; `hidden` is the one the key must not see. */
export function variedReports(): { reports: BundleReport[]; hidden: string } {
  const reports = [
    makeReport('own-plain', { updated: at(1) }),
    makeReport('own-rich', {
      updated: at(2),
      subCompany: { id: 'acme-north', name: 'Acme North' },
      user: { id: 'u-7', name: 'Dana' },
      labelPreset: { id: 'preset-pharma', name: 'Pharma 2–8 °C' },
      label: {
        uid: 'uid-own-rich',
        sequenceCode: 'SEQ-own-rich',
        type: 'TempSense T2',
        name: 'Pallet with humidity',
        firmwareVersionInfo: { firmwareVersion: '3.0.0', firmwareApiVersion: '4' },
        batteryLifeDays: 730,
      },
      type: 'humiditySense',
      status: 'completed',
      senseConfig: {
        limits: { minTemperature: 2, maxTemperature: 8, minHumidity: 30, maxHumidity: 70 },
        interval: 600,
        configTime: T0 - 600,
        startDelay: 600,
        runningTime: 86_400,
      },
      alertsConfig: { rules: [{ level: 1, kind: 'cumulative', seconds: 600 }] },
      reportedSenseData: { datapoints: series(T0, 600, [4, 5, 9, 10, 5, 4, 1, 5], [40, 45, 80, 75, 50, 50, 20, 40]) },
      trim: { startTime: T0 + 600, endTime: T0 + 3000 },
      customFields: [
        { customFieldId: 'batch', value: 'B-42' },
        { customFieldId: 'pallets', value: 12 },
        { customFieldId: 'carriers', value: ['DHL', 'DSV'] },
      ],
      companyState: [
        { companyId: 'acme', hasFlag: true, isArchived: false },
        { companyId: 'nordic', hasFlag: false, isArchived: true },
      ],
      access: [{ companyId: 'nordic', role: 'viewer' }],
    }),
    makeReport('shared-editor', {
      updated: at(3),
      companyId: 'nordic',
      access: [{ companyId: 'acme', role: 'editor' }],
      companyState: [{ companyId: 'nordic', hasFlag: true, isArchived: true }],
    }),
    makeReport('shared-viewer', {
      updated: at(4),
      companyId: 'fresh',
      access: [
        { companyId: 'nordic', role: 'editor' },
        { companyId: 'acme', role: 'viewer' },
      ],
      companyState: [{ companyId: 'acme', hasFlag: false, isArchived: true }],
    }),
    makeReport('no-datapoints', { updated: at(5), numberOfTaps: 0, reportedSenseData: { datapoints: [] } }),
    makeReport('hidden', { updated: at(6), companyId: 'nordic' }),
  ];
  return { reports, hidden: 'hidden' };
}

/** Writes reports into a running service as an import would (the remote's own data, not an API change). */
export function putReports(service: Service, reports: readonly BundleReport[]): void {
  for (const report of reports) service.putReport(report, { kind: 'import' });
}
