/**
 * Numbered, append-only: a shipped migration is never edited, a new one is added.
 *
 * Counts per custom field value kept by the write itself, as listing_counts (015) keeps those of
 * the fixed keys. `custom_field_counts` holds, per company view, custom field and value, how many
 * of the company's listing rows hold that value, split by the same columns as listing_counts
 * (owner, status, alert level, mode, type, flag, archive state) and under their names, so a
 * compiled browser filter over the alias l reads the same over it. Reading every report holding a
 * field (a thousand batches over 100 000 reports) took seconds per facet; summing the kept rows of
 * one field takes milliseconds.
 *
 * A report is counted once per value however often it holds it (`[3, 3.0]` is one 3), as the
 * list's eq picks a report once: a value's count moves only when the first element holding it
 * comes or the last goes. `value` is the element as typed (STRICT ANY keeps a text `10` apart
 * from the number 10, and 10 and 10.0 together, as eq compares them). The empty blob, which no
 * custom field element can be, stands for "holds some value of the field": the facet's `null`
 * (holding none) is the matches less these.
 *
 * Triggers on report_listing (a view appears, goes, or its split columns move) and on
 * custom_field_elements (a value appears or goes) keep it exact in the transaction of the write.
 * Not an upsert: inside a trigger, the conflict clause of the outer statement would take its
 * place. The triggers' names start with `listing_`, so a bulk import sets them aside with the
 * listing's own and counts again once the listing rows are built (ReportStore.writingMany).
 */

/** Columns a count splits by, as listing_counts (015) and report_listing name and type them. */
const SPLIT: readonly (readonly [string, string])[] = [
  ['owner_ck', 'INTEGER NOT NULL'],
  ['status', 'TEXT NOT NULL'],
  ['alert_level', 'INTEGER NOT NULL'],
  ['mode', 'TEXT NOT NULL'],
  ['type', 'TEXT NOT NULL'],
  ['has_flag', 'INTEGER NOT NULL'],
  ['is_archived', 'INTEGER NOT NULL'],
];
const KEY = ['ck', 'field', 'value', ...SPLIT.map(([c]) => c)];

/** The value of an element that a condition can pick: its text or its number. */
const VALUE = (e: string) => `coalesce(${e}.text, ${e}.num)`;

/** The row marking that the report holds some value of the field. */
const HOLDS = "x''";

/** Each (field, value) report `rk` holds, once, and the holding row of each field it holds. */
const valuesOf = (rk: string) => `
  SELECT DISTINCT e.field AS field, ${VALUE('e')} AS value FROM custom_field_elements e WHERE e.rk = ${rk} AND ${VALUE('e')} IS NOT NULL
  UNION ALL
  SELECT DISTINCT e.field, ${HOLDS} FROM custom_field_elements e WHERE e.rk = ${rk} AND ${VALUE('e')} IS NOT NULL`;

/** One listing row `row`'s counts: each value its report holds, under the row's split. */
const ofListingRow = (row: 'new' | 'old') =>
  `SELECT ${row}.ck AS ck, v.field AS field, v.value AS value, ${SPLIT.map(([c]) => `${row}.${c} AS ${c}`).join(', ')} FROM (${valuesOf(`${row}.rk`)}) v`;

/** One value of one field under every listing row of report `rk`. */
const ofValue = (rk: string, field: string, value: string) =>
  `SELECT l.ck AS ck, ${field} AS field, ${value} AS value, ${SPLIT.map(([c]) => `l.${c} AS ${c}`).join(', ')} FROM report_listing l WHERE l.rk = ${rk}`;

const tuple = `(${KEY.join(', ')})`;

/** One more of each (distinct) row `rows` selects. */
const add = (rows: string) => `
  UPDATE custom_field_counts SET n = n + 1 WHERE ${tuple} IN (${rows});
  INSERT INTO custom_field_counts (${KEY.join(', ')}, n)
    SELECT s.*, 1 FROM (${rows}) s
    WHERE NOT EXISTS (SELECT 1 FROM custom_field_counts c WHERE ${KEY.map((c) => `c.${c} = s.${c}`).join(' AND ')})`;
/** One fewer of each (distinct) row `rows` selects. */
const remove = (rows: string) => `
  UPDATE custom_field_counts SET n = n - 1 WHERE ${tuple} IN (${rows});
  DELETE FROM custom_field_counts WHERE n <= 0 AND ${tuple} IN (${rows})`;

