/**
 * Numbered, append-only: a shipped migration is never edited, a new one is added. Its SQL is
 * written out as it shipped and imports nothing; the live declarations are in db/read-model/.
 *
 * An index for every remaining key a list can be ordered by, so that a page ordered by any of
 * them walks the company's entries in that order and stops at the page instead of sorting every
 * report the company sees (at a million reports, up to hundreds of ms a page):
 *
 * - The configuration, the label's type and firmware, the sub-company, the number of taps, the
 *   alert time and whether data is incomplete: the company, the key, the id (the tiebreak, so
 *   ascending needs no sort), the archive state (the browser's filter, tested inside the index),
 *   as migration 018's figure indexes. Descending, the compiler reads the page's last value from
 *   the index first, then the rows above it (fewer than a page's end, sorted) and the rows equal
 *   to it in id order (see boundaryRanges in db/query/compile.ts): a long run of equal values,
 *   the rule in a configuration, is never sorted.
 * - The datapoint counts, whose rare-value indexes (migration 007) led with the count, then the
 *   created order: nearly every report holds the same count, so a page ordered by it sorted that
 *   whole run by id. Rebuilt as the company, the count, the id, the archive state, then created,
 *   like migration 018's humidity excursions: a rare count is still searched and its few matches
 *   sorted by created, covered by the index.
 *
 * - The owner index (migration 009: the company, the owner, the archive state) takes the id
 *   before the archive state: ordered by the owner company's id, name or short code, the page
 *   reads each owner's rows in id order and merges them by the owner's value (see ownerRanges in
 *   db/query/compile.ts) instead of sorting every report. A count of shared-with-me reports
 *   under other filters still reads only the owner's range of this index.
 *
 * What an index costs a write: since migration 017 a report's write names in report_listing only
 * the columns whose values moved, so an index is rewritten only when its key moves; the
 * configuration, the label and the sub-company do not move after activation. A tap moves the
 * number of taps, the datapoint counts and at times the alert time; the README's benchmark
 * section gives the pages of the write-ahead log one tap and one create write, with and without
 * these indexes.
 *
 * Their names start with `listing_`, so a bulk import sets them aside and builds them again with
 * the others (ReportStore.writingMany); they are analysed with the bounded sample opening the
 * database uses.
 */
export default /* sql */ `
CREATE INDEX listing_number_of_taps ON report_listing (ck, number_of_taps, id, is_archived);
CREATE INDEX listing_data_is_incomplete ON report_listing (ck, data_is_incomplete, id, is_archived);
CREATE INDEX listing_sub_company ON report_listing (ck, sub_company_id, id, is_archived);
CREATE INDEX listing_label_type ON report_listing (ck, label_type, id, is_archived);
CREATE INDEX listing_firmware_version ON report_listing (ck, firmware_version, id, is_archived);
CREATE INDEX listing_firmware_api_version ON report_listing (ck, firmware_api_version, id, is_archived);
CREATE INDEX listing_interval ON report_listing (ck, interval, id, is_archived);
CREATE INDEX listing_config_time ON report_listing (ck, config_time, id, is_archived);
CREATE INDEX listing_start_delay ON report_listing (ck, start_delay, id, is_archived);
CREATE INDEX listing_running_time ON report_listing (ck, running_time, id, is_archived);
CREATE INDEX listing_min_temperature ON report_listing (ck, min_temperature, id, is_archived);
CREATE INDEX listing_max_temperature ON report_listing (ck, max_temperature, id, is_archived);
CREATE INDEX listing_min_humidity ON report_listing (ck, min_humidity, id, is_archived);
CREATE INDEX listing_max_humidity ON report_listing (ck, max_humidity, id, is_archived);
CREATE INDEX listing_alert_timestamp ON report_listing (ck, alert_timestamp, id, is_archived);
DROP INDEX listing_owner;
CREATE INDEX listing_owner ON report_listing (ck, owner_ck, id, is_archived);
DROP INDEX listing_datapoints_read;
CREATE INDEX listing_datapoints_read ON report_listing (ck, calc_datapoints_read, id, is_archived, created);
DROP INDEX listing_datapoints_available;
CREATE INDEX listing_datapoints_available ON report_listing (ck, calc_datapoints_available, id, is_archived, created);
DROP INDEX listing_measurements_occurred;
CREATE INDEX listing_measurements_occurred ON report_listing (ck, calc_measurements_occurred, id, is_archived, created);
PRAGMA analysis_limit = 1000;
ANALYZE report_listing;
`;
