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
 * Beside it `custom_field_totals` holds the same counts split only by owner, flag and archive
 * state: a few rows per value where the fine split holds one per handful of reports (60 000 rows
 * for a thousand batches over 100 000 reports), so a facet with no filter or one on those columns
 * alone (the browser's "not archived") sums a thousand rows, not sixty thousand.
 *
 * Triggers on report_listing (a view appears, goes, or its split columns move) and on
 * custom_field_elements (a value appears or goes) keep both exact in the transaction of the
 * write. Not an upsert: inside a trigger, the conflict clause of the outer statement would take
 * its place. The triggers' names start with `listing_` and the table's name, so a bulk import
 * sets them aside with the listing's own and counts again once the listing rows are built
 * (ReportStore.writingMany).
 */
import { coarse, fine } from '../read-model/custom-field-counts';

export default fine.sql + coarse.sql;
