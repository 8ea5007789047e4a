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
 * before COMMIT. Foreign keys are deferred to COMMIT so a bundle may list its reports before
 * the companies they name.
 *
 * Why not stream-json's token parser: it tokenises at roughly 4 000 reports of 200 datapoints a
 * second on its own, below the import target; splitting elements here and handing each to the
 * native JSON.parse is several times faster, and gives the same bounded memory.
 */
import { createHash } from 'node:crypto';
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
import { recordFromBundle } from './report-record';
import { formatPath } from './zod-messages';

export const MAX_PROBLEMS = 100;
/** A single element (one report) larger than this is refused: it could not be held in memory as one string. */
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
  /** The first problems found (at most `maxProblems`); empty when `ok`. */
  problems: ImportProblem[];
  /** Every problem found, including those beyond `problems`. */
  problemCount: number;
}

export interface ImportOptions {
  /** How many problems to keep in `problems`; counting goes on past it. Default 100. */
  maxProblems?: number;
  /** Creation time for new API keys. */
  now?: () => Date;
  maxElementBytes?: number;
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
  let importer: BundleImporter | undefined;
  try {
    db.pragma('defer_foreign_keys = ON');
    importer = new BundleImporter(db, options);
    const scanner = new BundleScanner(importer, options.maxElementBytes ?? MAX_ELEMENT_BYTES);
    try {
      for await (const chunk of source) {
        scanner.push(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk);
      }
      scanner.end();
    } catch (err) {
      if (!(err instanceof BundleSyntaxError)) throw err;
      importer.problem(err.path, err.message);
      importer.fatal = true;
    }
    importer.finish();
    const ok = importer.problemCount === 0;
    if (ok) {
      importer.dropTemporaryTables();
      db.exec('COMMIT');
    } else {
      db.exec('ROLLBACK');
    }
    return { ok, counts: importer.counts, problems: importer.problems, problemCount: importer.problemCount };
  } catch (err) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw err;
  } finally {
    // After a ROLLBACK the temporary tables are gone already; after a COMMIT they were dropped.
    if (!db.inTransaction && db.open) importer?.dropTemporaryTables();
  }
}

// ---------------------------------------------------------------------------------------------
// Validation

/**
 * `bundleReportSchema.safeParse`, with a fast path for the datapoints: a report carries
 * thousands of them, and checking them by hand is an order of magnitude quicker than zod. The
 * hand check only ever accepts what the schema accepts; whenever it is unsure, zod decides (and
 * words the problems).
 */
