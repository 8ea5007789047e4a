/**
 * The running service's backup schedule (docs/operations.md#backups-and-restore): one timer set
 * for when the next backup is due (service/backups.ts `Backups.nextDueAt`: every
 * LABELDESK_BACKUP_EVERY_HOURS after the last good one), never a loop that polls. The backups
 * table is its durable state: a restart finds the last good backup there and sets the timer
 * from it. The backup itself copies in small steps and lets the event loop turn between them,
 * so requests go on while it runs.
 *
 * `runDue` is what the timer calls; a test calls it itself after moving its clock.
 */
import type { BackupRun, Backups } from '../service/backups';

/** setTimeout's longest delay; a later time is reached in several of them. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export interface BackupScheduleOptions {
  now?: () => Date;
  logError?: (line: string) => void;
  /** Told after each scheduled backup (tests wait for it). */
  onBackup?: (run: BackupRun) => void;
}

export class BackupSchedule {
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private running: Promise<BackupRun | null> | null = null;
  private readonly now: () => Date;
  private readonly logError: (line: string) => void;

  constructor(
    private readonly backups: Backups,
    private readonly options: BackupScheduleOptions = {},
  ) {
    this.now = options.now ?? (() => new Date());
    this.logError = options.logError ?? ((line) => process.stderr.write(line + '\n'));
  }

  start(): this {
    this.arm();
    return this;
  }

  /** Milliseconds until the timer fires; null while none is set (no schedule, stopped, or a backup running). */
  get nextInMs(): number | null {
    if (this.timer === undefined) return null;
    const due = this.backups.nextDueAt();
    return due === null ? null : Math.max(0, due.getTime() - this.now().getTime());
  }

  /** Takes the backup when one is due now, then sets the timer for the next; resolves with it, or null when none was due. */
  runDue(): Promise<BackupRun | null> {
    this.running ??= this.takeIfDue().finally(() => {
      this.running = null;
      this.arm();
    });
    return this.running;
  }

  private async takeIfDue(): Promise<BackupRun | null> {
    this.clear();
    if (this.stopped) return null;
    const due = this.backups.nextDueAt();
    if (due === null || due.getTime() > this.now().getTime()) return null;
    try {
      const run = await this.backups.backUp('schedule');
      if (!run.ok) this.logError(`backup failed: ${run.failure}`);
      this.options.onBackup?.(run);
      return run;
    } catch (err) {
      this.logError(`backup failed: ${(err as Error).message}`);
      return null;
    }
  }

  private arm(): void {
    this.clear();
    if (this.stopped) return;
    let due: Date | null;
    try {
      due = this.backups.nextDueAt();
    } catch (err) {
      // The database is busy or closing: look again in a minute.
      this.logError(`backup schedule: ${(err as Error).message}`);
      due = new Date(this.now().getTime() + 60_000);
    }
    if (due === null) return;
    const delay = Math.min(MAX_TIMER_MS, Math.max(0, due.getTime() - this.now().getTime()));
    this.timer = setTimeout(() => void this.runDue(), delay);
    // The schedule alone does not keep a process running.
    this.timer.unref();
  }

  private clear(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** No further backup; waits for the one being taken, if any. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.clear();
    await this.running;
  }
}
