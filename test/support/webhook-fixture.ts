/**
 * The webhook half of the service on a real SQLite file, with its pieces in reach: the data
 * store (so a test can announce a report event inside a write of its own, as taking in labels
 * does, or roll one back), the outbox, the registration operations and a delivery worker.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataStore } from '../../db/data-store';
import type { BundleReport } from '../../schema/bundle';
import type { ReportEventType } from '../../schema/webhooks';
import { LabelReportService } from '../../service/label-reports';
import { reportFromBundle } from '../../service/report-from-bundle';
import { ReportWriter } from '../../service/report-writer';
import { WebhookOutbox } from '../../service/webhook-outbox';
import { Webhooks, type WebhookManager } from '../../service/webhooks';
import { DeliveryWorker, type DeliveryOptions } from '../../webhooks/delivery-worker';
import { RetrySchedule } from '../../webhooks/retry-schedule';
import { COMPANIES } from './service-fixture';
import { blankDatabase } from './blank-database';

export interface WebhookHarness {
  file: string;
  data: DataStore;
  writer: ReportWriter;
  reports: LabelReportService;
  outbox: WebhookOutbox;
  webhooks: Webhooks;
  /** Null until `deliver` starts one. */
  worker: DeliveryWorker | null;
  deliver(options?: DeliveryOptions): DeliveryWorker;
  /** A report event committed as taking in labels commits it: inside the write of a change. */
  announce(type: ReportEventType, reportId: string): void;
  stop(): Promise<void>;
}

/** Quick retries without jitter, a short timeout: tests wait for events, not for the clock. */
export const QUICK: DeliveryOptions = {
  schedule: new RetrySchedule([0.02, 0.02, 0.02], () => 0.5),
  timeoutMs: 2_000,
};

export function manager(companyId: string): WebhookManager {
  return { companyId, permissions: new Set(['webhooks:manage']) };
}

export function openWebhookHarness(reports: BundleReport[] = [], options: { now?: () => Date; file?: string } = {}): WebhookHarness {
  const dir = options.file ? null : mkdtempSync(join(tmpdir(), 'labeldesk-webhooks-'));
  const file = options.file ?? join(dir!, 'labeldesk.sqlite');
  const now = options.now ?? (() => new Date());
  const data = DataStore.open(blankDatabase(file));
  const writer = new ReportWriter(data, now);
  const reportService = new LabelReportService(data, writer, now);
  const outbox = new WebhookOutbox(data, reportService, now);
  data.write(() => {
    for (const company of COMPANIES) data.companies.upsert(company);
    for (const report of reports) writer.put(reportFromBundle(report), { kind: 'import' });
  });
  const harness: WebhookHarness = {
    file,
    data,
    writer,
    reports: reportService,
    outbox,
    webhooks: new Webhooks(data, outbox, now),
    worker: null,
    deliver(delivery = QUICK) {
      const worker = new DeliveryWorker(data, { now, ...delivery });
      outbox.onDue(() => worker.wake());
      harness.worker = worker;
      return worker.start();
    },
    announce: (type, reportId) => data.write(() => outbox.reportEvent(type, reportId)),
    async stop() {
      await harness.worker?.stop();
      data.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    },
  };
  return harness;
}
