/**
 * `listing_counts`: per company, how many of its listing rows share each combination of the
 * values the report browser filters by (owner, status, alert level, mode, type, flag, archive
 * state), a few hundred rows per company at most whatever the number of reports. The columns
 * carry report_listing's names and types, so a compiled condition over the listing alias l reads
 * the same over this table and picks the same rows.
 */
import { countTriggers, table, triggers, type KeptTableDeclaration } from './declaration';

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
  triggers: triggers(countTriggers('listing_counts', 'report_listing', KEY)),
  indexes: [],
  bulkLoad: 'rebuilt',
  rebuild: RECOUNT,
};
