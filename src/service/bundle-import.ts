/**
 * Importing a bundle (decisions §4): validate everything, write everything in ONE transaction,
 * upserting by id; when anything is wrong, report every problem with its JSON path and write
 * nothing.
 *
 * The bundle is streamed: a byte-level scanner walks the top-level object and hands over one
 * element of `companies`, `apiKeys` or `labelReports` at a time; each element is parsed,
 * validated and written inside an open transaction as it arrives, so memory is bounded by the
 * largest element, not by the bundle. Checks that need the whole bundle (company references,
 * duplicate ids) go through temporary tables, which SQLite spills to disk, and run at the end,
 * before COMMIT. Foreign keys are deferred to COMMIT, so a bundle may list its reports before
 * the companies they name.
 *
 * Three steps: the *reader* (a byte scanner) splits the bytes into top-level values; the
 * *processor* (JSON.parse, zod, sense figures; no database) turns each value into an outcome;
 * the *sink* applies the outcomes to the database (duplicates, references, writes). With
 * `parallel: true` the processor runs in a worker thread, so parsing overlaps scanning and
 * writing.
 *
 * Why not stream-json's token parser: on its own it tokenises about 4 000 reports of 200
 * datapoints a second, below the import target before any validation or writing; splitting
 * elements here and handing each one to the native JSON.parse is several times faster, with the
 * same bounded memory.
 */
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import type { Statement } from 'better-sqlite3';
import type { z } from 'zod';
import { CompanyStore } from '../db/company-store';
import type { Db } from '../db/database';
import { KeyStore } from '../db/key-store';
import { ReportStore } from '../db/report-store';
import {
  BUNDLE_VERSION,
  bundleApiKeySchema,
  bundleCompanySchema,
  bundleReportSchema,
  type BundleApiKey,
  type BundleReport,
} from '../schema/bundle';
import type { Company, Permission } from '../schema/report';
import { hashKey } from './api-keys';
import { recordFromBundle, type ReportRecord } from './report-record';
import { formatPath } from './zod-messages';

export const MAX_PROBLEMS = 100;
/** A single value (one report) larger than this is refused: it could not be held in memory as one string. */
export const MAX_ELEMENT_BYTES = 256 * 1024 * 1024;
const MAX_DEPTH = 512;

export interface ImportProblem {
  /** JSON path of the offending input, `$.labelReports[3].senseConfig.interval`. */
  path: string;
  message: string;
}

export interface ImportCounts {
  companies: number;
  apiKeys: number;
  labelReports: number;
}

export interface ImportResult {
  /** True when the bundle was valid and its content is committed. */
  ok: boolean;
  /** Valid elements seen; when `ok`, what was imported. */
  counts: ImportCounts;
  /** The first problems found (at most `maxProblems`), in bundle order; empty when `ok`. */
  problems: ImportProblem[];
  /** Every problem found, including those beyond `problems`. */
  problemCount: number;
  /** Whether a worker thread did the parsing (see `ImportOptions.parallel`). */
  parallel: boolean;
}

export interface ImportOptions {
  /** How many problems to keep in `problems`; counting goes on past it. Default 100. */
  maxProblems?: number;
  /** Creation time of API keys new to the database. */
  now?: () => Date;
  maxElementBytes?: number;
  /**
   * Parse and validate in a worker thread while this thread writes. Worth it for large bundles
   * (it costs a worker start); falls back to a single thread when no worker can be started.
   */
  parallel?: boolean;
}

export type BundleSource = AsyncIterable<Buffer | Uint8Array | string>;

/**
 * Reads, validates and imports a bundle. Resolves with the problems when the bundle is invalid
 * (nothing is written then); rejects only when reading or the database fails, after rolling back.
 * The connection must not be used by anyone else until the promise settles: the transaction
 * stays open across reads.
 */
export async function importBundle(db: Db, source: BundleSource, options: ImportOptions = {}): Promise<ImportResult> {
  if (db.inTransaction) throw new Error('importBundle needs a connection without an open transaction');
  db.exec('BEGIN IMMEDIATE');
  let sink: ImportSink | undefined;
  const pipeline = new Pipeline(options.parallel === true);
  try {
    db.pragma('defer_foreign_keys = ON');
    sink = new ImportSink(db, options);
    await pipeline.run(new BundleReader(options.maxElementBytes ?? MAX_ELEMENT_BYTES), source, sink);
    sink.finish();
    const ok = sink.problemCount === 0;
    if (ok) {
      sink.dropTemporaryTables();
      db.exec('COMMIT');
    } else {
      db.exec('ROLLBACK');
    }
    return { ok, counts: sink.counts, problems: sink.problems, problemCount: sink.problemCount, parallel: pipeline.usedWorker };
  } catch (err) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw err;
  } finally {
    pipeline.close();
    // After a ROLLBACK the temporary tables are gone already; after a COMMIT they were dropped.
    if (!db.inTransaction && db.open) sink?.dropTemporaryTables();
  }
}

/** At most this many batches are with the worker at once: enough to overlap, little to hold. */
const BATCHES_IN_FLIGHT = 2;

/**
 * Moves the reader's events through the processor into the sink. This thread reads, scans and
 * writes; with a worker, the worker parses, validates and computes the rows in between. Until
 * the worker is ready (it takes a moment to start), this thread processes the events itself,
 * so a worker never delays an import.
 */
class Pipeline {
  usedWorker = false;
  private worker: ParseWorker | null = null;
  private readonly starting: Promise<ParseWorker | null> | null;
  private readonly local = new ElementProcessor();
  private inFlight = 0;
  private fatal = false;
  private closed = false;

