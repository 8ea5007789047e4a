/**
 * The typed data interface: its transactions (all or nothing, nesting, transactions that span
 * awaits), the change log store, and the list query's allow-list against the columns behind it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DataStore } from '../../db/data-store';
import { FIELD_COLUMNS } from '../../db/query/field-columns';
import { FIELDS } from '../../query/fields';

let dir: string;
let n = 0;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'labeldesk-data-store-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const open = () => DataStore.open(join(dir, `store-${++n}.sqlite`));
const company = (id: string) => ({ id, name: `Company ${id}`, shortCode: id.toUpperCase() });

describe('DataStore transactions', () => {
  it('write keeps all of it or none of it', () => {
    const data = open();
    data.write(() => data.companies.upsert(company('a')));
    expect(() =>
      data.write(() => {
        data.companies.upsert(company('b'));
        throw new Error('half way');
      }),
    ).toThrow('half way');
    expect(data.companies.all().map((c) => c.id)).toEqual(['a']);
    expect(data.inTransaction).toBe(false);
    data.close();
  });

  it('a nested write is part of the outer one: both stay or both go', () => {
    const data = open();
    expect(() =>
      data.write(() => {
        data.write(() => data.companies.upsert(company('inner')));
        throw new Error('outer fails');
      }),
    ).toThrow('outer fails');
    expect(data.companies.all()).toEqual([]);
    // A failing inner write undoes only itself when the outer one goes on.
    data.write(() => {
      data.companies.upsert(company('outer'));
      try {
        data.write(() => {
          data.companies.upsert(company('inner'));
          throw new Error('inner fails');
        });
      } catch {
        // the outer write carries on
      }
    });
    expect(data.companies.all().map((c) => c.id)).toEqual(['outer']);
    data.close();
  });

  it('begin holds a transaction across awaits until commit or rollback, and refuses a second one', async () => {
    const data = open();
    const other = DataStore.open(data.file);
    const tx = data.begin();
    expect(() => data.begin()).toThrow(/already open/);
    data.companies.upsert(company('pending'));
    await new Promise((r) => setImmediate(r));
    // Another connection does not see it before the commit.
    expect(other.companies.all()).toEqual([]);
    tx.commit();
    expect(other.companies.all().map((c) => c.id)).toEqual(['pending']);
    const undone = data.begin();
    data.companies.upsert(company('undone'));
    undone.rollback();
    undone.rollback();
    expect(data.companies.all().map((c) => c.id)).toEqual(['pending']);
    other.close();
    data.close();
  });

  it('isEmpty: no company and no report', () => {
    const data = open();
    expect(data.isEmpty()).toBe(true);
    data.companies.upsert(company('a'));
    expect(data.isEmpty()).toBe(false);
    data.close();
  });
});

describe('ChangeLogStore', () => {
  it('appends with increasing sequence numbers and reads by report and after a checkpoint', () => {
    const data = open();
    expect(data.changes.lastSeq()).toBe(0);
    const at = '2026-11-20T10:00:00.000Z';
    const first = data.changes.append({ reportId: 'r1', kind: 'create', changes: [], actor: { kind: 'import' }, companies: ['acme'], at });
    const second = data.changes.append({
      reportId: 'r2',
      kind: 'update',
      changes: [{ field: 'hasFlag', companyId: 'acme', old: false, new: true }],
      actor: { kind: 'apiKey', keyId: 'k1' },
      companies: ['acme', 'nordic'],
      at,
    });
    const third = data.changes.append({ reportId: 'r1', kind: 'remove', changes: [], actor: { kind: 'sync' }, companies: ['acme'], at });
    expect([first, second, third]).toEqual([1, 2, 3]);
    expect(data.changes.lastSeq()).toBe(3);
    expect(data.changes.forReport('r1').map((e) => [e.seq, e.kind, e.actor.kind])).toEqual([
      [1, 'create', 'import'],
      [3, 'remove', 'sync'],
    ]);
    expect(data.changes.after(1, 10)).toEqual([
      {
        seq: 2,
        labelReportId: 'r2',
        kind: 'update',
        changes: [{ field: 'hasFlag', companyId: 'acme', old: false, new: true }],
        actor: { kind: 'apiKey', keyId: 'k1' },
        companies: ['acme', 'nordic'],
        at,
      },
      expect.objectContaining({ seq: 3 }),
    ]);
    expect(data.changes.after(1, 1).map((e) => e.seq)).toEqual([2]);
    expect(data.changes.after(3, 10)).toEqual([]);
    data.close();
  });

  it('refuses a kind or an actor the log does not know', () => {
    const data = open();
    const at = '2026-11-20T10:00:00.000Z';
    expect(() =>
      data.changes.append({ reportId: 'r1', kind: 'rename' as never, changes: [], actor: { kind: 'import' }, companies: [], at }),
    ).toThrow(/CHECK constraint/);
    expect(() =>
      data.changes.append({ reportId: 'r1', kind: 'create', changes: [], actor: { kind: 'someone' } as never, companies: [], at }),
    ).toThrow(/CHECK constraint/);
    data.close();
  });
});

describe('the list query allow-list', () => {
  it('has a column behind every key, and no column without a key', () => {
    expect([...FIELD_COLUMNS.keys()].sort()).toEqual([...FIELDS.keys()].sort());
    for (const [key, def] of FIELDS) expect(Boolean(FIELD_COLUMNS.get(key)!.array), key).toBe(def.array === true);
  });
});
