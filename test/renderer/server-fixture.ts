/**
 * A real LabelDesk service on 127.0.0.1 over a temp SQLite file holding a small, fully known
 * data set, for testing the renderer's stores against the actual /v2 and /local endpoints.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startService } from '../../host/start-service';
import { MODES } from '../../schema/report';
import { openService } from '../../host/open-service';

export const KEYS = {
  acme: 'test-acme-key-0123456789abcdef',
  acmeReadOnly: 'test-acme-read-0123456789abcdef',
  nordic: 'test-nordic-key-0123456789abcdef',
  fresh: 'test-fresh-key-0123456789abcdef',
} as const;

export const T0 = 1_767_225_600; // 2026-01-01T00:00:00Z
export const INTERVAL = 600;

export interface FixtureReport {
  id: string;
  labelReference: string;
  sequenceCode: string;
  status: 'active' | 'completed';
  created: string;
  sharedWithNordic: boolean;
}

export function reportId(i: number): string {
  return `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
}

/** The known reports: their facts, for expectations, and the bundle entries. */
export function fixtureReports(count: number) {
  const facts: FixtureReport[] = [];
  const bundle: unknown[] = [];
  for (let i = 0; i < count; i++) {
    const start = T0 + i * 3600;
    const temps = new Array(30).fill(5);
    // Every 5th report has a 5-reading excursion (moderate), every 5th+1 a 10-reading one (critical).
    if (i % 5 === 0) for (let j = 10; j < 15; j++) temps[j] = 12;
    if (i % 5 === 1) for (let j = 10; j < 20; j++) temps[j] = 12;
    const f: FixtureReport = {
      id: reportId(i),
      labelReference: i % 10 === 0 ? `ORD,${i}%_x` : `PO-${String(i).padStart(4, '0')}`,
      sequenceCode: `SQ-${String(i).padStart(4, '0')}`,
      status: i % 3 === 0 ? 'completed' : 'active',
      created: new Date(start * 1000).toISOString(),
      sharedWithNordic: i % 2 === 0,
    };
    facts.push(f);
    bundle.push({
      id: f.id,
      created: f.created,
      companyId: 'acme',
      label: {
        uid: `UID${i}`,
        sequenceCode: f.sequenceCode,
        type: 'T1',
        name: 'Test label',
        firmwareVersionInfo: { firmwareVersion: '2.1', firmwareApiVersion: '5' },
      },
      mode: MODES[i % MODES.length],
      type: i % 4 === 0 ? 'humiditySense' : 'tempSense',
      status: f.status,
      labelReference: f.labelReference,
      senseConfig: { limits: { minTemperature: 2, maxTemperature: 8 }, interval: INTERVAL, configTime: start - 600, startDelay: 0, runningTime: 0 },
      numberOfTaps: i % 7 === 0 ? 0 : 1,
      reportedSenseData: { datapoints: temps.map((temperature, j) => ({ timestamp: start + j * INTERVAL, temperature })) },
      customFields: [{ customFieldId: 'carrier', value: i % 3 === 0 ? 'DHL' : 'UPS, Express' }],
      access: f.sharedWithNordic
        ? [
            { companyId: 'nordic', role: 'editor' },
            { companyId: 'fresh', role: 'viewer' },
          ]
        : [],
    });
  }
  return { facts, bundle };
}

export interface FixtureServer {
  url: string;
  facts: FixtureReport[];
  close(): Promise<void>;
}

export async function startFixtureServer(count = 250): Promise<FixtureServer> {
  const dir = mkdtempSync(join(tmpdir(), 'labeldesk-renderer-'));
  const dbFile = join(dir, 'test.sqlite');
  const { facts, bundle } = fixtureReports(count);
  const db = openService(dbFile);
  try {
    const all = ['labelReports:read', 'labelReports:update'];
    const text = JSON.stringify({
      version: 1,
      companies: [
        { id: 'acme', name: 'ACME Pharma', shortCode: 'ACM' },
        { id: 'nordic', name: 'Nordic Logistics', shortCode: 'NOR' },
        { id: 'fresh', name: 'Fresh Foods', shortCode: 'FRF' },
      ],
      apiKeys: [
        { key: KEYS.acme, companyId: 'acme', permissions: [...all, 'apiKeys:manage', 'webhooks:manage'], name: 'acme desk' },
        { key: KEYS.acmeReadOnly, companyId: 'acme', permissions: ['labelReports:read'], name: 'acme read' },
        { key: KEYS.nordic, companyId: 'nordic', permissions: all, name: 'nordic' },
        { key: KEYS.fresh, companyId: 'fresh', permissions: all, name: 'fresh' },
      ],
      labelReports: bundle,
    });
    const result = await db.importBundle(
      (async function* () {
        yield text;
      })(),
    );
    if (!result.ok) throw new Error(`fixture bundle refused: ${JSON.stringify(result.problems.slice(0, 3))}`);
  } finally {
    db.close();
  }
  const service = await startService({ dbFile, port: 0, staticDir: join(dir, 'no-ui') });
  return {
    url: service.url,
    facts,
    close: async () => {
      await service.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
