/**
 * Numbered, append-only: a shipped migration is never edited, a new one is added. Its SQL is
 * written out as it shipped and imports nothing; the live declarations are in db/read-model/.
 */
export default /* sql */ `
-- Every change to a label report, written in the transaction of the change itself: the report's
-- audit trail, and the feed that sync and webhook delivery read behind their own checkpoints.
-- No foreign key to label_reports: the history of a removed report stays readable.
CREATE TABLE change_log (
  seq             INTEGER PRIMARY KEY AUTOINCREMENT, -- never reused, so a checkpoint stays valid
  label_report_id TEXT NOT NULL,
  kind            TEXT NOT NULL CHECK (kind IN ('create', 'update', 'remove')),
  changes         TEXT NOT NULL,  -- JSON [{field, companyId?, old, new}]; [] for create and remove
  actor           TEXT NOT NULL CHECK (actor IN ('apiKey', 'import', 'demo', 'sync')),
  api_key_id      TEXT,           -- the key's id when actor is apiKey
  companies       TEXT NOT NULL,  -- JSON array of the ids of the companies that can see the report
  at              TEXT NOT NULL   -- ISO 8601 UTC with ms
) STRICT;
CREATE INDEX change_log_report ON change_log(label_report_id, seq);
`;
