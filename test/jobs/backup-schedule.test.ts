/**
 * The backup schedule on a real file, driven by an injected clock (never by waiting): the first
 * backup of a database never backed up comes 10 minutes after the start, the next every
 * `everyHours` after the last good one; a failed one is tried again an hour later; the status
 * says overdue once the schedule's time and an hour's grace passed without a good backup, and
 * that the last one failed. Each run is recorded in backup_runs and has its manifest.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manifestFileOf } from '../../service/backups';
import { serviceFile } from '../support/service-files';
import { COMPANIES, makeReport } from '../support/service-fixture';

const HOUR = 3_600_000;
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'labeldesk-backup-schedule-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function clock(start: string) {
  let t = new Date(start).getTime();
  return { now: () => new Date(t), advance: (ms: number) => void (t += ms) };
}

describe('the backup schedule', () => {
  it('backs up 10 minutes after the start, then every 24 hours after the last good backup; says when it is overdue', async () => {
    const time = clock('2026-12-07T08:00:00.000Z');
    const backupDir = join(dir, 'daily');
    const service = serviceFile(dir, { now: time.now, backup: { dir: backupDir, everyHours: 24 } });
    try {
      for (const c of COMPANIES) service.companies.upsert(c);
      service.putReport(makeReport('r1'), { kind: 'import' });
      const schedule = service.scheduleBackups();
      try {
        expect(service.backups.nextDueAt()?.toISOString()).toBe('2026-12-07T08:10:00.000Z');
        expect(schedule.nextInMs).toBe(10 * 60_000);
        expect(await schedule.runDue()).toBeNull();

        time.advance(10 * 60_000);
        const first = await schedule.runDue();
        expect(first).toMatchObject({ ok: true, reason: 'schedule', file: 'labeldesk-2026-12-07T081000Z.sqlite', counts: { reports: 1 } });
        expect(existsSync(join(backupDir, 'labeldesk-2026-12-07T081000Z.sqlite'))).toBe(true);
        const manifest = JSON.parse(readFileSync(manifestFileOf(join(backupDir, first!.file)), 'utf8'));
        expect(manifest).toMatchObject({ format: 'labeldesk-backup', formatVersion: 1, at: '2026-12-07T08:10:00.000Z', reason: 'schedule', verification: { ok: true, integrity: ['ok'] } });
        expect(schedule.nextInMs).toBe(24 * HOUR);

        time.advance(23 * HOUR);
        expect(await schedule.runDue()).toBeNull();
        expect(service.backups.status()).toMatchObject({ overdue: false, lastFailed: false, lastGood: { file: join(backupDir, first!.file), present: true } });

        // Not run (the process slept): past its time and the hour's grace, the status says overdue.
        time.advance(2 * HOUR + 1);
        expect(service.backups.status().overdue).toBe(true);
        const second = await schedule.runDue();
        expect(second).toMatchObject({ ok: true, at: '2026-12-08T09:10:00.001Z' });
        const status = service.backups.status();
        expect(status).toMatchObject({ overdue: false, everyHours: 24, nextDueAt: '2026-12-09T09:10:00.001Z' });
        expect(status.backups.map((b) => b.reason)).toEqual(['schedule', 'schedule']);
      } finally {
        await schedule.stop();
      }
      expect(schedule.nextInMs).toBeNull();
    } finally {
      service.close();
    }
  });

  it('records a failed backup, says the last one failed, and tries again an hour later', async () => {
    const time = clock('2026-12-07T08:00:00.000Z');
    const blocker = join(dir, 'not-a-folder');
    writeFileSync(blocker, 'a file where the folder should be');
    const service = serviceFile(dir, { now: time.now, backup: { dir: join(blocker, 'backups'), everyHours: 6 } });
    const errors: string[] = [];
    const schedule = service.scheduleBackups({ logError: (line) => errors.push(line) });
    try {
      time.advance(10 * 60_000);
      const failed = await schedule.runDue();
      expect(failed).toMatchObject({ ok: false, failure: expect.stringContaining('cannot be written') });
      expect(errors).toEqual([expect.stringMatching(/^backup failed: the folder .* cannot be written/)]);
      expect(service.backups.status()).toMatchObject({ lastFailed: true, lastGood: null, backups: [{ ok: false, reason: 'schedule', present: false }] });
      expect(service.backups.nextDueAt()?.toISOString()).toBe('2026-12-07T09:10:00.000Z');
      time.advance(30 * 60_000);
      expect(await schedule.runDue()).toBeNull();
    } finally {
      await schedule.stop();
      service.close();
    }
  });

  it('with everyHours 0 sets no timer and is never overdue', async () => {
    const time = clock('2026-12-07T08:00:00.000Z');
    const service = serviceFile(dir, { now: time.now, backup: { dir: join(dir, 'off'), everyHours: 0 } });
    const schedule = service.scheduleBackups();
    try {
      expect(schedule.nextInMs).toBeNull();
      time.advance(1000 * HOUR);
      expect(await schedule.runDue()).toBeNull();
      expect(service.backups.status()).toMatchObject({ overdue: false, nextDueAt: null, backups: [] });
    } finally {
      await schedule.stop();
      service.close();
    }
  });
});

