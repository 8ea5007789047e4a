/**
 * Reopening: a decision was taken on the alert as it then stood. A change that moves the alert
 * level of a report (new limits, alert rules, a trim, a tap, a sync pull, an import) withdraws
 * every company's current decision on it, in the change's own transaction, so the report awaits
 * review again and nobody can make an alarm go away under a standing release or rejection.
 */
import type { DataStore } from '../db/data-store';
import type { EntryPerson, ReviewEntry } from '../model/review-entry';
import type { Actor } from '../schema/change-log';
import { ALERT_LEVEL_NAMES } from '../sense/alert-rules';
import { keyNameOf } from './report-review';
import type { ReportChange, ReportChangeListener } from './report-writer';

/** The key column of a withdrawal the service itself wrote (a sync pull, an import, the demo). */
const SERVICE_ACTOR_NAMES: Record<Exclude<Actor['kind'], 'apiKey'>, string> = { sync: 'the sync', import: 'the import', demo: 'the demo' };

export function withdrawDecisionsOnAlertChange(data: DataStore, now: () => Date): ReportChangeListener {
  return (change: ReportChange) => {
    const { before, after } = change;
    if (!before || !after || before.figures.alert.level === after.figures.alert.level) return;
    const who = whoOf(data, change);
    const from = levelName(before.figures.alert.level);
    const to = levelName(after.figures.alert.level);
    const reason = change.note?.reason ?? 'none given';
    const text = `decision withdrawn: alert changed from ${from} to ${to} by ${who.name}, reason ${reason}`;
    const companies = new Set([...before.access, ...after.access].map((a) => a.companyId));
    for (const companyId of companies) {
      if (!hasCurrentDecision(data.reviews.entries(after.id, companyId))) continue;
      data.reviews.append({
        reportId: after.id,
        companyId,
        kind: 'withdrawal',
        text,
        decision: null,
        alert: { level: after.figures.alert.level, timestamp: after.figures.alert.timestamp },
        // A person's change names the person, as their own entries do; a key or the service names itself.
        keyId: who.person ? null : who.keyId,
        keyName: who.person ? null : who.name,
        person: who.person,
        meaning: null,
        zone: null,
        // The change log entry of the same change carries this moment too.
        at: now().toISOString(),
      });
    }
  };
}

/** A company's decision stands until a withdrawal after it. */
export function hasCurrentDecision(entries: readonly ReviewEntry[]): boolean {
  for (let i = entries.length - 1; i >= 0; i--) {
    if (entries[i].kind === 'decision') return true;
    if (entries[i].kind === 'withdrawal') return false;
  }
  return false;
}

function levelName(level: number): string {
  return ALERT_LEVEL_NAMES[level] ?? `level ${level}`;
}

function whoOf(data: DataStore, change: ReportChange): { keyId: string; name: string; person: EntryPerson | null } {
  const { actor } = change;
  if (actor.kind !== 'apiKey') return { keyId: actor.kind, name: SERVICE_ACTOR_NAMES[actor.kind], person: null };
  if (actor.person && change.note?.via !== 'tap') {
    const login = data.users.find(actor.person.id)?.login ?? '';
    const person = { id: actor.person.id, login, name: actor.person.name };
    return { keyId: actor.keyId, name: login ? `${person.name} (${login})` : person.name, person };
  }
  const keyName = keyNameOf(data, actor.keyId) ?? `key ${actor.keyId}`;
  return { keyId: actor.keyId, name: change.note?.via === 'tap' ? `the tap (${keyName})` : keyName, person: null };
}
