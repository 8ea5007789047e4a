/**
 * A report's release certificate (docs/review-and-audit.md#release-certificates): the report at
 * one version with the signatures standing on it then, under one checksum. Issuing one records it
 * in the access chain (who issued it, when, the checksum and what it certifies), so that
 * `labeldesk audit certificate CHECKSUM` can tell a certificate this desk issued from any other,
 * and whether the report still stands as certified.
 *
 * The checksum is SHA-256 over a canonical form of what is certified: the report's id, the
 * company whose review it is, the report's newest change log entry (its seq and hash: the version
 * of every limit, rule, field and reading) and the standing decision's and acknowledgement's
 * review entries (their ids and hashes, which cover who signed with which meaning, when and in
 * which zone). A comment written later changes none of them; a limit changed or a decision
 * withdrawn changes the checksum the report has now.
 */
import { createHash } from 'node:crypto';
import type { Row } from '../db/audit-chain';
import type { DataStore } from '../db/data-store';
import { InvalidInputError } from '../model/errors';
import {
  CHECKSUM_PATTERN,
  certificateRecordSchema,
  type Certificate,
  type CertificateRecord,
  type CertifiedSignature,
  type CertifiedState,
} from '../schema/certificate';
import type { ChangeEntry } from '../schema/change-log';
import type { Decision } from '../schema/review';
import { authorizeFor, notFound } from './label-reports';
import type { ReportAccess } from './report-access';
import { COMMAND_LINE_KEY_ID } from './report-access';
import type { Caller } from './api-keys';

/** Names the form the checksum covers, so a later form can never hash to the same text. */
const CANONICAL_FORM = 'labeldesk release certificate 1';

export function certificateChecksum(state: CertifiedState): string {
  const canonical = JSON.stringify([
    CANONICAL_FORM,
    state.reportId,
    state.companyId,
    state.changeLog.seq,
    state.changeLog.hash,
    state.signatures.map((s) => [s.kind, s.entry, s.hash]),
  ]);
  return createHash('sha256').update(canonical, 'utf8').digest('hex');
}

/** The report changed between the certificate's print and its record. */
export class CertificateMovedError extends Error {
  constructor(reportId: string) {
    super(`the report ${reportId} changed while its certificate was printed: nothing was recorded; print it again`);
  }
}

export type CertificateCheck =
  | { verdict: 'current'; record: CertificateRecord; issued: IssuedBy }
  | { verdict: 'changed'; record: CertificateRecord; issued: IssuedBy; changes: string[] }
  | { verdict: 'unknown'; reason: string };

/** Who issued a certificate and when, as its access entry holds it. */
export interface IssuedBy {
  entry: number;
  at: string;
  who: string;
  reference: string | null;
}

export class ReleaseCertificates {
  constructor(
    private readonly data: DataStore,
    private readonly access: ReportAccess,
  ) {}

  /**
   * Issues the certificate of the report as it stands for the caller's company, recorded as a
   * print in the app or an export (a saved PDF). The command line's print view key is answered
   * without a record: the command records the certificate itself, naming who ran it.
   */
  issue(caller: Caller, reportId: string, format: 'print' | 'pdf'): Certificate {
    authorizeFor(this.data, caller, 'labelReports:read', reportId);
    const state = this.data.read(() => this.stateOf(reportId, caller.companyId));
    if (!state) throw notFound(reportId);
    const checksum = certificateChecksum(state);
    if (caller.keyId === COMMAND_LINE_KEY_ID) return { ...state, checksum, issuedAt: new Date().toISOString(), entry: null };
    const detail: CertificateRecord = { ...state, checksum };
    const recorded = this.access.certificateIssued(caller, reportId, format === 'print' ? 'print' : 'export', JSON.stringify(detail));
    return { ...state, checksum, issuedAt: recorded.at, entry: recorded.id };
  }