  constructor(parallel: boolean) {
    this.starting = parallel ? ParseWorker.start() : null;
    void this.starting?.then((worker) => {
      if (this.closed) worker?.close();
      else this.worker = worker;
    });
  }

  async run(reader: BundleReader, source: BundleSource, sink: ImportSink): Promise<void> {
    for await (const chunk of source) {
      reader.push(toBytes(chunk));
      await this.forward(reader.take(), sink);
      if (this.fatal || reader.fatal) break;
    }
    if (!this.fatal && !reader.fatal) reader.end();
    await this.forward(reader.take(), sink);
    while (this.inFlight > 0) await this.receive(sink);
  }

  close(): void {
    this.closed = true;
    this.worker?.close();
  }

  private async forward(events: ScanEvent[], sink: ImportSink): Promise<void> {
    if (events.length === 0 || this.fatal) return;
    const worker = this.worker;
    if (worker === null) {
      this.local.buildRecords = sink.problemCount === 0;
      const outcomes = this.local.process(events);
      sink.applyAll(outcomes);
      if (this.local.fatal) this.fatal = true;
      return;
    }
    this.usedWorker = true;
    worker.send(events);
    this.inFlight++;
    while (this.inFlight >= BATCHES_IN_FLIGHT) await this.receive(sink);
  }

  private async receive(sink: ImportSink): Promise<void> {
    const outcomes = await this.worker!.next();
    this.inFlight--;
    sink.applyAll(outcomes);
    if (outcomes.length > 0 && outcomes[outcomes.length - 1].t === 'fatal') this.fatal = true;
  }
}

function toBytes(chunk: Buffer | Uint8Array | string): Uint8Array {
  return typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
}

// ---------------------------------------------------------------------------------------------
// Validation

/**
 * `bundleReportSchema.safeParse`, with a fast path for the datapoints: a report carries
 * thousands of them, and checking them by hand is an order of magnitude quicker than zod. The
 * hand check is derived from the schema itself (see `datapointPlan`) and only ever accepts what
 * the schema accepts; whenever it is unsure, zod decides (and words the problems).
 */
