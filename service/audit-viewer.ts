/**
 * The audit trail across reports (docs/review-and-audit.md#the-audit-trail-across-reports): what
 * a company's auditor reads on the desk, by person, kind, time and report, newest first, and
 * downloads as the CSV `labeldesk audit export` writes. The company sees what each report's
 * history shows it: the change log of the reports it sees, less other companies' own flag and
 * archive changes, and its own review entries.
 *
 * Two chains are walked side by side, each within a budget of entries looked at per page (see
 * db/audit-walk.ts), and merged by time. A page holds only entries newer than the point where a
 * walk stopped short, so no older entry ever comes before a newer one still unread; the cursor
 * carries each walk's place.
 */
import type { Row } from '../db/audit-chain';
import type { AuditWalkFilter, AuditWindow } from '../db/audit-walk';
import type { DataStore } from '../db/data-store';
import { InvalidInputError } from '../model/errors';
import { AUDIT_KINDS, AUDIT_PAGE_MAX, type AuditEntry, type AuditKind, type AuditPage } from '../schema/audit';
import type { FieldChange } from '../schema/change-log';
import { requirePermission, type Caller } from './api-keys';
import { AUDIT_CSV_COLUMNS, auditCsvValues } from './audit-trail';
import { CSV_BOM, csvLine } from './report-csv';

/** Entries each walk looks at for one page: a page that filters for a rare person costs this much, not the whole trail. */
export const AUDIT_WALK_BUDGET = 20_000;
const DEFAULT_PAGE = 50;
/** The cursor of a walk that has not started. */
const START = Number.MAX_SAFE_INTEGER;

export interface AuditQuery {
  personId: string | null;
  kinds: AuditKind[] | null;
  from: string | null;
  to: string | null;
  reportId: string | null;
  cursor: { change: number; review: number };
  pageSize: number;
}

export const AUDIT_QUERY_PARAMETERS = ['person', 'kind', 'from', 'to', 'report', 'cursor', 'pageSize'] as const;

const invalid = (message: string) => new InvalidInputError('INVALID_PARAMETER', message);

/** An ISO 8601 instant; a bare date is its whole UTC day (its first or last millisecond). */
function instant(name: string, v: string, end: boolean): string {
  const day = /^\d{4}-\d{2}-\d{2}$/.test(v);
  const ms = day ? Date.parse(`${v}T00:00:00.000Z`) + (end ? 86_399_999 : 0) : /^\d{4}-\d{2}-\d{2}T[\d:.]+(Z|[+-]\d{2}:\d{2})$/.test(v) ? Date.parse(v) : NaN;
  if (Number.isNaN(ms)) throw invalid(`${name} '${v}' is not an ISO 8601 date or instant`);
  return new Date(ms).toISOString();
}

export function parseAuditQuery(get: (name: string) => string | undefined): AuditQuery {
  const kind = get('kind');
  const kinds =
    kind === undefined
      ? null
      : kind.split(',').map((k) => {
          if (!(AUDIT_KINDS as readonly string[]).includes(k)) throw invalid(`kind '${k}' is not one of ${AUDIT_KINDS.join(', ')}`);
          return k as AuditKind;
        });
  const cursorText = get('cursor');
  let cursor = { change: START, review: START };
  if (cursorText !== undefined) {
    const m = /^(\d{1,16})-(\d{1,16})$/.exec(cursorText);
    if (!m) throw invalid(`cursor '${cursorText}' is not one this endpoint gave`);
    cursor = { change: Number(m[1]), review: Number(m[2]) };
  }
  const size = get('pageSize');
  if (size !== undefined && !(/^\d{1,3}$/.test(size) && Number(size) >= 1 && Number(size) <= AUDIT_PAGE_MAX)) {
    throw invalid(`pageSize '${size}' is not a whole number from 1 to ${AUDIT_PAGE_MAX}`);
  }
  const from = get('from');
  const to = get('to');
  return {
    personId: get('person') ?? null,
    kinds,
    from: from === undefined ? null : instant('from', from, false),
    to: to === undefined ? null : instant('to', to, true),
    reportId: get('report') ?? null,
    cursor,
    pageSize: size === undefined ? DEFAULT_PAGE : Number(size),
  };
}

interface Walked {
  table: 'changeLog' | 'review';
  window: AuditWindow;
  /** The walk's cursor before this page; 0 once it has nothing left. */
  before: number;
}

export class AuditViewer {
  /** `budget`: the entries each walk looks at for one page (smaller in tests, to reach its edge with few entries). */
  constructor(
    private readonly data: DataStore,
    private readonly budget = AUDIT_WALK_BUDGET,
  ) {}

  page(caller: Caller, q: AuditQuery): AuditPage {
    requirePermission(caller, 'labelReports:read');
    return this.data.read(() => {
      const { rows, next, searchedBackTo } = this.walk(caller, q, this.budget);
      const references = new Map(this.data.reports.minimalByIds(caller.companyId, [...new Set(rows.map((r) => r.row.label_report_id as string))]).map((r) => [r.id, r.labelReference]));
      return {
        entries: rows.map(({ table, row }) => entryOf(table, row, references.get(row.label_report_id as string) ?? null)),
        next,
        searchedBackTo,
      };
    });
  }

