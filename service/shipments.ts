/**
 * Shipments (docs/shipments.md): a company's reports of one label reference seen, judged and
 * released together. The list and one shipment with its labels, legs and budget; the facts the
 * desk keeps on it, each change logged with its reason; one signed decision covering its reports,
 * written through the review path (service/report-review.ts) so each report gets its own entry
 * naming it; and its withdrawal when a label's alert moves later.
 */
import type { DataStore } from '../db/data-store';
import type { DecisionRow, EntryAuthor, FactsRow, ShipmentConditions, ShipmentOrderKey, ShipmentRow } from '../db/shipment-store';
import { decodeDatapoints } from '../model/datapoint-codec';
import { ConflictError, InvalidInputError, NotFoundError, RoleForbiddenError } from '../model/errors';
import type { Report } from '../model/report';
import { roleOf } from '../model/report';
import type { ReviewEntry } from '../model/review-entry';
import { budgetWords, parseShipmentId, shipmentId } from '../model/shipment';
import type { DecisionBody, ReviewAuthor } from '../schema/review';
import type { BudgetLimit, BudgetUse, Shipment, ShipmentGrouping, ShipmentDecision, ShipmentFactChange, ShipmentFacts, ShipmentFactsBody, ShipmentLabel, ShipmentLeg, ShipmentList, ShipmentReadings, ShipmentSummary } from '../schema/shipment';
import { SHIPMENT_STATE_VALUES, TRANSPORT_MODES } from '../schema/shipment';
import { toTimeline } from '../sense';
import { explainAlert } from '../sense/alert-explanation';
import { ALERT_LEVEL_NAMES } from '../sense/alert-rules';
import { combinedSecondsBeyond, type BudgetLabel } from '../sense/shipment-budget';
import { requirePermission, type Caller } from './api-keys';
import { MAX_REASON_LENGTH, mustGiveReason, NO_REASON_FROM_TOOL } from './change-reason';
import { hasCurrentDecision } from './decision-withdrawal';
import { keyNameOf, type ReportReviews } from './report-review';
import type { ReportChange, ReportChangeListener } from './report-writer';

export const SHIPMENT_ORDER_KEYS: readonly ShipmentOrderKey[] = ['created', 'worstAlert', 'labels', 'firstStart'];
export const SHIPMENT_QUERY_PARAMETERS = ['alert', 'state', 'labelsMin', 'labelsMax', 'startFrom', 'startTo', 'mode', 'product', 'order', 'pageNumber', 'pageSize'] as const;

export interface ShipmentListQuery {
  conditions: ShipmentConditions;
  order: ShipmentOrderKey;
  descending: boolean;
  pageNumber: number;
  pageSize: number;
}

const MAX_PAGE_SIZE = 500;
const UNITS = { temperature: '°C', humidity: '%RH' } as const;

