/**
 * Export: a bundle that imports back to the same data. Round trip import → export → import →
 * export gives identical JSON and identical API output; demo data is the same per seed; and
 * the `labeldesk export` / `labeldesk demo` commands do the same through the real binary.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { runLabeldesk } from './run-labeldesk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleReportSchema } from '../../schema/bundle';
import type { Permission } from '../../schema/report';
import type { Caller } from '../../service/api-keys';
import type { Service } from '../../host/open-service';
import { parseListQuery } from '../../query/list-query';
import { column, exported, inspect, serviceFile } from '../support/service-files';

const NOW = new Date('2026-11-20T10:00:00.000Z');

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'labeldesk-export-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const open = () => serviceFile(dir, { now: () => NOW });

/** An export without its keys: demo keys are random per database, everything else is the seed's. */
const withoutKeys = (text: string) => ({ ...(JSON.parse(text) as Record<string, unknown>), apiKeys: undefined });
const KEY = /^ldk_[A-Za-z0-9_-]{43}$/;

async function importString(service: Service, text: string) {
  const result = await service.importBundle(Readable.from([Buffer.from(text)]));
  expect(result.problems).toEqual([]);
  return result;
}

function caller(companyId: string, permissions: Permission[] = ['labelReports:read', 'labelReports:update']): Caller {
  return { keyId: 'test', companyId, permissions: new Set(permissions) };
}

const labeldesk = (args: string[], env: Record<string, string> = {}) => runLabeldesk(dir, args, env);

