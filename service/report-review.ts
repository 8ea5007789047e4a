/**
 * The review workflow of one report, per company: its alert explained, comments, the
 * acknowledgement of the alert and the release decision; plus the plain words the list shows
 * (custom fields in use, companies by name). Same rules as /v2: key permission (403), then the
 * report's visibility (404), then the body (400, parsed by the caller), then the role (403).
 *
 * Writing a comment needs `labelReports:update` on the key, like every write, and any role: a
 * viewer company may talk about a shipment it receives. Acknowledging and deciding need the
 * owner's or an editor's role, as they speak for the shipment.
 */
import type { DataStore } from '../db/data-store';
import { decodeDatapoints } from '../model/datapoint-codec';
import type { ReviewEntry } from '../model/review-entry';
import type { Permission, Role } from '../schema/report';
import type {
  Acknowledgement,
  AcknowledgementBody,
  AlertExplanation,
  Comment,
  CommentBody,
  CompanyName,
  CustomFieldUsage,
  DecisionBody,
  Review,
  ReviewAuthor,
  ReviewDecision,
  Withdrawal,
} from '../schema/review';
import { toTimeline } from '../sense';
import { explainAlert } from '../sense/alert-explanation';
import { requirePermission, SESSION_KEY_ID, type Caller } from './api-keys';
import { ConflictError, ForbiddenError, InvalidInputError, RoleForbiddenError } from '../model/errors';
import { mayDo, type PersonAction, type SignedInPerson } from '../model/person';
import { SIGNATURE_MEANINGS } from '../schema/review';
import type { Users } from './users';
import { authorizeFor, notFound } from './label-reports';
import { roleOf as modelRoleOf } from '../model/report';

/** The name the desktop window's session key goes by in a review: it has no record of its own. */
export const SESSION_KEY_NAME = 'LabelDesk desktop app';

export type ReviewAction = 'read' | 'comment' | 'acknowledge' | 'decide';

const PERMISSION_FOR: Record<ReviewAction, Permission> = {
  read: 'labelReports:read',
  comment: 'labelReports:update',
  acknowledge: 'labelReports:update',
  decide: 'labelReports:update',
};

/** Judges each report of a selection, answering each one's result in order or refusing. */
export type JudgeEach = <T>(ids: readonly string[], judgeOne: (id: string) => T) => T[];

/** Each report judged in turn: the first refusal refuses. */
const everyOrFirst: JudgeEach = (ids, judgeOne) => ids.map(judgeOne);

export class ReportReviews {
  constructor(
    private readonly data: DataStore,
    private readonly now: () => Date,
    private readonly users?: Users,
  ) {}

  /** The checks before a route reads its request: the key's permission (403), then the report's visibility (404). */
  authorize(caller: Caller, action: ReviewAction, id?: string): void {
    authorizeFor(this.data, caller, PERMISSION_FOR[action], id);
  }

  alerts(caller: Caller, id: string): AlertExplanation {
    requirePermission(caller, 'labelReports:read');
    const report = this.data.read(() => this.data.reports.load(id));
    if (!report || modelRoleOf(report, caller.companyId) === undefined) throw notFound(id);
    return explainAlert({
      timeline: toTimeline(decodeDatapoints(report.datapoints)),
      senseConfig: report.senseConfig,
      alertsConfig: report.alertsConfig,
      numberOfTaps: report.numberOfTaps,
      trim: report.trim,
    });
  }

  review(caller: Caller, id: string): Review {
    requirePermission(caller, 'labelReports:read');
    return this.data.read(() => {
      if (!this.data.reports.isVisible(caller.companyId, id)) throw notFound(id);
      return reviewOf(this.data.reviews.entries(id, caller.companyId));
    });
  }

  comment(caller: Caller, id: string, body: CommentBody): Comment {
    requirePermission(caller, PERMISSION_FOR.comment);
    return this.data.write(() => {
      this.roleOf(caller, id);
      const row = this.append(caller, id, { kind: 'comment', text: body.text, decision: null, alert: null }, null);
      return commentOf(row);
    });
  }

  acknowledge(caller: Caller, id: string, body: AcknowledgementBody): Acknowledgement {
    const [acknowledged] = this.acknowledgeEach(caller, [id], body);
    return acknowledged;
  }

  /**
   * One signed acknowledgement of several reports' alerts: each judged as alone, the password
   * entered once, each report its own entry, in one transaction. `judgeEach` runs the judgement
   * of every report, so that a refusal can name each report at fault.
   */
  acknowledgeEach(caller: Caller, ids: readonly string[], body: AcknowledgementBody, judgeEach: JudgeEach = everyOrFirst): Acknowledgement[] {
    requirePermission(caller, PERMISSION_FOR.acknowledge);
    const judge = () => judgeEach(ids, (id) => this.judgeAcknowledgement(caller, id));
    const signature = this.sign(caller, 'acknowledge', SIGNATURE_MEANINGS.acknowledgement, body, judge);
    return this.data.write(() => {
      const alerts = judge();
      return ids.map((id, i) => acknowledgementOf(this.append(caller, id, { kind: 'acknowledgement', text: body.note ?? null, decision: null, alert: alerts[i] }, signature)));
    });
  }