/** The list's query parameters, checked; each refusal names the parameter at fault (400 INVALID_PARAMETER). */
export function parseShipmentQuery(get: (name: string) => string | undefined): ShipmentListQuery {
  const conditions: ShipmentConditions = {};
  const alert = get('alert');
  if (alert !== undefined) {
    conditions.alertLevels = alert.split(',').map((v) => {
      if (!['-1', '0', '1', '2'].includes(v)) throw invalid(`alert '${v}' is not one of -1, 0, 1, 2`);
      return Number(v);
    });
  }
  const state = get('state');
  if (state !== undefined) {
    conditions.states = state.split(',').map((v) => {
      if (!(SHIPMENT_STATE_VALUES as readonly string[]).includes(v)) throw invalid(`state '${v}' is not one of ${SHIPMENT_STATE_VALUES.join(', ')}`);
      return v;
    });
  }
  for (const name of ['labelsMin', 'labelsMax'] as const) {
    const v = get(name);
    if (v !== undefined) conditions[name] = positiveInteger(name, v);
  }
  for (const name of ['startFrom', 'startTo'] as const) {
    const v = get(name);
    if (v === undefined) continue;
    const ms = /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:\d{2}))?$/.test(v) ? Date.parse(v) : NaN;
    if (Number.isNaN(ms)) throw invalid(`${name} '${v}' is not an ISO 8601 date or instant`);
    conditions[name] = Math.floor(ms / 1000);
  }
  const mode = get('mode');
  if (mode !== undefined) {
    if (!(TRANSPORT_MODES as readonly string[]).includes(mode)) throw invalid(`mode '${mode}' is not one of ${TRANSPORT_MODES.join(', ')}`);
    conditions.mode = mode;
  }
  const product = get('product');
  if (product !== undefined) {
    if (product.length === 0 || product.length > 200) throw invalid('product is empty or longer than 200 characters');
    conditions.product = product;
  }
  let order: ShipmentOrderKey = 'created';
  let descending = true;
  const orderText = get('order');
  if (orderText !== undefined) {
    const match = /^(\w+)(?:\[(asc|desc)\])?$/.exec(orderText);
    if (!match || !(SHIPMENT_ORDER_KEYS as readonly string[]).includes(match[1])) {
      throw invalid(`order '${orderText}' is not one of ${SHIPMENT_ORDER_KEYS.join(', ')}, each with [asc] or [desc]`);
    }
    order = match[1] as ShipmentOrderKey;
    descending = match[2] !== 'asc';
  }
  const pageNumber = get('pageNumber') === undefined ? 1 : positiveInteger('pageNumber', get('pageNumber')!);
  const pageSize = get('pageSize') === undefined ? 50 : positiveInteger('pageSize', get('pageSize')!);
  if (pageSize > MAX_PAGE_SIZE) throw invalid(`pageSize ${pageSize} is above ${MAX_PAGE_SIZE}`);
  return { conditions, order, descending, pageNumber, pageSize };
}

export class Shipments {
  constructor(
    private readonly data: DataStore,
    private readonly reviews: ReportReviews,
    private readonly now: () => Date,
  ) {}

  /** The checks before a route reads its body: the key's permission (403), then the shipment's visibility (404). */
  authorize(caller: Caller, action: 'read' | 'update', id?: string): void {
    requirePermission(caller, action === 'read' ? 'labelReports:read' : 'labelReports:update');
    if (id !== undefined) this.data.read(() => this.rowOf(caller, id));
  }

  list(caller: Caller, query: ShipmentListQuery): ShipmentList {
    requirePermission(caller, 'labelReports:read');
    const { rows, total } = this.data.read(() =>
      this.data.shipments.page(caller.companyId, {
        conditions: query.conditions,
        order: query.order,
        descending: query.descending,
        limit: query.pageSize,
        offset: (query.pageNumber - 1) * query.pageSize,
      }),
    );
    return { data: rows.map(summaryOf), totalDocuments: total, pageNumber: query.pageNumber, pageSize: query.pageSize };
  }

  /** What the company groups its reports into shipments by (docs/shipments.md#grouping-by-a-custom-field). */
  grouping(caller: Caller): ShipmentGrouping {
    requirePermission(caller, 'labelReports:read');
    return { field: this.data.read(() => this.data.shipments.grouping(caller.companyId)) };
  }

  /**
   * Groups the company's shipments by a custom field from now on, or by the label reference
   * again (null): every kept shipment of the company is made again in the same transaction.
   * Facts and decisions stay with their shipment ids, so a shipment made again under the same
   * id finds them again.
   */
  setGrouping(caller: Caller, body: ShipmentGrouping): ShipmentGrouping {
    requirePermission(caller, 'apiKeys:manage');
    this.data.write(() => {
      if (this.data.shipments.grouping(caller.companyId) !== body.field) this.data.shipments.regroup(caller.companyId, body.field);
    });
    return this.grouping(caller);
  }

