/**
 * Counts per custom field value: `custom_field_counts` holds, per company view, custom field and
 * value, how many of the company's listing rows hold that value, split by the same columns as
 * listing_counts and under their names, so a compiled browser filter over the alias l reads the
 * same over it. `custom_field_totals` holds the same counts split only by owner, flag and archive
 * state: a few rows per value where the fine split holds one per handful of reports.
 *
 * A report is counted once per value however often it holds it (`[3, 3.0]` is one 3), as the
 * list's eq picks a report once: a value's count moves only when the first element holding it
 * comes or the last goes. `value` is the element as typed (STRICT ANY keeps a text `10` apart
 * from the number 10, and 10 and 10.0 together, as eq compares them). The empty blob, which no
 * custom field element can be, stands for "holds some value of the field": the facet's `null`
 * (holding none) is the matches less these. Not an upsert: inside a trigger, the conflict clause
 * of the outer statement would take its place.
 */
import { table, triggers, type KeptTableDeclaration } from './declaration';
import { SPLIT } from './listing-counts';


/** Columns a count splits by: listing_counts' own. */
const FINE = SPLIT;
/** The coarse table's split: the columns of a company's own view of its reports. */
const COARSE = FINE.filter(([c]) => c === 'owner_ck' || c === 'has_flag' || c === 'is_archived');

/** The value of an element that a condition can pick: its text or its number. */
export const VALUE = (e: string) => `coalesce(${e}.text, ${e}.num)`;

/** The row marking that the report holds some value of the field. */
export const HOLDS = "x''";

/** Each (field, value) report `rk` holds, once, and the holding row of each field it holds. */
const valuesOf = (rk: string) => `
  SELECT DISTINCT e.field AS field, ${VALUE('e')} AS value FROM custom_field_elements e WHERE e.rk = ${rk} AND ${VALUE('e')} IS NOT NULL
  UNION ALL
  SELECT DISTINCT e.field, ${HOLDS} FROM custom_field_elements e WHERE e.rk = ${rk} AND ${VALUE('e')} IS NOT NULL`;

/** Another element of the same report and field holds the same value (or, with `any`, some value). */
export const another = (e: 'new' | 'old', any: boolean) =>
  `EXISTS (SELECT 1 FROM custom_field_elements o WHERE o.rk = ${e}.rk AND o.field = ${e}.field AND o.elem <> ${e}.elem AND ${
    any ? `${VALUE('o')} IS NOT NULL` : `${VALUE('o')} = ${VALUE(e)}`
  })`;

