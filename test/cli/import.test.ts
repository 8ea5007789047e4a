/**
 * Bundle import: validation with JSON paths, all-or-nothing, upsert by id, streaming across
 * chunk boundaries, the worker mode; and the `labeldesk import` command itself.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { runLabeldesk, runLabeldeskInProcess } from './run-labeldesk';
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { hashKey } from '../../service/api-keys';
import { ParseWorker } from '../../service/bundle-import/parse-worker';
import { PARSE_WORKERS } from '../../service/bundle-import/pipeline';
import { DATAPOINT_PLAN, validateBundleReport, type ImportOptions, type ImportResult } from '../../service/bundle-import';
import { openService, type Service } from '../../host/open-service';
import { column, exported, inspect, serviceFile } from '../support/service-files';
import { bundleReportSchema } from '../../schema/bundle';
import fc from 'fast-check';
import { assertProperty } from '../support/property';


let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'labeldesk-import-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

// ---------------------------------------------------------------------------------------------
// Helpers

const COMPANIES = [
  { id: 'acme', name: 'Acme Cold Chain', shortCode: 'ACME' },
  { id: 'nordic', name: 'Nordic Pharma Logistics', shortCode: 'NPL' },
];

function report(id: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id,
    created: '2026-05-01T10:00:00.000Z',
    companyId: 'acme',
    label: { uid: 'E004A1', sequenceCode: 'TS-1', type: 'TempSense 60d', name: 'Vaccines', firmwareVersionInfo: { firmwareVersion: '3.2.1', firmwareApiVersion: '2.1' } },
    mode: 'roadTransport',
    type: 'tempSense',
    status: 'active',
    senseConfig: { limits: { minTemperature: 2, maxTemperature: 8 }, interval: 300, configTime: 1_777_600_000, startDelay: 0, runningTime: 86_400 },
    numberOfTaps: 2,
    reportedSenseData: {
      datapoints: Array.from({ length: 12 }, (_, i) => ({ timestamp: 1_777_600_000 + i * 300, temperature: i === 5 ? 9.5 : 4 + i / 10 })),
    },
    ...extra,
  };
}

function bundle(parts: Record<string, unknown> = {}): Record<string, unknown> {
  return { version: 1, companies: COMPANIES, apiKeys: [], labelReports: [report('r1'), report('r2')], ...parts };
}

type Db = Service & { file: string };

function freshDb(): Db {
  return serviceFile(dir);
}

async function importText(db: Db, text: string, options: ImportOptions = {}, chunkSize = 0): Promise<ImportResult> {
  const bytes = Buffer.from(text, 'utf8');
  const chunks: Buffer[] = [];
  if (chunkSize <= 0) chunks.push(bytes);
  else for (let i = 0; i < bytes.length; i += chunkSize) chunks.push(bytes.subarray(i, i + chunkSize));
  return db.importBundle(Readable.from(chunks), options);
}

function importJson(db: Db, value: unknown, options: ImportOptions = {}): Promise<ImportResult> {
  return importText(db, JSON.stringify(value, null, 2), options);
}

function reportCount(file: string): number {
  return column(file, 'SELECT count(*) FROM label_reports')[0] as number;
}

function storedRow(file: string, id: string): Record<string, unknown> | undefined {
  const db = inspect(file);
  try {
    return db.prepare('SELECT * FROM label_reports WHERE id = ?').get(id) as Record<string, unknown> | undefined;
  } finally {
    db.close();
  }
}

function storedKey(file: string, keyHash: string) {
  const db = inspect(file);
  try {
    const row = db.prepare('SELECT id, company_id, name, permissions, revoked FROM api_keys WHERE key_hash = ?').get(keyHash) as
      | { id: string; company_id: string; name: string | null; permissions: string; revoked: string | null }
      | undefined;
    return row && { id: row.id, companyId: row.company_id, name: row.name, permissions: JSON.parse(row.permissions) as string[], revoked: row.revoked };
  } finally {
    db.close();
  }
}

const acmeReader = { keyId: 'test', companyId: 'acme', permissions: new Set(['labelReports:read'] as const) };

function lines(result: ImportResult): string[] {
  return result.problems.map((p) => `${p.path}: ${p.message}`);
}

// ---------------------------------------------------------------------------------------------
// In-process: importBundle

describe('importBundle', () => {
  it('imports a valid bundle and says what it imported', async () => {
    const db = freshDb();
    const result = await importJson(db, bundle({ apiKeys: [{ key: 'ldk_test_key_0123456789', companyId: 'acme', permissions: ['labelReports:read'], name: 'ERP' }] }));
    expect(result).toMatchObject({ ok: true, counts: { companies: 2, apiKeys: 1, labelReports: 2 }, problems: [], problemCount: 0 });
    expect(reportCount(db.file)).toBe(2);
    const row = storedRow(db.file, 'r1')!;
    expect(row.updated).toBe('2026-05-01T10:00:00.000Z');
    expect(row.alert_level).toBe(1);
    const key = storedKey(db.file, hashKey('ldk_test_key_0123456789'))!;
    expect(key).toMatchObject({ companyId: 'acme', name: 'ERP', permissions: ['labelReports:read'], revoked: null });
  });

  it('tells the start of each step, the switch-in steps only when the bundle is imported', async () => {
    const told: string[] = [];
    expect(await importJson(freshDb(), bundle(), { onPhase: (phase) => told.push(phase) })).toMatchObject({ ok: true });
    expect(told).toEqual(['staging', 'checking', 'copying', 'listing', 'committing', 'analysing', 'done']);
    const refused: string[] = [];
    expect(await importJson(freshDb(), bundle({ labelReports: [report('r1', { mode: 'teleport' })] }), { onPhase: (phase) => refused.push(phase) })).toMatchObject({ ok: false });
    expect(refused).toEqual(['staging', 'checking', 'done']);
  });

  it('accepts an empty bundle and an empty object only with a version', async () => {
    expect(await importText(freshDb(), '{"version": 1}')).toMatchObject({ ok: true, counts: { companies: 0, apiKeys: 0, labelReports: 0 } });
    const empty = await importText(freshDb(), '{}');
    expect(lines(empty)).toEqual(['$.version: missing: a bundle starts with "version": 1']);
  });

  it('reports every problem with its JSON path and imports nothing', async () => {
    const db = freshDb();
    const bad = bundle({
      labelReports: [
        report('r1'),
        report('r2', { senseConfig: { limits: { minTemperature: 2, maxTemperature: 8 }, interval: 1.5, configTime: 1, startDelay: 0, runningTime: 0 } }),
        report('r3', { colour: 'blue' }),
        report('r4', { reportedSenseData: { datapoints: [{ timestamp: 1, temperature: 4 }, { timestamp: 2, temperature: 'warm' }] } }),
        report('r5', { mode: 'teleport' }),
      ],
    });
    const result = await importJson(db, bad);
    expect(result.ok).toBe(false);
    expect(lines(result)).toEqual([
      '$.labelReports[1].senseConfig.interval: Invalid input: expected int, received number',
      '$.labelReports[2].colour: unknown field "colour"',
      '$.labelReports[3].reportedSenseData.datapoints[1].temperature: Invalid input: expected number, received string',
      expect.stringMatching(/^\$\.labelReports\[4\]\.mode: Invalid option/),
    ]);
    expect(result.problemCount).toBe(4);
    expect(reportCount(db.file)).toBe(0);
    expect(db.companies.all()).toEqual([]);
  });

  it('checks the version, unknown top-level keys and the shape of the arrays', async () => {
    const result = await importJson(freshDb(), { version: 2, companies: {}, extra: [1, 2, { a: '}' }], labelReports: [] });
    expect(lines(result)).toEqual([
      '$.version: this LabelDesk reads bundle version 1, not 2',
      '$.companies: Invalid input: expected array, received object',
      '$.extra: unknown key "extra": a bundle has only version, companies, apiKeys and labelReports',
    ]);
    const text = await importText(freshDb(), '{"version": "1", "labelReports": [], "labelReports": []}');
    expect(lines(text)).toEqual(['$.version: this LabelDesk reads bundle version 1, not "1"', '$.labelReports: "labelReports" appears twice in the bundle']);
  });

  it('finds duplicate ids within the bundle', async () => {
    const result = await importJson(freshDb(), {
      ...bundle(),
      companies: [...COMPANIES, { id: 'acme', name: 'Acme again', shortCode: 'A2' }],
      apiKeys: [
        { key: 'ldk_same_key_0123456789', companyId: 'acme', permissions: [] },
        { keyHash: hashKey('ldk_same_key_0123456789'), companyId: 'acme', permissions: [] },
      ],
      labelReports: [report('r1'), report('r2'), report('r1')],
    });
    expect(lines(result)).toEqual([
      "$.companies[2].id: company 'acme' is listed twice (first at $.companies[0])",
      '$.apiKeys[1]: the same API key is listed twice (first at $.apiKeys[0])',
      "$.labelReports[2].id: report id 'r1' is used twice (first at $.labelReports[0])",
    ]);
  });

  it('checks company references against the bundle and the database, wherever they are listed', async () => {
    const db = freshDb();
    const result = await importJson(db, {
      labelReports: [
        report('r1', { companyId: 'ghost', access: [{ companyId: 'nordic', role: 'editor' }, { companyId: 'phantom', role: 'viewer' }] }),
        report('r2', { companyState: [{ companyId: 'acme', hasFlag: true, isArchived: false }, { companyId: 'nordic', hasFlag: true, isArchived: false }] }),
      ],
      apiKeys: [{ key: 'ldk_key_of_nobody_000', companyId: 'nobody', permissions: ['labelReports:read'] }],
      companies: COMPANIES,
      version: 1,
    });
    expect(lines(result)).toEqual([
      "$.labelReports[1].companyState[1].companyId: company 'nordic' has no access to this report: it is neither the owner nor listed in access",
      "$.labelReports[0].companyId: unknown company 'ghost': it is neither in the bundle's companies nor in the database",
      "$.labelReports[0].access[1].companyId: unknown company 'phantom': it is neither in the bundle's companies nor in the database",
      "$.apiKeys[0].companyId: unknown company 'nobody': it is neither in the bundle's companies nor in the database",
    ]);
    expect(reportCount(db.file)).toBe(0);

    // Companies already in the database count; reports may come before the companies they name.
    const second = await importJson(db, { labelReports: [report('r9', { companyId: 'nordic' })], companies: [COMPANIES[1]], version: 1 });
    expect(second.ok).toBe(true);
    const third = await importJson(db, { version: 1, labelReports: [report('r10', { companyId: 'nordic', access: [{ companyId: 'acme', role: 'viewer' }] })] });
    expect(lines(third)).toEqual(["$.labelReports[0].access[0].companyId: unknown company 'acme': it is neither in the bundle's companies nor in the database"]);
    expect(reportCount(db.file)).toBe(1);
  });

  it('reports malformed JSON once, at the place it breaks, and imports nothing', async () => {
    const cases: [string, RegExp][] = [
      ['', /^\$: invalid JSON: the bundle is empty/],
      ['[1, 2]', /^\$: invalid JSON: a bundle is a JSON object starting with "\{", found "\["/],
      ['{"version": 1, "labelReports": [', /^\$: invalid JSON: the bundle ends early/],
      ['{"version": 1, "labelReports": [{"id": "x",}]}', /^\$\.labelReports\[0\]: invalid JSON on line 1: /],
      ['{"version": 1, "companies": [{"id": "a", "name": "A", "shortCode": "A"},]}', /^\$\.companies\[1\]: invalid JSON: expected a value/],
      ['{"version": 1, "companies": [{"id": "a"]]}', /^\$\.companies\[0\]: invalid JSON: unexpected "\]"/],
      ['{"version": 1} {"version": 1}', /^\$: invalid JSON: unexpected "\{" after the end of the bundle/],
      ['{"version" 1}', /^\$\.version: invalid JSON: expected ":" after the key/],
      ['{"version": 1 "companies": []}', /^\$\.version: invalid JSON on line 1: /],
      ['{"version": 1,\n"companies": [\n{"id": "a", "name": "A", "shortCode": "A"},\n{"id": tru}\n]}', /^\$\.companies\[1\]: invalid JSON on line 4: /],
    ];
    for (const [text, expected] of cases) {
      const db = freshDb();
      const result = await importText(db, text);
      expect(result.ok, text).toBe(false);
      expect(result.problemCount, text).toBe(1);
      expect(lines(result)[0], text).toMatch(expected);
      expect(reportCount(db.file)).toBe(0);
    }
  });

  it('keeps at most maxProblems problems and counts the rest', async () => {
    const reports = Array.from({ length: 30 }, (_, i) => report(`r${i}`, { numberOfTaps: -1 }));
    const result = await importJson(freshDb(), bundle({ labelReports: reports }), { maxProblems: 10 });
    expect(result.problems).toHaveLength(10);
    expect(result.problemCount).toBe(30);
  });

  it('streams: the same result whatever the chunk boundaries, escapes and multi-byte text included', async () => {
    const tricky = bundle({
      companies: [...COMPANIES, { id: 'q"}{,]', name: 'Zoë «Kälte» ❄ \\ "quoted" [x] {y}, z', shortCode: '🧊' }],
      labelReports: [
        report('r1', { labelReference: 'SHP-2026-004512 \\"} ], {', customFields: [{ customFieldId: 'tags', value: ['a,b', 'c"d', 'é'] }] }),
        report('r2', { companyId: 'q"}{,]', label: { uid: '\u2028', sequenceCode: '\\', type: '}', name: ']', firmwareVersionInfo: { firmwareVersion: '"', firmwareApiVersion: '{' } } }),
      ],
    });
    const text = '\uFEFF' + JSON.stringify(tricky, null, 1);
    const whole = freshDb();
    expect((await importText(whole, text)).ok).toBe(true);
    const expected = await exported(whole);
    for (const size of [1, 2, 3, 5, 7, 64]) {
      const db = freshDb();
      const result = await importText(db, text, {}, size);
      expect(result.ok, `chunks of ${size}`).toBe(true);
      expect(await exported(db)).toBe(expected);
    }
  });

  it('upserts by id: a report imported again is replaced whole, others stay', async () => {
    const db = freshDb();
    await importJson(db, bundle({ labelReports: [report('r1', { access: [{ companyId: 'nordic', role: 'editor' }], customFields: [{ customFieldId: 'po', value: 'PO-1' }] }), report('r2')] }));
    const result = await importJson(db, { version: 1, labelReports: [report('r1', { labelReference: 'PO-88213', numberOfTaps: 0 })] });
    expect(result).toMatchObject({ ok: true, counts: { companies: 0, apiKeys: 0, labelReports: 1 } });
    const r1 = db.reports.retrieve(acmeReader, 'r1');
    expect(storedRow(db.file, 'r1')).toMatchObject({ label_reference: 'PO-88213', alert_level: -1 });
    expect(r1.access.map((a) => a.role)).toEqual(['owner']);
    expect(r1.customFields ?? []).toEqual([]);
    expect(storedRow(db.file, 'r2')).toBeDefined();
    expect(reportCount(db.file)).toBe(2);
  });

  it('imports keys by key or by hash, and a revocation in the database sticks', async () => {
    const db = freshDb();
    const key = 'ldk_imported_key_000111';
    await importJson(db, bundle({ apiKeys: [{ key, companyId: 'acme', permissions: ['labelReports:read', 'labelReports:read'] }] }));
    const record = storedKey(db.file, hashKey(key))!;
    expect(record.permissions).toEqual(['labelReports:read']);
    db.apiKeys.revoke(record.id);
    const { revoked } = storedKey(db.file, hashKey(key))!;
    expect(revoked).not.toBeNull();
    await importJson(db, { version: 1, apiKeys: [{ key, companyId: 'acme', permissions: ['labelReports:update'] }] });
    expect(storedKey(db.file, hashKey(key))).toMatchObject({ id: record.id, permissions: ['labelReports:update'], revoked });
    const hash = hashKey('another_key_9999999999');
    await importJson(db, { version: 1, apiKeys: [{ keyHash: hash, companyId: 'nordic', permissions: [], name: 'old', revoked: '2026-01-01T00:00:00.000Z' }] });
    expect(storedKey(db.file, hash)).toMatchObject({ companyId: 'nordic', name: 'old', revoked: '2026-01-01T00:00:00.000Z' });
  });

  it('leaves the database exactly as it was when the bundle fails late', async () => {
    const db = freshDb();
    await importJson(db, bundle());
    const before = await exported(db);
    const result = await importJson(db, {
      version: 1,
      companies: [{ id: 'acme', name: 'Renamed', shortCode: 'X' }],
      apiKeys: [{ key: 'ldk_new_key_123456789', companyId: 'acme', permissions: [] }],
      labelReports: [report('r1', { labelReference: 'changed' }), report('r3'), report('r4', { companyId: 'ghost' })],
    });
    expect(result.ok).toBe(false);
    expect(await exported(db)).toBe(before);
  });

  it('parses in a worker thread when asked (this thread works alone until the worker is ready), with the same outcome', async () => {
    const reports = Array.from({ length: 300 }, (_, i) => report(`w${i}`, { labelReference: `SHP-${i}` }));
    const text = JSON.stringify(bundle({ labelReports: reports }));
    const workerStarts = vi.spyOn(ParseWorker, 'start');
    onTestFinished(() => workerStarts.mockRestore());
    /**
     * The first chunk, then the rest once the import's worker is ready: the first chunk reaches
     * the pipeline before any worker can be (its ready message needs a turn of the event loop),
     * the rest after, so both paths and the hand-over run on any machine, however busy.
     */
    async function* firstChunkThenWorker(value: string) {
      const bytes = Buffer.from(value);
      yield bytes.subarray(0, 4096);
      await workerStarts.mock.results.at(-1)?.value;
      for (let i = 4096; i < bytes.length; i += 4096) yield bytes.subarray(i, i + 4096);
    }
    const alone = freshDb();
    const inProcess = await importText(alone, text, {}, 4096);
    const parallelDb = freshDb();
    const parallel = await parallelDb.importBundle(firstChunkThenWorker(text), { parallel: true });
    expect(parallel.parallel).toBe(true);
    expect(inProcess.parallel).toBe(false);
    expect(parallel.counts).toEqual(inProcess.counts);
    expect(await exported(parallelDb)).toBe(await exported(alone));
    const broken = await freshDb().importBundle(firstChunkThenWorker(text.replace('"SHP-17"', '17').replace('"w250"', '"w1"')), { parallel: true });
    expect(lines(broken)).toEqual([
      '$.labelReports[17].labelReference: Invalid input: expected string, received number',
      "$.labelReports[250].id: report id 'w1' is used twice (first at $.labelReports[1])",
    ]);
    // What follows the break is not looked at, even by a worker that went on past it.
    const syntax = await freshDb().importBundle(
      firstChunkThenWorker(text.replace('"w290"', 'w290').replace('"SHP-299"', '299')),
      { parallel: true },
    );
    expect(lines(syntax)).toEqual([expect.stringMatching(/^\$\.labelReports\[290\]: invalid JSON on line 1: /)]);
    expect(workerStarts).toHaveBeenCalledTimes(3 * PARSE_WORKERS);
  });
});

