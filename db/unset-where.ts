/** The SQL of `unset` (query/unset-keys.ts) over the listing row `l`, and of two narrowings at once. */
import { UNSET_MKT, UNSET_START } from '../query/unset-keys';
import { customFieldUnset } from './insights-store';
import type { SqlFragment } from './review-state';

/** The conditions on the listing row `l`; null when there are none. */
export function unsetWhere(keys: readonly string[]): SqlFragment | null {
  if (keys.length === 0) return null;
  const parts = keys.map((key): SqlFragment => {
    if (key === UNSET_MKT) return { sql: 'l.calc_mean_kinetic_temperature IS NULL', params: [] };
    if (key === UNSET_START) return { sql: 'l.calc_start_time IS NULL', params: [] };
    return customFieldUnset(key.slice('customFields.'.length));
  });
  return { sql: parts.map((p) => `(${p.sql})`).join(' AND '), params: parts.flatMap((p) => p.params) };
}

/** Both narrowings at once (review first, as their parameters bind); null when neither narrows. */
export function bothWhere(a: SqlFragment | null, b: SqlFragment | null): SqlFragment | null {
  if (a === null) return b;
  if (b === null) return a;
  return { sql: `(${a.sql}) AND (${b.sql})`, params: [...a.params, ...b.params] };
}
