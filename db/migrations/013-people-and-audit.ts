/**
 * Numbered, append-only: a shipped migration is never edited, a new one is added. Its SQL is
 * written out as it shipped and imports nothing; the live declarations are in db/read-model/.
 *
 * People and the audit trail. Named users sign in at the desk (API keys stay for local tools);
 * each company settles how long a session may stay idle and whether a release of a Critical
 * report needs a second person. Every change log and review entry can name the person who made
 * it, carry the reason for a change to the verdict, and chain to the report's previous entry by
 * hash, so an entry edited behind the service's back is found. The review gains signatures
 * (the signer's meaning and time zone) and withdrawals: a decision the alert changed under.
 *
 * report_reviews is rebuilt because SQLite cannot change a CHECK in place: an entry may now be
 * a withdrawal, and an entry a person signed names no API key. change_log keeps its CHECK:
 * `actor = 'apiKey'` means "through the API", by the person in user_id when one is set.
 */
export default /* sql */ `
CREATE TABLE users (
  id                 TEXT PRIMARY KEY,
  company_id         TEXT NOT NULL REFERENCES companies(id),
  login              TEXT NOT NULL COLLATE NOCASE UNIQUE, -- one desk, one login per person
  name               TEXT NOT NULL,                       -- the printed name a signature shows
  role               TEXT NOT NULL CHECK (role IN ('viewer', 'reviewer', 'approver', 'admin')),
  password_hash      TEXT NOT NULL,                       -- scrypt with its parameters and salt
  failed_sign_ins    INTEGER NOT NULL DEFAULT 0 CHECK (failed_sign_ins >= 0), -- in a row
  locked_at          TEXT,                                -- set at the fifth failure in a row; an admin unlocks
  disabled_at        TEXT,
  password_changed   TEXT NOT NULL,
  created            TEXT NOT NULL
) STRICT;
CREATE INDEX users_company ON users(company_id, login);

-- What happened to each account, for the auditor: created, role or password changed, locked,
-- unlocked, disabled, signed in, a failed sign-in. Who did it: a user, or a key (a local tool,
-- the command line).
CREATE TABLE user_events (
  id          INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id     TEXT NOT NULL,
  kind        TEXT NOT NULL,
  detail      TEXT,
  by_user_id  TEXT,
  by_key_id   TEXT,
  at          TEXT NOT NULL
) STRICT;
CREATE INDEX user_events_user ON user_events(user_id, id);

CREATE TABLE company_settings (
  company_id          TEXT PRIMARY KEY REFERENCES companies(id),
  lock_after_minutes  INTEGER NOT NULL DEFAULT 15 CHECK (lock_after_minutes BETWEEN 1 AND 1440),
  four_eyes           INTEGER NOT NULL DEFAULT 0 CHECK (four_eyes IN (0, 1))
) STRICT, WITHOUT ROWID;

ALTER TABLE change_log ADD COLUMN user_id TEXT;    -- the person, when one was signed in
ALTER TABLE change_log ADD COLUMN user_name TEXT;  -- their printed name when written
ALTER TABLE change_log ADD COLUMN reason TEXT;     -- why, for a change to the verdict
ALTER TABLE change_log ADD COLUMN prev_hash TEXT;  -- the report's previous entry's hash
ALTER TABLE change_log ADD COLUMN hash TEXT;

CREATE TABLE report_reviews_v13 (
  id              INTEGER PRIMARY KEY AUTOINCREMENT,
  label_report_id TEXT NOT NULL,
  company_id      TEXT NOT NULL REFERENCES companies(id),
  kind            TEXT NOT NULL CHECK (kind IN ('comment', 'acknowledgement', 'decision', 'withdrawal')),
  text            TEXT,           -- the comment, the note, the decision's reason, what withdrew a decision
  decision        TEXT CHECK (decision IN ('released', 'rejected', 'onHold')),
  alert_level     INTEGER,        -- the alert acknowledged, or the alert a withdrawal found
  alert_timestamp INTEGER,
  api_key_id      TEXT,           -- the key of a tool; null when a person signed in wrote it
  api_key_name    TEXT,
  user_id         TEXT,           -- the person ...
  user_login      TEXT,           -- ... their login and printed name when written
  user_name       TEXT,
  meaning         TEXT,           -- a signature's meaning: 'Reviewed', 'Approved for release', ...
  zone            TEXT,           -- the signer's time zone, IANA
  at              TEXT NOT NULL,  -- ISO 8601 UTC with ms
  prev_hash       TEXT,
  hash            TEXT,
  CHECK ((kind = 'decision') = (decision IS NOT NULL)),
  CHECK (kind IN ('acknowledgement', 'withdrawal') OR alert_level IS NULL),
  CHECK (kind <> 'acknowledgement' OR alert_level IS NOT NULL),
  CHECK (api_key_id IS NOT NULL OR user_id IS NOT NULL)
) STRICT;
INSERT INTO report_reviews_v13 (id, label_report_id, company_id, kind, text, decision, alert_level, alert_timestamp, api_key_id, api_key_name, at)
  SELECT id, label_report_id, company_id, kind, text, decision, alert_level, alert_timestamp, api_key_id, api_key_name, at FROM report_reviews;
DROP TABLE report_reviews;
ALTER TABLE report_reviews_v13 RENAME TO report_reviews;
CREATE INDEX report_reviews_report ON report_reviews(label_report_id, company_id, id);

-- The entries above have no hash yet: the first open after this migration seals them (in code,
-- as SQLite has no SHA-256) and empties this table.
CREATE TABLE audit_backfill (pending INTEGER NOT NULL) STRICT;
INSERT INTO audit_backfill VALUES (1);
`;