describe('validateBundleReport (the datapoint fast path)', () => {
  it('reads the datapoint rules from the schema (else every import would fall back to zod alone)', () => {
    expect(DATAPOINT_PLAN).not.toBeNull();
  });

  it('agrees with bundleReportSchema on every input, at and around every bound', () => {
    const edge = fc.constantFrom(
      -273.15, -273.16, -273.1499, 0, -0, -0.01, 100, 100.01, 99.99, 1.5, 2 ** 53, 2 ** 53 - 1, -(2 ** 53), 1e308,
      Number.MAX_VALUE, 4, 20.25,
    );
    const number = fc.oneof(edge, fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer());
    const field = fc.oneof({ weight: 8, arbitrary: number }, { weight: 1, arbitrary: fc.constantFrom<unknown>('4', null, true, [], {}, undefined) });
    const datapoint = fc.oneof(
      { weight: 10, arbitrary: fc.record({ timestamp: field, temperature: field }) },
      { weight: 5, arbitrary: fc.record({ timestamp: field, temperature: field, humidity: field }) },
      { weight: 1, arbitrary: fc.record({ timestamp: field, temperature: field, extra: field }) },
      { weight: 1, arbitrary: fc.record({ temperature: field, humidity: field }) },
      { weight: 1, arbitrary: fc.constantFrom<unknown>(null, 4, 'x', []) },
    );
    assertProperty(
      fc.property(fc.array(datapoint, { maxLength: 6 }), (datapoints) => {
        // As they would arrive from JSON: no undefined values.
        const input = JSON.parse(JSON.stringify(report('p', { reportedSenseData: { datapoints } })));
        const fast = validateBundleReport(input);
        const full = bundleReportSchema.safeParse(input);
        expect(fast.success).toBe(full.success);
        if (full.success) expect(fast.data).toEqual(full.data);
        else expect(fast.error!.issues).toEqual(full.error.issues);
      }),
      { numRuns: 3000 },
    );
  });
});