  private judgeAcknowledgement(caller: Caller, id: string): { level: number; timestamp: number } {
    const role = this.roleOf(caller, id);
    if (role === 'viewer') throw roleForbidden('Only the label report owner or an editor can acknowledge an alert');
    // The minimal columns hold the alert; the datapoints are not needed.
    const [report] = this.data.reports.minimalByIds(caller.companyId, [id]);
    if (report.alert.level < 1) {
      throw new ConflictError(
        'NO_ALERT_TO_ACKNOWLEDGE',
        report.alert.level === -1
          ? 'the label has not been tapped yet, so there is no alert to acknowledge'
          : 'the report has no alert (level 0) to acknowledge',
      );
    }
    return { level: report.alert.level, timestamp: report.alert.timestamp };
  }

  decide(caller: Caller, id: string, body: DecisionBody): ReviewDecision {
    requirePermission(caller, PERMISSION_FOR.decide);
    const judge = () => this.judgeDecision(caller, id, body);
    const signature = this.sign(caller, body.decision, SIGNATURE_MEANINGS[body.decision], body, judge);
    return this.data.write(() => {
      judge();
      return decisionOf(this.append(caller, id, { kind: 'decision', text: body.reason, decision: body.decision, alert: null }, signature));
    });
  }

  /**
   * One signed decision on several reports (a shipment's): each report is judged as `decide`
   * judges it, after the caller's own rules (`within.judge`); the password is entered once; each
   * report gets its own decision entry, with the text `within.text()` gives, in one transaction,
   * which `within.written` joins.
   */
  decideEach(
    caller: Caller,
    ids: readonly string[],
    body: DecisionBody,
    within: { judge(): void; text(): string; written(entries: readonly ReviewEntry[]): void },
    judgeEach: JudgeEach = everyOrFirst,
  ): ReviewEntry[] {
    requirePermission(caller, PERMISSION_FOR.decide);
    const judge = () => {
      within.judge();
      judgeEach(ids, (id) => this.judgeDecision(caller, id, body));
    };
    const signature = this.sign(caller, body.decision, SIGNATURE_MEANINGS[body.decision], body, judge);
    return this.data.write(() => {
      judge();
      const text = within.text();
      const entries = ids.map((id) => this.append(caller, id, { kind: 'decision', text, decision: body.decision, alert: null }, signature));
      within.written(entries);
      return entries;
    });
  }

  private judgeDecision(caller: Caller, id: string, body: DecisionBody): void {
    const role = this.roleOf(caller, id);
    if (role === 'viewer') throw roleForbidden('Only the label report owner or an editor can release, reject or hold a label report');
    if (caller.person) this.judgeSignedDecision(caller.person, caller.companyId, id, body);
  }

  /**
   * A person's decision follows an acknowledgement of the report's current alert; with four
   * eyes on, a Critical report is released by someone other than who acknowledged it.
   */
  private judgeSignedDecision(person: SignedInPerson, companyId: string, id: string, body: DecisionBody): void {
    const [report] = this.data.reports.minimalByIds(companyId, [id]);
    if (report.alert.level < 1) return;
    const entries = this.data.reviews.entries(id, companyId);
    const ack = entries.findLast((e) => e.kind === 'acknowledgement');
    if (!ack || ack.alert?.level !== report.alert.level || ack.alert.timestamp !== report.alert.timestamp) {
      throw new ConflictError('ACKNOWLEDGEMENT_REQUIRED', 'acknowledge the report’s current alert before deciding');
    }
    const fourEyes = this.data.users.settings(companyId).fourEyes;
    if (fourEyes && body.decision === 'released' && report.alert.level >= 2 && ack.person?.id === person.id) {
      throw new ConflictError('FOUR_EYES', 'a Critical report is released by a person other than the one who acknowledged its alert');
    }
  }

  /**
   * The signature of the entry about to be written: a person's role, the rules (`judge`, read
   * once before the password so a refusal asks for nothing) and the password entered again. A
   * tool's key signs nothing; it may still acknowledge and decide for a company without people.
   */
  private sign(
    caller: Caller,
    action: PersonAction,
    meaning: string,
    body: { password?: string; zone?: string },
    judge: () => unknown,
  ): Signature | null {
    const person = caller.person;
    if (!person) {
      if (this.users?.hasPeople(caller.companyId)) {
        throw new ForbiddenError('SIGNATURE_NEEDS_PERSON', 'the company has people who sign: a tool’s key cannot acknowledge or decide');
      }
      this.data.read(judge);
      return null;
    }
    if (!mayDo(person, action)) throw roleForbidden(`a ${person.role} cannot sign “${meaning}”`);
    const zone = body.zone ?? 'UTC';
    if (!isTimeZone(zone)) throw new InvalidInputError('INVALID_BODY', `zone '${zone}' is not an IANA time zone`);
    this.data.read(judge);
    this.users!.verifySignature(person, body.password);
    return { person, meaning, zone };
  }