export function validateBundleReport(value: unknown): z.ZodSafeParseResult<BundleReport> {
  const plan = DATAPOINT_PLAN;
  if (plan !== null && isPlainObject(value) && isPlainObject(value.reportedSenseData)) {
    const datapoints = value.reportedSenseData.datapoints;
    if (Array.isArray(datapoints) && datapointsAreValid(datapoints, plan)) {
      const shallow = { ...value, reportedSenseData: { ...value.reportedSenseData, datapoints: [] } };
      const result = bundleReportSchema.safeParse(shallow);
      if (result.success) result.data.reportedSenseData.datapoints = datapoints as BundleReport['reportedSenseData']['datapoints'];
      return result;
    }
  }
  return bundleReportSchema.safeParse(value);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What a number field of a datapoint must be, read from its zod schema: the tightest bounds. */
interface NumberRule {
  integer: boolean;
  min: number;
  /** Whether `min` itself is allowed. */
  minInclusive: boolean;
  max: number;
  maxInclusive: boolean;
}

interface DatapointPlan {
  timestamp: NumberRule;
  temperature: NumberRule;
  /** null when the schema has no optional humidity. */
  humidity: NumberRule | null;
  maxLength: number;
}

/**
 * The datapoint rules, read from `bundleReportSchema` once. Anything this does not recognise
 * (another field, a refinement, an unknown check) gives null: no fast path, zod checks
 * everything. So a change to the schema can make the import slower, never wrong.
 */
export const DATAPOINT_PLAN: DatapointPlan | null = datapointPlan();

function datapointPlan(): DatapointPlan | null {
  try {
    type Loose = { def: Record<string, any>; shape?: Record<string, Loose> };
    const reported = (bundleReportSchema as unknown as Loose).shape?.reportedSenseData;
    if (reported?.def.type !== 'object') return null;
    const array = reported.shape?.datapoints;
    if (array?.def.type !== 'array') return null;
    let maxLength = Infinity;
    for (const check of array.def.checks ?? []) {
      const d = check._zod.def;
      if (d.check !== 'max_length') return null;
      maxLength = Math.min(maxLength, d.maximum);
    }
    const element = array.def.element as Loose;
    if (element.def.type !== 'object' || element.def.catchall?.def?.type !== 'never' || (element.def.checks ?? []).length > 0) return null;
    const shape = element.shape ?? {};
    const keys = Object.keys(shape).sort().join(',');
    if (keys !== 'humidity,temperature,timestamp' && keys !== 'temperature,timestamp') return null;
    const timestamp = numberRule(shape.timestamp);
    const temperature = numberRule(shape.temperature);
    let humidity: NumberRule | null = null;
    if (shape.humidity) {
      if (shape.humidity.def.type !== 'optional') return null;
      humidity = numberRule(shape.humidity.def.innerType);
      if (humidity === null) return null;
    }
    if (timestamp === null || temperature === null) return null;
    return { timestamp, temperature, humidity, maxLength };
  } catch {
    return null;
  }
}

function numberRule(schema: { def: Record<string, any> } | undefined): NumberRule | null {
  if (!schema || schema.def.type !== 'number') return null;
  const rule: NumberRule = { integer: false, min: -Infinity, minInclusive: true, max: Infinity, maxInclusive: true };
  if (schema.def.format !== undefined) {
    if (schema.def.format !== 'safeint') return null;
    rule.integer = true;
  }
  for (const check of schema.def.checks ?? []) {
    const d = check._zod.def as { check: string; value?: number; inclusive?: boolean; format?: string };
    if (d.check === 'greater_than' && typeof d.value === 'number') {
      if (d.value > rule.min || (d.value === rule.min && !d.inclusive)) {
        rule.min = d.value;
        rule.minInclusive = d.inclusive === true;
      }
    } else if (d.check === 'less_than' && typeof d.value === 'number') {
      if (d.value < rule.max || (d.value === rule.max && !d.inclusive)) {
        rule.max = d.value;
        rule.maxInclusive = d.inclusive === true;
      }
    } else if (d.check === 'number_format' && d.format === 'safeint') {
      rule.integer = true;
    } else {
      return null;
    }
  }
  return rule;
}

function numberFits(v: unknown, rule: NumberRule): boolean {
  if (typeof v !== 'number' || !Number.isFinite(v)) return false;
  if (rule.integer && !Number.isSafeInteger(v)) return false;
  if (rule.minInclusive ? v < rule.min : v <= rule.min) return false;
  return rule.maxInclusive ? v <= rule.max : v < rule.max;
}

/** True only when every element fits the plan exactly (no other keys, every rule met). */
function datapointsAreValid(datapoints: readonly unknown[], plan: DatapointPlan): boolean {
  if (datapoints.length > plan.maxLength) return false;
  const { timestamp, temperature, humidity } = plan;
  for (let i = 0; i < datapoints.length; i++) {
    const d = datapoints[i] as Record<string, unknown>;
    if (typeof d !== 'object' || d === null || Array.isArray(d)) return false;
    let keys = 0;
    for (const k in d) {
      if (k !== 'timestamp' && k !== 'temperature' && k !== 'humidity') return false;
      keys++;
    }
    if (!numberFits(d.timestamp, timestamp) || !numberFits(d.temperature, temperature)) return false;
    if (keys === 3) {
      if (humidity === null || !numberFits(d.humidity, humidity)) return false;
    } else if (keys !== 2) {
      return false;
    }
  }
  return true;
}

const [apiKeyWithKeySchema, apiKeyWithHashSchema] = bundleApiKeySchema.options;

/** Ids derived from their inputs and UUID-shaped, so that importing twice gives the same rows. */
export function derivedUuid(...parts: (string | number)[]): string {
  const h = createHash('sha256').update(parts.join('\0')).digest('hex');
  const variant = ((parseInt(h[16], 16) & 3) | 8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

// ---------------------------------------------------------------------------------------------
// Stage 1: the reader (this thread) splits the bytes into values; the processor (a worker when
// parallel) parses and validates each value and computes its row. No database in either.

/** What the reader found, in bundle order. */
type ScanEvent =
  | { t: 'problem'; path: string; message: string }
  /** The bundle cannot be read further (its problem came just before). */
  | { t: 'fatal' }
  | { t: 'element'; key: ArrayKey; index: number; text: string; line: number }
  /** A whole top-level value; `expectedArray` when the key's value should have been an array. */
  | { t: 'whole'; key: string; text: string; line: number; expectedArray: boolean };

/** What the processor made of the events, in bundle order; the sink applies them one by one. */
type Outcome =
  | { t: 'problem'; path: string; message: string }
  | { t: 'fatal' }
  | { t: 'version' }
  /** A company element: `company` when valid; `id` when it has one, valid or not. */
  | { t: 'company'; index: number; id: string | null; company: Company | null }
  | { t: 'apiKey'; index: number; key: ValidApiKey }
  /**
   * A report that passed the schema: its references, and its row when nothing else is wrong
   * with it (null when a problem was reported for it, or once records are no longer needed).
   */
  | { t: 'report'; index: number; id: string; companies: ReportCompanies; valid: boolean; record: ReportRecord | null };

interface ValidApiKey {
  keyHash: string;
  companyId: string;
  name: string | null;
  permissions: Permission[];
  revoked: string | undefined;
}

interface ReportCompanies {
  owner: string;
  access: string[];
  states: string[];
}

type KeyMode = 'elements' | 'whole' | 'skip';
const ARRAY_KEYS = ['companies', 'apiKeys', 'labelReports'] as const;
type ArrayKey = (typeof ARRAY_KEYS)[number];
const KNOWN_KEYS = new Set<string>(['version', ...ARRAY_KEYS]);

interface ScanHandler {
  startKey(key: string): KeyMode;
  element(key: string, index: number, text: string, line: number): void;
  /** A whole top-level value; `expectedArray` when the key streams elements but its value is no array. */
  whole(key: string, text: string, line: number, expectedArray: boolean): void;
}

/** The scanner's handler: decides what to do with each top-level key and queues the values. */
class BundleReader implements ScanHandler {
  fatal = false;
  private events: ScanEvent[] = [];
  private readonly seenKeys = new Set<string>();
  private readonly scanner: BundleScanner;

  constructor(maxElementBytes: number) {
    this.scanner = new BundleScanner(this, maxElementBytes);
  }

  push(chunk: Uint8Array): void {
    if (!this.fatal) this.guard(() => this.scanner.push(chunk));
  }

  end(): void {
    if (!this.fatal) this.guard(() => this.scanner.end());
  }

  /** The events since the last call. */
  take(): ScanEvent[] {
    const out = this.events;
    this.events = [];
    return out;
  }

  startKey(key: string): KeyMode {
    const path = keyPath(key);
    if (this.seenKeys.has(key)) {
      this.events.push({ t: 'problem', path, message: `"${key}" appears twice in the bundle` });
      return 'skip';
    }
    this.seenKeys.add(key);
    if (!KNOWN_KEYS.has(key)) {
      this.events.push({ t: 'problem', path, message: `unknown key "${key}": a bundle has only version, companies, apiKeys and labelReports` });
      return 'skip';
    }
    return key === 'version' ? 'whole' : 'elements';
  }

  element(key: string, index: number, text: string, line: number): void {
    this.events.push({ t: 'element', key: key as ArrayKey, index, text, line });
  }

  whole(key: string, text: string, line: number, expectedArray: boolean): void {
    this.events.push({ t: 'whole', key, text, line, expectedArray });
  }

  private guard(step: () => void): void {
    try {
      step();
    } catch (err) {
      if (!(err instanceof BundleSyntaxError)) throw err;
      this.events.push({ t: 'problem', path: err.path, message: err.message }, { t: 'fatal' });
      this.fatal = true;
    }
  }
}

class ElementProcessor {
  /** False once the import is bound to fail: rows would only be rolled back. */
  buildRecords = true;
  fatal = false;
  private outcomes: Outcome[] = [];

  process(events: readonly ScanEvent[]): Outcome[] {
    this.outcomes = [];
    for (const event of events) {
      if (this.fatal) break;
      try {
        this.handle(event);
      } catch (err) {
        if (!(err instanceof BundleSyntaxError)) throw err;
        this.problem(err.path, err.message);
        this.outcomes.push({ t: 'fatal' });
        this.fatal = true;
      }
    }
    return this.outcomes;
  }

  private handle(event: ScanEvent): void {
    switch (event.t) {
      case 'problem':
        return this.problem(event.path, event.message);
      case 'fatal':
        this.outcomes.push(event);
        this.fatal = true;
        return;
      case 'whole':
        return this.whole(event.key, event.text, event.line, event.expectedArray);
      case 'element':
        return this.element(event.key, event.index, event.text, event.line);
    }
  }

  private whole(key: string, text: string, line: number, expectedArray: boolean): void {
    const value = parseElement(text, keyPath(key), line);
    if (expectedArray) {
      this.problem(keyPath(key), `Invalid input: expected array, received ${typeName(value)}`);
      return;
    }
    // The only whole value is the version.
    this.outcomes.push({ t: 'version' });
    if (value !== BUNDLE_VERSION) {
      this.problem('$.version', `this LabelDesk reads bundle version ${BUNDLE_VERSION}, not ${JSON.stringify(value)}`);
    }
  }

  private element(key: ArrayKey, index: number, text: string, line: number): void {
    const path = `${keyPath(key)}[${index}]`;
    const value = parseElement(text, path, line);
    switch (key) {
      case 'companies':
        return this.company(value, index, path);
      case 'apiKeys':
        return this.apiKey(value, index, path);
      case 'labelReports':
        return this.report(value, index, path);
    }
  }

  private company(value: unknown, index: number, path: string): void {
    const parsed = bundleCompanySchema.safeParse(value);
    const id = isPlainObject(value) && typeof value.id === 'string' ? value.id : null;
    if (!parsed.success) this.zodProblems(parsed.error, path);
    this.outcomes.push({ t: 'company', index, id, company: parsed.success ? (parsed.data as Company) : null });
  }

  private apiKey(value: unknown, index: number, path: string): void {
    let parsed: z.ZodSafeParseResult<BundleApiKey>;
    if (isPlainObject(value) && 'key' in value) parsed = apiKeyWithKeySchema.safeParse(value);
    else if (isPlainObject(value) && 'keyHash' in value) parsed = apiKeyWithHashSchema.safeParse(value);
    else if (isPlainObject(value)) return this.problem(path, 'an API key needs either "key" or "keyHash"');
    else parsed = apiKeyWithKeySchema.safeParse(value);
    if (!parsed.success) return this.zodProblems(parsed.error, path);
    const key = parsed.data;
    this.outcomes.push({
      t: 'apiKey',
      index,
      key: {
        keyHash: 'key' in key ? hashKey(key.key) : key.keyHash,
        companyId: key.companyId,
        name: key.name ?? null,
        permissions: [...new Set(key.permissions)],
        revoked: 'revoked' in key ? key.revoked : undefined,
      },
    });
  }

  private report(value: unknown, index: number, path: string): void {
    const parsed = validateBundleReport(value);
    if (!parsed.success) return this.zodProblems(parsed.error, path);
    const report = parsed.data;
    const companies: ReportCompanies = {
      owner: report.companyId,
      access: (report.access ?? []).map((a) => a.companyId),
      states: (report.companyState ?? []).map((s) => s.companyId),
    };
    const holders = new Set([companies.owner, ...companies.access]);
    let valid = true;
    for (const [i, companyId] of companies.states.entries()) {
      if (!holders.has(companyId)) {
        this.problem(
          `${path}.companyState[${i}].companyId`,
          `company '${companyId}' has no access to this report: it is neither the owner nor listed in access`,
        );
        valid = false;
      }
    }
    const record = valid && this.buildRecords ? recordFromBundle(report) : null;
    this.outcomes.push({ t: 'report', index, id: report.id, companies, valid, record });
  }

  private problem(path: string, message: string): void {
    this.outcomes.push({ t: 'problem', path, message });
    this.buildRecords = false;
  }

  private zodProblems(error: z.ZodError, path: string): void {
    for (const issue of error.issues) {
      if (issue.code === 'unrecognized_keys') {
        // One problem per unknown field, at the field's own path.
        for (const key of issue.keys) this.problem(formatPath([...issue.path, key], path), `unknown field "${key}"`);
      } else {
        this.problem(formatPath(issue.path, path), issue.message);
      }
    }
  }
}

function keyPath(key: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? `$.${key}` : `$[${JSON.stringify(key)}]`;
}

function typeName(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
}

function parseElement(text: string, path: string, line: number): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    // V8 names a position within this value; people want the line in the file.
    const message = (err as Error).message;
    const position = /at position (\d+)/.exec(message);
    let at = line;
    if (position) for (let i = 0, end = Math.min(text.length, Number(position[1])); i < end; i++) if (text.charCodeAt(i) === 10) at++;
    throw new BundleSyntaxError(path, `invalid JSON on line ${at}: ${message}`);
  }
}

// ---------------------------------------------------------------------------------------------
// Stage 2, the sink: applies outcomes to the database inside the open transaction.

const REF_CACHE_LIMIT = 10_000;

class ImportSink {
  readonly counts: ImportCounts = { companies: 0, apiKeys: 0, labelReports: 0 };
  readonly problems: ImportProblem[] = [];
  problemCount = 0;
  private fatal = false;
  private versionSeen = false;
  private readonly maxProblems: number;
  private readonly now: string;
  private readonly companies: CompanyStore;
  private readonly keys: KeyStore;
  private readonly reports: ReportStore;
  private readonly rememberReport: Statement;
  private readonly firstReport: Statement;
  private readonly rememberCompany: Statement;
  private readonly firstCompany: Statement;
  private readonly rememberKey: Statement;
  private readonly firstKey: Statement;
  private readonly rememberRef: Statement;
  private readonly knownRefs = new Set<string>();
  private tablesDropped = false;

  constructor(
    private readonly db: Db,
    options: ImportOptions,
  ) {
    this.maxProblems = options.maxProblems ?? MAX_PROBLEMS;
    this.now = (options.now?.() ?? new Date()).toISOString();
    this.companies = new CompanyStore(db);
    this.keys = new KeyStore(db);
    this.reports = new ReportStore(db);
    db.exec(`
      CREATE TEMP TABLE ld_import_reports (id TEXT PRIMARY KEY, idx INTEGER NOT NULL) WITHOUT ROWID;
      CREATE TEMP TABLE ld_import_companies (id TEXT PRIMARY KEY, idx INTEGER NOT NULL) WITHOUT ROWID;
      CREATE TEMP TABLE ld_import_keys (hash TEXT PRIMARY KEY, idx INTEGER NOT NULL) WITHOUT ROWID;
      CREATE TEMP TABLE ld_import_refs (company_id TEXT PRIMARY KEY, path TEXT NOT NULL);
    `);
    this.rememberReport = db.prepare('INSERT OR IGNORE INTO temp.ld_import_reports (id, idx) VALUES (?, ?)');
    this.firstReport = db.prepare('SELECT idx FROM temp.ld_import_reports WHERE id = ?').pluck();
    this.rememberCompany = db.prepare('INSERT OR IGNORE INTO temp.ld_import_companies (id, idx) VALUES (?, ?)');
    this.firstCompany = db.prepare('SELECT idx FROM temp.ld_import_companies WHERE id = ?').pluck();
    this.rememberKey = db.prepare('INSERT OR IGNORE INTO temp.ld_import_keys (hash, idx) VALUES (?, ?)');
    this.firstKey = db.prepare('SELECT idx FROM temp.ld_import_keys WHERE hash = ?').pluck();
    this.rememberRef = db.prepare('INSERT OR IGNORE INTO temp.ld_import_refs (company_id, path) VALUES (?, ?)');
  }

  applyAll(outcomes: readonly Outcome[]): void {
    for (const outcome of outcomes) this.apply(outcome);
  }

  /** Checks that need the whole bundle; runs after the last element. */
  finish(): void {
    if (this.fatal) return;
    if (!this.versionSeen) this.problem('$.version', `missing: a bundle starts with "version": ${BUNDLE_VERSION}`);
    const unknown = this.db
      .prepare(
        `SELECT company_id, path FROM temp.ld_import_refs
         WHERE company_id NOT IN (SELECT id FROM main.companies)
           AND company_id NOT IN (SELECT id FROM temp.ld_import_companies)
         ORDER BY rowid`,
      )
      .all() as { company_id: string; path: string }[];
    for (const { company_id, path } of unknown) {
      this.problem(path, `unknown company '${company_id}': it is neither in the bundle's companies nor in the database`);
    }
  }

  dropTemporaryTables(): void {
    if (this.tablesDropped) return;
    this.tablesDropped = true;
    this.db.exec(`
      DROP TABLE IF EXISTS temp.ld_import_reports;
      DROP TABLE IF EXISTS temp.ld_import_companies;
      DROP TABLE IF EXISTS temp.ld_import_keys;
      DROP TABLE IF EXISTS temp.ld_import_refs;
    `);
  }

  private problem(path: string, message: string): void {
    this.problemCount++;
    if (this.problems.length < this.maxProblems) this.problems.push({ path, message });
  }

  private apply(o: Outcome): void {
    switch (o.t) {
      case 'problem':
        return this.problem(o.path, o.message);
      case 'fatal':
        this.fatal = true;
        return;
      case 'version':
        this.versionSeen = true;
        return;
      case 'company':
        return this.company(o.index, o.id, o.company);
      case 'apiKey':
        return this.apiKey(o.index, o.key);
      case 'report':
        return this.report(o.index, o.id, o.companies, o.valid, o.record);
    }
  }

  private company(index: number, id: string | null, company: Company | null): void {
    // Every id the bundle declares counts as known, valid or not, so that a broken company is
    // reported once and not again at each report that names it.
    if (id !== null && this.rememberCompany.run(id, index).changes === 0) {
      const first = this.firstCompany.get(id) as number;
      return this.problem(`$.companies[${index}].id`, `company '${id}' is listed twice (first at $.companies[${first}])`);
    }
    if (company === null) return;
    this.companies.upsert(company);
    this.counts.companies++;
  }

  private apiKey(index: number, key: ValidApiKey): void {
    const path = `$.apiKeys[${index}]`;
    if (this.rememberKey.run(key.keyHash, index).changes === 0) {
      const first = this.firstKey.get(key.keyHash) as number;
      return this.problem(path, `the same API key is listed twice (first at $.apiKeys[${first}])`);
    }
    this.reference(key.companyId, `${path}.companyId`);
    const existing = this.keys.findByHash(key.keyHash);
    this.keys.upsert({
      id: existing?.id ?? derivedUuid('apiKey', key.keyHash),
      keyHash: key.keyHash,
      companyId: key.companyId,
      name: key.name,
      permissions: key.permissions,
      created: existing?.created ?? this.now,
      // A revocation in the database sticks: importing an older bundle never brings a key back.
      revoked: key.revoked ?? existing?.revoked ?? null,
    });
    this.counts.apiKeys++;
  }

  private report(index: number, id: string, companies: ReportCompanies, valid: boolean, record: ReportRecord | null): void {
    const path = `$.labelReports[${index}]`;
    if (this.rememberReport.run(id, index).changes === 0) {
      const first = this.firstReport.get(id) as number;
      return this.problem(`${path}.id`, `report id '${id}' is used twice (first at $.labelReports[${first}])`);
    }
    this.reference(companies.owner, `${path}.companyId`);
    companies.access.forEach((c, i) => this.reference(c, `${path}.access[${i}].companyId`));
    companies.states.forEach((c, i) => this.reference(c, `${path}.companyState[${i}].companyId`));
    if (!valid) return;
    this.counts.labelReports++;
    // Once the import is bound to fail, writing more would only be rolled back.
    if (this.problemCount > 0 || record === null) return;
    const row = Buffer.isBuffer(record.row.datapoints)
      ? record.row
      : { ...record.row, datapoints: Buffer.from(record.row.datapoints as Uint8Array) };
    this.reports.replace(row, record.access, record.states, record.customFields);
  }

  private reference(companyId: string, path: string): void {
    if (this.knownRefs.has(companyId)) return;
    if (this.knownRefs.size >= REF_CACHE_LIMIT) this.knownRefs.clear();
    this.knownRefs.add(companyId);
    this.rememberRef.run(companyId, path);
  }
}

// ---------------------------------------------------------------------------------------------
// The worker: the processor in its own thread. It runs this very module; under tsx (the
// command line, the tests) the worker registers tsx first, as workers do not inherit loaders.

const WORKER_FLAG = 'labeldeskBundleImportWorker';

class ParseWorker {
  private readonly queue: Outcome[][] = [];
  private failure: Error | null = null;
  private wake: (() => void) | null = null;
  private closed = false;

  private constructor(private readonly worker: Worker) {
    worker.on('message', (outcomes: Outcome[]) => {
      this.queue.push(outcomes);
      this.notify();
    });
    worker.on('error', (err) => {
      this.failure ??= err;
      this.notify();
    });
    worker.on('exit', (code) => {
      if (!this.closed) this.failure ??= new Error(`the import worker stopped unexpectedly (exit code ${code})`);
      this.notify();
    });
  }

  /** A ready worker, or null when none can be started here (the caller then works alone). */
  static async start(): Promise<ParseWorker | null> {
    let worker: Worker;
    try {
      worker = new Worker(bootstrapCode(), { eval: true, workerData: { [WORKER_FLAG]: true }, stdout: false, stderr: false });
    } catch {
      return null;
    }
    const ready = await new Promise<boolean>((resolve) => {
      worker.once('message', (m: unknown) => resolve((m as { ready?: boolean }).ready === true));
      worker.once('error', () => resolve(false));
      worker.once('exit', () => resolve(false));
    });
    if (!ready) {
      await worker.terminate();
      return null;
    }
    return new ParseWorker(worker);
  }

  send(events: ScanEvent[]): void {
    this.worker.postMessage(events);
  }

  /** The outcomes of the oldest batch not yet received. */
  async next(): Promise<Outcome[]> {
    for (;;) {
      const outcomes = this.queue.shift();
      if (outcomes) return outcomes;
      if (this.failure) throw this.failure;
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    void this.worker.terminate();
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }
}

function bootstrapCode(): string {
  const self = import.meta.url;
  if (!/\.[cm]?ts$/.test(new URL(self).pathname)) return `import(${JSON.stringify(self)});`;
  const require = createRequire(self);
  const tsxApi = pathToFileURL(require.resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs')).href;
  return `import(${JSON.stringify(tsxApi)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(self)}); });`;
}

function runWorker(): void {
  const port = parentPort!;
  const processor = new ElementProcessor();
  port.on('message', (events: ScanEvent[]) => port.postMessage(processor.process(events)));
  port.postMessage({ ready: true });
}

// ---------------------------------------------------------------------------------------------
// The scanner: splits the top-level object into keys and values, and streamed arrays into
// elements, without parsing the elements themselves. It checks the structure it walks (braces,
// brackets, commas, colons, strings) and leaves each element's own grammar to JSON.parse.

export class BundleSyntaxError extends Error {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(message);
  }
}

const enum S {
  RootStart,
  KeyOrClose,
  Key,
  InKey,
  Colon,
  Value,
  ElemOrClose,
  Elem,
  Capture,
  AfterValue,
  Done,
}

const enum C {
  Quote = 0x22,
  Backslash = 0x5c,
  Comma = 0x2c,
  Colon = 0x3a,
  OpenBrace = 0x7b,
  CloseBrace = 0x7d,
  OpenBracket = 0x5b,
  CloseBracket = 0x5d,
  Newline = 0x0a,
  Space = 0x20,
  Tab = 0x09,
  Return = 0x0d,
}

/** Byte classes for the capture loop: 0 for every byte that changes nothing. */
const enum K {
  None,
  Quote,
  Backslash,
  Open,
  Close,
  Comma,
  Newline,
}
const OUTSIDE = new Uint8Array(256);
OUTSIDE[C.Quote] = K.Quote;
OUTSIDE[C.OpenBrace] = K.Open;
OUTSIDE[C.OpenBracket] = K.Open;
OUTSIDE[C.CloseBrace] = K.Close;
OUTSIDE[C.CloseBracket] = K.Close;
OUTSIDE[C.Comma] = K.Comma;
OUTSIDE[C.Newline] = K.Newline;
const IN_STRING = new Uint8Array(256);
IN_STRING[C.Quote] = K.Quote;
IN_STRING[C.Backslash] = K.Backslash;
IN_STRING[C.Newline] = K.Newline;

const UTF8_BOM = [0xef, 0xbb, 0xbf];

function isWhitespace(c: number): boolean {
  return c === C.Space || c === C.Newline || c === C.Return || c === C.Tab;
}

class BundleScanner {
  private state = S.RootStart;
  private line = 1;
  /** Bytes of a byte order mark seen at the start; 3 once past it. */
  private bomBytes = 0;
  private key = '';
  private keyMode: KeyMode = 'skip';
  /** Within the current streamed array: index of the element being read. */
  private index = 0;
  /** What the current capture is: an element, a whole top-level value, or a value to skip. */
  private captureKind: 'element' | 'whole' | 'skip' = 'skip';
  private expectedArray = false;
  private captureLine = 1;
  private pieces: Buffer[] = [];
  private captureBytes = 0;
  private captureStart = 0;
  private readonly stack = new Uint8Array(MAX_DEPTH);
  private depth = 0;
  private inString = false;
  private escaped = false;
  private keyPieces: Buffer[] = [];

  constructor(
    private readonly handler: ScanHandler,
    private readonly maxElementBytes: number,
  ) {}

  push(chunk: Buffer | Uint8Array): void {
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const n = buf.length;
    let i = 0;
    // A UTF-8 byte order mark may open the file, even split across chunks.
    while (this.bomBytes < 3 && i < n && buf[i] === UTF8_BOM[this.bomBytes]) {
      this.bomBytes++;
      i++;
    }
    if (i < n) this.bomBytes = 3;
    this.captureStart = i;
    while (i < n) {
      if (this.state === S.Capture) {
        i = this.capture(buf, i, n);
        continue;
      }
      if (this.state === S.InKey) {
        i = this.readKey(buf, i, n);
        continue;
      }
      const c = buf[i];
      if (c === C.Newline) this.line++;
      if (isWhitespace(c)) {
        i++;
        continue;
      }
      switch (this.state) {
        case S.RootStart:
          if (c !== C.OpenBrace) this.fail('$', `a bundle is a JSON object starting with "{", found ${describeByte(c)}`);
          this.state = S.KeyOrClose;
          break;
        case S.KeyOrClose:
        case S.Key:
          if (c === C.CloseBrace && this.state === S.KeyOrClose) {
            this.state = S.Done;
            break;
          }
          if (c !== C.Quote) this.fail('$', `expected a key in double quotes, found ${describeByte(c)}`);
          this.state = S.InKey;
          this.keyPieces = [Buffer.from('"')];
          this.escaped = false;
          this.captureStart = i + 1;
          break;
        case S.Colon:
          if (c !== C.Colon) this.fail(keyPath(this.key), `expected ":" after the key, found ${describeByte(c)}`);
          this.state = S.Value;
          break;
        case S.Value:
          if (this.keyMode === 'elements' && c === C.OpenBracket) {
            this.state = S.ElemOrClose;
            this.index = 0;
            break;
          }
          this.beginCapture(
            this.keyMode === 'skip' ? 'skip' : 'whole',
            i,
            this.keyMode === 'elements',
          );
          continue; // the capture reads this byte again
        case S.ElemOrClose:
        case S.Elem:
          if (c === C.CloseBracket && this.state === S.ElemOrClose) {
            this.state = S.AfterValue;
            break;
          }
          if (c === C.CloseBracket || c === C.Comma) {
            this.fail(`${keyPath(this.key)}[${this.index}]`, `expected a value, found ${describeByte(c)} (line ${this.line})`);
          }
          this.beginCapture('element', i, false);
          continue;
        case S.AfterValue:
          if (c === C.Comma) this.state = S.Key;
          else if (c === C.CloseBrace) this.state = S.Done;
          else this.fail(keyPath(this.key), `expected "," or "}" after the value, found ${describeByte(c)} (line ${this.line})`);
          break;
        case S.Done:
          this.fail('$', `unexpected ${describeByte(c)} after the end of the bundle (line ${this.line})`);
      }
      i++;
    }
    // Keep what is being captured across the chunk boundary.
    if (this.state === S.Capture && this.captureKind !== 'skip') this.keepPiece(buf.subarray(this.captureStart, n));
    else if (this.state === S.InKey) this.keyPieces.push(Buffer.from(buf.subarray(this.captureStart, n)));
  }

  end(): void {
    if (this.state !== S.Done) {
      const where = this.state === S.Capture && this.captureKind === 'element' ? `${keyPath(this.key)}[${this.index}]` : '$';
      this.fail(where, this.state === S.RootStart ? 'the bundle is empty' : `the bundle ends early (line ${this.line}): it is cut off or not closed`);
    }
  }

  private beginCapture(kind: 'element' | 'whole' | 'skip', i: number, expectedArray: boolean): void {
    this.state = S.Capture;
    this.captureKind = kind;
    this.expectedArray = expectedArray;
    this.captureLine = this.line;
    this.captureStart = i;
    this.pieces = [];
    this.captureBytes = 0;
    this.depth = 0;
    this.inString = false;
    this.escaped = false;
  }

  /** Reads captured bytes up to the value's end; returns where scanning continues. */
  private capture(buf: Buffer, i: number, n: number): number {
    const stack = this.stack;
    let depth = this.depth;
    let inString = this.inString;
    let line = this.line;
    // The terminator of this value: "]" or "," in an array, "}" or "," at the top level.
    const closer = this.captureKind === 'element' ? C.CloseBracket : C.CloseBrace;
    if (this.escaped && i < n) {
      // The previous chunk ended with a backslash inside a string: this byte is escaped.
      this.escaped = false;
      i++;
    }
    for (; i < n; i++) {
      const c = buf[i];
      if (inString) {
        const k = IN_STRING[c];
        if (k === 0) continue;
        if (k === K.Quote) inString = false;
        else if (k === K.Backslash) {
          if (i + 1 < n) i++;
          else this.escaped = true;
        } else line++;
        continue;
      }
      const k = OUTSIDE[c];
      if (k === 0) continue;
      switch (k) {
        case K.Quote:
          inString = true;
          break;
        case K.Open:
          if (depth >= MAX_DEPTH) this.fail(this.capturePath(), `values are nested deeper than ${MAX_DEPTH} levels`);
          stack[depth++] = c === C.OpenBrace ? C.CloseBrace : C.CloseBracket;
          break;
        case K.Close:
          if (depth === 0) {
            if (c !== closer) this.fail(this.capturePath(), `unexpected ${describeByte(c)} (line ${line})`);
            this.line = line;
            this.finishCapture(buf, i, true);
            return i + 1;
          }
          if (stack[--depth] !== c) this.fail(this.capturePath(), `unexpected ${describeByte(c)} (line ${line})`);
          break;
        case K.Comma:
          if (depth === 0) {
            this.line = line;
            this.finishCapture(buf, i, false);
            return i + 1;
          }
          break;
        case K.Newline:
          line++;
          break;
      }
    }
    this.depth = depth;
    this.inString = inString;
    this.line = line;
    return i;
  }

  /** The value ended at `buf[end]`, a "," or the closing bracket/brace of its container. */
  private finishCapture(buf: Buffer, end: number, closed: boolean): void {
    const kind = this.captureKind;
    if (kind !== 'skip') {
      const last = buf.subarray(this.captureStart, end);
      let text: string;
      if (this.pieces.length === 0) {
        text = last.toString('utf8');
      } else {
        this.countBytes(last.length);
        this.pieces.push(last);
        text = Buffer.concat(this.pieces).toString('utf8');
        this.pieces = [];
      }
      if (text.trim() === '') this.fail(this.capturePath(), `expected a value (line ${this.line})`);
      if (kind === 'element') this.handler.element(this.key, this.index, text, this.captureLine);
      else this.handler.whole(this.key, text, this.captureLine, this.expectedArray);
    }
    if (kind === 'element') {
      this.index++;
      this.state = closed ? S.AfterValue : S.Elem;
    } else {
      // A top-level value ended with "}" (end of bundle) or "," (next key).
      this.state = closed ? S.Done : S.Key;
    }
  }

  /** Keeps the part of a value that ends a chunk; copied, as the chunk's memory belongs to the stream. */
  private keepPiece(piece: Buffer): void {
    if (piece.length === 0) return;
    this.countBytes(piece.length);
    this.pieces.push(Buffer.from(piece));
  }

  private countBytes(n: number): void {
    this.captureBytes += n;
    if (this.captureBytes > this.maxElementBytes) {
      this.fail(this.capturePath(), `this value is larger than ${Math.round(this.maxElementBytes / 1048576)} MiB`);
    }
  }

  private readKey(buf: Buffer, i: number, n: number): number {
    for (; i < n; i++) {
      const c = buf[i];
      if (this.escaped) {
        this.escaped = false;
      } else if (c === C.Backslash) {
        this.escaped = true;
      } else if (c === C.Quote) {
        this.keyPieces.push(Buffer.from(buf.subarray(this.captureStart, i + 1)));
        const raw = Buffer.concat(this.keyPieces).toString('utf8');
        this.keyPieces = [];
        try {
          this.key = JSON.parse(raw) as string;
        } catch {
          this.fail('$', `invalid key ${raw.slice(0, 80)} (line ${this.line})`);
        }
        this.keyMode = this.handler.startKey(this.key);
        this.state = S.Colon;
        return i + 1;
      } else if (c === C.Newline) {
        this.fail('$', `a key runs past the end of its line (line ${this.line})`);
      }
    }
    return i;
  }

  private capturePath(): string {
    return this.captureKind === 'element' ? `${keyPath(this.key)}[${this.index}]` : keyPath(this.key);
  }

  private fail(path: string, message: string): never {
    throw new BundleSyntaxError(path, `invalid JSON: ${message}`);
  }
}

function describeByte(c: number): string {
  if (c >= 0x20 && c < 0x7f) return `"${String.fromCharCode(c)}"`;
  return `byte 0x${c.toString(16).padStart(2, '0')}`;
}

// Last, so that every class above is initialised when a worker starts.
if (!isMainThread && (workerData as Record<string, unknown> | null)?.[WORKER_FLAG] === true) runWorker();
