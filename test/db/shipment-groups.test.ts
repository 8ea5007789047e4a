/**
 * The kept shipment rows and their counts (db/read-model/shipments.ts) hold exactly what their rebuild writes
 * after every kind of write: activations, PATCHes, taps, imports, sync, bundles, removals,
 * decisions, acknowledgements, label references moved between shipments written in different
 * cases and spaces, reports created either side of the gap, and facts written; and the reference key SQL computes is the one model/shipment.ts computes.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SHIPMENT_COUNTS, SHIPMENTS, referenceKeyOf } from '../../db/read-model/shipments';
import { Refusal } from '../../model/errors';
import { referenceKey, splitByGap } from '../../model/shipment';
import { assertAsyncProperty, assertProperty } from '../support/property';
import { COMPANIES, makeReport, series, T0 } from '../support/service-fixture';
import { parseShipmentQuery } from '../../service/shipments';
import { TRANSPORT_MODES } from '../../schema/shipment';
import { applyWrite, callerOf, closeAll, openAll, OWNERS, writeCommands, type Open, type WriteCommand } from './kept-counts-writes';
import { temporaryFolder } from './migration-fixture';

const dir = temporaryFolder('labeldesk-shipment-groups-');

type Command =
  | { kind: 'write'; write: WriteCommand }
  | { kind: 'reference'; id: string; by: (typeof OWNERS)[number]; reference: string }
  | { kind: 'acknowledge'; id: string; by: (typeof OWNERS)[number] }
  | { kind: 'dated'; id: string; owner: (typeof OWNERS)[number]; reference: string; created: string; alert: boolean }
  | { kind: 'facts'; by: (typeof OWNERS)[number]; nth: number; product: string | null; modes: (typeof TRANSPORT_MODES)[number][] };

const REFERENCES = ['S-1', 's-1 ', 'S -1', 'S-2', ''];
const ids = fc.nat(5).map((i) => `r${i}`);
/** Creations around the gap: 45 days apart (one shipment), 60 (still one) and 61 (a new one). */
const CREATED = ['2026-01-01T08:00:00.000Z', '2026-02-15T08:00:00.000Z', '2026-04-16T08:00:00.000Z', '2026-06-16T09:00:00.000Z', '2026-06-01T08:00:00.000Z'];
const command: fc.Arbitrary<Command> = fc.oneof(
  writeCommands({ reports: 6, modes: 2, decisions: true }).map((write) => ({ kind: 'write' as const, write })),
  fc.record({ kind: fc.constant('reference' as const), id: ids, by: fc.constantFrom(...OWNERS), reference: fc.constantFrom(...REFERENCES) }),
  fc.record({ kind: fc.constant('acknowledge' as const), id: ids, by: fc.constantFrom(...OWNERS) }),
  fc.record({
    kind: fc.constant('dated' as const),
    id: ids,
    owner: fc.constantFrom(...OWNERS),
    reference: fc.constantFrom(...REFERENCES),
    created: fc.constantFrom(...CREATED),
    alert: fc.boolean(),
  }),
  fc.record({
    kind: fc.constant('facts' as const),
    by: fc.constantFrom(...OWNERS),
    nth: fc.nat(3),
    product: fc.constantFrom('Vaccine X', 'vaccine x', null),
    modes: fc.subarray([...TRANSPORT_MODES].slice(0, 3)),
  }),
);

async function apply(open: Open, c: Command): Promise<void> {
  if (c.kind === 'write') return applyWrite(open, c.write);
  if (c.kind === 'dated') {
    const datapoints = series(T0, 600, c.alert ? [4, 12, 5] : [4, 5, 5]);
    return open.service.putReport(makeReport(c.id, { companyId: c.owner, created: c.created, labelReference: c.reference, reportedSenseData: { datapoints } }), { kind: 'import' });
  }
  try {
    if (c.kind === 'facts') {
      const list = open.service.shipments.list(callerOf(c.by), parseShipmentQuery(() => undefined));
      const shipment = list.data[c.nth % Math.max(1, list.data.length)];
      if (!shipment) return;
      const legs = c.modes.map((mode) => ({ mode, from: 'A', to: 'B' }));
      open.service.shipments.putFacts(callerOf(c.by), shipment.id, { product: c.product, legs, reason: 'checked' });
    } else if (c.kind === 'reference') open.service.reports.update(callerOf(c.by), c.id, { labelReference: c.reference });
    else open.service.reviews.acknowledge(callerOf(c.by), c.id, {});
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
  }
}

