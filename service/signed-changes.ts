/**
 * Signed verdict changes (docs/review-and-audit.md#signed-verdict-changes). A change that lowers a
 * report's alert, or moves the alert of a report awaiting review, is asked for as a request
 * (the change, its reason, who asks) and applied once a person whose role may release approves
 * it with their signature (password entered again, meaning, zone). With four eyes on, whoever
 * asked cannot approve. The approval applies the change through the one write path, whose change
 * log entry carries the signature naming both, in the same transaction that closes the request.
 */
import type { DataStore } from '../db/data-store';
import { ConflictError, ForbiddenError, InvalidInputError, NotFoundError, RoleForbiddenError } from '../model/errors';
import { mayDo, type SignedInPerson } from '../model/person';
import { fieldValue, sameFieldValue, valuesOfPatch, type FieldValue } from '../model/report-fields';
import type { EntryPerson } from '../model/review-entry';
import type { ChangeRequest } from '../model/signed-change';
import type { ApprovalBody, ChangeRequestBody, ChangeRequestView, DeclineBody } from '../schema/change-request';
import type { ChangeSignature } from '../schema/change-log';
import { actorOf, requirePermission, type Caller } from './api-keys';
import type { LabelReportService } from './label-reports';
import { notFound } from './label-reports';
import { isTimeZone, keyNameOf } from './report-review';
import type { ReportWriter } from './report-writer';
import { levelName, verdictSignatureNeed } from './signature-need';
import type { Users } from './users';

export class SignedChanges {
  constructor(
    private readonly data: DataStore,
    private readonly writer: ReportWriter,
    private readonly reports: LabelReportService,
    private readonly users: Users,
    private readonly now: () => Date,
  ) {}

  /** The company's requests of one report, newest first. */
  forReport(caller: Caller, reportId: string): ChangeRequestView[] {
    requirePermission(caller, 'labelReports:read');
    return this.data.read(() => {
      if (!this.data.reports.isVisible(caller.companyId, reportId)) throw notFound(reportId);
      return this.data.changeRequests.forReport(reportId, caller.companyId).map(viewOf);
    });
  }

  /** The company's requests waiting for a signature, newest first. */
  pending(caller: Caller): ChangeRequestView[] {
    requirePermission(caller, 'labelReports:read');
    return this.data.read(() => this.data.changeRequests.inState(caller.companyId, 'pending').map(viewOf));
  }

  /**
   * A new request; with `signature`, approved at once by the caller (a person who may release,
   * four eyes off), in the same transaction.
   */
  request(caller: Caller, reportId: string, body: ChangeRequestBody): ChangeRequestView {
    requirePermission(caller, 'labelReports:update');
    const judge = () => {
      const { before, after } = this.reports.edited(caller, reportId, body.patch);
      if (this.data.users.activeCount(caller.companyId) === 0) {
        throw new ConflictError('NOBODY_SIGNS', 'the company has no people who sign: make the change with a PATCH and its reason');
      }
      const need = verdictSignatureNeed(this.data, caller, before, after, body.patch);
      if (!need) {
        throw new ConflictError(
          'SIGNATURE_NOT_NEEDED',
          `this change moves the alert from ${levelName(before.figures.alert.level)} to ${levelName(after.figures.alert.level)}, which needs no signature: make it with a PATCH and its reason`,
        );
      }
      const values = [...valuesOfPatch(body.patch).keys()].map((name) => [name, fieldValue(before, name, caller.companyId)] as const);
      return { need, values };
    };
    const requestedBy = this.requesterOf(caller);
    const fresh = (): Omit<ChangeRequest, 'id'> => {
      const { need, values } = judge();
      return {
        reportId,
        companyId: caller.companyId,
        patch: body.patch,
        valuesBefore: values,
        reason: body.reason,
        meaning: need.meaning,
        alertBefore: need.alertBefore,
        alertAfter: need.alertAfter,
        requestedBy,
        requestedAt: this.now().toISOString(),
        state: 'pending',
        closedBy: null,
        closedZone: null,
        closedNote: null,
        closedAt: null,
        changeSeq: null,
      };
    };
    if (!body.signature) {
      return this.data.write(() => {
        const request = fresh();
        return viewOf({ ...request, id: this.data.changeRequests.append(request) });
      });
    }
    const signature = body.signature;
    // Judged whole before the password is checked, so a refusal asks for nothing.
    const person = this.data.read(() => {
      const request = fresh();
      return this.judgeApproval(caller, { ...request, id: 0 });
    });
    const zone = this.signatureZone(signature);
    this.users.verifySignature(person, signature.password);
    return this.data.write(() => {
      const request = fresh();
      const id = this.data.changeRequests.append(request);
      return this.apply(caller, person, { ...request, id }, zone);
    });
  }

  /** The request approved with the caller's signature, and its change applied. */
  approve(caller: Caller, reportId: string, requestId: string, body: ApprovalBody): ChangeRequestView {
    requirePermission(caller, 'labelReports:update');
    const find = () => this.find(caller, reportId, requestId);
    const person = this.data.read(() => this.judgeApproval(caller, find()));
    const zone = this.signatureZone(body);
    this.users.verifySignature(person, body.password);
    return this.data.write(() => {
      const request = find();
      this.judgeApproval(caller, request);
      return this.apply(caller, person, request, zone);
    });
  }