  /** The shipment a report belongs to for the company, or null when it belongs to none. */
  ofReport(caller: Caller, reportId: string): { shipment: ShipmentSummary | null } {
    requirePermission(caller, 'labelReports:read');
    const row = this.data.read(() => this.data.shipments.shipmentOf(caller.companyId, reportId));
    return { shipment: row ? summaryOf(row) : null };
  }

  /** The products named in the company's shipment facts, for the list's filter. */
  products(caller: Caller): string[] {
    requirePermission(caller, 'labelReports:read');
    return this.data.read(() => this.data.shipments.products(caller.companyId));
  }

  one(caller: Caller, id: string): Shipment {
    requirePermission(caller, 'labelReports:read');
    return this.data.read(() => {
      const row = this.rowOf(caller, id);
      const members = this.data.shipments.members(caller.companyId, row);
      const reports = members.map((m) => this.data.reports.load(m.id)).filter((r): r is Report => r !== undefined);
      const facts = factsOf(this.data.shipments.facts(caller.companyId, id));
      const reviewOf = new Map(members.map((m) => [m.id, m]));
      const labels: ShipmentLabel[] = [];
      const budgetLabels: BudgetLabel[] = [];
      for (const report of reports) {
        const timeline = toTimeline(decodeDatapoints(report.datapoints));
        const explained = explainAlert({ timeline, senseConfig: report.senseConfig, alertsConfig: report.alertsConfig, numberOfTaps: report.numberOfTaps, trim: report.trim });
        const member = reviewOf.get(report.id)!;
        const figures = report.figures.trimmed ?? report.figures.calculated;
        const started = report.numberOfTaps > 0 && timeline.timestamps.length > 0;
        labels.push({
          reportId: report.id,
          labelName: report.label.name,
          labelUid: report.label.uid,
          reference: report.labelReference,
          created: report.created,
          startTime: started ? isoOf(figures.startTime) : null,
          endTime: started ? isoOf(timeline.timestamps[timeline.timestamps.length - 1]) : null,
          interval: report.senseConfig.interval,
          limits: report.senseConfig.limits,
          alert: report.figures.alert,
          excursions: explained.excursions,
          timeAbove: explained.timeAbove,
          timeBelow: explained.timeBelow,
          review: {
            decision: (member.decision as ShipmentLabel['review']['decision']) ?? null,
            decisionWithdrawn: member.withdrawn,
            acknowledgedLevel: member.acknowledgedLevel,
            awaitingAcknowledgement: member.alertLevel >= 1 && (member.acknowledgedLevel ?? -1) < member.alertLevel,
          },
        });
        budgetLabels.push({ timeline, interval: report.senseConfig.interval, from: report.trim?.startTime, to: report.trim?.endTime });
      }
      const decisions = this.data.shipments.decisions(caller.companyId, id).map(decisionOf);
      const standing = decisions.at(-1);
      return {
        ...summaryOf(row),
        facts,
        labelsOf: labels,
        legs: legsOf(facts.legs, labels),
        budget: facts.budget.map((limit) => budgetUseOf(limit, budgetLabels)),
        decision: standing && !standing.withdrawal ? standing : null,
        decisions,
        factChanges: this.data.shipments.factChanges(caller.companyId, id).map(factChangeOf),
      };
    });
  }

  /** Every label's readings for the one time-aligned chart. */
  readings(caller: Caller, id: string): ShipmentReadings {
    requirePermission(caller, 'labelReports:read');
    return this.data.read(() => {
      const row = this.rowOf(caller, id);
      const labels = this.data.shipments.members(caller.companyId, row).flatMap((m) => {
        const report = this.data.reports.load(m.id);
        if (!report) return [];
        const timeline = toTimeline(decodeDatapoints(report.datapoints));
        return [{ reportId: report.id, labelName: report.label.name, timestamps: Array.from(timeline.timestamps), temperatures: Array.from(timeline.temperatures), limits: report.senseConfig.limits }];
      });
      return { labels };
    });
  }

