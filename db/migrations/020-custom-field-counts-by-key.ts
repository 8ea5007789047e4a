/**
 * Numbered, append-only: a shipped migration is never edited, a new one is added.
 *
 * The triggers of migration 19 that count a custom field element's value as it comes and goes
 * asked `(key) IN (own value UNION ALL holding row)`. SQLite plans a compound on the right of
 * IN by reading every row of the kept table and testing each against it: a write of one custom
 * field read all of custom_field_counts and custom_field_totals, which grow with the reports (3 ms
 * a field at a thousand reports, a quarter of an hour to seed three thousand). The same rows
 * selected through a subquery, `IN (SELECT * FROM (… UNION ALL …))`, are looked up by primary key.
 * The counts they keep are unchanged.
 */
import { CUSTOM_FIELD_KEPT } from '../read-model/custom-field-counts';

const kept = Object.entries(CUSTOM_FIELD_KEPT);

export default [
  ...kept.flatMap(([table]) => [`DROP TRIGGER listing_${table}_element_insert;`, `DROP TRIGGER listing_${table}_element_delete;`]),
  ...kept.map(([, counts]) => counts.elementTriggers()),
].join('\n');
