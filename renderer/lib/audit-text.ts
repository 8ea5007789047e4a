/** An audit trail entry in the words of a report's history (lib/history-text.ts), on one line. */
import type { AuditEntry } from '../api/audit-client';
import { decisionLabel, fieldLabel, personText, valueText } from './history-text';
import type { TimeZoneSetting } from './time-zone';
import type { Decision } from '../../schema/review';

const KIND_LABELS: Record<AuditEntry['kind'], string> = {
  change: 'Change',
  comment: 'Comment',
  acknowledgement: 'Acknowledgement',
  decision: 'Decision',
  withdrawal: 'Decision withdrawn',
};

export function auditKindLabel(entry: AuditEntry): string {
  if (entry.kind === 'change') return entry.change === 'create' ? 'Created' : entry.change === 'remove' ? 'Removed' : KIND_LABELS.change;
  return KIND_LABELS[entry.kind];
}

export function auditWho(entry: AuditEntry): string {
  if (entry.by.person) return personText({ name: entry.by.person.name, login: entry.by.person.login ?? undefined });
  if (entry.by.keyName) return `key “${entry.by.keyName}”`;
  if (entry.by.actor && entry.by.actor !== 'apiKey') return entry.by.actor;
  return entry.by.keyId ? `key ${entry.by.keyId}` : 'a tool’s key';
}

export function auditWhat(entry: AuditEntry, zone: TimeZoneSetting): string {
  const signed = entry.meaning ? ` — signed “${entry.meaning}”${entry.zone ? ` in ${entry.zone}` : ''}` : '';
  switch (entry.kind) {
    case 'change': {
      if (entry.change !== 'update') return entry.change === 'create' ? 'the report came into this database' : 'the report left this database';
      const changes = (entry.changes ?? []).map((c) => `${fieldLabel(c.field, new Map())}: ${valueText(c.field, c.old, zone)} → ${valueText(c.field, c.new, zone)}`);
      return `${changes.join('; ')}${entry.reason ? `; reason: ${entry.reason}` : ''}${signed}`;
    }
    case 'decision':
      return `${decisionLabel(entry.decision as Decision)}, because: ${entry.text ?? ''}${signed}`;
    default:
      return `${entry.text ?? ''}${signed}`;
  }
}
