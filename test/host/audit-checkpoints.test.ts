/**
 * The running service's checkpoints, driven by an injected clock on a real file: one at start,
 * one each hour while there were changes (none when nothing moved), one at the graceful stop;
 * a key file others may read is told once, in words, and the service runs on. `labeldesk audit
 * verify` then holds the trail to what the service signed.
 */
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { StoredCheckpoint } from '../../db/audit-checkpoints';
import { openService } from '../../host/open-service';
import { startService } from '../../host/start-service';
import { CHECKPOINT_EVERY_MS, type CheckpointClock } from '../../service/audit-checkpoints';
import { runLabeldeskInProcess } from '../cli/run-labeldesk';
import { COMPANIES, makeReport } from '../support/service-fixture';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'labeldesk-checkpoint-schedule-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A clock that moves only when the test says, running what falls due as it passes. */
class ManualClock implements CheckpointClock {
  private t = Date.parse('2026-12-07T09:00:00.000Z');
  private pending: { due: number; run: () => void }[] = [];

  now = (): Date => new Date(this.t);

  after(ms: number, run: () => void): { cancel(): void } {
    const item = { due: this.t + ms, run };
    this.pending.push(item);
    return { cancel: () => void (this.pending = this.pending.filter((p) => p !== item)) };
  }

  advance(ms: number): void {
    const until = this.t + ms;
    for (;;) {
      const next = this.pending.filter((p) => p.due <= until).sort((a, b) => a.due - b.due)[0];
      if (!next) break;
      this.pending = this.pending.filter((p) => p !== next);
      this.t = next.due;
      next.run();
    }
    this.t = until;
  }
}

function databaseWithReports(name: string): string {
  const file = join(dir, name);
  const service = openService(file);
  for (const c of COMPANIES) service.companies.upsert(c);
  service.putReport(makeReport('r1'), { kind: 'import' });
  service.close();
  return file;
}

const MINUTE = 60_000;

it('signs at start, each hour while there were changes, and at the stop, by the clock it is given', async () => {
  const file = databaseWithReports('hourly.sqlite');
  const clock = new ManualClock();
  const signed: StoredCheckpoint[] = [];
  const running = await startService({ dbFile: file, port: 0, now: clock.now, auditCheckpoints: { clock, onCheckpoint: (c) => signed.push(c) } });
  try {
    expect(signed.map((c) => [c.seq, c.at])).toEqual([[1, '2026-12-07T09:00:00.000Z']]);

    running.service.putReport(makeReport('r2'), { kind: 'import' });
    clock.advance(CHECKPOINT_EVERY_MS - MINUTE);
    expect(signed).toHaveLength(1);
    clock.advance(MINUTE);
    expect(signed.map((c) => [c.seq, c.at])).toEqual([
      [1, '2026-12-07T09:00:00.000Z'],
      [2, '2026-12-07T10:00:00.000Z'],
    ]);
    // The second names only the chain that moved.
    expect(JSON.parse(signed[1].body).chains.change_log.map((c: unknown[]) => c[0])).toEqual(['r2']);

    // An hour without changes signs nothing.
    clock.advance(CHECKPOINT_EVERY_MS);
    expect(signed).toHaveLength(2);

    running.service.putReport(makeReport('r3'), { kind: 'import' });
    clock.advance(30 * MINUTE);
  } finally {
    await running.close();
  }
  expect(signed.map((c) => [c.seq, c.at])).toEqual([
    [1, '2026-12-07T09:00:00.000Z'],
    [2, '2026-12-07T10:00:00.000Z'],
    [3, '2026-12-07T11:30:00.000Z'],
  ]);
  expect(readFileSync(`${file}.checkpoints.jsonl`, 'utf8').trim().split('\n')).toHaveLength(3);
  const verified = await runLabeldeskInProcess(['audit', 'verify', '--db', file]);
  expect(verified.stdout).toContain('3 entries in 3 chains checked against 3 checkpoints: the audit trail is sound');
  expect(verified.code).toBe(0);

  // A start with nothing new since the stop's checkpoint signs none.
  const again = await startService({ dbFile: file, port: 0, now: clock.now, auditCheckpoints: { clock, onCheckpoint: (c) => signed.push(c) } });
  await again.close();
  expect(signed).toHaveLength(3);
});

it('tells once, in words, that a key file others may read is refused, and serves on', async () => {
  const file = databaseWithReports('loose-key.sqlite');
  const first = await startService({ dbFile: file, port: 0 });
  await first.close();
  chmodSync(`${file}.audit-key`, 0o644);

  const clock = new ManualClock();
  const logged: string[] = [];
  const signed: StoredCheckpoint[] = [];
  const running = await startService({
    dbFile: file,
    port: 0,
    now: clock.now,
    logError: (line) => logged.push(line),
    auditCheckpoints: { clock, onCheckpoint: (c) => signed.push(c) },
  });
  try {
    running.service.putReport(makeReport('r2'), { kind: 'import' });
    clock.advance(CHECKPOINT_EVERY_MS);
    clock.advance(CHECKPOINT_EVERY_MS);
    expect((await fetch(`${running.url}/v2/labelReports`)).status).toBe(401);
  } finally {
    await running.close();
  }
  expect(signed).toEqual([]);
  expect(logged).toEqual([
    `LabelDesk: no audit checkpoint was signed: the audit key ${file}.audit-key has mode 0644, so others than its owner may read it: ` +
      `LabelDesk signs only with a key its owner alone can read (chmod 600 "${file}.audit-key")`,
  ]);
});

it('signs a database kept in memory with a key that lives in the process, writing no key file', () => {
  const service = openService(':memory:');
  try {
    service.companies.upsert(COMPANIES[0]);
    service.putReport(makeReport('in-memory'), { kind: 'import' });
    const checkpoint = service.audit.checkpoint();
    expect(checkpoint).toBeTruthy();
  } finally {
    service.close();
  }
  expect(existsSync(join(process.cwd(), ':memory:.audit-key'))).toBe(false);
});