/** The table, the triggers that keep it and its recount, for one split. */
function keptCounts(
  table: string,
  split: readonly (readonly [string, string])[],
  /** A kept table of a finer split the counts are summed from, instead of from every element. */
  from?: string,
): { create: string; triggers: string[]; recount: string; rows: () => string; key: string[] } {
  const key = ['ck', 'field', 'value', ...split.map(([c]) => c)];
  const tuple = `(${key.join(', ')})`;
  /** One listing row `row`'s counts: each value its report holds, under the row's split. */
  const ofListingRow = (row: 'new' | 'old') =>
    `SELECT ${row}.ck AS ck, v.field AS field, v.value AS value, ${split.map(([c]) => `${row}.${c} AS ${c}`).join(', ')} FROM (${valuesOf(`${row}.rk`)}) v`;
  /** One value of one field under every listing row of report `rk`. */
  const ofValue = (rk: string, field: string, value: string) =>
    `SELECT l.ck AS ck, ${field} AS field, ${value} AS value, ${split.map(([c]) => `l.${c} AS ${c}`).join(', ')} FROM report_listing l WHERE l.rk = ${rk}`;
  /** Element `e`'s own value (unless another element holds it) and the field's holding row (unless another holds some). */
  const ofElement = (e: 'new' | 'old') => `
    SELECT * FROM (${ofValue(`${e}.rk`, `${e}.field`, VALUE(e))}) WHERE NOT ${another(e, false)}
    UNION ALL
    SELECT * FROM (${ofValue(`${e}.rk`, `${e}.field`, HOLDS)}) WHERE NOT ${another(e, true)}`;
  /** One more of each (distinct) row `rows` selects. */
  const add = (rows: string) => `
    UPDATE ${table} SET n = n + 1 WHERE ${tuple} IN (${rows});
    INSERT INTO ${table} (${key.join(', ')}, n)
      SELECT s.*, 1 FROM (${rows}) s
      WHERE NOT EXISTS (SELECT 1 FROM ${table} c WHERE ${key.map((c) => `c.${c} = s.${c}`).join(' AND ')})`;
  /** One fewer of each (distinct) row `rows` selects. */
  const remove = (rows: string) => `
    UPDATE ${table} SET n = n - 1 WHERE ${tuple} IN (${rows});
    DELETE FROM ${table} WHERE n <= 0 AND ${tuple} IN (${rows})`;
  /** Each listing row with each value its report holds, once, and the holding row of each field, for every report at once. */
  const rows = () => {
    const values = `SELECT DISTINCT e.rk, e.field, ${VALUE('e')} AS value FROM custom_field_elements e WHERE ${VALUE('e')} IS NOT NULL
      UNION ALL
      SELECT DISTINCT e.rk, e.field, ${HOLDS} FROM custom_field_elements e WHERE ${VALUE('e')} IS NOT NULL`;
    return `SELECT l.ck, v.field, v.value, ${split.map(([c]) => `l.${c}`).join(', ')} FROM (${values}) v JOIN report_listing l ON l.rk = v.rk`;
  };
  const recount = `DELETE FROM ${table};
INSERT INTO ${table} (${key.join(', ')}, n)
  ${from ? `SELECT ${key.join(', ')}, sum(n) FROM ${from}` : `SELECT ${key.join(', ')}, count(*) FROM (${rows()})`} GROUP BY ${key.join(', ')};`;
  const prefix = `listing_${table}`;
  /**
   * The triggers that count an element's value as it comes and goes. The compound of the element's
   * rows is wrapped in a subquery, `IN (SELECT * FROM (… UNION ALL …))`, so SQLite looks the kept
   * rows up by key: said plainly on the right of IN, it reads every row of the kept table.
   */
  const elementRows = (e: 'new' | 'old') => `SELECT * FROM (${ofElement(e)})`;
  const create = `CREATE TABLE ${table} (
  ck INTEGER NOT NULL,
  field TEXT NOT NULL,
  value ANY NOT NULL,
  ${split.map(([c, type]) => `${c} ${type}`).join(',\n  ')},
  n INTEGER NOT NULL,
  PRIMARY KEY (${key.join(', ')})
) STRICT, WITHOUT ROWID`;
  const kept = [
    `CREATE TRIGGER ${prefix}_listing_insert AFTER INSERT ON report_listing BEGIN
  ${add(ofListingRow('new'))};
END`,
    `CREATE TRIGGER ${prefix}_listing_delete AFTER DELETE ON report_listing BEGIN
  ${remove(ofListingRow('old'))};
END`,
    `CREATE TRIGGER ${prefix}_listing_update AFTER UPDATE OF ${split.map(([c]) => c).join(', ')} ON report_listing
WHEN ${split.map(([c]) => `old.${c} IS NOT new.${c}`).join(' OR ')} BEGIN
  ${remove(ofListingRow('old'))};
  ${add(ofListingRow('new'))};
END`,
    `CREATE TRIGGER ${prefix}_element_insert AFTER INSERT ON custom_field_elements
WHEN ${VALUE('new')} IS NOT NULL BEGIN
  ${add(elementRows('new'))};
END`,
    `CREATE TRIGGER ${prefix}_element_delete AFTER DELETE ON custom_field_elements
WHEN ${VALUE('old')} IS NOT NULL BEGIN
  ${remove(elementRows('old'))};
END`,
  ];
  return { create, triggers: kept, recount, rows, key };
}

const fine = keptCounts('custom_field_counts', FINE);
const coarse = keptCounts('custom_field_totals', COARSE, 'custom_field_counts');


/** Where the coarse counts serve: the columns a filter may test to be read from custom_field_totals. */
export const CUSTOM_FIELD_TOTALS_SPLIT: readonly string[] = COARSE.map(([c]) => c);

/** The counts as they follow from the listing rows and elements: what a bulk rebuild writes. */
export const CUSTOM_FIELD_RECOUNT = `${fine.recount}\n${coarse.recount}`;

/** Each kept table's columns and the rows its counts follow from, for checks that compare them. */
export const CUSTOM_FIELD_KEPT = { custom_field_counts: fine, custom_field_totals: coarse } as const;

export const CUSTOM_FIELD_COUNTS: KeptTableDeclaration = {
  name: 'custom field counts',
  tables: [table(fine.create), table(coarse.create)],
  madeFrom:
    'report_listing and custom_field_elements: each listing row with each value its report holds (once) and a holding row per field it holds; custom_field_totals sums custom_field_counts',
  key: `custom_field_counts (${fine.key.join(', ')}); custom_field_totals (${coarse.key.join(', ')}): one row per company view, field, value and split, with n reports`,
  reads: [
    {
      read: 'the insights\' facets of every browser key at once, custom fields among them (unfiltered · archived hidden · air freight with alert ≥ 1)',
      figure: '21 · 10 · 19 ms at 100 000 reports against 264 · 953 · 710 ms for the same build without them',
    },
    {
      read: 'the list\'s count and facets under a filter of the fixed keys and one comparison of a custom field (`pallets ≥ 20`), while no report holds two values of the field (db/field-counts.ts)',
      figure: '65 ms for all keys at 100 000 against 114 ms, and its fixed keys 8.6 ms; at 1 000 000, 745 ms against 2 285 ms, its fixed keys 14 ms against 860',
    },
  ],
  writes:
    'A listing row that comes or goes, or moves a split column, moves the counts of each value its report holds; an element that comes moves its value\'s count only if no other element of the report and field holds the value (and the holding row only if none holds any), and one that goes likewise. Each statement finds its kept rows by primary key.',
  triggers: triggers([...fine.triggers, ...coarse.triggers]),
  indexes: [],
  bulkLoad: 'rebuilt',
  rebuild: CUSTOM_FIELD_RECOUNT,
};
