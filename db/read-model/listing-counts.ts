/**
 * `listing_counts`: per company, how many of its listing rows share each combination of the
 * values the report browser filters by (owner, status, alert level, mode, type, flag, archive
 * state), a few hundred rows per company at most whatever the number of reports. The columns
 * carry report_listing's names and types, so a compiled condition over the listing alias l reads
 * the same over this table and picks the same rows.
 */
import { table, triggers, type KeptTableDeclaration } from './declaration';

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
const KEY = ['ck', ...SPLIT.map(([c]) => c)];

const sameKey = (row: string) => KEY.map((c) => `${c} = ${row}.${c}`).join(' AND ');

/** One more listing row of `row`'s combination (new), or one fewer (old). */
const add = (row: 'new') => `
  UPDATE listing_counts SET n = n + 1 WHERE ${sameKey(row)};
  INSERT INTO listing_counts (${KEY.join(', ')}, n)
    SELECT ${KEY.map((c) => `${row}.${c}`).join(', ')}, 1
    WHERE NOT EXISTS (SELECT 1 FROM listing_counts WHERE ${sameKey(row)})`;
const remove = (row: 'old') => `
  UPDATE listing_counts SET n = n - 1 WHERE ${sameKey(row)};
  DELETE FROM listing_counts WHERE ${sameKey(row)} AND n <= 0`;

/** The counts as they follow from the listing rows: what a bulk rebuild writes. */
export const RECOUNT = `DELETE FROM listing_counts;
INSERT INTO listing_counts (${KEY.join(', ')}, n)
  SELECT ${KEY.join(', ')}, count(*) FROM report_listing GROUP BY ${KEY.join(', ')};`;

export const LISTING_COUNTS: KeptTableDeclaration = {
  name: 'listing_counts',
  tables: [
    table(`CREATE TABLE listing_counts (
  ck INTEGER NOT NULL,
  ${SPLIT.map(([c, type]) => `${c} ${type}`).join(',\n  ')},
  n INTEGER NOT NULL,
  PRIMARY KEY (${KEY.join(', ')})
) STRICT, WITHOUT ROWID`),
  ],
  madeFrom: 'report_listing: its rows counted by company and the seven columns of the browser\'s filters',
  key: `(${KEY.join(', ')}): one row per company and combination of the browser's filter columns, with n listing rows`,
  reads: [
    {
      read: 'the count of a list whose filter tests only the browser\'s columns (the default view, in process)',
      figure: '0.05 ms at 100 000 reports against 61 ms for COUNT(*) over the archive index',
    },
    {
      read: 'the insights\' facets of the 7 fixed keys (unfiltered · archived hidden · air freight with alert ≥ 1)',
      figure: '7.2 · 5.4 · 5.5 ms at 100 000 against 517 · 481 · 2 294 ms reading the matches',
    },
  ],
  writes:
    'Each listing row inserted or deleted moves its combination by one; an update that moves one of the split columns moves the row from its old combination to its new one. A combination whose count falls to 0 is deleted.',
  triggers: triggers([
    `CREATE TRIGGER listing_counts_insert AFTER INSERT ON report_listing BEGIN
  ${add('new')};
END`,
    `CREATE TRIGGER listing_counts_delete AFTER DELETE ON report_listing BEGIN
  ${remove('old')};
END`,
    `CREATE TRIGGER listing_counts_update AFTER UPDATE OF ${KEY.join(', ')} ON report_listing
WHEN ${KEY.map((c) => `old.${c} IS NOT new.${c}`).join(' OR ')} BEGIN
  ${remove('old')};
  ${add('new')};
END`,
  ]),
  indexes: [],
  bulkLoad: 'rebuilt',
  rebuild: RECOUNT,
};
