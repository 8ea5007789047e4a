/** The read model: declarations moved out of the migrations that first wrote them. */
import { SPLIT } from './listing-counts';
import { another, CUSTOM_FIELD_TOTALS_SPLIT, HOLDS, VALUE } from './custom-field-counts';

// Moved from migration 025.

export const TABLE = 'custom_field_pair_counts';
export const SPLIT_COLUMNS = SPLIT.filter(([c]) => CUSTOM_FIELD_TOTALS_SPLIT.includes(c));
/** The primary key, in the order a facet reads it: the compared field, the counted one, then the values. */
export const PAIR_KEY: readonly string[] = ['ck', 'field', 'other_field', 'value', 'other_value', ...SPLIT_COLUMNS.map(([c]) => c)];
export const TUPLE = `(${PAIR_KEY.join(', ')})`;

/** Report `rk`'s values of its fields, each once, and with `holding` the holding row of each field. */
export const valuesOf = (rk: string, holding: boolean) => {
  const values = `SELECT DISTINCT e.field AS field, ${VALUE('e')} AS value FROM custom_field_elements e WHERE e.rk = ${rk} AND ${VALUE('e')} IS NOT NULL`;
  return holding ? `${values} UNION ALL SELECT DISTINCT e.field, ${HOLDS} FROM custom_field_elements e WHERE e.rk = ${rk} AND ${VALUE('e')} IS NOT NULL` : values;
};

/** The split columns of listing row `row`, under their names. */
export const split = (row: string) => SPLIT_COLUMNS.map(([c]) => `${row}.${c} AS ${c}`).join(', ');

/** Every pair listing row `row`'s report holds, under the row's company and split. */
export const ofListingRow = (row: 'new' | 'old') => `
  SELECT ${row}.ck AS ck, a.field AS field, b.field AS other_field, a.value AS value, b.value AS other_value, ${split(row)}
    FROM (${valuesOf(`${row}.rk`, false)}) a JOIN (${valuesOf(`${row}.rk`, true)}) b ON b.field <> a.field`;

/**
 * The pairs element `e` brings or takes, under each listing row of its report: its value beside
 * every value of the report's other fields, either side (unless another element of the field
 * holds the same value), and the field's holding row beside them (unless another holds some).
 */
export const ofElement = (e: 'new' | 'old') => `
  SELECT l.ck AS ck, ${e}.field AS field, b.field AS other_field, ${VALUE(e)} AS value, b.value AS other_value, ${split('l')}
    FROM report_listing l JOIN (${valuesOf(`${e}.rk`, true)}) b ON b.field <> ${e}.field
   WHERE l.rk = ${e}.rk AND NOT ${another(e, false)}
  UNION ALL
  SELECT l.ck, a.field, ${e}.field, a.value, ${VALUE(e)}, ${split('l')}
    FROM report_listing l JOIN (${valuesOf(`${e}.rk`, false)}) a ON a.field <> ${e}.field
   WHERE l.rk = ${e}.rk AND NOT ${another(e, false)}
  UNION ALL
  SELECT l.ck, a.field, ${e}.field, a.value, ${HOLDS}, ${split('l')}
    FROM report_listing l JOIN (${valuesOf(`${e}.rk`, false)}) a ON a.field <> ${e}.field
   WHERE l.rk = ${e}.rk AND NOT ${another(e, true)}`;

/** One more of each (distinct) row `rows` selects. */
export const add = (rows: string) => `
  UPDATE ${TABLE} SET n = n + 1 WHERE ${TUPLE} IN (SELECT * FROM (${rows}));
  INSERT INTO ${TABLE} (${PAIR_KEY.join(', ')}, n)
    SELECT s.*, 1 FROM (${rows}) s
    WHERE NOT EXISTS (SELECT 1 FROM ${TABLE} c WHERE ${PAIR_KEY.map((c) => `c.${c} = s.${c}`).join(' AND ')})`;

/** One fewer of each (distinct) row `rows` selects. */
export const remove = (rows: string) => `
  UPDATE ${TABLE} SET n = n - 1 WHERE ${TUPLE} IN (SELECT * FROM (${rows}));
  DELETE FROM ${TABLE} WHERE n <= 0 AND ${TUPLE} IN (SELECT * FROM (${rows}))`;

/** Every pair of every report under each of its listing rows: what the counts follow from. */
export const PAIR_ROWS = `
  WITH v AS (SELECT DISTINCT e.rk, e.field, ${VALUE('e')} AS value FROM custom_field_elements e WHERE ${VALUE('e')} IS NOT NULL),
       h AS (SELECT rk, field, value FROM v UNION ALL SELECT DISTINCT rk, field, ${HOLDS} FROM v)
  SELECT l.ck AS ck, a.field AS field, b.field AS other_field, a.value AS value, b.value AS other_value, ${split('l')}
    FROM v a JOIN h b ON b.rk = a.rk AND b.field <> a.field JOIN report_listing l ON l.rk = a.rk`;

/** The counts as they follow from the listing rows and elements: what a bulk rebuild writes. */
export const PAIR_RECOUNT = `DELETE FROM ${TABLE};
INSERT INTO ${TABLE} (${PAIR_KEY.join(', ')}, n)
  SELECT ${PAIR_KEY.join(', ')}, count(*) FROM (${PAIR_ROWS}) GROUP BY ${PAIR_KEY.join(', ')};`;

export const prefix = `listing_${TABLE}`;
