/**
 * Sync in words for the people at the desk: what the worker is doing, when it last succeeded,
 * which field a conflict is about and what its values mean, why the remote refused an edit.
 * Pure functions: the time they count from is passed in.
 */
import type { DeadLetter, SyncState, SyncStatus, SyncValue } from '../api/sync-client';

export const STATE_TEXT: Record<SyncState, string> = {
  off: 'Sync off',
  idle: 'Synced',
  pushing: 'Sending edits',
  pulling: 'Receiving changes',
  reconciling: 'Checking all reports',
  offline: 'Offline',
  paused: 'Sync paused',
};

/** States in which a cycle runs (the window reads the status more often then). */
export function isSyncBusy(state: SyncState): boolean {
  return state === 'pushing' || state === 'pulling' || state === 'reconciling';
}

/** "just now", "2 min ago", "3 h ago", "4 d ago"; a time in the future (a clock ahead) reads "just now". */
export function timeAgo(iso: string, nowMs: number): string {
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return iso;
  const seconds = Math.floor((nowMs - then) / 1000);
  if (seconds < 45) return 'just now';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  return `${Math.round(hours / 24)} d ago`;
}

/** "in 30 s", "in 4 min"; a time already past reads "now". */
export function timeUntil(iso: string, nowMs: number): string {
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return iso;
  const seconds = Math.ceil((then - nowMs) / 1000);
  if (seconds <= 0) return 'now';
  if (seconds < 60) return `in ${seconds} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `in ${minutes} min`;
  return `in ${Math.round(minutes / 60)} h`;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The header's short line: the state, then what matters most in it. */
export function indicatorSummary(status: SyncStatus, nowMs: number): string {
  const parts: string[] = [STATE_TEXT[status.state]];
  if (status.state === 'pulling' && status.progress) parts.push(`${status.progress.done} of ${status.progress.total}`);
  if (status.state === 'idle' || status.state === 'offline' || status.state === 'paused') {
    if (status.lastSuccessAt) parts.push(`synced ${timeAgo(status.lastSuccessAt, nowMs)}`);
    else if (status.state !== 'idle') parts.push('never synced');
  }
  if (status.pending > 0) parts.push(`${plural(status.pending, 'edit', 'edits')} not yet sent`);
  return parts.join(' · ');
}

/** What needs a person: conflicts, refused edits and reports refused from the remote, or null. */
export function attentionText(status: SyncStatus): string | null {
  const parts: string[] = [];
  if (status.conflicts > 0) parts.push(plural(status.conflicts, 'conflict', 'conflicts'));
  if (status.deadLetters > 0) parts.push(plural(status.deadLetters, 'refused edit', 'refused edits'));
  if (status.refused > 0) parts.push(plural(status.refused, 'refused report', 'refused reports'));
  return parts.length ? parts.join(', ') : null;
}

/** The longer explanation of a state, for the indicator's tooltip and the settings. */
export function stateExplanation(status: SyncStatus, nowMs: number): string {
  switch (status.state) {
    case 'off':
      return 'This computer does not sync with a remote. Set one up in Settings › Sync.';
    case 'idle':
      return status.lastSuccessAt ? `Up to date with ${status.remoteUrl ?? 'the remote'} as of ${timeAgo(status.lastSuccessAt, nowMs)}.` : 'Waiting for the first sync.';
    case 'pushing':
      return 'Sending the edits made here to the remote.';
    case 'pulling':
      return status.progress ? `${status.progress.done} of ${status.progress.total} changed reports applied here so far.` : 'Reading what changed on the remote.';
    case 'reconciling':
      return 'Comparing every report with the remote, to catch anything missed or removed.';
    case 'offline': {
      const next = status.nextAttemptAt ? ` Next try ${timeUntil(status.nextAttemptAt, nowMs)}.` : '';
      return `The remote cannot be reached. Edits are kept here and sent when it can.${next}`;
    }
    case 'paused':
      return 'The remote refused the key. Sync waits until the key or the address is changed in Settings › Sync.';
  }
}

const FIELD_TEXT: Record<string, string> = {
  labelReference: 'Reference',
  status: 'Status',
  hasFlag: 'Flag',
  isArchived: 'Archived',
  'limits.minTemperature': 'Lowest temperature',
  'limits.maxTemperature': 'Highest temperature',
  'limits.minHumidity': 'Lowest humidity',
  'limits.maxHumidity': 'Highest humidity',
};

/** A field of a pending edit by its name for people: "Highest temperature", "Custom field “carrier”". */
export function fieldText(field: string): string {
  if (field in FIELD_TEXT) return FIELD_TEXT[field];
  if (field.startsWith('customFields.')) return `Custom field “${field.slice('customFields.'.length)}”`;
  return field;
}

/** A value of a field as people read it. */
export function valueText(field: string, value: SyncValue): string {
  if (value === null) return field.startsWith('customFields.') || field.startsWith('limits.') ? 'not set' : '—';
  if (field === 'hasFlag' && typeof value === 'boolean') return value ? 'Flagged' : 'Not flagged';
  if (field === 'isArchived' && typeof value === 'boolean') return value ? 'Archived' : 'Not archived';
  if (typeof value === 'number' && field.startsWith('limits.')) return field.endsWith('Humidity') ? `${value} %RH` : `${value} °C`;
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (Array.isArray(value)) return value.join(', ');
  if (value === '') return '(empty)';
  return String(value);
}

/** Why the remote refused an edit, in words; the remote's own message is shown beside it. */
export function deadLetterReason(letter: Pick<DeadLetter, 'status'>): string {
  switch (letter.status) {
    case 400:
      return 'The remote found the edit invalid.';
    case 403:
      return 'The remote does not let this company change these fields (its role on the report).';
    case 404:
      return 'The remote no longer shows this report to this company.';
    case 409:
      return 'The remote refused the edit because of a conflicting state.';
    case 422:
      return 'The remote could not apply the edit.';
    default:
      return `The remote refused the edit (HTTP ${letter.status}).`;
  }
}

/** The service's messages are clauses ("cannot reach …"): as a sentence of their own. */
export function asSentence(message: string): string {
  const text = message.trim();
  if (text === '') return text;
  const capital = text[0].toUpperCase() + text.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}

/** A list of fields for people: "Flag, Highest temperature". */
export function fieldsText(fields: readonly string[]): string {
  return fields.map(fieldText).join(', ');
}
