/**
 * Numbered, append-only: a shipped migration is never edited, a new one is added. Its SQL is
 * written out as it shipped and imports nothing; the live declarations are in db/read-model/.
 *
 * Indexes for the report browser as it asks: every view but "archived only" carries
 * `isArchived[eq]false`, and a column header sorts by that column with the id as tiebreak.
 * - `listing_archived` holds, after the company, the archive state and the default order, the
 *   columns the browser's filters test (status, alert level, flag, mode, type, owner): a filtered
 *   page walks it in order and tests each entry without reading the listing row.
 * - One index per column the browser sorts by and few values share (status, alert level, mode,
 *   type, flag, excursions, and the id itself for the archive column): the company, the column,
 *   then the id, so each value's rows lie in tiebreak order and the compiler merges them (see
 *   orderValues in db/query/field-columns.ts) in either direction without sorting. Ending with the
 *   archive state, each also counts its filter without reading the listing rows; status and alert
 *   level carry each other for the browser's status + alert filter.
 * - The owner index counts shared-with-me the same way.
 * The per-column indexes of the listing layout (status + alert, alert, mode, type, flag, owner)
 * give way to these. Their names start with `listing_`, so a bulk import sets them aside and
 * builds them again like the others (ReportStore.writingMany). The listing's indexes are analysed
 * again with the bounded sample that opening the database uses, so old and new ones compare.
 */
export default /* sql */ `
DROP INDEX listing_status_alert;
DROP INDEX listing_alert;
DROP INDEX listing_mode;
DROP INDEX listing_type;
DROP INDEX listing_flag;
DROP INDEX listing_owner;
DROP INDEX listing_archived;
CREATE INDEX listing_archived ON report_listing (ck, is_archived, created DESC, id, status, alert_level, has_flag, mode, type, owner_ck);
CREATE INDEX listing_status ON report_listing (ck, status, id, is_archived, alert_level);
CREATE INDEX listing_alert ON report_listing (ck, alert_level, id, is_archived, status);
CREATE INDEX listing_mode ON report_listing (ck, mode, id, is_archived);
CREATE INDEX listing_type ON report_listing (ck, type, id, is_archived);
CREATE INDEX listing_flag ON report_listing (ck, has_flag, id, is_archived);
CREATE INDEX listing_violations_all ON report_listing (ck, calc_violations_all, id, is_archived);
CREATE INDEX listing_id ON report_listing (ck, id, is_archived);
CREATE INDEX listing_owner ON report_listing (ck, owner_ck, is_archived);
PRAGMA analysis_limit = 1000;
ANALYZE report_listing;
`;
