/**
 * Shapes of /local/backups (docs/operations.md#backups-and-restore): the desk's backups with what
 * their verification found, the last good one and the schedule's state. Server and renderer share them.
 */
import { z } from 'zod';

export const backupCountsSchema = z
  .object({
    reports: z.int().nullable(),
    people: z.int().nullable(),
    reviewEntries: z.int().nullable(),
    changeLogEntries: z.int().nullable(),
    alarms: z.int().nullable(),
    webhooks: z.int().nullable(),
    companies: z.int().nullable(),
    apiKeys: z.int().nullable(),
  })
  .partial()
  .describe('Rows of each counted table in the snapshot the backup was made from; null where that schema had no such table');

export const backupReasonSchema = z.enum(['schedule', 'manual', 'command', 'migration', 'import', 'restore']);

export const backupSchema = z.object({
  id: z.int(),
  at: z.string().describe('When it was taken (ISO 8601, UTC)'),
  file: z.string().describe('The backup file, or where it would have gone when it failed'),
  bytes: z.int().nullable(),
  reason: z.string().describe('schedule, manual (Back up now), command (labeldesk backup), migration, import or restore'),
  ok: z.boolean().describe('Integrity check, audit chains and counts all verified'),
  failure: z.string().nullable().describe('What failed, in words; null when ok'),
  counts: backupCountsSchema,
  sha256: z.string().nullable(),
  present: z.boolean().describe('The file is still in the folder (the rotation removes old ones)'),
});
export type BackupInfo = z.infer<typeof backupSchema>;

export const backupStatusSchema = z.object({
  dir: z.string().describe('The folder backups go to'),
  everyHours: z.number().describe('Hours between scheduled backups; 0: no schedule'),
  keep: z.object({ daily: z.int(), weekly: z.int(), monthly: z.int() }),
  backups: z.array(backupSchema).describe('Newest first, at most 100'),
  lastGood: backupSchema.nullable(),
  lastFailed: z.boolean().describe('The newest backup failed its verification'),
  overdue: z.boolean().describe('The schedule’s time passed, with an hour’s grace, without a good backup'),
  nextDueAt: z.string().nullable(),
  running: z.boolean(),
});
export type BackupStatus = z.infer<typeof backupStatusSchema>;
