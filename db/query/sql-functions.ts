/**
 * SQL functions the list query needs, registered on each connection that runs it.
 */
import type { Db } from '../database';

/**
 * Registers on `db`:
 * - `unicode_lower(x)`: JavaScript `toLowerCase()` of a text (locale-independent, so
 *   deterministic); any other value (NULL, numbers, blobs) is returned unchanged. Used by
 *   `ilike` when the pattern has non-ASCII characters (SQLite's LIKE folds ASCII only).
 */
export function registerSqlFunctions(db: Db): void {
  db.function('unicode_lower', { deterministic: true }, (value: unknown) =>
    typeof value === 'string' ? value.toLowerCase() : value,
  );
}