/** Another element of the same report and field holds the same value (or, with `any`, some value). */
const another = (e: 'new' | 'old', any: boolean) =>
  `EXISTS (SELECT 1 FROM custom_field_elements o WHERE o.rk = ${e}.rk AND o.field = ${e}.field AND o.elem <> ${e}.elem AND ${
    any ? `${VALUE('o')} IS NOT NULL` : `${VALUE('o')} = ${VALUE(e)}`
  })`;

/** Element `e`'s own value (unless another element holds it) and the field's holding row (unless another holds some). */
const ofElement = (e: 'new' | 'old') => `
  SELECT * FROM (${ofValue(`${e}.rk`, `${e}.field`, VALUE(e))}) WHERE NOT ${another(e, false)}
  UNION ALL
  SELECT * FROM (${ofValue(`${e}.rk`, `${e}.field`, HOLDS)}) WHERE NOT ${another(e, true)}`;

const SPLIT_CHANGED = SPLIT.map(([c]) => `old.${c} IS NOT new.${c}`).join(' OR ');

export default /* sql */ `
CREATE TABLE custom_field_counts (
  ck INTEGER NOT NULL,
  field TEXT NOT NULL,
  value ANY NOT NULL,
  ${SPLIT.map(([c, type]) => `${c} ${type}`).join(',\n  ')},
  n INTEGER NOT NULL,
  PRIMARY KEY (${KEY.join(', ')})
) STRICT, WITHOUT ROWID;

INSERT INTO custom_field_counts (${KEY.join(', ')}, n)
  SELECT ck, field, value, ${SPLIT.map(([c]) => c).join(', ')}, count(*) FROM (${RECOUNT_ROWS()}) GROUP BY ${KEY.join(', ')};

CREATE TRIGGER listing_cf_counts_listing_insert AFTER INSERT ON report_listing BEGIN
  ${add(ofListingRow('new'))};
END;

CREATE TRIGGER listing_cf_counts_listing_delete AFTER DELETE ON report_listing BEGIN
  ${remove(ofListingRow('old'))};
END;

CREATE TRIGGER listing_cf_counts_listing_update AFTER UPDATE OF ${SPLIT.map(([c]) => c).join(', ')} ON report_listing
WHEN ${SPLIT_CHANGED} BEGIN
  ${remove(ofListingRow('old'))};
  ${add(ofListingRow('new'))};
END;

CREATE TRIGGER listing_cf_counts_element_insert AFTER INSERT ON custom_field_elements
WHEN ${VALUE('new')} IS NOT NULL BEGIN
  ${add(ofElement('new'))};
END;

CREATE TRIGGER listing_cf_counts_element_delete AFTER DELETE ON custom_field_elements
WHEN ${VALUE('old')} IS NOT NULL BEGIN
  ${remove(ofElement('old'))};
END;
`;

/**
 * Each listing row with each value its report holds, once, and the holding row of each field,
 * for every report at once: what the counts follow from.
 */
function RECOUNT_ROWS(): string {
  const values = `SELECT DISTINCT e.rk, e.field, ${VALUE('e')} AS value FROM custom_field_elements e WHERE ${VALUE('e')} IS NOT NULL
    UNION ALL
    SELECT DISTINCT e.rk, e.field, ${HOLDS} FROM custom_field_elements e WHERE ${VALUE('e')} IS NOT NULL`;
  return `SELECT l.ck, v.field, v.value, ${SPLIT.map(([c]) => `l.${c}`).join(', ')} FROM (${values}) v JOIN report_listing l ON l.rk = v.rk`;
}

/** The counts as they follow from the listing rows and elements: what a bulk rebuild writes. */
export const CUSTOM_FIELD_RECOUNT = `DELETE FROM custom_field_counts;
INSERT INTO custom_field_counts (${KEY.join(', ')}, n)
  SELECT ck, field, value, ${SPLIT.map(([c]) => c).join(', ')}, count(*) FROM (${RECOUNT_ROWS()}) GROUP BY ${KEY.join(', ')};`;

/** The kept counts' columns, for checks that compare them with what they follow from. */
export const CUSTOM_FIELD_COUNT_KEY = KEY;
export const CUSTOM_FIELD_COUNT_ROWS = RECOUNT_ROWS;
