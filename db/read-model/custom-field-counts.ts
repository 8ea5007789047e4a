/** The read model: declarations moved out of the migrations that first wrote them. */
import { SPLIT } from './listing-counts';

// Moved from migration 019.

/** Columns a count splits by: listing_counts' own. */
export const FINE = SPLIT;
/** The coarse table's split: the columns of a company's own view of its reports. */
export const COARSE = FINE.filter(([c]) => c === 'owner_ck' || c === 'has_flag' || c === 'is_archived');

/** The value of an element that a condition can pick: its text or its number. */
export const VALUE = (e: string) => `coalesce(${e}.text, ${e}.num)`;

/** The row marking that the report holds some value of the field. */
export const HOLDS = "x''";

/** Each (field, value) report `rk` holds, once, and the holding row of each field it holds. */
export const valuesOf = (rk: string) => `
  SELECT DISTINCT e.field AS field, ${VALUE('e')} AS value FROM custom_field_elements e WHERE e.rk = ${rk} AND ${VALUE('e')} IS NOT NULL
  UNION ALL
  SELECT DISTINCT e.field, ${HOLDS} FROM custom_field_elements e WHERE e.rk = ${rk} AND ${VALUE('e')} IS NOT NULL`;

/** Another element of the same report and field holds the same value (or, with `any`, some value). */
export const another = (e: 'new' | 'old', any: boolean) =>
  `EXISTS (SELECT 1 FROM custom_field_elements o WHERE o.rk = ${e}.rk AND o.field = ${e}.field AND o.elem <> ${e}.elem AND ${
    any ? `${VALUE('o')} IS NOT NULL` : `${VALUE('o')} = ${VALUE(e)}`
  })`;

/** The table, its initial counts and the triggers that keep it, for one split. */
export function keptCounts(
  table: string,
  split: readonly (readonly [string, string])[],
  /** A kept table of a finer split the counts are summed from, instead of from every element. */
  from?: string,
): { sql: string; recount: string; rows: () => string; key: string[]; elementTriggers: () => string } {
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
  /** The triggers that count an element's value as it comes and goes, over the rows `ofElement` gives. */
  const elementTriggers = (rowsOf: (e: 'new' | 'old') => string) => `
CREATE TRIGGER ${prefix}_element_insert AFTER INSERT ON custom_field_elements
WHEN ${VALUE('new')} IS NOT NULL BEGIN
  ${add(rowsOf('new'))};
END;

CREATE TRIGGER ${prefix}_element_delete AFTER DELETE ON custom_field_elements
WHEN ${VALUE('old')} IS NOT NULL BEGIN
  ${remove(rowsOf('old'))};
END;
`;
  const sql = /* sql */ `
CREATE TABLE ${table} (
  ck INTEGER NOT NULL,
  field TEXT NOT NULL,
  value ANY NOT NULL,
  ${split.map(([c, type]) => `${c} ${type}`).join(',\n  ')},
  n INTEGER NOT NULL,
  PRIMARY KEY (${key.join(', ')})
) STRICT, WITHOUT ROWID;

${recount}

CREATE TRIGGER ${prefix}_listing_insert AFTER INSERT ON report_listing BEGIN
  ${add(ofListingRow('new'))};
END;

CREATE TRIGGER ${prefix}_listing_delete AFTER DELETE ON report_listing BEGIN
  ${remove(ofListingRow('old'))};
END;

CREATE TRIGGER ${prefix}_listing_update AFTER UPDATE OF ${split.map(([c]) => c).join(', ')} ON report_listing
WHEN ${split.map(([c]) => `old.${c} IS NOT new.${c}`).join(' OR ')} BEGIN
  ${remove(ofListingRow('old'))};
  ${add(ofListingRow('new'))};
END;
${elementTriggers(ofElement)}`;
  // Migration 020's form: the compound wrapped in a subquery, so SQLite looks the kept rows up by key.
  return { sql, recount, rows, key, elementTriggers: () => elementTriggers((e) => `SELECT * FROM (${ofElement(e)})`) };
}

export const fine = keptCounts('custom_field_counts', FINE);
export const coarse = keptCounts('custom_field_totals', COARSE, 'custom_field_counts');


/** Where the coarse counts serve: the columns a filter may test to be read from custom_field_totals. */
export const CUSTOM_FIELD_TOTALS_SPLIT: readonly string[] = COARSE.map(([c]) => c);

/** The counts as they follow from the listing rows and elements: what a bulk rebuild writes. */
export const CUSTOM_FIELD_RECOUNT = `${fine.recount}\n${coarse.recount}`;

/** Each kept table's columns and the rows its counts follow from, for checks that compare them. */
export const CUSTOM_FIELD_KEPT = { custom_field_counts: fine, custom_field_totals: coarse } as const;
