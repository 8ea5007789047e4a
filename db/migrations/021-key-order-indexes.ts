/**
 * Numbered, append-only: a shipped migration is never edited, a new one is added.
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
import { KEY_ORDER_INDEXES, REBUILT_COUNT_INDEXES } from '../read-model/listing-indexes';

export default /* sql */ `
${KEY_ORDER_INDEXES.map(([name, column]) => `CREATE INDEX ${name} ON report_listing (ck, ${column}, id, is_archived);`).join('\n')}
DROP INDEX listing_owner;
CREATE INDEX listing_owner ON report_listing (ck, owner_ck, id, is_archived);
${REBUILT_COUNT_INDEXES.map(([name, column]) => `DROP INDEX ${name};\nCREATE INDEX ${name} ON report_listing (ck, ${column}, id, is_archived, created);`).join('\n')}
PRAGMA analysis_limit = 1000;
ANALYZE report_listing;
`;
