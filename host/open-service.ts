/**
 * The service, composed in this one place on one SQLite file: the operations the HTTP layer,
 * the command line and the desktop host call. Its database stays inside.
 */
import type { Writable } from 'node:stream';
import { DataStore } from '../db/data-store';
import type { DemoOptions } from '../demo';
import type { BundleReport } from '../schema/bundle';
import type { Actor, ChangeEntry } from '../schema/change-log';
import type { Company } from '../schema/report';
import { ApiKeys } from './api-keys';
import { exportBundle, type ExportCounts } from './bundle-export';
import { importBundle, type BundleSource, type ImportOptions, type ImportResult } from './bundle-import';
import { seedDemo, type DemoSummary } from './demo-seeder';
import { LabelIntake } from './label-intake';
import { LabelReportService, type ReportRead } from './label-reports';
import { reportFromBundle } from './report-from-bundle';
import { ReportCsvExport } from './report-csv-export';
import { ReportHistoryService } from './report-history';
import { ReportReviews } from './report-review';
import { ReportWriter } from './report-writer';
import { SyncMirror } from '../sync/mirror';
import { SyncOutbox } from '../sync/outbox';
import { WebhookOutbox } from './webhook-outbox';
import { Webhooks } from './webhooks';
import { DeliveryWorker, type DeliveryOptions } from '../webhooks/delivery-worker';

export interface Service {
  reports: LabelReportService;
  /** Activation and taps (decisions §6), announced to the webhook outbox. */
  intake: LabelIntake;
  apiKeys: ApiKeys;
  webhooks: Webhooks;
  /** The mirror of a remote instance (decisions §5): what the sync worker reads and writes. */
  sync: SyncMirror;
  /** Starts delivering the webhook outbox of this database (the running service does; commands do not). */
  deliverWebhooks(options?: DeliveryOptions): DeliveryWorker;
  companies: {
    find(id: string): Company | undefined;
    all(): Company[];
    upsert(company: Company): void;
  };
  /** Writes a whole, already validated report (seeding, a mirrored report) through the write path. */
  putReport(report: BundleReport, actor: Actor): void;
  /** A report's change log, oldest first: its audit trail. */
  history(reportId: string): ChangeEntry[];
  /** The review workflow: alerts explained, comments, acknowledgement, decision; custom fields and companies in plain words. */
  reviews: ReportReviews;
  /** A report's history as a company sees it: changes and review entries, newest first. */
  reportHistory: ReportHistoryService;
  /** CSV of a report's readings and of a list query's every match. */
  csv: ReportCsvExport;
  importBundle(source: BundleSource, options?: Omit<ImportOptions, 'now'>): Promise<ImportResult>;
  exportBundle(out: Writable): Promise<ExportCounts>;
  createDemoData(options: DemoOptions): DemoSummary;
  /** A fresh install: no company and no label report. */
  isEmpty(): boolean;
  /** The company a desktop acts as: the one owning the most reports, else the first, else null. */
  homeCompany(): string | null;
  close(): void;
}

export interface ServiceOptions {
  now?: () => Date;
  /** See OpenOptions.busyTimeoutMs: a server keeps it short and waits for a busy database itself. */
  busyTimeoutMs?: number;
  /** Told of each list and retrieve read from the database (tests count them). */
  onRead?: (read: ReportRead) => void;
  /** Told of each report read whole, by id (tests count the reads of a write). */
  onReportLoad?: (id: string) => void;
}

export function openService(dbFile: string, options: ServiceOptions = {}): Service {
  const now = options.now ?? (() => new Date());
  const data = DataStore.open(dbFile, { busyTimeoutMs: options.busyTimeoutMs, onReportLoad: options.onReportLoad });
  const syncOutbox = new SyncOutbox(data, now);
  const writer = new ReportWriter(data, now);
  writer.onChange((change) => syncOutbox.recordChange(change));
  const reports = new LabelReportService(data, writer, now, options.onRead);
  // What taking in labels and sync pulls announce (ReportEvents) lands here, in the transaction of its change.
  const outbox = new WebhookOutbox(data, reports, now);
  return {
    sync: new SyncMirror(data, writer, syncOutbox, outbox, now),
    reports,
    intake: new LabelIntake(data, writer, outbox, now),
    apiKeys: new ApiKeys(data),
    webhooks: new Webhooks(data, outbox, now),
    deliverWebhooks: (delivery) => {
      const worker = new DeliveryWorker(data, { now, ...delivery });
      outbox.onDue(() => worker.wake());
      return worker.start();
    },
    companies: {
      find: (id) => data.companies.find(id),
      all: () => data.companies.all(),
      upsert: (company) => data.companies.upsert(company),
    },
    putReport: (report, actor) => void writer.put(reportFromBundle(report), actor),
    history: (reportId) => data.changes.forReport(reportId),
    reviews: new ReportReviews(data, now),
    reportHistory: new ReportHistoryService(data),
    csv: new ReportCsvExport(data),
    importBundle: (source, importOptions = {}) => importBundle(data, writer, source, { ...importOptions, now }),
    exportBundle: (out) => exportBundle(data, out),
    createDemoData: (demo) => seedDemo(data, writer, demo, now),
    isEmpty: () => data.isEmpty(),
    homeCompany: () => data.read(() => data.reports.busiestOwner() ?? data.companies.all()[0]?.id ?? null),
    close: () => data.close(),
  };
}
