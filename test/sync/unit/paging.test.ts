/**
 * How a pull pages: from the cursor less the overlap, moving the bound on `updated`, by id
 * within one instant, and the cursor a page leaves. A simulated remote list (ordered as
 * docs/api.md#list-parameters orders, ties by id) shows every report is reached exactly once per run, however
 * many share an instant.
 */
import { describe, expect, it } from 'vitest';
import { advanceCursor, filterValue, firstQuery, listParameters, nextQuery, reconcileParameters, type Listed, type PageQuery } from '../../../sync/paging';

const T = (s: number) => new Date(Date.UTC(2026, 10, 20, 10, 0, s)).toISOString();

describe('the first request', () => {
  it('asks for everything in updated order without a cursor, else from the cursor less the overlap', () => {
    expect(listParameters(firstQuery({ updated: null, ids: [] }, 300), 100)).toEqual({ order: 'updated[asc]', pageSize: '100', output: 'normal' });
    expect(listParameters(firstQuery({ updated: '2026-11-20T10:05:00.000Z', ids: ['a'] }, 300), 50)).toEqual({
      filter: 'updated[gte]2026-11-20T10:00:00.000Z',
      order: 'updated[asc]',
      pageSize: '50',
      output: 'normal',
    });
  });

  it('writes ids with commas escaped, the id condition last', () => {
    expect(listParameters({ kind: 'tie', updated: T(1), afterId: 'a,b\\' }, 10).filter).toBe(`updated[eq]${T(1)},id[gt]a\\,b\\`);
    expect(reconcileParameters('x,y', 1000)).toEqual({ filter: 'id[gt]x\\,y', order: 'id[asc]', pageSize: '1000', output: 'minimal' });
    expect(reconcileParameters(null, 1000)).toEqual({ order: 'id[asc]', pageSize: '1000', output: 'minimal' });
    expect(filterValue('plain')).toBe('plain');
  });
});

describe('the next request', () => {
  const page = (...rows: [string, number][]): Listed[] => rows.map(([id, s]) => ({ id, updated: T(s) }));

  it('ends the pull after a short page', () => {
    expect(nextQuery({ kind: 'all' }, page(['a', 1]), 2)).toBeNull();
    expect(nextQuery({ kind: 'gte', updated: T(0) }, [], 2)).toBeNull();
  });

  it('moves the bound to the last updated of a full page', () => {
    expect(nextQuery({ kind: 'all' }, page(['a', 1], ['b', 2]), 2)).toEqual({ kind: 'gte', updated: T(2) });
  });

  it('goes on by id within an instant that fills a whole page, then past it', () => {
    expect(nextQuery({ kind: 'gte', updated: T(0) }, page(['a', 3], ['b', 3]), 2)).toEqual({ kind: 'tie', updated: T(3), afterId: 'b' });
    expect(nextQuery({ kind: 'tie', updated: T(3), afterId: 'b' }, page(['c', 3], ['d', 3]), 2)).toEqual({ kind: 'tie', updated: T(3), afterId: 'd' });
    expect(nextQuery({ kind: 'tie', updated: T(3), afterId: 'd' }, page(['e', 3]), 2)).toEqual({ kind: 'gt', updated: T(3) });
  });
});

describe('the cursor', () => {
  it('holds the highest updated applied and the ids applied at it', () => {
    let cursor = advanceCursor({ updated: null, ids: [] }, [{ id: 'a', updated: T(1) }, { id: 'b', updated: T(2) }, { id: 'c', updated: T(2) }]);
    expect(cursor).toEqual({ updated: T(2), ids: ['b', 'c'] });
    cursor = advanceCursor(cursor, [{ id: 'c', updated: T(2) }, { id: 'd', updated: T(2) }, { id: 'x', updated: T(1) }]);
    expect(cursor).toEqual({ updated: T(2), ids: ['b', 'c', 'd'] });
    expect(advanceCursor(cursor, [{ id: 'e', updated: T(3) }])).toEqual({ updated: T(3), ids: ['e'] });
  });
});

/** A remote list that answers the pull's filters as docs/api.md#list-parameters says: ISO instants compare as text here, as they are canonical. */
function answer(all: readonly Listed[], params: Record<string, string>): Listed[] {
  const size = Number(params.pageSize);
  let rows = [...all];
  for (const cond of (params.filter ?? '').split(/(?<!\\),/).filter(Boolean)) {
    const m = /^(\w+)\[(\w+)\](.*)$/.exec(cond)!;
    const [, key, op, raw] = m;
    const value = raw.replaceAll('\\,', ',');
    const get = (r: Listed) => (key === 'id' ? r.id : r.updated);
    const test = { eq: (a: string) => a === value, gt: (a: string) => a > value, gte: (a: string) => a >= value }[op as 'eq' | 'gt' | 'gte'];
    rows = rows.filter((r) => test(get(r)));
  }
  const byId = (a: Listed, b: Listed) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  rows.sort(params.order === 'id[asc]' ? byId : (a, b) => (a.updated < b.updated ? -1 : a.updated > b.updated ? 1 : byId(a, b)));
  return rows.slice(0, size);
}

function walk(all: readonly Listed[], pageSize: number): { seen: string[]; requests: number } {
  const seen: string[] = [];
  let query: PageQuery | null = firstQuery({ updated: null, ids: [] }, 300);
  let requests = 0;
  while (query) {
    const rows = answer(all, listParameters(query, pageSize));
    requests++;
    seen.push(...rows.map((r) => r.id));
    query = nextQuery(query, rows, pageSize);
    expect(requests).toBeLessThan(1000);
  }
  return { seen, requests };
}

describe('a whole pull', () => {
  it('reaches three pages of reports of one instant, and those around it, and ends', () => {
    const all: Listed[] = [
      { id: 'early', updated: T(1) },
      ...Array.from({ length: 30 }, (_, i) => ({ id: `same-${String(i).padStart(2, '0')}`, updated: T(5) })),
      { id: 'late', updated: T(9) },
    ];
    const { seen } = walk(all, 10);
    expect(new Set(seen)).toEqual(new Set(all.map((r) => r.id)));
  });

  it('reaches every report for random instants and page sizes', () => {
    let seed = Number(process.env.SYNC_PAGING_SEED ?? 7);
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let run = 0; run < 50; run++) {
      const n = 1 + Math.floor(random() * 80);
      const all = Array.from({ length: n }, (_, i) => ({ id: `r${i}`, updated: T(Math.floor(random() * 6)) }));
      const pageSize = 1 + Math.floor(random() * 12);
      const { seen } = walk(all, pageSize);
      expect(new Set(seen)).toEqual(new Set(all.map((r) => r.id)));
    }
  });
});
