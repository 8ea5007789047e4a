/**
 * The processor: the middle step of an import, on this thread or in the parse worker. It turns
 * the reader's events into outcomes: JSON.parse, zod, the report's row (sense figures and all).
 * It has no database, so it can run anywhere; checks that need the database or the whole bundle
 * (duplicates, company references) are the sink's.
 */
import type { z } from 'zod';
import { BUNDLE_VERSION, bundleApiKeySchema, bundleCompanySchema, type BundleApiKey } from '../../schema/bundle';
import type { Company, Permission } from '../../schema/report';
import { hashKey } from '../api-keys';
import { stagedRows, type StagedRows } from '../../db/import-staging';
import { reportFromBundle } from '../report-from-bundle';
import { formatPath } from '../../contract/zod-messages';
import type { ArrayKey, ScanEvent } from './bundle-reader';
import { isPlainObject, validateBundleReport } from './datapoint-check';
import { BundleSyntaxError, keyPath } from './json-scanner';

/** What the processor made of the events, in bundle order; the sink applies them one by one. */
export type Outcome =
  | { t: 'problem'; path: string; message: string }
  /** Nothing follows: the bundle cannot be read further. */
  | { t: 'fatal' }
  | { t: 'version' }
  /** A company element: `company` when valid; `id` when it has one, valid or not. */
  | { t: 'company'; index: number; id: string | null; company: Company | null }
  | { t: 'apiKey'; index: number; key: ValidApiKey }
  /**
   * A report that passed the schema: its references, and its rows in the staging tables' form
   * when nothing else is wrong with it (null when a problem was reported for it, or once rows
   * are no longer needed).
   */
  | { t: 'report'; index: number; id: string; companies: ReportCompanies; valid: boolean; record: StagedRows | null };

export interface ValidApiKey {
  keyHash: string;
  companyId: string;
  name: string | null;
  permissions: Permission[];
  revoked: string | undefined;
}

/** The companies a report names, for the reference check at the end. */
export interface ReportCompanies {
  owner: string;
  access: string[];
  states: string[];
}

const [apiKeyWithKeySchema, apiKeyWithHashSchema] = bundleApiKeySchema.options;

export class ElementProcessor {
  /** False once the import is bound to fail: rows would only be rolled back. */
  buildRecords = true;
  /** Set after a `fatal` outcome; later events are ignored. */
  private fatal = false;
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
    if (expectedArray) return this.problem(keyPath(key), `Invalid input: expected array, received ${typeName(value)}`);
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
    // An object says by its fields which of the two forms it means; anything else is checked
    // against the first, for its problems.
    const schema = !isPlainObject(value) || 'key' in value ? apiKeyWithKeySchema : 'keyHash' in value ? apiKeyWithHashSchema : null;
    if (schema === null) return this.problem(path, 'an API key needs either "key" or "keyHash"');
    const parsed: z.ZodSafeParseResult<BundleApiKey> = schema.safeParse(value);
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
      if (holders.has(companyId)) continue;
      this.problem(
        `${path}.companyState[${i}].companyId`,
        `company '${companyId}' has no access to this report: it is neither the owner nor listed in access`,
      );
      valid = false;
    }
    const record = valid && this.buildRecords ? stagedRows(reportFromBundle(report)) : null;
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

function typeName(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
}

/** JSON.parse, with the line in the file when the value is no valid JSON (which stops the import). */
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