  facts(caller: Caller, id: string): ShipmentFacts {
    requirePermission(caller, 'labelReports:read');
    return this.data.read(() => {
      this.rowOf(caller, id);
      return factsOf(this.data.shipments.facts(caller.companyId, id));
    });
  }

  /**
   * Replaces the facts given, logged with the reason as a verdict input is: the budget is what a
   * release is judged by. A person at the desk gives a reason (400 REASON_REQUIRED); a tool that
   * gives none is logged as such. The owner or an editor of every label may change them.
   */
  putFacts(caller: Caller, id: string, body: ShipmentFactsBody): ShipmentFacts {
    requirePermission(caller, 'labelReports:update');
    const reason = body.reason?.trim() ?? '';
    if (reason.length > MAX_REASON_LENGTH) throw new InvalidInputError('INVALID_REASON', `the reason is ${reason.length} characters long; at most ${MAX_REASON_LENGTH} are kept`);
    if (reason === '' && mustGiveReason(caller)) throw new InvalidInputError('REASON_REQUIRED', 'a change of a shipment’s facts needs a reason: send it as reason');
    return this.data.write(() => {
      const row = this.rowOf(caller, id);
      this.requireEditorOfEvery(caller, row, 'Only the owner or an editor of every label of the shipment can change its facts');
      const before = factsOf(this.data.shipments.facts(caller.companyId, id));
      const after: ShipmentFacts = {
        origin: body.origin === undefined ? before.origin : body.origin,
        destination: body.destination === undefined ? before.destination : body.destination,
        product: body.product === undefined ? before.product : body.product,
        legs: body.legs ?? before.legs,
        budget: body.budget ?? before.budget,
        updated: this.now().toISOString(),
      };
      const changes = (['origin', 'destination', 'product', 'legs', 'budget'] as const)
        .filter((f) => JSON.stringify(before[f]) !== JSON.stringify(after[f]))
        .map((field) => ({ field, old: before[field], new: after[field] }));
      if (changes.length === 0) return before;
      const facts: FactsRow = { origin: after.origin, destination: after.destination, product: after.product, legs: JSON.stringify(after.legs), budget: JSON.stringify(after.budget), updated: after.updated! };
      this.data.shipments.putFacts(caller.companyId, id, facts, { changes: JSON.stringify(changes), reason: reason || NO_REASON_FROM_TOOL, at: after.updated!, ...this.authorOf(caller) });
      return after;
    });
  }

  /**
   * One signed decision covering every label of the shipment, through the review path: the
   * rules of each report's decision hold for each (role, acknowledgement, four eyes), and before
   * them the shipment's own: no label's alert may await acknowledgement (409
   * ACKNOWLEDGEMENT_REQUIRED, naming the labels).
   */
  decide(caller: Caller, id: string, body: DecisionBody): ShipmentDecision {
    requirePermission(caller, 'labelReports:update');
    let decisionId = 0;
    let row: ShipmentRow | undefined;
    const memberIds = this.data.read(() => this.data.shipments.members(caller.companyId, this.rowOf(caller, id)).map((m) => m.id));
    this.reviews.decideEach(caller, memberIds, body, {
      judge: () => {
        row = this.rowOf(caller, id);
        const members = this.data.shipments.members(caller.companyId, row);
        if (members.map((m) => m.id).join() !== memberIds.join()) throw new ConflictError('SHIPMENT_CHANGED', 'the shipment’s labels changed meanwhile: look at it again');
        const waiting = members.filter((m) => m.alertLevel >= 1 && (m.acknowledgedLevel ?? -1) < m.alertLevel);
        if (waiting.length > 0) {
          const names = waiting.map((m) => this.data.reports.load(m.id)?.label.name ?? m.id);
          throw new ConflictError('ACKNOWLEDGEMENT_REQUIRED', `acknowledge the current alert of every label before deciding on the shipment: ${names.join(', ')} awaits acknowledgement`);
        }
      },
      text: () => {
        decisionId = this.data.shipments.appendDecision(caller.companyId, id, {
          decision: body.decision,
          reason: body.reason,
          meaning: null,
          zone: null,
          at: this.now().toISOString(),
          ...this.authorOf(caller),
        });
        return `${body.reason} (shipment ${row!.reference}, shipment decision ${decisionId})`;
      },
      written: (entries: readonly ReviewEntry[]) => {
        for (const entry of entries) this.data.shipments.linkReport(decisionId, entry.reportId, entry.id);
        const signed = entries[0];
        if (signed?.meaning) this.data.shipments.signDecision(decisionId, signed.meaning, signed.zone ?? 'UTC');
      },
    });
    return this.data.read(() => decisionOf(this.data.shipments.decisions(caller.companyId, id).find((d) => d.id === decisionId)!));
  }

