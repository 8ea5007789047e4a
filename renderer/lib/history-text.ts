/**
 * The report's history in words: each change as "Field: old → new" with the field named as
 * staff know it, values with their units, times in the chosen zone, and who did it by the name
 * of their key. Pure, shared by the panel and the printout.
 */
import type { Decision, HistoryActor, HistoryEntry } from '../../schema/review';
import type { ChangeSignature } from '../../schema/change-log';
import { alertLevelInfo, formatCustomValue, formatHumidity, formatTemperature, roleLabel, statusLabel } from './format';
import type { Role, Status } from '../../schema/report';
import { formatTime } from './time-zone';
import type { TimeZoneSetting } from './time-zone';

const FIELD_LABELS: Record<string, string> = {
  labelReference: 'Reference',
  status: 'Status',
  'limits.minTemperature': 'Min temperature',
  'limits.maxTemperature': 'Max temperature',
  'limits.minHumidity': 'Min humidity',
  'limits.maxHumidity': 'Max humidity',
  trim: 'Trim',
  hasFlag: 'Flagged',
  isArchived: 'Archived',
  'alert.level': 'Alert level',
  'alert.timestamp': 'Alert reached',
  numberOfTaps: 'Taps',
  'reportedSenseData.datapoints': 'Readings',
  dataIsIncomplete: 'Data incomplete',
  mode: 'Mode',
  type: 'Type',
  alertsConfig: 'Alert rules',
};

const DECISION_LABELS: Record<Decision, string> = { released: 'Released', rejected: 'Rejected', onHold: 'On hold' };

export function decisionLabel(decision: Decision): string {
  return DECISION_LABELS[decision] ?? decision;
}

/** "senseConfig.startDelay" → "Sense config start delay", for fields without a label of their own. */
function words(field: string): string {
  const text = field
    .split('.')
    .map((part) => part.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase())
    .join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export function fieldLabel(field: string, companyNames: ReadonlyMap<string, string>): string {
  if (Object.hasOwn(FIELD_LABELS, field)) return FIELD_LABELS[field];
  if (field.startsWith('customFields.')) return `Custom field ${field.slice('customFields.'.length)}`;
  if (field.startsWith('access.')) {
    const id = field.slice('access.'.length);
    return `Access of ${companyNames.get(id) ?? id}`;
  }
  return words(field);
}

const isTrim = (v: unknown): v is { startTime: number; endTime: number } =>
  typeof v === 'object' && v !== null && typeof (v as { startTime?: unknown }).startTime === 'number' && typeof (v as { endTime?: unknown }).endTime === 'number';

/** A logged value as people read it; "none" for an absent one. */
export function valueText(field: string, value: unknown, zone: TimeZoneSetting): string {
  if (value === null || value === undefined) return 'none';
  if (field === 'hasFlag' || field === 'isArchived' || field === 'dataIsIncomplete') return value === true ? 'on' : 'off';
  if (field.endsWith('Temperature') && typeof value === 'number') return formatTemperature(value);
  if (field.endsWith('Humidity') && typeof value === 'number') return formatHumidity(value);
  if (field === 'status' && typeof value === 'string') return statusLabel(value as Status);
  if (field === 'alert.level' && typeof value === 'number') return alertLevelInfo(value).label;
  if (field === 'alert.timestamp' && typeof value === 'number') return value > 0 ? formatTime(value, zone) : 'none';
  if (field.startsWith('access.') && typeof value === 'string') return roleLabel(value as Role);
  if (field === 'trim' && isTrim(value)) return `${formatTime(value.startTime, zone, true)} – ${formatTime(value.endTime, zone, true)}`;
  if (field === 'reportedSenseData.datapoints' && typeof value === 'object' && 'count' in value) return `${(value as { count: number }).count} readings`;
  if (typeof value === 'string') return value === '' ? 'empty' : `“${value}”`;
  if (typeof value === 'number' || Array.isArray(value)) return formatCustomValue(value as number | (string | number)[]);
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return JSON.stringify(value);
}

/** Who did it: the key's name (and company), or the service's own writer. */
/** A person as signatures and the history name them: “Anna Berg (anna)”. */
/** A signed verdict change's signature: who signed what, where, and who asked for it. */
function signedChangeText(signature: ChangeSignature): string {
  const by = signature.requester;
  const asker = by.person ? personText(by.person) : by.keyName ? `key “${by.keyName}” (a tool)` : 'a tool’s key';
  return `“${signature.meaning}” by ${personText(signature.signer)} in ${signature.zone}; asked for by ${asker}`;
}

export function personText(person: { name: string; login?: string }): string {
  return person.login ? `${person.name} (${person.login})` : person.name;
}

export function actorText(actor: HistoryActor): string {
  switch (actor.kind) {
    case 'import':
      return 'an import';
    case 'demo':
      return 'the demo data';
    case 'sync':
      return 'sync';
    default: {
      if (actor.person) return personText(actor.person);
      const key = actor.keyName ? `key “${actor.keyName}”` : actor.keyId ? `an unnamed key (${actor.keyId.slice(0, 8)})` : 'a key';
      return `${actor.companyName ? `${key} of ${actor.companyName}` : key} (a tool)`;
    }
  }
}

export interface HistoryLine {
  /** "Max temperature", "Comment", "Decision", "Created". */
  label: string;
  /** Old value, when the line is a change of a value. */
  old?: string;
  /** New value, or the line's text. */
  text: string;
}

/** The lines one history entry shows. */
export function historyLines(entry: HistoryEntry, zone: TimeZoneSetting, companyNames: ReadonlyMap<string, string>): HistoryLine[] {
  switch (entry.type) {
    case 'change':
      if (entry.kind === 'create') return [{ label: 'Created', text: 'the report came into this database' }];
      if (entry.kind === 'remove') return [{ label: 'Removed', text: 'the report left this database' }];
      return [
        ...entry.changes.map((c) => ({
          label: fieldLabel(c.field, companyNames),
          old: valueText(c.field, c.old, zone),
          text: valueText(c.field, c.new, zone),
        })),
        ...(entry.reason === undefined ? [] : [{ label: 'Reason', text: entry.reason }]),
        ...(entry.signature === undefined ? [] : [{ label: 'Signed', text: signedChangeText(entry.signature) }]),
      ];
    case 'withdrawal':
      return [
        {
          label: 'Decision withdrawn',
          ...(entry.previous !== null && { old: decisionLabel(entry.previous) }),
          text: `${entry.text}; the report awaits a new decision`,
        },
      ];
    case 'comment':
      return [{ label: 'Comment', text: entry.text }];
    case 'acknowledgement':
      return [{ label: 'Alert acknowledged', text: `${alertLevelInfo(entry.alert.level).label}${entry.note ? `: ${entry.note}` : ''}` }];
    case 'decision':
      return [
        {
          label: 'Decision',
          ...(entry.previous !== null && { old: decisionLabel(entry.previous) }),
          text: `${decisionLabel(entry.decision)}, because: ${entry.reason}`,
        },
      ];
  }
}
