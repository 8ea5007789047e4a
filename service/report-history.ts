/**
 * A report's history as its company sees it: every entry of the change log (who, when, each
 * field old → new) and the company's review entries, in one timeline, newest first. Other
 * companies' own flags and archive states are theirs and left out; so are their reviews.
 */
import type { DataStore } from '../db/data-store';
import type { ReviewEntry } from '../model/review-entry';
import type { Actor, ChangeEntry } from '../schema/change-log';
import type { Decision, HistoryActor, HistoryEntry, ReportHistory } from '../schema/review';
import { requirePermission, type Caller } from './api-keys';
import { notFound } from './label-reports';
import { keyNameOf } from './report-review';

export class ReportHistoryService {
  constructor(private readonly data: DataStore) {}

  history(caller: Caller, id: string): ReportHistory {
    requirePermission(caller, 'labelReports:read');
    return this.data.read(() => {
      if (!this.data.reports.isVisible(caller.companyId, id)) throw notFound(id);
      const actors = new ActorNames(this.data);
      return {
        entries: mergeHistory(
          this.data.changes.forReport(id),
          this.data.reviews.entries(id, caller.companyId),
          caller.companyId,
          (actor) => actors.of(actor),
          (userId) => this.data.users.find(userId)?.login,
        ),
      };
    });
  }
}

/**
 * The change log entries and review entries (each oldest first) as one timeline, newest first.
 * Changes of another company's per-company fields are left out, and an update left with no
 * change goes with them. Pure: actors are named by `nameActor`.
 */
export function mergeHistory(
  changes: readonly ChangeEntry[],
  reviews: readonly ReviewEntry[],
  companyId: string,
  nameActor: (actor: Actor) => HistoryActor,
  /** A person's login, for a change log entry, which keeps only their id and printed name. */
  loginOf: (userId: string) => string | undefined = () => undefined,
): HistoryEntry[] {
  const timeline: { entry: HistoryEntry; source: number; index: number }[] = [];
  changes.forEach((change, index) => {
    const own = change.changes.filter((c) => c.companyId === undefined || c.companyId === companyId);
    if (change.kind === 'update' && own.length === 0) return;
    timeline.push({
      source: 0,
      index,
      entry: {
        type: 'change',
        seq: change.seq,
        kind: change.kind,
        changes: own.map((c) => ({ field: c.field, old: c.old, new: c.new })),
        ...(change.reason === undefined ? {} : { reason: change.reason }),
        ...(change.signature === undefined ? {} : { signature: change.signature }),
        at: change.at,
        actor: withPerson(nameActor(change.actor), personOfChange(change.actor, loginOf)),
      },
    });
  });
  let decision: Decision | null = null;
  reviews.forEach((row, index) => {
    const actor = nameActor({ kind: 'apiKey', keyId: row.keyId ?? '' });
    // The name written with the entry is the one it was made under.
    const named: HistoryActor = withPerson({ ...actor, keyName: row.keyName }, row.person ?? undefined);
    const signed = row.meaning === null ? {} : { meaning: row.meaning, zone: row.zone ?? 'UTC' };
    const base = { id: String(row.id), at: row.at, actor: named };
    let entry: HistoryEntry;
    if (row.kind === 'comment') entry = { type: 'comment', text: row.text ?? '', ...base };
    else if (row.kind === 'acknowledgement') {
      entry = { type: 'acknowledgement', note: row.text, alert: { level: row.alert?.level ?? 0, timestamp: row.alert?.timestamp ?? 0 }, ...signed, ...base };
    } else if (row.kind === 'withdrawal') {
      entry = { type: 'withdrawal', previous: decision, text: row.text ?? '', alert: { level: row.alert?.level ?? 0, timestamp: row.alert?.timestamp ?? 0 }, ...base };
      decision = null;
    } else {
      entry = { type: 'decision', decision: row.decision!, previous: decision, reason: row.text ?? '', ...signed, ...base };
      decision = row.decision;
    }
    timeline.push({ source: 1, index, entry });
  });
  // Oldest first by time, then as written; reversed for newest first.
  timeline.sort((a, b) => (a.entry.at < b.entry.at ? -1 : a.entry.at > b.entry.at ? 1 : a.source - b.source || a.index - b.index));
  return timeline.reverse().map((t) => t.entry);
}

function personOfChange(actor: Actor, loginOf: (userId: string) => string | undefined) {
  if (actor.kind !== 'apiKey' || !actor.person) return undefined;
  const login = loginOf(actor.person.id);
  return login === undefined ? actor.person : { ...actor.person, login };
}

/** The actor, naming the person who was signed in. */
function withPerson(actor: HistoryActor, person: { id: string; login?: string; name: string } | undefined): HistoryActor {
  return person ? { ...actor, person: { ...person } } : actor;
}

/** Actors with their key's name and company, each key looked up once. */
class ActorNames {
  private readonly known = new Map<string, HistoryActor>();

  constructor(private readonly data: DataStore) {}

  of(actor: Actor): HistoryActor {
    if (actor.kind !== 'apiKey') return { kind: actor.kind, keyId: null, keyName: null, companyId: null, companyName: null };
    let named = this.known.get(actor.keyId);
    if (!named) {
      const record = this.data.keys.find(actor.keyId);
      const companyId = record?.companyId ?? null;
      named = {
        kind: 'apiKey',
        keyId: actor.keyId,
        keyName: keyNameOf(this.data, actor.keyId),
        companyId,
        companyName: companyId === null ? null : (this.data.companies.find(companyId)?.name ?? null),
      };
      this.known.set(actor.keyId, named);
    }
    return named;
  }
}
