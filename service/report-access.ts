/**
 * The rule of what is recorded of who saw a report (docs/review-and-audit.md#who-saw-a-report):
 * a report retrieved whole (GET /v2/labelReports/:id, which is also how the app opens its
 * report panel), printed in the app, or handed on as a file (its PDF, its readings or history as
 * CSV, a list as CSV); each is one entry of the access chain (db/access-store.ts) naming who,
 * when, which report, what and how. A page of the list is not recorded: the table pages as it
 * scrolls, and a page shows the list's columns, not the report.
 *
 * Recording follows the answer and never holds it up: the answer is read in its read
 * transaction, and the entry is then appended in a write of its own, one indexed insert. When
 * another connection holds the write lock (an import switching in), the entry waits here, in
 * order, and is appended as soon as the lock is free, with the time of the access it records.
 */
import type { AccessEntry, AccessFormat, AccessKind, AccessRecord } from '../db/access-store';
import { DatabaseBusyError, type DataStore } from '../db/data-store';
import { ForbiddenError } from '../model/errors';
import { mayDo } from '../model/person';
import type { AccessEntryView, ReportAccessList } from '../schema/report-access';
import { requirePermission, type Caller } from './api-keys';
import { WHO_CSV_COLUMNS } from './audit-trail';
import { notFound } from './label-reports';
import { keyNameOf } from './report-review';
import { csvLine, type CsvValue } from './report-csv';

/**
 * The key the command line's PDF reads its print view with. Its reads are the command's own
 * export, which the command records once itself, so they are not recorded as views.
 */
export const COMMAND_LINE_KEY_ID = 'commandLine';

/** The newest entries the report panel's list answers; the audit export holds them all. */
const LIST_LIMIT = 500;

/** How long a waiting entry waits before the next try at a busy database, at most. */
const MAX_RETRY_MS = 1_000;

export const ACCESS_CSV_COLUMNS = [
  'entry',
  'at',
  'reportId',
  'companyId',
  'kind',
  'format',
  'detail',
  'actor',
  ...WHO_CSV_COLUMNS,
  'prevHash',
  'hash',
] as const;

type Who = Pick<AccessEntry, 'companyId' | 'actor' | 'apiKeyId' | 'apiKeyName' | 'userId' | 'userLogin' | 'userName'>;

export class ReportAccess {
  /** Entries not yet appended because the database was busy, oldest first. */
  private waiting: AccessEntry[] = [];
  private retry: NodeJS.Timeout | null = null;
  private retryMs = 10;
  /** Told once nothing waits any more. */
  private onDrained: (() => void)[] = [];

