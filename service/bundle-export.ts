/**
 * Exporting a bundle (docs/cli.md#bundle-format): everything needed to import the same data again —
 * companies, API keys as hashes (never keys), and every label report with its raw datapoints,
 * owner, access, per-company state, custom fields, trim and alert rules.
 *
 * The output is streamed report by report from a keyset-paged read, inside one read
 * transaction so the bundle describes a single moment even while the service keeps writing.
 * The order is stable (companies by id, keys by company and hash, reports by created and id), so
 * exporting the same data twice gives the same bytes.
 */
import type { Writable } from 'node:stream';
import type { z } from 'zod';
import type { DataStore } from '../db/data-store';
import { decodeDatapoints } from '../model/datapoint-codec';
import type { ApiKeyRecord } from '../db/key-store';
import type { Report } from '../model/report';
import { BUNDLE_VERSION, type bundleApiKeySchema, type bundleReportSchema } from '../schema/bundle';
import { datapointsFromColumns } from '../sense';
import { customFieldsOf } from './report-view';

export type ExportedReport = z.input<typeof bundleReportSchema>;
export type ExportedApiKey = z.input<typeof bundleApiKeySchema>;

export interface ExportCounts {
  companies: number;
  apiKeys: number;
  labelReports: number;
}

/** Reports are read in pages of ids; each report's row is read on its own, so memory stays small. */
const ID_PAGE = 500;

/**
 * The bundle as text chunks: a header, one chunk per company, key and report, and the closing
 * brackets. Holds a read transaction while it is being iterated (unless the caller holds one).
 * Returns the counts when done.
 */
export function* bundleChunks(data: DataStore): Generator<string, ExportCounts, undefined> {
  const transaction = data.inTransaction ? null : data.begin();
  try {
    const counts: ExportCounts = { companies: 0, apiKeys: 0, labelReports: 0 };
    yield `{"version":${BUNDLE_VERSION},\n"companies":[`;
    let first = true;
    for (const company of data.companies.all()) {
      yield (first ? '\n' : ',\n') + JSON.stringify({ id: company.id, name: company.name, shortCode: company.shortCode });
      first = false;
      counts.companies++;
    }
    yield `${first ? '' : '\n'}],\n"apiKeys":[`;
    first = true;
    for (const key of sortedKeys(data.keys.list())) {
      yield (first ? '\n' : ',\n') + JSON.stringify(exportApiKey(key));
      first = false;
      counts.apiKeys++;
    }
    yield `${first ? '' : '\n'}],\n"labelReports":[`;
    first = true;
    const store = data.reports;
    for (const ids of store.idPages(ID_PAGE)) {
      for (const id of ids) {
        const report = store.load(id);
        if (!report) continue;
        yield (first ? '\n' : ',\n') + JSON.stringify(exportReport(report));
        first = false;
        counts.labelReports++;
      }
    }
    yield `${first ? '' : '\n'}]}\n`;
    return counts;
  } finally {
    // Only read: ending it either way is the same, and rollback is safe after anything.
    transaction?.rollback();
  }
}

/**
 * Writes the bundle to `out`, waiting for it to drain when it is full. Does not end `out`
 * (it may be stdout); the caller ends or closes it.
 */
export async function exportBundle(data: DataStore, out: Writable): Promise<ExportCounts> {
  let failure: Error | null = null;
  const onError = (err: Error) => (failure ??= err);
  out.on('error', onError);
  const chunks = bundleChunks(data);
  try {
    for (;;) {
      const next = chunks.next();
      if (next.done) return next.value;
      if (failure) throw failure;
      if (!out.write(next.value)) await drained(out);
      if (failure) throw failure;
    }
  } finally {
    // Ends the read transaction when the export stops early.
    chunks.return(undefined as never);
    out.off('error', onError);
  }
}

function drained(out: Writable): Promise<void> {
  if (out.destroyed) return Promise.reject(new Error('the output was closed before the export finished'));
  return new Promise((resolve, reject) => {
    const settle = (err?: Error) => {
      out.off('drain', onDrain);
      out.off('close', onClose);
      out.off('error', settle);
      if (err) reject(err);
      else resolve();
    };
    const onDrain = () => settle();
    const onClose = () => settle(new Error('the output was closed before the export finished'));
    out.on('drain', onDrain);
    out.on('close', onClose);
    out.on('error', settle);
  });
}

/** One label report as the bundle carries it; keys in the order of the bundle format. */
export function exportReport(report: Report): ExportedReport {
  const { trim, label } = report;
  const customFields = customFieldsOf(report);
  const shared = report.access
    .filter((a) => a.role !== 'owner')
    .map((a) => ({ companyId: a.companyId, role: a.role as 'editor' | 'viewer' }));
  const states = [...report.states].sort((a, b) => compare(a.companyId, b.companyId));
  return {
    id: report.id,
    created: report.created,
    updated: report.updated,
    companyId: report.ownerCompanyId,
    ...(report.subCompany !== null && { subCompany: report.subCompany }),
    ...(report.user !== null && { user: report.user }),
    ...(report.labelPreset !== null && { labelPreset: report.labelPreset }),
    label: {
      uid: label.uid,
      sequenceCode: label.sequenceCode,
      type: label.type,
      name: label.name,
      firmwareVersionInfo: label.firmwareVersionInfo,
      ...(label.batteryLifeDays !== null && { batteryLifeDays: label.batteryLifeDays }),
    },
    mode: report.mode,
    type: report.type,
    status: report.status,
    labelReference: report.labelReference,
    senseConfig: report.senseConfig,
    ...(report.alertsConfig !== null && { alertsConfig: report.alertsConfig }),
    numberOfTaps: report.numberOfTaps,
    dataIsIncomplete: report.dataIsIncomplete,
    reportedSenseData: {
      datapoints: datapointsFromColumns(decodeDatapoints(report.datapoints)),
      ...report.reported,
    },
    ...(trim !== null && { trim }),
    ...(customFields !== null && { customFields }),
    ...(shared.length > 0 && { access: shared }),
    ...(states.length > 0 && { companyState: states }),
  };
}

export function exportApiKey(key: ApiKeyRecord): ExportedApiKey {
  const out: ExportedApiKey = { keyHash: key.keyHash, companyId: key.companyId, permissions: key.permissions };
  if (key.name !== null) out.name = key.name;
  if (key.revoked !== null) out.revoked = key.revoked;
  return out;
}

/** By company, then hash: independent of creation times, which an import does not carry. */
function sortedKeys(keys: ApiKeyRecord[]): ApiKeyRecord[] {
  return keys.sort((a, b) => compare(a.companyId, b.companyId) || compare(a.keyHash, b.keyHash));
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