export function validateBundleReport(value: unknown): z.ZodSafeParseResult<BundleReport> {
  if (isPlainObject(value) && isPlainObject(value.reportedSenseData)) {
    const datapoints = value.reportedSenseData.datapoints;
    if (Array.isArray(datapoints) && datapointsAreValid(datapoints)) {
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

/** True only when every element is `{timestamp: safe int, temperature: finite, humidity?: finite}` exactly. */
function datapointsAreValid(datapoints: readonly unknown[]): boolean {
  for (let i = 0; i < datapoints.length; i++) {
    const d = datapoints[i] as Record<string, unknown>;
    if (typeof d !== 'object' || d === null || Array.isArray(d)) return false;
    let keys = 0;
    for (const k in d) {
      if (k !== 'timestamp' && k !== 'temperature' && k !== 'humidity') return false;
      keys++;
    }
    if (!Number.isSafeInteger(d.timestamp)) return false;
    const t = d.temperature;
    if (typeof t !== 'number' || !Number.isFinite(t)) return false;
    if (keys === 3) {
      const h = d.humidity;
      if (typeof h !== 'number' || !Number.isFinite(h)) return false;
    } else if (keys !== 2) {
      return false;
    }
  }
  return true;
}

const [apiKeyWithKeySchema, apiKeyWithHashSchema] = bundleApiKeySchema.options;

/** Ids derived from their inputs, UUID-shaped, so that importing twice gives the same rows. */
export function derivedUuid(...parts: (string | number)[]): string {
  const h = createHash('sha256').update(parts.join('\0')).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${((parseInt(h[16], 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

// ---------------------------------------------------------------------------------------------
// The importer: what to do with each top-level value.

type KeyMode = 'elements' | 'whole' | 'skip';
const ARRAY_KEYS = ['companies', 'apiKeys', 'labelReports'] as const;
type ArrayKey = (typeof ARRAY_KEYS)[number];
const KNOWN_KEYS = new Set<string>(['version', ...ARRAY_KEYS]);
const REF_CACHE_LIMIT = 10_000;

interface ScanHandler {
  startKey(key: string): KeyMode;
  element(key: string, index: number, text: string, line: number): void;
  /** A whole top-level value; `expectedArray` when the key streams elements but its value is no array. */
  whole(key: string, text: string, line: number, expectedArray: boolean): void;
}

class BundleImporter implements ScanHandler {
  readonly counts: ImportCounts = { companies: 0, apiKeys: 0, labelReports: 0 };
  readonly problems: ImportProblem[] = [];
  problemCount = 0;
  fatal = false;
  private readonly maxProblems: number;
  private readonly now: string;
  private readonly seenKeys = new Set<string>();
  private versionSeen = false;

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

  problem(path: string, message: string): void {
    this.problemCount++;
    if (this.problems.length < this.maxProblems) this.problems.push({ path, message });
  }

  startKey(key: string): KeyMode {
    const path = keyPath(key);
    if (this.seenKeys.has(key)) {
      this.problem(path, `"${key}" appears twice in the bundle`);
      return 'skip';
    }
    this.seenKeys.add(key);
    if (!KNOWN_KEYS.has(key)) {
      this.problem(path, `unknown key "${key}": a bundle has only version, companies, apiKeys and labelReports`);
      return 'skip';
    }
    return key === 'version' ? 'whole' : 'elements';
  }

  whole(key: string, text: string, line: number, expectedArray: boolean): void {
    const value = parseElement(text, keyPath(key), line);
    if (expectedArray) {
      this.problem(keyPath(key), `Invalid input: expected array, received ${typeName(value)}`);
      return;
    }
    // key === 'version'
    this.versionSeen = true;
    if (value !== BUNDLE_VERSION) {
      this.problem('$.version', `this LabelDesk reads bundle version ${BUNDLE_VERSION}, not ${JSON.stringify(value)}`);
    }
  }

  element(key: string, index: number, text: string, line: number): void {
    const path = `${keyPath(key)}[${index}]`;
    const value = parseElement(text, path, line);
    switch (key as ArrayKey) {
      case 'companies':
        return this.company(value, index, path);
      case 'apiKeys':
        return this.apiKey(value, index, path);
      case 'labelReports':
        return this.report(value, index, path);
    }
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

  private company(value: unknown, index: number, path: string): void {
    const parsed = bundleCompanySchema.safeParse(value);
    const id = isPlainObject(value) && typeof value.id === 'string' ? value.id : undefined;
    if (id !== undefined && this.rememberCompany.run(id, index).changes === 0) {
      const first = this.firstCompany.get(id) as number;
      this.problem(`${path}.id`, `company '${id}' is listed twice (first at $.companies[${first}])`);
      return;
    }
    if (!parsed.success) return this.zodProblems(parsed.error, path);
    this.companies.upsert(parsed.data as Company);
    this.counts.companies++;
  }

  private apiKey(value: unknown, index: number, path: string): void {
    let parsed: z.ZodSafeParseResult<BundleApiKey>;
    if (isPlainObject(value) && 'key' in value) parsed = apiKeyWithKeySchema.safeParse(value);
    else if (isPlainObject(value) && 'keyHash' in value) parsed = apiKeyWithHashSchema.safeParse(value);
    else if (isPlainObject(value)) return this.problem(path, 'an API key needs either "key" or "keyHash"');
    else parsed = apiKeyWithKeySchema.safeParse(value);
    if (!parsed.success) return this.zodProblems(parsed.error, path);
    const key = parsed.data;
    const keyHash = 'key' in key ? hashKey(key.key) : key.keyHash;
    if (this.rememberKey.run(keyHash, index).changes === 0) {
      const first = this.firstKey.get(keyHash) as number;
      return this.problem(path, `the same API key is listed twice (first at $.apiKeys[${first}])`);
    }
    this.reference(key.companyId, `${path}.companyId`);
    const existing = this.keys.findByHash(keyHash);
    this.keys.upsert({
      id: existing?.id ?? derivedUuid('apiKey', keyHash),
      keyHash,
      companyId: key.companyId,
      name: key.name ?? null,
      permissions: [...new Set(key.permissions)] as Permission[],
      created: existing?.created ?? this.now,
      // A revocation in the database sticks: importing an older bundle never brings a key back.
      revoked: ('revoked' in key ? key.revoked : undefined) ?? existing?.revoked ?? null,
    });
    this.counts.apiKeys++;
  }

  private report(value: unknown, index: number, path: string): void {
    const parsed = validateBundleReport(value);
    if (!parsed.success) return this.zodProblems(parsed.error, path);
    const report = parsed.data;
    if (this.rememberReport.run(report.id, index).changes === 0) {
      const first = this.firstReport.get(report.id) as number;
      return this.problem(`${path}.id`, `report id '${report.id}' is used twice (first at $.labelReports[${first}])`);
    }
    this.reference(report.companyId, `${path}.companyId`);
    const holders = new Set([report.companyId]);
    for (const [i, a] of (report.access ?? []).entries()) {
      this.reference(a.companyId, `${path}.access[${i}].companyId`);
      holders.add(a.companyId);
    }
    let ok = true;
    for (const [i, s] of (report.companyState ?? []).entries()) {
      this.reference(s.companyId, `${path}.companyState[${i}].companyId`);
      if (!holders.has(s.companyId)) {
        this.problem(
          `${path}.companyState[${i}].companyId`,
          `company '${s.companyId}' has no access to this report: it is neither the owner nor listed in access`,
        );
        ok = false;
      }
    }
    if (!ok) return;
    this.counts.labelReports++;
    // Once the import is bound to fail, writing more would only be rolled back.
    if (this.problemCount > 0) return;
    const record = recordFromBundle(report);
    this.reports.replace(record.row, record.access, record.states, record.customFields);
  }

  private reference(companyId: string, path: string): void {
    if (this.knownRefs.has(companyId)) return;
    if (this.knownRefs.size >= REF_CACHE_LIMIT) this.knownRefs.clear();
    this.knownRefs.add(companyId);
    this.rememberRef.run(companyId, path);
  }

  private zodProblems(error: z.ZodError, path: string): void {
    for (const issue of error.issues) this.problem(formatPath(issue.path, path), issue.message);
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
    throw new BundleSyntaxError(path, `invalid JSON in the value starting on line ${line}: ${(err as Error).message}`);
  }
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

function isWhitespace(c: number): boolean {
  return c === C.Space || c === C.Newline || c === C.Return || c === C.Tab;
}

class BundleScanner {
  private state = S.RootStart;
  private line = 1;
  private atStart = true;
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
  private captureHasContent = false;
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
    if (this.atStart && n > 0) {
      this.atStart = false;
      if (n >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) i = 3;
    }
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
    this.captureHasContent = false;
    this.depth = 0;
    this.inString = false;
    this.escaped = false;
  }

  /** Reads captured bytes up to the value's end; returns where scanning continues. */
  private capture(buf: Buffer, i: number, n: number): number {
    const stack = this.stack;
    let depth = this.depth;
    let inString = this.inString;
    let escaped = this.escaped;
    let line = this.line;
    // The terminator of this value: "]" or "," in an array, "}" or "," at the top level.
    const closer = this.captureKind === 'element' ? C.CloseBracket : C.CloseBrace;
    for (; i < n; i++) {
      const c = buf[i];
      if (inString) {
        if (escaped) escaped = false;
        else if (c === C.Backslash) escaped = true;
        else if (c === C.Quote) inString = false;
        else if (c === C.Newline) line++;
        continue;
      }
      if (c === C.Quote) {
        inString = true;
      } else if (c === C.OpenBrace || c === C.OpenBracket) {
        if (depth >= MAX_DEPTH) this.fail(this.capturePath(), `values are nested deeper than ${MAX_DEPTH} levels`);
        stack[depth++] = c === C.OpenBrace ? C.CloseBrace : C.CloseBracket;
      } else if (c === C.CloseBrace || c === C.CloseBracket) {
        if (depth === 0) {
          if (c !== closer) this.fail(this.capturePath(), `unexpected ${describeByte(c)} (line ${line})`);
          this.line = line;
          this.finishCapture(buf, i, true);
          return i + 1;
        }
        if (stack[--depth] !== c) this.fail(this.capturePath(), `unexpected ${describeByte(c)} (line ${line})`);
      } else if (c === C.Comma && depth === 0) {
        this.line = line;
        this.finishCapture(buf, i, false);
        return i + 1;
      } else if (c === C.Newline) {
        line++;
      }
    }
    this.depth = depth;
    this.inString = inString;
    this.escaped = escaped;
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
