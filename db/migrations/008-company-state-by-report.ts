/**
 * Numbered, append-only: a shipped migration is never edited, a new one is added. Its SQL is
 * written out as it shipped and imports nothing; the live declarations are in db/read-model/.
 *
 * The per-company flag and archive state by report. Its primary key leads with the company, so
 * without this index SQLite scanned every state of every report both to read one report's
 * states (each PATCH, and each pull of a stored report, reads them before and after) and to find
 * them when a report row is deleted (the cascade of a report replaced whole by sync or an
 * import): on a site of 100 000 reports that is milliseconds per write, for each write.
 */
export default /* sql */ `
CREATE INDEX company_report_state_report ON company_report_state (label_report_id);
`;
