/**
 * What the alarm tests share: a real service on a SQLite file in a temp folder, the test
 * companies and a key per company, reports whose alert a tap makes rise, and a person with an
 * e-mail address to tell.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AlarmQueue } from '../../alarms/alarm-queue';
import { openService, type Service, type ServiceOptions } from '../../host/open-service';
import type { BundleReport } from '../../schema/bundle';
import type { Permission } from '../../schema/report';
import type { Caller } from '../../service/api-keys';
import { RetrySchedule } from '../../webhooks/retry-schedule';
import { COMPANIES, makeReport, series, T0 } from '../support/service-fixture';
import type { SmtpReceiver } from './smtp-receiver';

export const ALL: Permission[] = ['labelReports:read', 'labelReports:update', 'labelReports:create', 'webhooks:manage'];

export interface AlarmDesk {
  dir: string;
  dbFile: string;
  service: Service;
  acme: Caller;
  acmeKey: string;
  nordic: Caller;
  /** Reopens the service on the same file (after a close). */
  reopen(options?: ServiceOptions): Service;
  close(): void;
}

export function openAlarmDesk(options: ServiceOptions = {}, dir = mkdtempSync(join(tmpdir(), 'labeldesk-alarms-'))): AlarmDesk {
  const dbFile = join(dir, 'labeldesk.sqlite');
  let service = openService(dbFile, options);
  for (const company of COMPANIES) service.companies.upsert(company);
  const acmeKey = service.apiKeys.create('acme', ALL, 'acme tool').key;
  const nordicKey = service.apiKeys.create('nordic', ALL, 'nordic tool').key;
  const desk: AlarmDesk = {
    dir,
    dbFile,
    service,
    acme: service.apiKeys.authenticate(acmeKey),
    acmeKey,
    nordic: service.apiKeys.authenticate(nordicKey),
    reopen: (again = options) => {
      service = openService(dbFile, again);
      desk.service = service;
      return service;
    },
    close: () => {
      service.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return desk;
}

/** A tapped report of acme within its limits (2–8 °C): alert level 0. */
export function calmReport(id: string, overrides: Partial<BundleReport> = {}): BundleReport {
  return makeReport(id, { reportedSenseData: { datapoints: series(T0, 600, [4, 5, 5, 4]) }, ...overrides });
}

/** Readings after the calm ones: `n` of them at `temperature`, continuing the series. */
export function readingsAfter(done: number, temperatures: number[]): { datapoints: { timestamp: number; temperature: number }[] } {
  return { datapoints: temperatures.map((temperature, i) => ({ timestamp: T0 + (done + i) * 600, temperature })) };
}

/** One reading out of range: a moderate alert (any time beyond a limit). */
export const ONE_WARM = [9];
/** Seven readings out of range: over an hour beyond the limit, critical. */
export const HOUR_WARM = [10, 10, 10, 10, 10, 10, 10];

/** Retries 50 ms apart, so a mail test sees a relay's refusals retried at once. */
export const FAST_RETRIES = new RetrySchedule(Array(40).fill(0.05), () => 0.5);

/** The desk's relay: the test's receiver on loopback, plain SMTP, no login. */
export function relayAt(d: AlarmDesk, port: number, from = 'alarms@acme.example'): void {
  d.service.alarms.saveSmtp(null, { host: '127.0.0.1', port, security: 'none', user: null, from, appUrl: 'http://desk.acme.example:4317' });
}

/** What a mail test opened, stopped in the order that loses no mail in flight: the queue, the relays, the desk. */
export async function closeMailTest(queue: AlarmQueue | undefined, receivers: SmtpReceiver[], desk: AlarmDesk | undefined): Promise<void> {
  await queue?.stop(0);
  for (const r of receivers.splice(0)) await r.close();
  desk?.close();
}