describe('export', () => {
  it('round-trips: import → export → import into a fresh database → export gives identical JSON and identical API output', async () => {
    // Start from varied data: demo reports, then changes through the service and the keys.
    const source = open();
    source.createDemoData({ reports: 120, seed: 11 });
    const service = source.reports;
    const ids = column(source.file, 'SELECT id FROM label_reports ORDER BY id LIMIT 6') as string[];
    service.update(caller('acme'), ids[0], { labelReference: 'PO-88213', customFields: [{ customFieldId: 'po', value: null }, { customFieldId: 'note', value: 'rush' }] }) ;
    const ownedByAcme = new Set(column(source.file, "SELECT label_report_id FROM access WHERE company_id = 'acme' AND role = 'owner'"));
    const visibleToAcme = ids.filter((id) => ownedByAcme.has(id));
    service.update(caller('acme'), visibleToAcme[1], { limits: { maxTemperature: 30 }, trim: { startTime: 0, endTime: 4_000_000_000 }, hasFlag: true, isArchived: true });
    const keys = source.apiKeys;
    const created = keys.create('nordic', ['labelReports:read'], 'to revoke');
    keys.revoke(created.id);

    const first = await exported(source);
    const a = open();
    await importString(a, first);
    const exportA = await exported(a);
    expect(exportA).toBe(first);
    const b = open();
    await importString(b, exportA);
    expect(await exported(b)).toBe(exportA);

    // Every exported report is a valid bundle report; keys carry hashes, never keys.
    const bundle = JSON.parse(exportA) as { apiKeys: Record<string, unknown>[]; labelReports: unknown[] };
    expect(bundle.labelReports).toHaveLength(120);
    for (const r of bundle.labelReports) expect(bundleReportSchema.safeParse(r).success).toBe(true);
    expect(bundle.apiKeys.every((k) => typeof k.keyHash === 'string' && !('key' in k))).toBe(true);
    expect(bundle.apiKeys.filter((k) => k.revoked)).toHaveLength(1);
    expect(exportA).not.toContain('ldk_');

    // The API answers the same for the same reports, whoever asks.
    const serviceSource = source.reports;
    const serviceB = b.reports;
    for (const company of ['acme', 'nordic', 'fresh']) {
      const list = serviceB.list(caller(company), parseListQuery({ pageSize: '500', output: 'normal' }));
      expect(list).toEqual(serviceSource.list(caller(company), parseListQuery({ pageSize: '500', output: 'normal' })));
      for (const report of list.data.slice(0, 5)) {
        expect(serviceB.retrieve(caller(company), report.id)).toEqual(serviceSource.retrieve(caller(company), report.id));
      }
    }
    expect(serviceB.retrieve(caller('acme'), ids[0]).customFields).toEqual(serviceSource.retrieve(caller('acme'), ids[0]).customFields);
    expect(serviceB.retrieve(caller('acme'), visibleToAcme[1])).toMatchObject({ hasFlag: true, isArchived: true, trimmedSenseData: expect.any(Object) });
  });

  it('streams to a writable, waiting for it to drain, and stops cleanly when the output fails', async () => {
    const service = open();
    service.createDemoData({ reports: 30, seed: 2 });
    const out = new PassThrough({ highWaterMark: 1024 });
    const received: Buffer[] = [];
    const reading = (async () => {
      for await (const chunk of out) {
        received.push(chunk as Buffer);
        await new Promise((r) => setImmediate(r));
      }
    })();
    const counts = await service.exportBundle(out);
    out.end();
    await reading;
    expect(counts).toEqual({ companies: 3, apiKeys: 4, labelReports: 30 });
    expect(Buffer.concat(received).toString()).toBe(await exported(service));

    const broken = new PassThrough({ highWaterMark: 16 });
    setTimeout(() => broken.destroy(new Error('disk full')), 5);
    await expect(service.exportBundle(broken)).rejects.toThrow(/disk full|closed/);
    // The export's read transaction ended with it: a write goes through at once.
    service.companies.upsert({ id: 'after', name: 'After', shortCode: 'AFT' });
    expect(service.companies.find('after')).toBeDefined();
  });

  it('demo data is the same for the same seed, different for another, and a smaller demo is a prefix of a larger one', async () => {
    const [one, two, other, small] = [open(), open(), open(), open()];
    const summaryOne = one.createDemoData({ reports: 60, seed: 5 });
    const summaryTwo = two.createDemoData({ reports: 60, seed: 5 });
    other.createDemoData({ reports: 60, seed: 6 });
    small.createDemoData({ reports: 20, seed: 5 });
    expect({ ...summaryTwo, keys: [] }).toEqual({ ...summaryOne, keys: [] });
    expect(withoutKeys(await exported(two))).toEqual(withoutKeys(await exported(one)));
    expect(withoutKeys(await exported(other))).not.toEqual(withoutKeys(await exported(one)));
    // Keys are never the same twice: each database gets its own.
    const keysOf = (summary: typeof summaryOne) => summary.keys.map((k) => k.key);
    expect(keysOf(summaryOne).filter((k) => keysOf(summaryTwo).includes(k))).toEqual([]);
    expect(summaryOne.keys.every((k) => KEY.test(k.key))).toBe(true);
    const bigIds = new Set((JSON.parse(await exported(one)) as { labelReports: { id: string }[] }).labelReports.map((r) => r.id));
    for (const r of (JSON.parse(await exported(small)) as { labelReports: { id: string }[] }).labelReports) expect(bigIds.has(r.id)).toBe(true);
    // Running it again changes nothing, and makes no new keys.
    const before = await exported(one);
    expect(one.createDemoData({ reports: 60, seed: 5 }).keys).toEqual([]);
    expect(await exported(one)).toBe(before);
  });

  it('demo data is realistic: every mode, type, status and alert level, shared reports, custom fields, trims and rules', () => {
    const service = open();
    const summary = service.createDemoData({ reports: 2000, seed: 1 });
    const db = inspect(service.file);
    expect(summary.companies.map((c) => c.id)).toEqual(['acme', 'nordic', 'fresh']);
    expect(summary.keys.map((k) => [k.companyId, k.permissions.join(',')])).toEqual([
      ['acme', 'labelReports:read,labelReports:update,apiKeys:manage'],
      ['acme', 'labelReports:read'],
      ['nordic', 'labelReports:read,labelReports:update,apiKeys:manage'],
      ['fresh', 'labelReports:read,labelReports:update,apiKeys:manage'],
    ]);
    expect(summary.keys.every((k) => KEY.test(k.key))).toBe(true);
    const values = (sql: string) => db.prepare(sql).pluck().all();
    expect(new Set(values('SELECT DISTINCT mode FROM label_reports'))).toEqual(new Set(['airFreight', 'roadTransport', 'seaFreight', 'railFreight', 'stationary', 'unknown']));
    expect(new Set(values('SELECT DISTINCT type FROM label_reports'))).toEqual(new Set(['tempSense', 'humiditySense', 'shockSense', 'freezeSense']));
    expect(new Set(values('SELECT DISTINCT status FROM label_reports'))).toEqual(new Set(['active', 'completed']));
    expect(new Set(values('SELECT DISTINCT alert_level FROM label_reports'))).toEqual(new Set([-1, 0, 1, 2]));
    const one = (sql: string) => db.prepare(sql).pluck().get() as number;
    expect(one("SELECT count(*) FROM label_reports WHERE owner_company_id = 'acme'")).toBeGreaterThan(1000);
    expect(one("SELECT count(*) FROM label_reports WHERE owner_company_id = 'nordic'")).toBeGreaterThan(100);
    expect(one("SELECT count(*) FROM access WHERE company_id = 'nordic' AND role = 'editor'")).toBeGreaterThan(300);
    expect(one("SELECT count(*) FROM access WHERE company_id = 'fresh' AND role = 'viewer'")).toBeGreaterThan(300);
    expect(one('SELECT count(*) FROM label_reports WHERE trim_start IS NOT NULL')).toBeGreaterThan(50);
    expect(one("SELECT count(*) FROM label_reports WHERE alerts_config LIKE '%singleEvent%'")).toBeGreaterThan(50);
    expect(one('SELECT count(*) FROM label_reports WHERE min_humidity IS NOT NULL')).toBeGreaterThan(50);
    expect(one("SELECT count(DISTINCT custom_field_id) FROM custom_field_values")).toBeGreaterThanOrEqual(3);
    expect(one("SELECT count(*) FROM custom_field_values WHERE custom_field_id = 'tags' AND value LIKE '[%'")).toBeGreaterThan(100);
    expect(one('SELECT count(*) FROM company_report_state WHERE has_flag = 1')).toBeGreaterThan(50);
    expect(one('SELECT count(*) FROM company_report_state WHERE is_archived = 1')).toBeGreaterThan(50);
    expect(one("SELECT count(*) FROM label_reports WHERE label_reference LIKE 'SHP-2026-%'")).toBeGreaterThan(500);
    expect(one("SELECT count(*) FROM label_reports WHERE label_reference LIKE 'PO-%'")).toBeGreaterThan(10);
    expect(one("SELECT count(*) FROM label_reports WHERE json_extract(calculated, '$.numberOfDatapointsRead') >= 20000")).toBeGreaterThanOrEqual(3);
    expect(one("SELECT count(*) FROM label_reports WHERE json_extract(calculated, '$.numberOfViolations.humidity') > 0")).toBeGreaterThan(10);
    const spread = db.prepare('SELECT min(created) AS first, max(created) AS last FROM label_reports').get() as { first: string; last: string };
    expect((Date.parse(spread.last) - Date.parse(spread.first)) / 86_400_000).toBeGreaterThan(100);
    const intervals = values('SELECT DISTINCT interval FROM label_reports') as number[];
    db.close();
    expect(Math.min(...intervals)).toBeGreaterThanOrEqual(60);
    expect(Math.max(...intervals)).toBeLessThanOrEqual(900);
  });

  it('labeldesk demo, export and import through the binary: same seed → the same data with keys of its own, and the file imports back', async () => {
    const [demoA, demoB] = await Promise.all([
      labeldesk(['demo', '--db', join(dir, 'a.db'), '--reports', '40', '--seed', '9']),
      labeldesk(['demo', '--db', join(dir, 'b.db'), '--reports', '40', '--seed', '9']),
    ]);
    expect(demoA.code).toBe(0);
    expect(demoA.stdout).toMatch(/created 3 companies, 4 API keys and 40 label reports \(seed 9\)/);
    expect(demoA.stdout).toMatch(/COMPANY\s+PERMISSIONS\s+KEY/);
    const keysIn = (out: string): string[] => out.match(/ldk_[A-Za-z0-9_-]{43}/g) ?? [];
    expect(keysIn(demoA.stdout)).toHaveLength(4);
    expect(keysIn(demoB.stdout)).toHaveLength(4);
    expect(keysIn(demoB.stdout).filter((k) => keysIn(demoA.stdout).includes(k))).toEqual([]);

    const [exportA, exportB] = await Promise.all([
      labeldesk(['export', '--db', join(dir, 'a.db'), '--out', join(dir, 'a.json')]),
      labeldesk(['export', '--db', join(dir, 'b.db')]),
    ]);
    expect(exportA.code).toBe(0);
    expect(exportA.stdout.trim()).toBe(`exported 3 companies, 4 API keys, 40 label reports to ${join(dir, 'a.json')}`);
    expect(exportB.code).toBe(0);
    expect(exportB.stderr.trim()).toBe('exported 3 companies, 4 API keys, 40 label reports');
    expect(withoutKeys(exportB.stdout)).toEqual(withoutKeys(readFileSync(join(dir, 'a.json'), 'utf8')));
    expect(readdirSync(dir).filter((f) => f.includes('.partial-'))).toEqual([]);

    const back = await labeldesk(['import', '--db', join(dir, 'c.db'), join(dir, 'a.json')]);
    expect(back.stdout.trim()).toBe('imported 3 companies, 4 API keys, 40 label reports');
    const again = await labeldesk(['export', '--db', join(dir, 'c.db'), '--out', join(dir, 'c.json')]);
    expect(again.code).toBe(0);
    expect(readFileSync(join(dir, 'c.json'), 'utf8')).toBe(readFileSync(join(dir, 'a.json'), 'utf8'));

    const missing = await labeldesk(['export', '--db', join(dir, 'none.db')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/there is no database at .*none\.db/);
    expect(existsSync(join(dir, 'none.db'))).toBe(false);
  });
});