  /** Every entry the query matches, newest first, as `labeldesk audit export` writes them. */
  *csv(caller: Caller, q: Omit<AuditQuery, 'cursor' | 'pageSize'>): Generator<string> {
    requirePermission(caller, 'labelReports:read');
    yield CSV_BOM + csvLine(AUDIT_CSV_COLUMNS);
    let cursor: string | null = `${START}-${START}`;
    while (cursor !== null) {
      const [change, review]: number[] = cursor.split('-').map(Number);
      const page: ReturnType<AuditViewer['walk']> = this.data.read(() => this.walk(caller, { ...q, cursor: { change, review }, pageSize: AUDIT_PAGE_MAX }, this.budget));
      yield page.rows.map(({ table, row }) => csvLine(auditCsvValues(table === 'review' ? 'report_reviews' : 'change_log', row))).join('');
      cursor = page.next;
    }
  }

  private walk(caller: Caller, q: AuditQuery, budget: number): { rows: { table: Walked['table']; row: Row }[]; next: string | null; searchedBackTo: string | null } {
    const filter: AuditWalkFilter = {
      companyId: caller.companyId,
      reportId: q.reportId,
      userId: q.personId,
      from: q.from,
      to: q.to,
      reviewKinds: q.kinds ? q.kinds.filter((k) => k !== 'change') : null,
    };
    const walks: Walked[] = [];
    const wantsChanges = !q.kinds || q.kinds.includes('change');
    const wantsReviews = !q.kinds || q.kinds.some((k) => k !== 'change');
    if (wantsChanges && q.cursor.change > 0) {
      const window = this.data.auditWalk.changeLog(filter, q.cursor.change, q.pageSize, budget);
      window.rows = window.rows.map((row) => ({ ...row, changes: JSON.stringify(ownChanges(row, caller.companyId)) }));
      walks.push({ table: 'changeLog', window, before: q.cursor.change });
    }
    if (wantsReviews && q.cursor.review > 0) walks.push({ table: 'review', window: this.data.auditWalk.reviewEntries(filter, q.cursor.review, q.pageSize, budget), before: q.cursor.review });

    // Below a walk's last row (or where it stopped at its budget) lie entries not read yet: the
    // page keeps only what is newer than the newest such point.
    const floors = walks.flatMap(({ window }) => {
      if (window.rows.length > q.pageSize) return [window.rows[window.rows.length - 1].at as string];
      return window.stoppedAt ? [window.stoppedAt.at] : [];
    });
    const floor = floors.length > 0 ? floors.reduce((a, b) => (a > b ? a : b)) : null;
    const merged = walks
      .flatMap(({ table, window }) => window.rows.slice(0, q.pageSize).map((row) => ({ table, row })))
      .filter(({ row }) => floor === null || (row.at as string) >= floor)
      .sort((a, b) => ((b.row.at as string) < (a.row.at as string) ? -1 : (b.row.at as string) > (a.row.at as string) ? 1 : idOf(b) - idOf(a)))
      .slice(0, q.pageSize);

    const cursor = { change: wantsChanges ? q.cursor.change : 0, review: wantsReviews ? q.cursor.review : 0 };
    for (const walk of walks) {
      const taken = merged.filter((m) => m.table === walk.table);
      const key = walk.table === 'changeLog' ? 'change' : 'review';
      const tookAll = taken.length === walk.window.rows.length;
      if (tookAll) cursor[key] = walk.window.stoppedAt ? walk.window.stoppedAt.id : 0;
      else if (taken.length > 0) cursor[key] = idOf(taken[taken.length - 1]);
      else cursor[key] = walk.before;
    }
    const next = cursor.change === 0 && cursor.review === 0 ? null : `${cursor.change}-${cursor.review}`;
    return { rows: merged, next, searchedBackTo: next !== null && merged.length < q.pageSize ? floor : null };
  }
}

function idOf(m: { table: Walked['table']; row: Row }): number {
  return (m.table === 'changeLog' ? m.row.seq : m.row.id) as number;
}

/** A change's fields as the company's history shows them: another company's own flag or archive change is theirs alone. */
function ownChanges(row: Row, companyId: string): FieldChange[] {
  return (JSON.parse(row.changes as string) as FieldChange[]).filter((c) => c.companyId === undefined || c.companyId === companyId);
}

function entryOf(table: Walked['table'], row: Row, labelReference: string | null): AuditEntry {
  const s = (name: string) => (row[name] === null || row[name] === undefined ? null : String(row[name]));
  if (table === 'review') {
    return {
      table,
      entry: row.id as number,
      reportId: s('label_report_id')!,
      labelReference,
      at: s('at')!,
      kind: row.kind as AuditKind,
      by: { keyId: s('api_key_id'), keyName: s('api_key_name'), person: row.user_id ? { id: s('user_id')!, name: s('user_name') ?? s('user_login')!, login: s('user_login') } : null, actor: null },
      reason: null,
      text: s('text'),
      decision: s('decision'),
      meaning: s('meaning'),
      zone: s('zone'),
    };
  }
  const signature = typeof row.signature === 'string' ? (JSON.parse(row.signature) as { meaning: string; zone: string }) : null;
  return {
    table,
    entry: row.seq as number,
    reportId: s('label_report_id')!,
    labelReference,
    at: s('at')!,
    kind: 'change',
    change: row.kind as 'create' | 'update' | 'remove',
    by: { keyId: s('api_key_id'), keyName: null, person: row.user_id ? { id: s('user_id')!, name: s('user_name') ?? '', login: null } : null, actor: s('actor') },
    changes: JSON.parse(row.changes as string) as FieldChange[],
    reason: s('reason'),
    text: null,
    decision: null,
    meaning: signature?.meaning ?? null,
    zone: signature?.zone ?? null,
  };
}