  /** The request declined: by whoever may approve it, or withdrawn by the person who asked. */
  decline(caller: Caller, reportId: string, requestId: string, body: DeclineBody): ChangeRequestView {
    requirePermission(caller, 'labelReports:update');
    return this.data.write(() => {
      const request = this.find(caller, reportId, requestId);
      const person = caller.person;
      if (!person) throw new ForbiddenError('SIGNATURE_NEEDS_PERSON', 'a request is declined by a person, not a tool’s key');
      if (request.state !== 'pending') throw closed(request);
      if (request.requestedBy.person?.id !== person.id && !mayDo(person, 'released')) {
        throw new RoleForbiddenError(`a ${person.role} cannot decline a request someone else made: that needs a role that may release`);
      }
      const at = this.now().toISOString();
      const by = entryPerson(person);
      this.data.changeRequests.closeRequest(request.id, { state: 'declined', by, zone: null, note: body.note?.trim() || null, at, changeSeq: null });
      return viewOf({ ...request, state: 'declined', closedBy: by, closedNote: body.note?.trim() || null, closedAt: at });
    });
  }

  private find(caller: Caller, reportId: string, requestId: string): ChangeRequest {
    const id = /^[1-9][0-9]{0,15}$/.test(requestId) ? Number(requestId) : NaN;
    const request = Number.isSafeInteger(id) ? this.data.changeRequests.find(caller.companyId, id) : undefined;
    if (!request || request.reportId !== reportId) {
      throw new NotFoundError('CHANGE_REQUEST_NOT_FOUND', `no change request '${requestId}' of label report '${reportId}' is visible to this API key`);
    }
    return request;
  }

  /**
   * Who may sign this request now: a signed-in person whose role may release, not the person who
   * asked when four eyes are on, on a pending request whose fields still hold what they held
   * when it was asked, and whose change the caller may make (role, limits).
   */
  private judgeApproval(caller: Caller, request: ChangeRequest): SignedInPerson {
    const person = caller.person;
    if (!person) throw new ForbiddenError('SIGNATURE_NEEDS_PERSON', 'a signed change is approved by a person, not a tool’s key');
    if (!mayDo(person, 'released')) {
      throw new RoleForbiddenError(`a ${person.role} cannot sign “${request.meaning}”: that needs a role that may release (approver or admin)`);
    }
    if (request.state !== 'pending') throw closed(request);
    if (this.data.users.settings(caller.companyId).fourEyes && request.requestedBy.person?.id === person.id) {
      throw new ConflictError('FOUR_EYES', `four eyes are on: “${request.meaning}” is signed by a person other than the one who asked for it`);
    }
    const { before } = this.reports.edited(caller, request.reportId, request.patch);
    for (const [name, value] of request.valuesBefore) {
      if (!sameFieldValue(fieldValue(before, name, caller.companyId), value as FieldValue)) {
        throw new ConflictError('CHANGE_REQUEST_STALE', `${name} changed since the request was made: decline it and ask again`);
      }
    }
    return person;
  }

  private signatureZone(body: { zone?: string }): string {
    const zone = body.zone ?? 'UTC';
    if (!isTimeZone(zone)) throw new InvalidInputError('INVALID_BODY', `zone '${zone}' is not an IANA time zone`);
    return zone;
  }

  /** Applies the change through the write path, signed, and closes the request; inside a write. */
  private apply(caller: Caller, person: SignedInPerson, request: ChangeRequest, zone: string): ChangeRequestView {
    const { before, after } = this.reports.edited(caller, request.reportId, request.patch);
    const signer = entryPerson(person);
    const signature: ChangeSignature = { meaning: request.meaning, zone, signer, requester: request.requestedBy, requestId: request.id };
    const saved = this.writer.edit(before, after, actorOf(caller), { reason: request.reason, signature });
    const changeSeq = saved === before ? null : this.data.changes.lastSeq();
    const at = this.now().toISOString();
    this.data.changeRequests.closeRequest(request.id, { state: 'approved', by: signer, zone, note: null, at, changeSeq });
    return viewOf({ ...request, state: 'approved', closedBy: signer, closedZone: zone, closedAt: at, changeSeq });
  }

  private requesterOf(caller: Caller): ChangeRequest['requestedBy'] {
    if (caller.person) return { person: entryPerson(caller.person), keyId: null, keyName: null };
    return { person: null, keyId: caller.keyId, keyName: this.data.read(() => keyNameOf(this.data, caller.keyId)) };
  }
}

function entryPerson(person: SignedInPerson): EntryPerson {
  return { id: person.id, login: person.login, name: person.name };
}

function closed(request: ChangeRequest): ConflictError {
  return new ConflictError('CHANGE_REQUEST_CLOSED', `change request ${request.id} was ${request.state} already`);
}

function viewOf(request: ChangeRequest): ChangeRequestView {
  return {
    id: String(request.id),
    reportId: request.reportId,
    patch: request.patch,
    reason: request.reason,
    meaning: request.meaning,
    alertBefore: request.alertBefore,
    alertAfter: request.alertAfter,
    requestedBy: request.requestedBy,
    requestedAt: request.requestedAt,
    state: request.state,
    closedBy: request.closedBy,
    zone: request.closedZone,
    note: request.closedNote,
    closedAt: request.closedAt,
    changeSeq: request.changeSeq,
  };
}
