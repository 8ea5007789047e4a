/**
 * Numbered, append-only: a shipped migration is never edited, a new one is added. Its SQL is
 * written out as it shipped and imports nothing; the live declarations are in db/read-model/.
 *
 * `listing_archived` (migration 009: the company, the archive state, the default order and the
 * columns the browser's filters test) also carries the two texts the report browser searches,
 * the reference and the label's sequence code. A search that many reports meet (`po-12` at a
 * million reports: about one in a hundred) then walks the default order inside this index and
 * tests each entry's text without reading its listing row, stopping at the page (see
 * CompiledListQuery.textWalk in db/query/compile.ts): at a million reports, about 10 000 index
 * entries, where collecting the search's candidates from the trigram index reads a listing row
 * for each of 10 000 or more and sorts them.
 *
 * The index is analysed at once: without statistics the planner takes any index holding every
 * column a query names as the cheaper read, and would answer a search's count by walking all of
 * this one instead of looking up the trigram index's few candidates.
 */
export default /* sql */ `
DROP INDEX listing_archived;
CREATE INDEX listing_archived ON report_listing (ck, is_archived, created DESC, id, status, alert_level, has_flag, mode, type, owner_ck, label_reference, label_sequence_code);
PRAGMA analysis_limit = 1000;
ANALYZE listing_archived;
`;
