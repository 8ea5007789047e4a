/**
 * Random writes of every kind the service makes, for the tests of the counts the write path keeps
 * (listing_counts, custom_field_counts): an activation, a PATCH, a tap, a report written by an
 * import and by sync, a bundle import (a first one rebuilds the listing in bulk), a report removed
 * and, where the test asks for them, custom field values set. Also the service opened beside a
 * second connection through the store and a bare one for the checks' own SQL.
 */
import { Readable } from 'node:stream';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { expect } from 'vitest';
import { DataStore } from '../../db/data-store';
import { openService, type Service } from '../../host/open-service';
import type { BundleReport } from '../../schema/bundle';
import { MODES, STATUSES, type CustomFieldValue, type Permission } from '../../schema/report';
import { DECISIONS } from '../../schema/review';
import { Refusal } from '../../model/errors';
import { assertAsyncProperty } from '../support/property';
import { COMPANIES, makeActivation, makeReport, series, T0 } from '../support/service-fixture';
import { blankDatabase } from '../support/blank-database';

export const OWNERS = ['acme', 'nordic'] as const;
const PERMISSIONS = new Set<Permission>(['labelReports:read', 'labelReports:update', 'labelReports:create']);
export const callerOf = (companyId: string) => ({ keyId: `k-${companyId}`, companyId, permissions: PERMISSIONS });

/** Custom field values by field; a value null removes the field. */
export type FieldValues = [string, CustomFieldValue | null][];

export interface Shape {
  owner: (typeof OWNERS)[number];
  status: (typeof STATUSES)[number];
  mode: number;
  excursion: boolean;
  shared: boolean;
  flag: boolean;
  archive: boolean;
  fields?: FieldValues;
}

export type WriteCommand =
  | { kind: 'activate'; id: string; owner: (typeof OWNERS)[number]; fields?: FieldValues }
  | { kind: 'fields'; id: string; by: (typeof OWNERS)[number]; fields: FieldValues }
  | { kind: 'patch'; id: string; by: (typeof OWNERS)[number]; patch: { status?: (typeof STATUSES)[number]; hasFlag?: boolean; isArchived?: boolean } }
  | { kind: 'tap'; id: string; hot: boolean }
  | { kind: 'import' | 'sync'; id: string; shape: Shape }
  | { kind: 'bundle'; reports: [string, Shape][] }
  | { kind: 'remove'; id: string }
  | { kind: 'decide'; id: string; by: (typeof OWNERS)[number]; decision: (typeof DECISIONS)[number] };

/**
 * Commands on `reports` report ids (r0, r1, …) whose modes are the first `modes` of MODES; with
 * `fields`, activations and imports carry custom field values and a PATCH of them is drawn too;
 * with `decisions`, a company's review decision on a report.
 */
export function writeCommands({ reports, modes, fields, decisions }: { reports: number; modes: number; fields?: fc.Arbitrary<FieldValues>; decisions?: boolean }): fc.Arbitrary<WriteCommand> {
  const shape = fc.record({
    owner: fc.constantFrom(...OWNERS),
    status: fc.constantFrom(...STATUSES),
    mode: fc.nat(modes - 1),
    excursion: fc.boolean(),
    shared: fc.boolean(),
    flag: fc.boolean(),
    archive: fc.boolean(),
    ...(fields ? { fields } : {}),
  });
  const id = fc.nat(reports - 1).map((i) => `r${i}`);
  const owner = fc.constantFrom(...OWNERS);
  const commands: fc.Arbitrary<WriteCommand>[] = [
    fc.record({ kind: fc.constant('activate' as const), id, owner, ...(fields ? { fields } : {}) }),
    ...(fields ? [fc.record({ kind: fc.constant('fields' as const), id, by: owner, fields })] : []),
    fc.record({
      kind: fc.constant('patch' as const),
      id,
      by: owner,
      patch: fc.record({ status: fc.constantFrom(...STATUSES), hasFlag: fc.boolean(), isArchived: fc.boolean() }, { requiredKeys: [] }),
    }),
    fc.record({ kind: fc.constant('tap' as const), id, hot: fc.boolean() }),
    fc.record({ kind: fc.constantFrom('import' as const, 'sync' as const), id, shape }),
    fc.record({ kind: fc.constant('bundle' as const), reports: fc.array(fc.tuple(id, shape), { minLength: 1, maxLength: 4 }) }),
    fc.record({ kind: fc.constant('remove' as const), id }),
    ...(decisions ? [fc.record({ kind: fc.constant('decide' as const), id, by: owner, decision: fc.constantFrom(...DECISIONS) })] : []),
  ];
  return fc.oneof(...commands);
}

