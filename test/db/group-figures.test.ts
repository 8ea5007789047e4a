/**
 * The group figures the write path keeps (group_figures_time, group_figures_time_totals and
 * group_figures_split, migration 022) after every kind of write the service makes: an activation, a PATCH (status, flag,
 * archive, custom fields), a tap, a report written by an import and by sync, a bundle import (a
 * first one rebuilds the listing in bulk), a report removed, a review decision. After each, both
 * tables hold exactly what a recount from the listing rows and decisions writes, and every
 * answer of the groups and the Insights screen is the same read from them as read from the
 * matches, for every company, under filters and zones the kept rows serve and ones they do not.
 * Also: no statement of their triggers scans a stored table, and the migration sums a database
 * that has reports.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../db/database';
import groupFigures from '../../db/migrations/022-group-figures';
import { GROUP_FIGURES_RECOUNT, GROUP_FIGURES_TABLES, keptRowHours } from '../../db/read-model';
import { parseListQuery } from '../../query/list-query';
import type { Group, Groups } from '../../schema/insights';
import { MODES, STATUSES, type CustomFieldValue } from '../../schema/report';
import { InsightsService } from '../../service/insights';
import { databaseAt, temporaryFolder } from './migration-fixture';
import { assertAfterEveryWrite, callerOf, closeAll, openAll, OWNERS, reportOf, writeCommands, type Open } from './kept-counts-writes';
import { COMPANIES } from '../support/service-fixture';

const dir = temporaryFolder('labeldesk-group-figures-');

/** A table's rows as sorted text; sums of reals to 6 places, as they are added in another order. */
function rowsOf(raw: Database.Database, table: string): string[] {
  const round = (v: unknown) => (typeof v === 'number' && !Number.isInteger(v) ? Number(v.toFixed(6)) : v === 0 ? 0 : v);
  return (raw.prepare(`SELECT * FROM ${table}`).raw().all() as unknown[][]).map((r) => JSON.stringify(r.map(round))).sort();
}

/** The kept rows, and the rows a recount of the same listing rows writes (in a transaction rolled back). */
function keptAndRecounted(raw: Database.Database): { kept: string[]; recounted: string[] } {
  const tables = GROUP_FIGURES_TABLES;
  const kept = tables.flatMap((t) => rowsOf(raw, t).map((r) => `${t} ${r}`));
  raw.exec('BEGIN');
  try {
    raw.exec(GROUP_FIGURES_RECOUNT);
    return { kept, recounted: tables.flatMap((t) => rowsOf(raw, t).map((r) => `${t} ${r}`)) };
  } finally {
    raw.exec('ROLLBACK');
  }
}

/** The same groups with the same figures; sums of reals may differ in their last bits. */
function expectSameGroups(actual: Groups, expected: Groups, what: string): void {
  const exact = (g: Group) => ({ ...g, degreeHours: 0, mkt: { mean: g.mkt.mean === null, max: g.mkt.max } });
  expect({ ...actual, groups: actual.groups.map(exact) }, what).toEqual({ ...expected, groups: expected.groups.map(exact) });
  actual.groups.forEach((g, i) => {
    expect(g.degreeHours, what).toBeCloseTo(expected.groups[i].degreeHours, 6);
    if (g.mkt.mean !== null) expect(g.mkt.mean, what).toBeCloseTo(expected.groups[i].mkt.mean!, 6);
  });
}

/**
 * [filter, by, zone, read from the kept rows]: the kept rows serve some, the matches answer the
 * others; null: it depends on the rows (a day in Berlin or a month in Kolkata is cut by a kept
 * day's row only when there is one in the company's view).
 */
