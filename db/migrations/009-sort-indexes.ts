/**
 * Numbered, append-only: a shipped migration is never edited, a new one is added.
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
const REPLACED = ['listing_status_alert', 'listing_alert', 'listing_mode', 'listing_type', 'listing_flag', 'listing_owner', 'listing_archived'];

/** After the company: the column, the tiebreak, the archive state, then what else the index carries. */
const BY_VALUE: readonly (readonly [string, string, ...string[]])[] = [
  ['listing_status', 'status', 'alert_level'],
  ['listing_alert', 'alert_level', 'status'],
  ['listing_mode', 'mode'],
  ['listing_type', 'type'],
  ['listing_flag', 'has_flag'],
  ['listing_violations_all', 'calc_violations_all'],
];

export default /* sql */ `
${REPLACED.map((name) => `DROP INDEX ${name};`).join('\n')}
CREATE INDEX listing_archived ON report_listing (ck, is_archived, created DESC, id, status, alert_level, has_flag, mode, type, owner_ck);
${BY_VALUE.map(([name, column, ...carried]) => `CREATE INDEX ${name} ON report_listing (${['ck', column, 'id', 'is_archived', ...carried].join(', ')});`).join('\n')}
CREATE INDEX listing_id ON report_listing (ck, id, is_archived);
CREATE INDEX listing_owner ON report_listing (ck, owner_ck, is_archived);
PRAGMA analysis_limit = 1000;
ANALYZE report_listing;
`;