  private rowOf(caller: Caller, id: string): ShipmentRow {
    const parsed = parseShipmentId(id);
    const row = parsed && this.data.shipments.one(caller.companyId, parsed.key, parsed.day);
    if (!row) throw new NotFoundError('SHIPMENT_NOT_FOUND', `no shipment '${id}' is visible to this API key`);
    return row;
  }

  private requireEditorOfEvery(caller: Caller, row: ShipmentRow, message: string): void {
    for (const m of this.data.shipments.members(caller.companyId, row)) {
      const report = this.data.reports.load(m.id);
      if (report && roleOf(report, caller.companyId) === 'viewer') throw new RoleForbiddenError(message);
    }
  }

  private authorOf(caller: Caller): EntryAuthor {
    if (caller.person) return { keyId: null, keyName: null, person: { id: caller.person.id, login: caller.person.login, name: caller.person.name } };
    return { keyId: caller.keyId, keyName: keyNameOf(this.data, caller.keyId), person: null };
  }
}

/**
 * A shipment decision stands while its labels' alerts stand: when the alert of one moves, the
 * one write path's withdrawal (service/decision-withdrawal.ts) takes back that report's
 * decision, and this listener, after it in the same transaction, withdraws the shipment decision
 * and the decision it wrote on each other report, so the whole shipment awaits review again.
 */
export function withdrawShipmentDecisionsOnAlertChange(data: DataStore, now: () => Date): ReportChangeListener {
  return (change: ReportChange) => {
    const { before, after } = change;
    if (!before || !after || before.figures.alert.level === after.figures.alert.level) return;
    const companies = new Set([...before.access, ...after.access].map((a) => a.companyId));
    for (const companyId of companies) {
      const entries = data.reviews.entries(after.id, companyId);
      const withdrawal = entries.at(-1);
      if (withdrawal?.kind !== 'withdrawal') continue;
      const decision = entries.findLast((e) => e.kind === 'decision');
      const shipment = decision && data.shipments.standingDecisionOfEntry(decision.id);
      if (!shipment) continue;
      const at = now().toISOString();
      const text = `shipment decision ${shipment.id} withdrawn: the alert of ${after.label.name} changed from ${levelName(before.figures.alert.level)} to ${levelName(after.figures.alert.level)}`;
      data.shipments.withdraw(shipment.id, after.id, text, at);
      const covered = data.shipments.decisions(companyId, shipment.shipmentId).find((d) => d.id === shipment.id)?.reports ?? [];
      for (const { reportId, reviewEntryId } of covered) {
        if (reportId === after.id) continue;
        const theirs = data.reviews.entries(reportId, companyId);
        if (!hasCurrentDecision(theirs) || theirs.findLast((e) => e.kind === 'decision')?.id !== reviewEntryId) continue;
        const { id: _id, ...entry } = withdrawal;
        data.reviews.append({ ...entry, reportId, companyId, text: `decision withdrawn: ${text}`, at });
      }
    }
  };
}

