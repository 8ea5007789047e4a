/** The words of a report's Access list (docs/review-and-audit.md#who-saw-a-report): who, and what they did. */
import type { AccessEntryView } from '../../schema/report-access';
import { personText } from './history-text';

const DOING: Record<AccessEntryView['format'], string> = {
  json: 'viewed',
  print: 'printed',
  pdf: 'exported the PDF',
  readingsCsv: 'exported the readings CSV',
  historyCsv: 'exported the history CSV',
  listCsv: 'exported it in a list CSV',
  certificate: 'issued a release certificate',
};

export function accessWho(entry: AccessEntryView): string {
  if (entry.person) return personText(entry.person);
  if (entry.actor === 'commandLine') return entry.detail ? `the command line (${entry.detail})` : 'the command line';
  return entry.apiKeyName ? `key “${entry.apiKeyName}”` : `an unnamed key (${(entry.apiKeyId ?? '').slice(0, 8)})`;
}

export function accessWhat(entry: AccessEntryView): string {
  return DOING[entry.format];
}

/** Who may see the list: an administrator, or a tool's key that manages keys (the service decides). */
export function maySeeAccess(session: { permissions: readonly string[]; person?: { role: string } }): boolean {
  return session.permissions.includes('apiKeys:manage') && (session.person === undefined || session.person.role === 'admin');
}