  /**
   * The certificate `labeldesk report --pdf` wrote, recorded as the command line's, with who ran
   * it. `printed` is the checksum its PDF carries: a report changed since is not recorded as it.
   */
  issueByCommandLine(reportId: string, companyId: string, ranBy: string, printed: string): Certificate {
    const state = this.data.read(() => this.stateOf(reportId, companyId));
    if (!state) throw notFound(reportId);
    const checksum = certificateChecksum(state);
    if (checksum !== printed) throw new CertificateMovedError(reportId);
    const detail: CertificateRecord = { ...state, checksum, ranBy };
    const recorded = this.access.certificateIssued(null, reportId, 'export', JSON.stringify(detail));
    return { ...state, checksum, issuedAt: recorded.at, entry: recorded.id };
  }

  /** Whether this desk issued the certificate with this checksum, and whether the report still stands as it certified. */
  check(checksum: string): CertificateCheck {
    const wanted = checksum.trim().toLowerCase();
    if (!CHECKSUM_PATTERN.test(wanted)) {
      throw new InvalidInputError('INVALID_CHECKSUM', 'a certificate checksum is 64 hexadecimal digits (SHA-256), as printed at the head of each page');
    }
    return this.data.read(() => {
      const found = this.data.access.certificate(wanted);
      if (!found) return { verdict: 'unknown', reason: 'not issued by this desk: no certificate with this checksum is recorded here' };
      if (!found.intact) return { verdict: 'unknown', reason: `the record of this certificate (access entry ${found.record.id}) was changed after it was written: audit verify names it` };
      const parsed = certificateRecordSchema.safeParse(JSON.parse(found.record.detail ?? 'null'));
      if (!parsed.success || parsed.data.checksum !== wanted || certificateChecksum(parsed.data) !== wanted) {
        return { verdict: 'unknown', reason: `the record of this certificate (access entry ${found.record.id}) does not hold what its checksum covers` };
      }
      const record = parsed.data;
      const report = this.data.reports.load(record.reportId);
      const issued: IssuedBy = { entry: found.record.id, at: found.record.at, who: issuerText(found.record, record), reference: report?.labelReference ?? null };
      const now = report ? this.stateOf(record.reportId, record.companyId) : undefined;
      if (now && certificateChecksum(now) === wanted) return { verdict: 'current', record, issued };
      return { verdict: 'changed', record, issued, changes: now ? this.changesSince(record, now) : ['the report is no longer on this desk'] };
    });
  }

  /** What is certified of the report for the company now; undefined when the report is not there. In the caller's read. */
  private stateOf(reportId: string, companyId: string): CertifiedState | undefined {
    if (!this.data.reports.exists(reportId)) return undefined;
    const changes = Array.from(this.data.audit.rows('change_log', reportId));
    const newest = changes.at(-1);
    const reviews = Array.from(this.data.audit.rows('report_reviews', reportId)).filter((r) => r.company_id === companyId);
    let decision: Row | null = null;
    let acknowledgement: Row | null = null;
    for (const row of reviews) {
      if (row.kind === 'decision') decision = row;
      else if (row.kind === 'withdrawal') decision = null;
      else if (row.kind === 'acknowledgement') acknowledgement = row;
    }
    return {
      reportId,
      companyId,
      changeLog: { seq: newest ? (newest.seq as number) : 0, hash: newest ? ((newest.hash as string | null) ?? null) : null },
      signatures: [decision, acknowledgement].filter((r): r is Row => r !== null).map((r) => this.signatureOf(r)),
    };
  }

  private signatureOf(row: Row): CertifiedSignature {
    const userId = row.user_id as string | null;
    return {
      entry: row.id as number,
      hash: (row.hash as string | null) ?? null,
      kind: row.kind === 'decision' ? 'decision' : 'acknowledgement',
      decision: (row.decision as Decision | null) ?? null,
      meaning: (row.meaning as string | null) ?? null,
      signer: userId === null ? null : { id: userId, login: (row.user_login as string | null) ?? '', name: (row.user_name as string | null) ?? '' },
      keyName: (row.api_key_name as string | null) ?? null,
      role: userId === null ? null : (this.data.users.find(userId)?.role ?? null),
      at: row.at as string,
      zone: (row.meaning as string | null) === null ? null : ((row.zone as string | null) ?? 'UTC'),
    };
  }

