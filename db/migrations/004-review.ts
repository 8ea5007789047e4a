/**
 * Numbered, append-only: a shipped migration is never edited, a new one is added. Its SQL is
 * written out as it shipped and imports nothing; the live declarations are in db/read-model/.
 */
export default /* sql */ `
-- The review of a label report, per company: comments, acknowledgements of the alert and
-- release decisions, each kept as written. The newest acknowledgement and the newest decision
-- count; the earlier ones stay as the proof of what was decided when.
-- No foreign key to label_reports: an import replaces a report by deleting and inserting it,
-- and a report's review must outlive that (and its removal, as the change log does).
CREATE TABLE report_reviews (
  id              INTEGER PRIMARY KEY AUTOINCREMENT, -- never reused: the order entries were written in
  label_report_id TEXT NOT NULL,
  company_id      TEXT NOT NULL REFERENCES companies(id),
  kind            TEXT NOT NULL CHECK (kind IN ('comment', 'acknowledgement', 'decision')),
  text            TEXT,           -- the comment, the acknowledgement's note or the decision's reason
  decision        TEXT CHECK (decision IN ('released', 'rejected', 'onHold')),
  alert_level     INTEGER,        -- the alert an acknowledgement acknowledged ...
  alert_timestamp INTEGER,        -- ... and since when it stood
  api_key_id      TEXT NOT NULL,
  api_key_name    TEXT,           -- the key's name when written: the proof does not change with the key
  at              TEXT NOT NULL,  -- ISO 8601 UTC with ms
  CHECK ((kind = 'decision') = (decision IS NOT NULL)),
  CHECK ((kind = 'acknowledgement') = (alert_level IS NOT NULL))
) STRICT;
CREATE INDEX report_reviews_report ON report_reviews(label_report_id, company_id, id);
`;
