/**
 * The service's rules on one database, as the layers above use them: list, retrieve and update,
 * activation and taps, keys, webhooks, reviews, history, CSV, import, export and demo data.
 * Composed here from the database and the one writer; the composition root (host/open-service.ts)
 * adds what lives above the rules (sync, webhook delivery).
 */
import { AuditTrail } from './audit-trail';
import { withdrawDecisionsOnAlertChange } from './decision-withdrawal';
import { Shipments, withdrawShipmentDecisionsOnAlertChange } from './shipments';
import type { Writable } from 'node:stream';
import type { DataStore } from '../db/data-store';
import type { DemoOptions } from '../demo';
import type { BundleReport } from '../schema/bundle';
import type { Actor, ChangeEntry } from '../schema/change-log';
import type { Company } from '../schema/report';
import { ApiKeys } from './api-keys';
import { exportBundle, type ExportCounts } from './bundle-export';
import { importBundle, type BundleSource, type ImportOptions, type ImportResult } from './bundle-import';
import { seedDemo, type DemoSummary } from './demo-seeder';
import { InsightsService } from './insights';
import { LabelIntake } from './label-intake';
import { LabelReportService, type ReportRead } from './label-reports';
import { reportFromBundle } from './report-from-bundle';
import { ReportCsvExport } from './report-csv-export';
import { ReportAccess } from './report-access';
import { ReleaseCertificates } from './release-certificate';
import { ReportHistoryService } from './report-history';
import { ReportReviews } from './report-review';
import type { ReportWriter } from './report-writer';
import { WebhookOutbox } from './webhook-outbox';
import { Webhooks } from './webhooks';
import { Users } from './users';
import { SignedChanges } from './signed-changes';
import { BulkWork } from './bulk-work';
import { AuditViewer } from './audit-viewer';

export interface ServiceRules {
  reports: LabelReportService;
  /** Activation and taps (docs/api.md#activation-and-taps), announced to the webhook outbox. */
  intake: LabelIntake;
  apiKeys: ApiKeys;
  /** The people who sign in at the desk, their sessions and company settings. */
  users: Users;
  webhooks: Webhooks;
  companies: {
    find(id: string): Company | undefined;
    all(): Company[];
    upsert(company: Company): void;
  };
  /** Writes a whole, already validated report (seeding, a mirrored report) through the write path. */
  putReport(report: BundleReport, actor: Actor): void;
  /** A report's change log, oldest first: its audit trail. */
  history(reportId: string): ChangeEntry[];
  /** Signed verdict changes: the requests of changes that lower an alert, and their signed approvals. */
  signedChanges: SignedChanges;
  /** The review workflow: alerts explained, comments, acknowledgement, decision; custom fields and companies in plain words. */
  reviews: ReportReviews;
  /** Shipments: the labels of one reference seen, judged and released together. */
  shipments: Shipments;
  /** One action on a selection of reports: acknowledge, decide, flag or archive them together. */
  bulk: BulkWork;
  /** A report's history as a company sees it: changes and review entries, newest first. */
  reportHistory: ReportHistoryService;
  /** CSV of a report's readings and of a list query's every match. */
  csv: ReportCsvExport;
  /** Facets and group figures of the list's matches. */
  insights: InsightsService;
  /** The hash chains verified, and the trail as CSV. */
  audit: AuditTrail;
  /** The trail across reports as a company sees it, by person, kind, time and report, newest first. */
  auditViewer: AuditViewer;
  /** Who viewed, printed or exported which report: recorded, listed, verified, as CSV. */
  access: ReportAccess;
  /** Release certificates: issued into the access chain, and checked by their checksum. */
  certificates: ReleaseCertificates;
  importBundle(source: BundleSource, options?: Omit<ImportOptions, 'now'>): Promise<ImportResult>;
  exportBundle(out: Writable): Promise<ExportCounts>;
  createDemoData(options: DemoOptions): DemoSummary;
  /** A fresh install: no company and no label report. */
  isEmpty(): boolean;
  /** The company a desktop acts as: the one owning the most reports, else the first, else null. */
  homeCompany(): string | null;
  close(): void;
}

/** The rules, and the webhook outbox the composition root hands to what it adds. */
export function composeRules(
  data: DataStore,
  writer: ReportWriter,
  now: () => Date,
  onRead?: (read: ReportRead) => void,
): { rules: ServiceRules; webhookOutbox: WebhookOutbox } {
  const reports = new LabelReportService(data, writer, now, onRead);
  // A change that moves the alert withdraws the decisions taken on it, in its transaction.
  writer.onChange(withdrawDecisionsOnAlertChange(data, now));
  // After it: a shipment decision whose report's decision it took back is taken back whole.
  writer.onChange(withdrawShipmentDecisionsOnAlertChange(data, now));
  // What taking in labels and sync pulls announce (ReportEvents) lands here, in the transaction of its change.
  const webhookOutbox = new WebhookOutbox(data, reports, now);
  const users = new Users(data, now);
  const reviews = new ReportReviews(data, now, users);
  const access = new ReportAccess(data, now);
  const rules: ServiceRules = {
    reports,
    intake: new LabelIntake(data, writer, webhookOutbox, now),
    apiKeys: new ApiKeys(data, users),
    users,
    webhooks: new Webhooks(data, webhookOutbox, now),
    companies: {
      find: (id) => data.companies.find(id),
      all: () => data.companies.all(),
      upsert: (company) => data.companies.upsert(company),
    },
    putReport: (report, actor) => void writer.put(reportFromBundle(report), actor),
    history: (reportId) => data.changes.forReport(reportId),
    signedChanges: new SignedChanges(data, writer, reports, users, now),
    reviews,
    shipments: new Shipments(data, reviews, now),
    bulk: new BulkWork(data, reports, reviews),
    reportHistory: new ReportHistoryService(data),
    csv: new ReportCsvExport(data),
    insights: new InsightsService(data),
    audit: new AuditTrail(data, now),
    auditViewer: new AuditViewer(data),
    access,
    certificates: new ReleaseCertificates(data, access),
    importBundle: (source, importOptions = {}) => importBundle(data, writer, source, { ...importOptions, now }),
    exportBundle: (out) => exportBundle(data, out),
    createDemoData: (demo) => seedDemo(data, writer, demo, now),
    isEmpty: () => data.isEmpty(),
    homeCompany: () => data.read(() => data.reports.busiestOwner() ?? data.companies.all()[0]?.id ?? null),
    close: () => {
      access.close();
      data.close();
    },
  };
  return { rules, webhookOutbox };
}