export const customFieldsOf = (fields: FieldValues) => {
  const byField = new Map(fields.filter(([, v]) => v !== null) as [string, CustomFieldValue][]);
  return [...byField].map(([customFieldId, value]) => ({ customFieldId, value }));
};

export function reportOf(id: string, s: Shape): BundleReport {
  const other = s.owner === 'acme' ? 'nordic' : 'acme';
  return makeReport(id, {
    companyId: s.owner,
    status: s.status,
    mode: MODES[s.mode],
    reportedSenseData: { datapoints: series(T0, 600, s.excursion ? [4, 5, 12, 5] : [4, 5, 5, 4]) },
    access: s.shared ? [{ companyId: other, role: 'viewer' }] : [],
    companyState: s.flag || s.archive ? [{ companyId: s.owner, hasFlag: s.flag, isArchived: s.archive }] : [],
    ...(s.fields ? { customFields: customFieldsOf(s.fields) } : {}),
  });
}

export const bundle = (reports: BundleReport[]) =>
  Readable.from([Buffer.from(JSON.stringify({ version: 1, companies: COMPANIES, labelReports: reports }))]);

/** The service, a second connection through the store, and a bare one for the checks' own SQL. */
export interface Open {
  service: Service;
  data: DataStore;
  raw: Database.Database;
}

export function openAll(file: string): Open {
  return { service: openService(file), data: DataStore.open(file), raw: new Database(file) };
}

export function closeAll({ service, data, raw }: Open): void {
  service.close();
  data.close();
  raw.close();
}

/** Runs one command; one the service refuses (a report not there, one there already) changes nothing. */
export async function applyWrite({ service, data }: Open, c: WriteCommand): Promise<void> {
  const refused = (run: () => unknown) => {
    try {
      run();
    } catch (error) {
      if (!(error instanceof Error) || !/not found|exists|NOT_FOUND|REPORT_EXISTS|permission|forbidden/i.test(`${error.message} ${(error as { code?: string }).code}`)) throw error;
    }
  };
  switch (c.kind) {
    case 'activate': {
      const activation = makeActivation(c.id);
      return refused(() => service.intake.activate(callerOf(c.owner), c.fields ? { ...activation, customFields: customFieldsOf(c.fields) } : activation));
    }
    case 'fields':
      // A value null removes the field; one not named keeps its value.
      return refused(() =>
        service.reports.update(callerOf(c.by), c.id, { customFields: [...new Map(c.fields).entries()].map(([customFieldId, value]) => ({ customFieldId, value })) }),
      );
    case 'patch':
      return refused(() => service.reports.update(callerOf(c.by), c.id, c.patch));
    case 'tap': {
      const owner = data.read(() => data.reports.load(c.id))?.ownerCompanyId ?? 'acme';
      return refused(() => service.intake.tap(callerOf(owner), c.id, { datapoints: series(T0, 600, c.hot ? [4, 12, 13, 5] : [4, 5, 5, 5]) }));
    }
    case 'import':
    case 'sync':
      return service.putReport(reportOf(c.id, c.shape), { kind: c.kind });
    case 'bundle': {
      const byId = new Map(c.reports.map(([id, s]) => [id, reportOf(id, s)]));
      const result = await service.importBundle(bundle([...byId.values()]));
      expect(result.ok, JSON.stringify(result)).toBe(true);
      return;
    }
    case 'remove':
      data.write(() => data.reports.remove(c.id));
      return;
    case 'decide':
      // A viewer's decision, or one on a report not there, is refused and changes nothing.
      try {
        service.reviews.decide(callerOf(c.by), c.id, { decision: c.decision, reason: 'checked' });
      } catch (error) {
        if (!(error instanceof Refusal)) throw error;
      }
      return;
  }
}

/**
 * Random sequences of writes, each on a database of its own (`fileOf(run)`) holding the fixture's
 * companies: after every write, `check` holds; its step names the write.
 */
export async function assertAfterEveryWrite(fileOf: (run: number) => string, command: fc.Arbitrary<WriteCommand>, check: (open: Open, step: string) => void): Promise<void> {
  let run = 0;
  await assertAsyncProperty(
    fc.asyncProperty(fc.array(command, { minLength: 1, maxLength: 12 }), async (commands) => {
      const open = openAll(blankDatabase(fileOf(run++)));
      try {
        for (const company of COMPANIES) open.service.companies.upsert(company);
        for (const [i, c] of commands.entries()) {
          await applyWrite(open, c);
          check(open, `after step ${i}: ${JSON.stringify(c)}`);
        }
      } finally {
        closeAll(open);
      }
    }),
    { numRuns: 25 },
  );
}