// ---------------------------------------------------------------------------------------------
// The command


const labeldesk = (args: string[], env: Record<string, string> = {}) => runLabeldesk(dir, args, env);

describe('labeldesk import', () => {
  it('prints the wall and CPU time of each step on standard error when asked, and nothing more on standard output', async () => {
    const good = join(dir, 'phases.json');
    writeFileSync(good, JSON.stringify(bundle()));
    const run = await labeldesk(['import', '--db', join(dir, 'phases.db'), good], { LABELDESK_IMPORT_PHASES: '1' });
    expect(run.code).toBe(0);
    expect(run.stdout.trim()).toBe('imported 2 companies, 0 API keys, 2 label reports');
    const printed = run.stderr.trim().split('\n');
    expect(printed.map((line) => /^phase (\w+)/.exec(line)?.[1])).toEqual(['staging', 'checking', 'copying', 'listing', 'committing', 'analysing', 'total']);
    for (const line of printed.slice(0, -1)) expect(line).toMatch(/^phase \w+: \d+\.\d\d s wall, \d+\.\d\d s cpu$/);
    expect(printed.at(-1)).toMatch(/^phase total: cpu \d+\.\d\d s since the process started$/);
  });

  it('imports a good bundle, refuses a bad one with every problem and changes nothing, and upserts', async () => {
    const dbFile = join(dir, 'cli.db');
    const good = join(dir, 'good.json');
    writeFileSync(good, JSON.stringify(bundle({ apiKeys: [{ key: 'ldk_cli_key_0123456789', companyId: 'acme', permissions: ['labelReports:read'] }] })));
    const first = await labeldesk(['import', '--db', dbFile, good]);
    expect(first.stderr).toBe('');
    expect(first.stdout.trim()).toBe('imported 2 companies, 1 API key, 2 label reports');
    expect(first.code).toBe(0);

    const db = openService(dbFile);
    const before = await exported(db);
    db.close();

    const bad = join(dir, 'bad.json');
    writeFileSync(
      bad,
      JSON.stringify(
        bundle({
          labelReports: [
            report('r1', { labelReference: 'would change' }),
            report('r3', { senseConfig: { limits: { minTemperature: 2, maxTemperature: 8 }, interval: 1.5, configTime: 1, startDelay: 0, runningTime: 0 } }),
            report('r4', { companyId: 'ghost' }),
            report('r1'),
          ],
        }),
        null,
        2,
      ),
    );
    const second = await labeldesk(['import', '--db', dbFile, bad]);
    expect(second.code).toBe(1);
    expect(second.stdout).toBe('');
    expect(second.stderr.trim().split('\n')).toEqual([
      '$.labelReports[1].senseConfig.interval: Invalid input: expected int, received number',
      "$.labelReports[3].id: report id 'r1' is used twice (first at $.labelReports[0])",
      "$.labelReports[2].companyId: unknown company 'ghost': it is neither in the bundle's companies nor in the database",
      'import failed: 3 problems; nothing was imported',
    ]);
    const unchanged = openService(dbFile);
    expect(await exported(unchanged)).toBe(before);
    unchanged.close();

    const update = join(dir, 'update.json');
    writeFileSync(update, JSON.stringify({ version: 1, labelReports: [report('r2', { labelReference: 'PO-88213' }), report('r5')] }));
    const third = await labeldesk(['import', '--db', dbFile, update]);
    expect(third.stdout.trim()).toBe('imported 0 companies, 0 API keys, 2 label reports');
    expect(reportCount(dbFile)).toBe(3);
    expect(storedRow(dbFile, 'r2')!.label_reference).toBe('PO-88213');
  });

  // What the command says, through its entry in this process; the tests above run the binary.
  it('explains a missing bundle, a missing folder and bad arguments', async () => {
    const missing = await runLabeldeskInProcess(['import', '--db', join(dir, 'x.db'), join(dir, 'nope.json')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^labeldesk import: cannot read the bundle .*nope\.json: no such file/);
    const folder = await runLabeldeskInProcess(['import', '--db', join(dir, 'no', 'such', 'x.db'), join(dir, 'good.json')]);
    expect(folder.code).toBe(1);
    expect(folder.stderr).toMatch(/the folder .* does not exist/);
    const usage = await runLabeldeskInProcess(['import', '--db']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/option --db needs a value/);
    expect(usage.stderr).toMatch(/usage: labeldesk import/);
    const notJson = join(dir, 'notjson.json');
    writeFileSync(notJson, 'hello');
    const broken = await runLabeldeskInProcess(['import', '--db', join(dir, 'y.db'), notJson]);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain('$: invalid JSON: a bundle is a JSON object starting with "{", found "h"');
    expect(readFileSync(notJson, 'utf8')).toBe('hello');
  });
});