function levelName(level: number): string {
  return ALERT_LEVEL_NAMES[level] ?? `level ${level}`;
}

function invalid(message: string): InvalidInputError {
  return new InvalidInputError('INVALID_PARAMETER', message);
}

function positiveInteger(name: string, v: string): number {
  if (!/^[1-9]\d{0,8}$/.test(v)) throw invalid(`${name} '${v}' is not a decimal integer ≥ 1`);
  return Number(v);
}

function isoOf(epochSeconds: number): string {
  return new Date(epochSeconds * 1000).toISOString();
}

function summaryOf(row: ShipmentRow): ShipmentSummary {
  const legs = parseLegs(row.legs);
  return {
    id: shipmentId(row.refKey, row.firstCreated),
    reference: row.reference,
    labels: row.labels,
    worstAlert: row.worstAlert,
    state: row.state as ShipmentSummary['state'],
    firstCreated: row.firstCreated,
    firstStart: row.firstStart === null ? null : isoOf(row.firstStart),
    product: row.product,
    modes: [...new Set(legs.map((l) => l.mode))],
    origin: row.origin,
    destination: row.destination,
  };
}

function parseLegs(text: string | null): ShipmentLeg[] {
  return text ? (JSON.parse(text) as ShipmentLeg[]) : [];
}

function factsOf(row: FactsRow | undefined): ShipmentFacts {
  if (!row) return { origin: null, destination: null, product: null, legs: [], budget: [], updated: null };
  return { origin: row.origin, destination: row.destination, product: row.product, legs: parseLegs(row.legs), budget: JSON.parse(row.budget) as BudgetLimit[], updated: row.updated };
}

/** The legs in order, each with the labels that ran during it (all of them when the leg gives no times). */
function legsOf(legs: readonly ShipmentLeg[], labels: readonly ShipmentLabel[]): (ShipmentLeg & { labels: string[] })[] {
  return legs.map((leg) => {
    const from = leg.departure ? Date.parse(leg.departure) : -Infinity;
    const to = leg.arrival ? Date.parse(leg.arrival) : Infinity;
    const running = labels.filter((l) => l.startTime !== null && Date.parse(l.startTime) <= to && Date.parse(l.endTime ?? l.startTime) >= from);
    return { ...leg, labels: running.map((l) => l.reportId) };
  });
}

function budgetUseOf(limit: BudgetLimit, labels: readonly BudgetLabel[]): BudgetUse {
  const usedSeconds = combinedSecondsBeyond(labels, limit);
  return {
    ...limit,
    usedSeconds,
    words: budgetWords(usedSeconds, limit.minutes, limit.direction, limit.threshold, UNITS[limit.quantity]),
    exceeded: usedSeconds > limit.minutes * 60,
  };
}

function authorFrom(a: EntryAuthor): ReviewAuthor {
  return a.person ? { keyId: a.keyId ?? '', keyName: a.keyName, person: a.person } : { keyId: a.keyId ?? '', keyName: a.keyName };
}

function decisionOf(d: DecisionRow): ShipmentDecision {
  return {
    id: String(d.id),
    decision: d.decision,
    reason: d.reason,
    by: authorFrom(d),
    at: d.at,
    ...(d.meaning === null ? {} : { meaning: d.meaning, zone: d.zone ?? 'UTC' }),
    reports: d.reports.map((r) => ({ reportId: r.reportId, reviewEntryId: String(r.reviewEntryId) })),
    ...(d.withdrawal ? { withdrawal: d.withdrawal } : {}),
  };
}

function factChangeOf(c: ReturnType<DataStore['shipments']['factChanges']>[number]): ShipmentFactChange {
  return { id: String(c.id), changes: JSON.parse(c.changes) as ShipmentFactChange['changes'], reason: c.reason, by: authorFrom(c), at: c.at };
}