const ASKS: [string, string, string, boolean | null][] = [
  ['', 'created.month', 'Europe/Berlin', true],
  ['', 'created.month', 'America/New_York', true],
  ['', 'created.week', 'UTC', true],
  ['', 'created.day', 'UTC', true],
  ['isArchived[eq]false', 'startTime.month', 'Europe/Berlin', true],
  ['hasFlag[eq]true,isArchived[eq]false', 'created.month', 'UTC', true],
  ['company.id[eq]nordic', 'startTime.day', 'UTC', true],
  ['', 'created.day', 'Europe/Berlin', null],
  ['', 'created.month', 'Asia/Kolkata', null],
  [`mode[eq]${MODES[1]},alert.level[gte]1`, 'created.month', 'Europe/Berlin', false],
  ['', 'mode', 'UTC', true],
  ['status[eq]active,alert.level[gte]1', 'company.id', 'UTC', true],
  ['isArchived[eq]false', 'alert.level', 'UTC', true],
  ['', 'bins.mkt', 'UTC', true],
  ['hasFlag[eq]false', 'bins.secondsOutOfRange', 'UTC', true],
  [`mode[eq]${MODES[0]}`, 'bins.degreeHours', 'UTC', true],
  ['created[gte]2026-01-01', 'mode', 'UTC', false],
  ['', 'customFields.carrier', 'UTC', false],
];
const SCREENS: [string, { time: string; by: string; zone: string }][] = [
  ['', { time: 'created.month', by: 'mode', zone: 'Europe/Berlin' }],
  ['isArchived[eq]false', { time: 'startTime.week', by: 'company.id', zone: 'UTC' }],
  ['status[eq]active', { time: 'created.month', by: 'type', zone: 'UTC' }],
];

/** Every answer the same from the kept rows as from the matches; the kept rows serve what they should. */
function expectSameAnswers({ data }: Open, step: string): void {
  const insights = new InsightsService(data);
  const both = <T,>(ask: () => T): [T, T] => {
    data.insights.readsKeptFigures = true;
    const kept = ask();
    data.insights.readsKeptFigures = false;
    try {
      return [kept, ask()];
    } finally {
      data.insights.readsKeptFigures = true;
    }
  };
  for (const company of COMPANIES) {
    const caller = callerOf(company.id);
    for (const [filter, by, zone, served] of ASKS) {
      const q = parseListQuery({ filter });
      const [kept, read] = both(() => insights.groups(caller, q, by, zone));
      expectSameGroups(kept, read, `${step}: ${company.id} ${filter} by ${by} in ${zone}`);
      if (served !== null && !by.startsWith('customFields.')) {
        const sql = data.reports.compile(q);
        const grouping = (insights as unknown as { storeGrouping: (c: string, b: unknown, z: string) => never }).storeGrouping(company.id, groupingOf(by), zone);
        const answered = data.read(() => data.insights.keptFigures(company.id, sql, [grouping]));
        expect(answered !== null, `${step}: ${company.id} ${filter} by ${by} in ${zone} read from the kept rows`).toBe(served);
      }
    }
    for (const [filter, asked] of SCREENS) {
      const q = parseListQuery({ filter });
      const [kept, read] = both(() => insights.screen(caller, q, asked));
      expect(kept.total).toBe(read.total);
      for (const part of ['time', 'split'] as const) expectSameGroups(kept[part], read[part], `${step}: ${company.id} screen ${part} ${filter}`);
      kept.bins.forEach((b, i) => expectSameGroups(b, read.bins[i], `${step}: ${company.id} screen bins ${i} ${filter}`));
    }
  }
}

/** A group-by as the service parses it (its grouping is what keptFigures is asked). */
function groupingOf(by: string): unknown {
  if (by.startsWith('bins.')) return { kind: 'bins', key: by };
  const [field, unit] = by.split('.');
  if ((field === 'created' || field === 'startTime') && unit !== undefined) return { kind: 'time', field, unit };
  return { kind: 'key', key: by };
}

function expectKeptExact(open: Open, step: string): void {
  const { kept, recounted } = keptAndRecounted(open.raw);
  expect(kept, step).toEqual(recounted);
  expectSameAnswers(open, step);
}

const FIELD_VALUES = fc.array(fc.tuple(fc.constantFrom('carrier', 'pallets'), fc.constantFrom<CustomFieldValue | null>('DHL', 'UPS', 10, null)), { maxLength: 2 });
const command = writeCommands({ reports: 6, modes: 2, fields: FIELD_VALUES, decisions: true });

