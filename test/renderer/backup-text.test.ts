/** The backups in words: the header warns when the last backup failed or is overdue, and says nothing otherwise. */
import { describe, expect, it } from 'vitest';
import { backupWarning, reasonText, sizeText } from '../../renderer/lib/backup-text';
import type { BackupInfo, BackupStatus } from '../../schema/backups';

const good: BackupInfo = { id: 1, at: '2026-12-06T10:00:00.000Z', file: '/d/backups/labeldesk-2026-12-06T100000Z.sqlite', bytes: 1_695_744, reason: 'schedule', ok: true, failure: null, counts: { reports: 50 }, sha256: 'ab', present: true };
const failed: BackupInfo = { ...good, id: 2, at: '2026-12-07T10:00:00.000Z', ok: false, failure: 'integrity check failed: page 74', bytes: null, present: false };
const status = (over: Partial<BackupStatus>): BackupStatus => ({
  dir: '/d/backups',
  everyHours: 24,
  keep: { daily: 7, weekly: 4, monthly: 12 },
  backups: [good],
  lastGood: good,
  lastFailed: false,
  overdue: false,
  nextDueAt: null,
  running: false,
  ...over,
});
const when = (iso: string) => iso.slice(0, 16).replace('T', ' ');

describe('backupWarning', () => {
  it('says nothing while the last backup is good and in time', () => {
    expect(backupWarning(status({}), when)).toBeNull();
  });
  it('names a failed last backup and why', () => {
    expect(backupWarning(status({ backups: [failed, good], lastFailed: true }), when)).toBe('The last backup failed (2026-12-07 10:00): integrity check failed: page 74');
  });
  it('says when the last good backup was once it is overdue, or that there is none', () => {
    expect(backupWarning(status({ overdue: true }), when)).toBe('No backup since 2026-12-06 10:00: backups are due every 24 h');
    expect(backupWarning(status({ overdue: true, backups: [], lastGood: null }), when)).toBe('No backup yet: backups are due every 24 h');
  });
});

describe('words', () => {
  it('sizes and reasons', () => {
    expect(sizeText(1_695_744)).toBe('1.6 MB');
    expect(sizeText(512)).toBe('512 B');
    expect(sizeText(null)).toBe('—');
    expect(reasonText('manual')).toBe('Back up now');
    expect(reasonText('migration')).toBe('before an upgrade');
  });
});
