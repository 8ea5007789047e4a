/**
 * A real service over a real SQLite file in a temp folder, seeded through the same path as
 * import (bundle report → record → store): on loopback, or as an app answering `inject`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { bundleReportSchema, type BundleReport } from '../../schema/bundle';
import type { ActivationBody } from '../../schema/intake';
import type { Company, Permission } from '../../schema/report';
import type { Datapoint } from '../../schema/sense';
import { startService, type RunningService, type StartOptions } from '../../host/start-service';
import { openService, type Service } from '../../host/open-service';
import { serviceApp } from '../../host/service-app';
import { blankDatabase } from './blank-database';

export const COMPANIES: Company[] = [
  { id: 'acme', name: 'Acme Cold Chain', shortCode: 'ACME' },
  { id: 'nordic', name: 'Nordic Pharma Logistics', shortCode: 'NPL' },
  { id: 'fresh', name: 'FreshFoods Retail', shortCode: 'FFR' },
  { id: 'other', name: 'Other Company', shortCode: 'OTH' },
];

const ALL: Permission[] = ['labelReports:read', 'labelReports:update', 'apiKeys:manage'];
export const KEY_SPECS = {
  acme: { companyId: 'acme', permissions: ALL },
  acmeRead: { companyId: 'acme', permissions: ['labelReports:read'] as Permission[] },
  acmeUpdateOnly: { companyId: 'acme', permissions: ['labelReports:update'] as Permission[] },
  nordic: { companyId: 'nordic', permissions: ALL },
  fresh: { companyId: 'fresh', permissions: ALL },
  other: { companyId: 'other', permissions: ALL },
};
export type KeyName = keyof typeof KEY_SPECS | 'revoked';

export interface TestService extends RunningService {
  keys: Record<KeyName, string>;
  dir: string;
  dbFile: string;
  stop(): Promise<void>;
}

/** A series of readings every `interval` seconds starting at `start`. */
export function series(start: number, interval: number, temperatures: number[], humidities?: number[]): Datapoint[] {
  return temperatures.map((temperature, i) => {
    const d: Datapoint = { timestamp: start + i * interval, temperature };
    if (humidities?.[i] !== undefined) d.humidity = humidities[i];
    return d;
  });
}

export const T0 = 1_780_000_000; // 2026-05-28T20:26:40Z, a fixed run start

/** A database file holding COMPANIES and reports `reportAt(0)` to `reportAt(count - 1)`, each written as an import writes it. */
export function writeReportsFile(file: string, count: number, reportAt: (i: number) => BundleReport): void {
  const service = openService(blankDatabase(file));
  try {
    for (const c of COMPANIES) service.companies.upsert(c);
    for (let i = 0; i < count; i++) service.putReport(reportAt(i), { kind: 'import' });
  } finally {
    service.close();
  }
}

export function makeReport(id: string, overrides: Partial<BundleReport> = {}): BundleReport {
  const base = {
    id,
    created: '2026-06-01T08:00:00.000Z',
    companyId: 'acme',
    label: {
      uid: `uid-${id}`,
      sequenceCode: `SEQ-${id}`,
      type: 'TempSense T1',
      name: `Label ${id}`,
      firmwareVersionInfo: { firmwareVersion: '2.4.1', firmwareApiVersion: '3' },
    },
    mode: 'roadTransport',
    type: 'tempSense',
    status: 'active',
    labelReference: `REF-${id}`,
    senseConfig: {
      limits: { minTemperature: 2, maxTemperature: 8 },
      interval: 600,
      configTime: T0 - 600,
      startDelay: 600,
      runningTime: 86_400,
    },
    numberOfTaps: 1,
    reportedSenseData: { datapoints: series(T0, 600, [4, 5, 9, 10, 5, 4, 1, 5]) },
    ...overrides,
  };
  return bundleReportSchema.parse(base);
}

/** makeReport's label as an activation body: without the fields activation sets. */
export function makeActivation(id?: string): ActivationBody {
  const { id: _id, created: _c, updated: _u, companyId: _o, status: _s, numberOfTaps: _n, reportedSenseData: _r, ...label } = makeReport('template');
  return id === undefined ? label : { ...label, id };
}

export async function startTestService(
  reports: BundleReport[],
  options: Omit<StartOptions, 'dbFile' | 'staticDir'> = {},
): Promise<TestService> {
  const dir = mkdtempSync(join(tmpdir(), 'labeldesk-test-'));
  const dbFile = blankDatabase(join(dir, 'labeldesk.sqlite'));
  // Reads on the test's own thread unless the test asks for read workers: starting one costs a test server seconds under tsx.
  const running = await startService({ readers: 'inThread', ...options, dbFile, staticDir: join(dir, 'no-ui') });
  const keys = seedTestData(running, reports);
  return {
    ...running,
    keys,
    dir,
    dbFile,
    stop: async () => {
      await running.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The app, not listening: requests go through `app.inject`, without the network. */
export interface TestApp {
  app: FastifyInstance;
  service: Service;
  keys: Record<KeyName, string>;
  stop(): Promise<void>;
}

export async function openTestApp(reports: BundleReport[]): Promise<TestApp> {
  const dir = mkdtempSync(join(tmpdir(), 'labeldesk-inject-'));
  const service = openService(blankDatabase(join(dir, 'labeldesk.sqlite')), { readers: 'inThread' });
  const keys = seedTestData({ service }, reports);
  const app = serviceApp(service).app;
  await app.ready();
  return {
    app,
    service,
    keys,
    stop: async () => {
      await app.close();
      service.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The test companies, one key per KEY_SPECS entry plus a revoked one, and the reports. */
function seedTestData(running: Pick<RunningService, 'service'>, reports: BundleReport[]): Record<KeyName, string> {
  const { service } = running;
  for (const company of COMPANIES) service.companies.upsert(company);
  const keys = {} as Record<KeyName, string>;
  for (const [name, spec] of Object.entries(KEY_SPECS)) {
    keys[name as KeyName] = service.apiKeys.create(spec.companyId, spec.permissions, name).key;
  }
  const revoked = service.apiKeys.create('acme', ALL, 'revoked');
  service.apiKeys.revoke(revoked.id);
  keys.revoked = revoked.key;
  seedReports(running, reports);
  return keys;
}

/** Writes the reports through the service's write path, as an import would. */
export function seedReports(running: Pick<RunningService, 'service'>, reports: BundleReport[]): void {
  for (const report of reports) running.service.putReport(report, { kind: 'import' });
}

/** fetch against the service with a key in the x-api-key header. */
export async function api(
  svc: TestService,
  path: string,
  init: { key?: KeyName | null; method?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: any; headers: Headers }> {
  const headers: Record<string, string> = { ...init.headers };
  if (init.key !== null) headers['x-api-key'] = svc.keys[init.key ?? 'acme'];
  let body: string | undefined;
  if (init.body !== undefined) {
    body = typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(svc.url + path, { method: init.method ?? 'GET', headers, body });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: res.status, body: parsed, headers: res.headers };
}