  /** In words, what moved between the certificate and the report now: its signatures, then each change logged after it. */
  private changesSince(record: CertificateRecord, now: CertifiedState): string[] {
    const words: string[] = [];
    for (const kind of ['decision', 'acknowledgement'] as const) {
      const then = record.signatures.find((s) => s.kind === kind);
      const standing = now.signatures.find((s) => s.kind === kind);
      if (then?.entry === standing?.entry) continue;
      if (kind === 'decision' && then && !standing) {
        const withdrawal = this.newestWithdrawal(record.reportId, record.companyId, then.entry);
        words.push(`decision withdrawn${withdrawal ? ` at ${withdrawal.at}: ${withdrawal.text}` : ''}`);
      } else if (standing) {
        words.push(`${kind} ${then ? 'replaced' : 'taken'}: ${signatureWords(standing)}`);
      } else words.push(`${kind} gone`);
    }
    const after = this.data.changes.forReport(record.reportId).filter((c) => c.seq > record.changeLog.seq);
    for (const change of after) words.push(changeWords(change));
    if (words.length === 0) words.push(`the report's change log no longer ends at entry ${record.changeLog.seq} as certified`);
    return words;
  }

  private newestWithdrawal(reportId: string, companyId: string, afterEntry: number): { at: string; text: string } | undefined {
    const rows = Array.from(this.data.audit.rows('report_reviews', reportId));
    const found = rows.filter((r) => r.company_id === companyId && r.kind === 'withdrawal' && (r.id as number) > afterEntry).at(-1);
    return found && { at: found.at as string, text: (found.text as string | null) ?? '' };
  }
}

function issuerText(record: { actor: string; userName: string | null; userLogin: string | null; apiKeyName: string | null; apiKeyId: string | null }, detail: CertificateRecord): string {
  if (record.userName) return `${record.userName} (${record.userLogin ?? ''})`;
  if (record.actor === 'commandLine') return detail.ranBy ?? 'the command line';
  return record.apiKeyName ? `key “${record.apiKeyName}”` : `key ${record.apiKeyId ?? ''}`;
}

/** "Approved for release by Anna Berg (anna), approver, at 2026-12-07T14:03:00.000Z in Europe/Berlin". */
export function signatureWords(s: CertifiedSignature): string {
  const who = s.signer ? `${s.signer.name} (${s.signer.login})${s.role ? `, ${s.role}` : ''}` : s.keyName ? `key “${s.keyName}”` : 'a key';
  const what = s.meaning ?? (s.kind === 'decision' ? `${s.decision} (unsigned)` : 'acknowledged (unsigned)');
  return `${what} by ${who}, at ${s.at}${s.zone ? ` in ${s.zone}` : ''}`;
}

/** The groups of fields staff know by name, by their API names' first part. */
const FIELD_GROUPS: Record<string, string> = {
  limits: 'limits changed',
  alertsConfig: 'alert rules changed',
  customFields: 'custom fields changed',
  trim: 'trim changed',
  calculatedSenseData: 'readings changed',
  datapoints: 'readings changed',
  alert: 'alert changed',
};

function changeWords(change: ChangeEntry): string {
  const groups = new Set(change.changes.map((c) => FIELD_GROUPS[c.field.split('.')[0]] ?? `${c.field} changed`));
  const fields = change.changes
    .slice(0, 4)
    .map((c) => `${c.field} ${JSON.stringify(c.old) ?? 'none'} → ${JSON.stringify(c.new) ?? 'none'}`)
    .join(', ');
  const who = change.actor.kind === 'apiKey' ? (change.actor.person?.name ?? 'a key') : change.actor.kind;
  const more = change.changes.length > 4 ? `, and ${change.changes.length - 4} more` : '';
  return `${[...groups].join(', ') || `${change.kind}`} (change ${change.seq} at ${change.at} by ${who}: ${fields}${more})`;
}
