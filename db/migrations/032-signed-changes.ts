/**
 * Numbered, append-only: a shipped migration is never edited, a new one is added. Its SQL is
 * written out as it shipped and imports nothing.
 *
 * Signed verdict changes (docs/review-and-audit.md#signed-verdict-changes): a change that lowers
 * a report's alert, or moves the alert of a report awaiting review, is asked for as a request and
 * applied once a person who may release approves it with their signature. The request is the
 * workflow's record; the change it makes is logged in the change log like every change, with
 * its signature (meaning, zone, signer, requester) in the new `signature` column, which the
 * report's hash chain covers (a column null in the old rows leaves their hashes as they were).
 */
export default /* sql */ `
CREATE TABLE change_requests (
  id                 INTEGER PRIMARY KEY AUTOINCREMENT, -- never reused
  label_report_id    TEXT NOT NULL,
  company_id         TEXT NOT NULL REFERENCES companies(id),
  patch              TEXT NOT NULL,    -- JSON: the /local PATCH body asked for
  values_before      TEXT NOT NULL,    -- JSON [[field, value]]: what the fields it sets held when asked
  reason             TEXT NOT NULL,
  meaning            TEXT NOT NULL,    -- what the approval signs: "Approved change of limits"
  alert_before       INTEGER NOT NULL, -- the alert level when asked ...
  alert_after        INTEGER NOT NULL, -- ... and the level the change gave then
  requested_key_id   TEXT,             -- the key of a tool that asked; null when a person did
  requested_key_name TEXT,
  requested_user_id  TEXT,
  requested_login    TEXT,
  requested_name     TEXT,
  requested_at       TEXT NOT NULL,    -- ISO 8601 UTC with ms, like every time below
  state              TEXT NOT NULL CHECK (state IN ('pending', 'approved', 'declined')),
  closed_user_id     TEXT,             -- who approved or declined it
  closed_login       TEXT,
  closed_name        TEXT,
  closed_zone        TEXT,             -- the approver's time zone (IANA)
  closed_note        TEXT,             -- why it was declined
  closed_at          TEXT,
  change_seq         INTEGER,          -- the change log entry the approval wrote
  CHECK ((state = 'pending') = (closed_at IS NULL))
) STRICT;
CREATE INDEX change_requests_open ON change_requests(company_id, state, id);
CREATE INDEX change_requests_report ON change_requests(label_report_id, company_id, id);

ALTER TABLE change_log ADD COLUMN signature TEXT; -- JSON {meaning, zone, signer, requester, requestId} of a signed change
`;