const rowsOf = (raw: Database.Database) =>
  ['SELECT * FROM shipment_listing ORDER BY ck, ref_key, first_created', 'SELECT * FROM shipment_counts ORDER BY ck, state, worst_alert'].flatMap((sql) =>
    (raw.prepare(sql).raw().all() as unknown[][]).map((r) => JSON.stringify(r)),
  );

/** The shipments model/shipment.ts makes of the listing rows: company, key, first creation, labels. */
function modelShipments(raw: Database.Database): string[] {
  const rows = raw.prepare(`SELECT ck, label_reference, created FROM report_listing WHERE label_reference <> ''`).all() as { ck: number; label_reference: string; created: string }[];
  const byKey = new Map<string, typeof rows>();
  for (const r of rows) {
    const key = `${r.ck}\u0000${referenceKey(r.label_reference)}`;
    byKey.set(key, [...(byKey.get(key) ?? []), r]);
  }
  return [...byKey].flatMap(([key, reports]) => splitByGap(reports).map((p) => `${key.replace('\u0000', ' ')} ${p[0].created} ${p.length}`)).sort();
}

function expectKeptExact(raw: Database.Database, step: string): void {
  const kept = rowsOf(raw);
  const keys = (raw.prepare('SELECT ck, ref_key, first_created, labels FROM shipment_listing').raw().all() as unknown[][]).map((r) => r.join(' ')).sort();
  expect(keys, step).toEqual(modelShipments(raw));
  raw.exec('BEGIN');
  try {
    raw.exec(SHIPMENTS.rebuild);
    raw.exec(SHIPMENT_COUNTS.rebuild);
    expect(kept, step).toEqual(rowsOf(raw));
  } finally {
    raw.exec('ROLLBACK');
  }
}

describe('shipment groups', () => {
  it('hold exactly what their rebuild writes after every kind of write', async () => {
    let run = 0;
    await assertAsyncProperty(
      fc.asyncProperty(fc.array(command, { minLength: 1, maxLength: 14 }), async (commands) => {
        const open = openAll(join(dir(), `run-${run++}.sqlite`));
        try {
          for (const company of COMPANIES) open.service.companies.upsert(company);
          for (const [i, c] of commands.entries()) {
            await apply(open, c);
            expectKeptExact(open.raw, `after step ${i}: ${JSON.stringify(c)}`);
          }
        } finally {
          closeAll(open);
        }
      }),
      { numRuns: 25 },
    );
  }, 600_000);

  it('group by the same key in SQL as in the model, whatever the text', () => {
    const db = new Database(':memory:');
    const key = db.prepare(`SELECT ${referenceKeyOf('t')} FROM (SELECT ? AS shipment_ref) t`).pluck();
    const chars = fc.constantFrom('a', 'Z', 'ß', 'é', 'É', '-', '/', ' ', '\t', '\n', '\r', '\u00a0', '\u2003', '0', '9', 'ı', 'ǆ');
    assertProperty(fc.property(fc.array(chars, { maxLength: 12 }).map((cs) => cs.join('')), (text) => key.get(text) === referenceKey(text)));
    db.close();
  });

  it('the grouping rules: case and white space aside, other punctuation and letters kept', () => {
    expect(referenceKey(' shp-2026 -1\t')).toBe('SHP-2026-1');
    expect(referenceKey('SHP-2026-1')).toBe(referenceKey('shp-2026-1'));
    expect(referenceKey('SHP/2026/1')).not.toBe(referenceKey('SHP-2026-1'));
    expect(referenceKey('straße')).toBe('STRAßE');
  });

  it('a reference used again more than the gap after its last report begins a new shipment', () => {
    const at = (d: string) => ({ created: `${d}T00:00:00.000Z` });
    const pieces = splitByGap([at('2026-03-01'), at('2026-01-01'), at('2026-02-15'), at('2025-01-01')], 60 * 86_400);
    expect(pieces.map((p) => p.map((r) => r.created.slice(0, 10)))).toEqual([['2025-01-01'], ['2026-01-01', '2026-02-15', '2026-03-01']]);
    // Exactly the gap apart is still one shipment.
    expect(splitByGap([at('2026-01-01'), at('2026-03-02')], 60 * 86_400)).toHaveLength(1);
  });
});