  customFields(caller: Caller): CustomFieldUsage[] {
    requirePermission(caller, 'labelReports:read');
    return this.data.read(() => this.data.reviews.customFieldUsage(caller.companyId)).map((use) => ({
      customFieldId: use.customFieldId,
      kind: use.hasNumber ? (use.hasText ? 'mixed' : 'number') : 'text',
      count: use.reports,
    }));
  }

  companies(caller: Caller): CompanyName[] {
    requirePermission(caller, 'labelReports:read');
    return this.data.read(() => this.data.reviews.companiesSeenBy(caller.companyId));
  }

  /** The caller company's role on the report; a 404 when it has none. */
  private roleOf(caller: Caller, id: string): Role {
    const access = this.data.reports.accessFor([id]).get(id) ?? [];
    const mine = access.find((a) => a.companyId === caller.companyId);
    if (!mine) throw notFound(id);
    return mine.role;
  }

  private append(
    caller: Caller,
    id: string,
    entry: Pick<ReviewEntry, 'kind' | 'text' | 'decision' | 'alert'>,
    signature: Signature | null,
  ): ReviewEntry {
    const at = this.now().toISOString();
    // A person's entry names the person, not the session behind it.
    const person = caller.person ? { id: caller.person.id, login: caller.person.login, name: caller.person.name } : null;
    const keyId = person ? null : caller.keyId;
    const keyName = keyId === null ? null : keyNameOf(this.data, keyId);
    const written = { reportId: id, companyId: caller.companyId, ...entry, keyId, keyName, person, meaning: signature?.meaning ?? null, zone: signature?.zone ?? null, at };
    return { id: this.data.reviews.append(written), ...written };
  }
}

/** A key's name: its record's, the session key's own, or null for a key without one. */
export function keyNameOf(data: DataStore, keyId: string): string | null {
  const record = data.keys.find(keyId);
  if (record) return record.name;
  return keyId === SESSION_KEY_ID ? SESSION_KEY_NAME : null;
}

interface Signature {
  person: SignedInPerson;
  meaning: string;
  zone: string;
}

export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

function roleForbidden(message: string): RoleForbiddenError {
  return new RoleForbiddenError(message);
}

/** The review as it stands: the newest acknowledgement and decision, every comment. */
export function reviewOf(rows: readonly ReviewEntry[]): Review {
  let acknowledgement: Acknowledgement | null = null;
  let decision: ReviewDecision | null = null;
  let withdrawal: Withdrawal | null = null;
  const comments: Comment[] = [];
  for (const row of rows) {
    if (row.kind === 'comment') comments.push(commentOf(row));
    else if (row.kind === 'acknowledgement') acknowledgement = acknowledgementOf(row);
    else if (row.kind === 'withdrawal') {
      withdrawal = withdrawalOf(row);
      decision = null;
    } else {
      decision = decisionOf(row);
      withdrawal = null;
    }
  }
  // Only a standing withdrawal is told: a review without one reads as it always did.
  return { acknowledgement, decision, ...(withdrawal ? { withdrawal } : {}), comments };
}

export function authorOf(row: ReviewEntry): ReviewAuthor {
  return row.person ? { keyId: row.keyId ?? '', keyName: row.keyName, person: row.person } : { keyId: row.keyId ?? '', keyName: row.keyName };
}

function signatureOf(row: ReviewEntry): { meaning?: string; zone?: string } {
  return row.meaning === null ? {} : { meaning: row.meaning, zone: row.zone ?? 'UTC' };
}

function commentOf(row: ReviewEntry): Comment {
  return { id: String(row.id), text: row.text ?? '', author: authorOf(row), at: row.at };
}

function acknowledgementOf(row: ReviewEntry): Acknowledgement {
  return {
    id: String(row.id),
    note: row.text,
    by: authorOf(row),
    at: row.at,
    alert: { level: row.alert?.level ?? 0, timestamp: row.alert?.timestamp ?? 0 },
    ...signatureOf(row),
  };
}

function withdrawalOf(row: ReviewEntry): Withdrawal {
  return { id: String(row.id), text: row.text ?? '', alert: { level: row.alert?.level ?? 0, timestamp: row.alert?.timestamp ?? 0 }, by: authorOf(row), at: row.at };
}

function decisionOf(row: ReviewEntry): ReviewDecision {
  return { id: String(row.id), decision: row.decision!, reason: row.text ?? '', by: authorOf(row), at: row.at, ...signatureOf(row) };
}
