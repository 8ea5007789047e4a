/**
 * Numbered, append-only: a shipped migration is never edited, a new one is added.
 *
 * The insights' group figures kept by the write itself, as listing_counts (015) keeps the counts:
 * per company view, sums of every figure a group answers (reports, reports with excursions,
 * excursions, seconds out of range, degree-hours, MKT sum and count for the mean, the MKT's
 * maximum, reports per alert level and per current decision of the viewing company). Reading
 * every match for a monthly group-by took 0.1–0.7 s at 100 000 reports; summing the kept rows
 * takes milliseconds.
 *
 * - `group_figures_time`, per UTC day of the created time and of the start of the recording
 *   (`field` 0 and 1), split by owner, flag and archive state (the filters of a company's own
 *   view). The first and last UTC day of each month are kept per UTC hour: a zone whose offsets
 *   are whole hours starts its months on a UTC hour within a day of the UTC month's edge, so
 *   such a month is whole UTC days plus these hours. `at` is the hour (hours since 1970) a row
 *   starts at: a day's row starts at its midnight and spans 24 hours, an edge day's rows one hour
 *   each. A report without a start time counts under `at` = NONE (the group `null`), one whose
 *   time the reader's parse might read otherwise (a created time not written as
 *   `YYYY-MM-DDTHH:MM:SS[.fff]Z`, a start time not a number of seconds between 1900 and 9999)
 *   under UNKEYED, which sends the question to the one-pass read of the matches.
 * - `group_figures_time_totals`, the same split by archive state alone: the rows an unfiltered
 *   question or the browser's "not archived" sums, a third as many. Its triggers are on
 *   group_figures_time: each change of a finer row moves its sum by the difference.
 * - `group_figures_split`, without time, split by every column listing_counts splits by and by the
 *   range each distribution puts the report in (`bin_*`, -1: in none, the group `null`), for
 *   splits by a fixed key and the distributions under any filter of those columns.
 *
 * Each table's columns carry report_listing's names, so a compiled browser filter over the alias
 * l reads the same over it. The decision is that of review_current (016) for the row's company:
 * triggers there move a listing row's counts from one decision to the other.
 *
 * The MKT's maximum is kept per row: a report coming in raises it at once; one leaving (or
 * lowering its MKT) that held it reads the row's reports again, an index search: the hour or day
 * of created or start time in its index, or, without time, the MKT index downwards from the old
 * maximum. A sum cannot give it back.
 *
 * Every statement finds its kept rows by primary key: a compound of key rows is wrapped as
 * `IN (SELECT * FROM (a UNION ALL b))`, which SQLite searches key by key (`(tuple) IN (a UNION
 * ALL b)` scans the whole table). Not an upsert: inside a trigger, the conflict clause of the
 * outer statement would take its place. The triggers' names start with `listing_`, so a bulk
 * import sets them aside with the listing's own and sums again once the listing rows are built
 * (ReportStore.writingMany).
 */
import { split, time, timeTotals } from '../read-model/group-figures';

export default time.sql + timeTotals.sql + split.sql;
