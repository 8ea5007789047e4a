/**
 * Numbered, append-only: a shipped migration is never edited, a new one is added. Its SQL is
 * written out as it shipped and imports nothing; the live declarations are in db/read-model/.
 *
 * An index for every figure of the calculated sense data a list can be ordered by, so that a page
 * ordered by any of them walks the company's entries in that order and stops at the page instead
 * of sorting every report the company sees (at a million reports, hundreds of ms a page).
 *
 * - Figures no index held (the times, the attained temperatures, temperature excursions and the
 *   time out of range): the company, the figure, the id (the tiebreak, so ascending needs no sort
 *   at all and descending sorts only equal figures), the archive state (the browser's filter,
 *   tested inside the index), as the analysed temperature figures' indexes of migration 015.
 * - The humidity excursion figures, whose rare-value indexes (migration 007) led with the figure,
 *   then the created order: that order held no tiebreak, so ordered by the figure, the run of
 *   reports without a humidity excursion (nearly all) was sorted by id. Rebuilt as the company,
 *   the figure, the id, the archive state, then created, each value's reports lie in id order,
 *   and the compiler merges them value by value (orderValues in db/query/field-columns.ts) in
 *   either direction. A rare value is still searched and its few matches sorted by created (the
 *   compiler sorts them anyway, see compileOrder), and the index still covers that sort.
 *   The datapoint counts keep migration 007's indexes: their runs of equal counts have no value
 *   every site shares, and walked backwards in id order, SQLite's bounded sort of a run takes
 *   each entry in (about three times slower, at 100 000 reports, than the created order gives).
 *
 * What an index costs a write: since migration 017 a report's write names in report_listing only
 * the columns whose values moved, so an index is rewritten only when its figure moves. A tap
 * moves the times and the counts of datapoints; the README's benchmark section gives the pages
 * of the write-ahead log one tap writes, with and without these indexes.
 *
 * Their names start with `listing_`, so a bulk import sets them aside and builds them again with
 * the others (ReportStore.writingMany); they are analysed with the bounded sample opening the
 * database uses.
 */
export default /* sql */ `
CREATE INDEX listing_start_time ON report_listing (ck, calc_start_time, id, is_archived);
CREATE INDEX listing_current_time ON report_listing (ck, calc_current_time, id, is_archived);
CREATE INDEX listing_elapsed_time ON report_listing (ck, calc_elapsed_time, id, is_archived);
CREATE INDEX listing_violations_temperature ON report_listing (ck, calc_violations_temperature, id, is_archived);
CREATE INDEX listing_violation_duration_temperature ON report_listing (ck, calc_violation_duration_temperature, id, is_archived);
CREATE INDEX listing_violation_duration_all ON report_listing (ck, calc_violation_duration_all, id, is_archived);
CREATE INDEX listing_attained_min_temperature ON report_listing (ck, calc_attained_min_temperature, id, is_archived);
CREATE INDEX listing_attained_max_temperature ON report_listing (ck, calc_attained_max_temperature, id, is_archived);
DROP INDEX listing_violations_humidity;
CREATE INDEX listing_violations_humidity ON report_listing (ck, calc_violations_humidity, id, is_archived, created);
DROP INDEX listing_violation_duration_humidity;
CREATE INDEX listing_violation_duration_humidity ON report_listing (ck, calc_violation_duration_humidity, id, is_archived, created);
PRAGMA analysis_limit = 1000;
ANALYZE report_listing;
`;
