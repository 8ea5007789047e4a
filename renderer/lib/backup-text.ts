/** The backups in words: the header's warning and the Settings › Backups lines. */
import type { BackupInfo, BackupStatus } from '../../schema/backups';

const REASON_TEXT: Record<string, string> = {
  schedule: 'scheduled',
  manual: 'Back up now',
  command: 'labeldesk backup',
  migration: 'before an upgrade',
  import: 'before an import',
  restore: 'before a restore',
};

export function reasonText(reason: string): string {
  return REASON_TEXT[reason] ?? reason;
}

/** Bytes as a person reads them: 1.6 MB. */
export function sizeText(bytes: number | null): string {
  if (bytes === null) return '—';
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

/** The header's warning, or null when the backups are in order. `when` formats a time. */
export function backupWarning(status: BackupStatus, when: (iso: string) => string): string | null {
  const newest: BackupInfo | undefined = status.backups[0];
  if (status.lastFailed && newest) return `The last backup failed (${when(newest.at)}): ${newest.failure ?? 'see Settings › Backups'}`;
  if (status.overdue) {
    return status.lastGood
      ? `No backup since ${when(status.lastGood.at)}: backups are due every ${status.everyHours} h`
      : `No backup yet: backups are due every ${status.everyHours} h`;
  }
  return null;
}