  constructor(
    private readonly data: DataStore,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** The report retrieved whole: by the app opening it, by a tool's key. */
  viewed(caller: Caller, reportId: string): void {
    this.byCaller(caller, reportId, 'view', 'json', null);
  }

  /** Printed in the app (format print), or saved as PDF by the desktop app (pdf). */
  printed(caller: Caller, reportId: string, format: 'print' | 'pdf'): void {
    this.byCaller(caller, reportId, format === 'print' ? 'print' : 'export', format, null);
  }

  /** One report's readings or history handed on as CSV. */
  exported(caller: Caller, reportId: string, format: 'readingsCsv' | 'historyCsv'): void {
    this.byCaller(caller, reportId, 'export', format, null);
  }

  /** A list handed on as CSV: no one report, the query as its detail, with how many reports it held. */
  listExported(caller: Caller, query: Readonly<Record<string, string>>, reports: number): void {
    this.byCaller(caller, null, 'export', 'listCsv', JSON.stringify({ query, reports }));
  }

  /**
   * A file written by `labeldesk report`: whoever runs it holds the database file, so no company
   * applies; `ranBy` is what the command can tell of who (the account, the computer).
   */
  exportedByCommandLine(reportId: string, format: 'pdf' | 'readingsCsv', ranBy: string): void {
    this.record({
      ...entryBase(this.now(), reportId, 'export', format, ranBy),
      companyId: null,
      actor: 'commandLine',
      apiKeyId: null,
      apiKeyName: null,
      userId: null,
      userLogin: null,
      userName: null,
    });
  }

  /**
   * A release certificate issued (service/release-certificate.ts): appended now, behind what
   * waits, not later, because the printed certificate names a record that must already be there.
   * `caller` null is the command line. Answers the entry's id and time.
   */
  certificateIssued(caller: Caller | null, reportId: string, kind: 'print' | 'export', detail: string): { id: number; at: string } {
    const who: Who = caller
      ? this.whoIs(caller)
      : { companyId: null, actor: 'commandLine', apiKeyId: null, apiKeyName: null, userId: null, userLogin: null, userName: null };
    const entry: AccessEntry = { ...entryBase(this.now(), reportId, kind, 'certificate', detail), ...who };
    const waiting = this.waiting;
    const id = this.data.write(() => {
      for (const earlier of waiting) this.data.access.append(earlier);
      return this.data.access.append(entry);
    });
    this.waiting = [];
    for (const resolve of this.onDrained.splice(0)) resolve();
    return { id, at: entry.at };
  }

  /**
   * Who saw one report, newest first: the caller's company's entries and the command line's.
   * Administrators only (a key needs apiKeys:manage, a person the administrator's role), as for
   * the desk's keys and people; a report the company cannot see is not found.
   */
  list(caller: Caller, reportId: string): ReportAccessList {
    requirePermission(caller, 'apiKeys:manage');
    if (caller.person && !mayDo(caller.person, 'manageUsers')) throw new ForbiddenError('ADMIN_ONLY', 'only an administrator sees who viewed a report');
    return this.data.read(() => {
      if (!this.data.reports.isVisible(caller.companyId, reportId)) throw notFound(reportId);
      const { total, entries } = this.data.access.newestOf(reportId, caller.companyId, LIST_LIMIT);
      return { total, entries: entries.map(viewOf) };
    });
  }

  /** Every entry, as CSV lines (header first) in chain order, hashes included: the export for an auditor. */
  *csv(): Generator<string> {
    yield csvLine(ACCESS_CSV_COLUMNS);
    const lines: string[] = [];
    this.data.read(() => {
      for (const e of this.data.access.entries()) lines.push(csvLine(csvValuesOf(e)));
    });
    yield* lines;
  }

  /** Reads the access chain; see AccessStore.verify. */
  verify(): ReturnType<DataStore['access']['verify']> {
    return this.data.read(() => this.data.access.verify());
  }

  /** How many entries wait for a busy database. */
  get waitingCount(): number {
    return this.waiting.length;
  }

  /** Resolves once every entry recorded so far is appended. */
  drained(): Promise<void> {
    if (this.waiting.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.onDrained.push(resolve));
  }

  /** Appends what still waits, once, before the database closes. */
  close(): void {
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
    this.flush();
  }

  private byCaller(caller: Caller, reportId: string | null, kind: AccessKind, format: AccessFormat, detail: string | null): void {
    if (caller.keyId === COMMAND_LINE_KEY_ID) return;
    this.record({ ...entryBase(this.now(), reportId, kind, format, detail), ...this.whoIs(caller) });
  }

  /** A person is named, not the session behind them; a key by its id and name. */
  private whoIs(caller: Caller): Who {
    const person = caller.person;
    if (person) return { companyId: caller.companyId, actor: 'person', apiKeyId: null, apiKeyName: null, userId: person.id, userLogin: person.login, userName: person.name };
    return { companyId: caller.companyId, actor: 'apiKey', apiKeyId: caller.keyId, apiKeyName: keyNameOf(this.data, caller.keyId), userId: null, userLogin: null, userName: null };
  }

  private record(entry: AccessEntry): void {
    this.waiting.push(entry);
    // Behind entries that wait already: the chain keeps the order of the accesses.
    if (this.retry === null) this.flush();
  }

  private flush(): void {
    if (this.waiting.length === 0 || !this.data.isOpen) return;
    try {
      const entries = this.waiting;
      this.data.write(() => {
        for (const entry of entries) this.data.access.append(entry);
      });
      this.waiting = [];
      this.retryMs = 10;
      for (const resolve of this.onDrained.splice(0)) resolve();
    } catch (err) {
      if (!(err instanceof DatabaseBusyError)) throw err;
      this.retry = setTimeout(() => {
        this.retry = null;
        this.flush();
      }, this.retryMs);
      this.retry.unref();
      this.retryMs = Math.min(this.retryMs * 2, MAX_RETRY_MS);
    }
  }
}

function entryBase(at: Date, reportId: string | null, kind: AccessKind, format: AccessFormat, detail: string | null) {
  return { at: at.toISOString(), reportId, kind, format, detail };
}

function viewOf(e: AccessRecord): AccessEntryView {
  return {
    id: e.id,
    at: e.at,
    kind: e.kind,
    format: e.format,
    detail: e.detail,
    actor: e.actor,
    apiKeyId: e.apiKeyId,
    apiKeyName: e.apiKeyName,
    person: e.userId === null ? null : { id: e.userId, login: e.userLogin ?? '', name: e.userName ?? '' },
  };
}

function csvValuesOf(e: AccessRecord): CsvValue[] {
  return [e.id, e.at, e.reportId, e.companyId, e.kind, e.format, e.detail, e.actor, e.apiKeyId, e.apiKeyName, e.userId, e.userLogin, e.userName, e.prevHash, e.hash];
}
