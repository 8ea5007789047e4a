/** The read model: declarations moved out of the migrations that first wrote them. */

// Moved from migration 015.

/** [column, type]: the columns a count splits by, as report_listing declares them. */
export const SPLIT: readonly (readonly [string, string])[] = [
  ['owner_ck', 'INTEGER NOT NULL'],
  ['status', 'TEXT NOT NULL'],
  ['alert_level', 'INTEGER NOT NULL'],
  ['mode', 'TEXT NOT NULL'],
  ['type', 'TEXT NOT NULL'],
  ['has_flag', 'INTEGER NOT NULL'],
  ['is_archived', 'INTEGER NOT NULL'],
];
export const KEY = ['ck', ...SPLIT.map(([c]) => c)];

export const sameKey = (row: string) => KEY.map((c) => `${c} = ${row}.${c}`).join(' AND ');

/** One more listing row of `row`'s combination (new), or one fewer (old). */
export const add = (row: 'new') => `
  UPDATE listing_counts SET n = n + 1 WHERE ${sameKey(row)};
  INSERT INTO listing_counts (${KEY.join(', ')}, n)
    SELECT ${KEY.map((c) => `${row}.${c}`).join(', ')}, 1
    WHERE NOT EXISTS (SELECT 1 FROM listing_counts WHERE ${sameKey(row)})`;
export const remove = (row: 'old') => `
  UPDATE listing_counts SET n = n - 1 WHERE ${sameKey(row)};
  DELETE FROM listing_counts WHERE ${sameKey(row)} AND n <= 0`;

/** [index name, figure column]. */
export const FIGURE_INDEXES: readonly (readonly [string, string])[] = [
  ['listing_mean_kinetic_temperature', 'calc_mean_kinetic_temperature'],
  ['listing_degree_hour', 'calc_degree_hour'],
  ['listing_average_temperature', 'calc_average_temperature'],
];


/** The counts as they follow from the listing rows: what a bulk rebuild writes. */
export const RECOUNT = `DELETE FROM listing_counts;
INSERT INTO listing_counts (${KEY.join(', ')}, n)
  SELECT ${KEY.join(', ')}, count(*) FROM report_listing GROUP BY ${KEY.join(', ')};`;
