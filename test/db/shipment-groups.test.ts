/**
 * The kept shipment groups (db/read-model/shipments.ts) hold exactly what their rebuild writes
 * after every kind of write: activations, PATCHes, taps, imports, sync, bundles, removals,
 * decisions, acknowledgements and label references moved between shipments written in different
 * cases and spaces; and the reference key SQL computes is the one model/shipment.ts computes.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SHIPMENTS, referenceKeyOf } from '../../db/read-model/shipments';
import { Refusal } from '../../model/errors';
import { referenceKey, splitByGap } from '../../model/shipment';
import { assertAsyncProperty, assertProperty } from '../support/property';
import { COMPANIES } from '../support/service-fixture';
import { applyWrite, callerOf, closeAll, openAll, OWNERS, writeCommands, type Open, type WriteCommand } from './kept-counts-writes';
import { temporaryFolder } from './migration-fixture';

const dir = temporaryFolder('labeldesk-shipment-groups-');

type Command = { kind: 'write'; write: WriteCommand } | { kind: 'reference'; id: string; by: (typeof OWNERS)[number]; reference: string } | { kind: 'acknowledge'; id: string; by: (typeof OWNERS)[number] };

const REFERENCES = ['S-1', 's-1 ', 'S -1', 'S-2', ''];
const ids = fc.nat(5).map((i) => `r${i}`);
const command: fc.Arbitrary<Command> = fc.oneof(
  writeCommands({ reports: 6, modes: 2, decisions: true }).map((write) => ({ kind: 'write' as const, write })),
  fc.record({ kind: fc.constant('reference' as const), id: ids, by: fc.constantFrom(...OWNERS), reference: fc.constantFrom(...REFERENCES) }),
  fc.record({ kind: fc.constant('acknowledge' as const), id: ids, by: fc.constantFrom(...OWNERS) }),
);

async function apply(open: Open, c: Command): Promise<void> {
  if (c.kind === 'write') return applyWrite(open, c.write);
  try {
    if (c.kind === 'reference') open.service.reports.update(callerOf(c.by), c.id, { labelReference: c.reference });
    else open.service.reviews.acknowledge(callerOf(c.by), c.id, {});
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
  }
}

const rowsOf = (raw: Database.Database) => (raw.prepare('SELECT * FROM shipment_groups ORDER BY ck, ref_key').raw().all() as unknown[][]).map((r) => JSON.stringify(r));

function expectKeptExact(raw: Database.Database, step: string): void {
  const kept = rowsOf(raw);
  raw.exec('BEGIN');
  try {
    raw.exec(SHIPMENTS.rebuild);
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
    const key = db.prepare(`SELECT ${referenceKeyOf('t')} FROM (SELECT ? AS label_reference) t`).pluck();
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
