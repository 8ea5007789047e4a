/**
 * How a pull walks the remote's list (docs/sync.md#pull), as pure functions: from the
 * cursor minus the overlap, in `updated` order, moving the bound forward instead of asking
 * for page numbers of a result that moves; a page whose reports all share one `updated`
 * continues by id among the reports of that instant.
 */
import type { PullCursor } from '../model/sync-records';

/** One request of a pull. `all`: the first pull ever, from the beginning. */
export type PageQuery =
  | { kind: 'all' }
  | { kind: 'gte'; updated: string }
  | { kind: 'gt'; updated: string }
  | { kind: 'tie'; updated: string; afterId: string };

/** What paging needs of a list element. */
export interface Listed {
  id: string;
  /** Canonical ISO 8601. */
  updated: string;
}

/** Where a pull starts: the cursor less the overlap window, which catches changes committed late. */
export function firstQuery(cursor: PullCursor, overlapSeconds: number): PageQuery {
  if (cursor.updated === null) return { kind: 'all' };
  return { kind: 'gte', updated: new Date(Date.parse(cursor.updated) - overlapSeconds * 1000).toISOString() };
}

/** The list parameters of a request. */
export function listParameters(query: PageQuery, pageSize: number): Record<string, string> {
  const common = { pageSize: String(pageSize), output: 'normal' };
  switch (query.kind) {
    case 'all':
      return { order: 'updated[asc]', ...common };
    case 'gte':
    case 'gt':
      return { filter: `updated[${query.kind}]${query.updated}`, order: 'updated[asc]', ...common };
    case 'tie':
      // The id condition goes last: a value ending in a backslash can only be the last one.
      return { filter: `updated[eq]${query.updated},id[gt]${filterValue(query.afterId)}`, order: 'id[asc]', ...common };
  }
}

/**
 * The request after a page, or null when the pull is complete. A short page ends its run; a
 * full page moves the bound to its last `updated`, or, when the whole page is one instant,
 * goes on by id within that instant (otherwise a bound on `updated` alone would answer the
 * same page again).
 */
export function nextQuery(query: PageQuery, page: readonly Listed[], pageSize: number): PageQuery | null {
  const last = page.at(-1);
  if (query.kind === 'tie') {
    if (!last || page.length < pageSize) return { kind: 'gt', updated: query.updated };
    return { kind: 'tie', updated: query.updated, afterId: last.id };
  }
  if (!last || page.length < pageSize) return null;
  if (page[0].updated === last.updated) return { kind: 'tie', updated: last.updated, afterId: last.id };
  return { kind: 'gte', updated: last.updated };
}

/** The cursor after a page: the highest `updated` applied and the ids applied at it. */
export function advanceCursor(cursor: PullCursor, page: readonly Listed[]): PullCursor {
  let { updated, ids } = cursor;
  for (const row of page) {
    if (updated === null || row.updated > updated) {
      updated = row.updated;
      ids = [row.id];
    } else if (row.updated === updated && !ids.includes(row.id)) {
      ids = [...ids, row.id];
    }
  }
  return { updated, ids };
}

/** The list parameters of a reconciliation page: every report the remote shows, by id, in the minimal output. */
export function reconcileParameters(afterId: string | null, pageSize: number): Record<string, string> {
  const params: Record<string, string> = { order: 'id[asc]', pageSize: String(pageSize), output: 'minimal' };
  if (afterId !== null) params.filter = `id[gt]${filterValue(afterId)}`;
  return params;
}

/** A filter value: a comma inside it is written `\,`. */
export function filterValue(value: string): string {
  return value.replaceAll(',', '\\,');
}
