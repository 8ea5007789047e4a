/**
 * Property: for random backup times and keep policies, the rotation (service/backups.ts
 * `backupsToKeep`) keeps the newest backup of each of the `daily` most recent UTC days that have
 * one, of each of the `weekly` most recent ISO weeks and of each of the `monthly` most recent
 * months, and the newest of all; nothing else; and rotating what it kept keeps all of it. The
 * folder's rotation removes exactly the files it does not keep, with their manifests.
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { backupFileName, backupsToKeep, backupTimeOf, DEFAULT_KEEP, manifestFileOf, rotate, type KeepPolicy } from '../../service/backups';
import { assertProperty } from '../support/property';

const DAY = 86_400_000;
const START = Date.UTC(2024, 0, 1);

/** Times over two years, to the second, some on the same day. */
const times = fc.array(fc.integer({ min: 0, max: 2 * 365 * 86_400 }).map((s) => new Date(START + s * 1000)), { maxLength: 80 });
const policy = fc.record({ daily: fc.integer({ min: 0, max: 10 }), weekly: fc.integer({ min: 0, max: 6 }), monthly: fc.integer({ min: 0, max: 14 }) });

/** An independent model: the ISO week by its Thursday, counted from a known Monday. */
function isoWeek(at: Date): string {
  const day = Math.floor(at.getTime() / DAY);
  // 1970-01-01 was a Thursday: days since the Monday before it, in whole weeks.
  return String(Math.floor((day + 3) / 7));
}
const buckets: [keyof KeepPolicy, (at: Date) => string][] = [
  ['daily', (at) => at.toISOString().slice(0, 10)],
  ['weekly', isoWeek],
  ['monthly', (at) => at.toISOString().slice(0, 7)],
];

/** The indexes the policy must keep, worked out from the buckets' newest members. */
function expected(list: Date[], keep: KeepPolicy): Set<number> {
  const wanted = new Set<number>();
  if (list.length === 0) return wanted;
  const newestFirst = list.map((_, i) => i).sort((a, b) => list[b].getTime() - list[a].getTime() || b - a);
  wanted.add(newestFirst[0]);
  for (const [name, key] of buckets) {
    const newestOf = new Map<string, number>();
    for (const i of newestFirst) if (!newestOf.has(key(list[i]))) newestOf.set(key(list[i]), i);
    [...newestOf.values()].slice(0, keep[name]).forEach((i) => wanted.add(i));
  }
  return wanted;
}

describe('backupsToKeep', () => {
  it('keeps the newest of each recent day, week and month the policy names, and the newest of all; nothing else', () => {
    assertProperty(
      fc.property(times, policy, (list, keep) => {
        const kept = backupsToKeep(list, keep);
        expect([...kept].sort((a, b) => a - b)).toEqual([...expected(list, keep)].sort((a, b) => a - b));
        expect(kept.size).toBeLessThanOrEqual(Math.max(list.length === 0 ? 0 : 1, keep.daily + keep.weekly + keep.monthly));
      }),
      { seeds: [20261207, 7412] },
    );
  });

  it('rotating what it kept keeps all of it', () => {
    assertProperty(
      fc.property(times, policy, (list, keep) => {
        const kept = [...backupsToKeep(list, keep)].map((i) => list[i]);
        expect(backupsToKeep(kept, keep).size).toBe(kept.length);
      }),
      { seeds: [20261207] },
    );
  });

  it('by default keeps 7 daily, 4 weekly and 12 monthly: a backup every day of 2025 leaves 20', () => {
    const daily = Array.from({ length: 365 }, (_, d) => new Date(Date.UTC(2025, 0, 1) + d * DAY + 3600_000));
    const kept = [...backupsToKeep(daily, DEFAULT_KEEP)].map((i) => daily[i].toISOString().slice(0, 10)).sort();
    // The last 7 days (Thursday 25 to Wednesday 31 December); of the 4 newest ISO weeks, the two
    // before those days' weeks add their Sundays; the last days of the 11 months before December.
    expect(kept.slice(-7)).toEqual(['2025-12-25', '2025-12-26', '2025-12-27', '2025-12-28', '2025-12-29', '2025-12-30', '2025-12-31']);
    expect(kept).toContain('2025-12-21');
    expect(kept).toContain('2025-12-14');
    expect(kept).not.toContain('2025-12-07');
    expect(kept).toContain('2025-11-30');
    expect(kept).toContain('2025-01-31');
    expect(kept).not.toContain('2025-01-30');
    expect(kept).toHaveLength(7 + 2 + 11);
  });
});

describe('rotate', () => {
  const dir = mkdtempSync(join(tmpdir(), 'labeldesk-rotate-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('removes from the folder exactly the backups the policy does not keep, with their manifests, and leaves other files', () => {
    const list = Array.from({ length: 40 }, (_, i) => new Date(Date.UTC(2026, 0, 1) + i * DAY * 1.5));
    for (const at of list) {
      writeFileSync(join(dir, backupFileName(at)), 'x');
      writeFileSync(join(dir, manifestFileOf(backupFileName(at))), '{}');
    }
    writeFileSync(join(dir, 'notes.txt'), 'mine');
    const keep = { daily: 3, weekly: 2, monthly: 2 };
    const removed = rotate(dir, keep);
    const left = readdirSync(dir);
    const keptNames = [...backupsToKeep(list, keep)].map((i) => backupFileName(list[i])).sort();
    expect(left.filter((n) => n.endsWith('.sqlite')).sort()).toEqual(keptNames);
    expect(left.filter((n) => n.endsWith('.json')).sort()).toEqual(keptNames.map(manifestFileOf));
    expect(left).toContain('notes.txt');
    expect(removed).toHaveLength(40 - keptNames.length);
    expect(removed.every((n) => backupTimeOf(n) !== null)).toBe(true);
  });
});