describe('group figures', () => {
  it('hold exactly what a recount writes after every kind of write, and every groups and screen answer read from them is the one read from the matches', async () => {
    await assertAfterEveryWrite((run) => join(dir(), `run-${run}.sqlite`), command, expectKeptExact);
  }, 600_000);

  it('no statement of their triggers scans a stored table', () => {
    const open = openAll(join(dir(), 'plans.sqlite'));
    try {
      const triggers = open.raw.prepare(`SELECT name, sql FROM sqlite_schema WHERE type = 'trigger' AND name LIKE 'listing_group_figures_%'`).all() as { name: string; sql: string }[];
      expect(triggers.length).toBe(15);
      let statements = 0;
      for (const { name, sql } of triggers) {
        const body = sql.slice(sql.indexOf(' BEGIN') + ' BEGIN'.length, sql.lastIndexOf('END'));
        for (const statement of body.split(/;\s*\n/).map((s) => s.trim()).filter(Boolean)) {
          statements++;
          const bound = statement.replace(/\b(new|old)\.\w+/g, '?');
          const plan = (open.raw.prepare(`EXPLAIN QUERY PLAN ${bound}`).all(...Array((bound.match(/\?/g) ?? []).length).fill(null)) as { detail: string }[]).map((p) => p.detail);
          // A scan of a constant row or of a subquery's few rows is not one of a table.
          const scans = plan.filter((detail) => /^SCAN /.test(detail) && !/^SCAN (CONSTANT ROW|\(subquery-\d+\))$/.test(detail));
          expect(scans, `${name}: ${statement.slice(0, 80)}\n${plan.join('\n')}`).toEqual([]);
          expect(plan.some((detail) => /^SEARCH (group_figures_\w+|c) USING PRIMARY KEY/.test(detail)), `${name}: ${statement.slice(0, 80)}`).toBe(true);
        }
      }
      // 022's five triggers of each table the listing keeps, the totals' three, and 023's two moves.
      expect(statements).toBe(2 * (2 + 2 + 4 + 1 + 1) + (2 + 1 + 2) + 2 * (2 + 2));
    } finally {
      closeAll(open);
    }
  });

  it('cut the first and last UTC day of each month into hours and the other days whole, as the store reads them', () => {
    const hour = (iso: string) => Date.parse(iso) / 3_600_000;
    expect(keptRowHours(hour('2026-03-01T00:00:00Z'))).toBe(1);
    expect(keptRowHours(hour('2026-03-01T13:00:00Z'))).toBe(1);
    expect(keptRowHours(hour('2026-02-28T23:00:00Z'))).toBe(1);
    expect(keptRowHours(hour('2024-02-28T00:00:00Z'))).toBe(24);
    expect(keptRowHours(hour('2024-02-29T05:00:00Z'))).toBe(1);
    expect(keptRowHours(hour('2026-03-02T00:00:00Z'))).toBe(24);
    expect(keptRowHours(hour('2026-03-30T00:00:00Z'))).toBe(24);
    expect(keptRowHours(hour('2026-03-31T10:00:00Z'))).toBe(1);
  });

  it('migration 022 sums the listing rows of a database that has them', () => {
    const version = MIGRATIONS.indexOf(groupFigures) + 1;
    const file = join(dir(), 'migrated.sqlite');
    const reports = Array.from({ length: 24 }, (_, i) =>
      reportOf(`m${i}`, { owner: OWNERS[i % 2], status: STATUSES[i % 2], mode: i % 2, excursion: i % 3 === 0, shared: i % 4 === 0, flag: i % 5 === 0, archive: i % 6 === 0 }),
    );
    databaseAt(file, version - 1, reports).close();
    const open = openAll(file);
    try {
      expect(open.raw.prepare('SELECT count(*) FROM group_figures_split').pluck().get()).toBeGreaterThan(3);
      expectKeptExact(open, 'after the migration');
    } finally {
      closeAll(open);
    }
  });
});
