/**
 * Numbered, append-only: a shipped migration is never edited, a new one is added. Its SQL is
 * written out as it shipped and imports nothing; the live declarations are in db/read-model/.
 *
 * People's sessions (docs/review-and-audit.md#sessions), their password policy
 * (docs/review-and-audit.md#password-policy), and who viewed, printed or exported which report.
 *
 * A session is kept so that it survives a restart; the token itself goes to the client and only
 * its SHA-256 is kept here, so a copy of the file opens no session. Each company's password
 * policy joins its settings, each rule with its default. The passwords a person had before are
 * kept as their scrypt hashes, for the rule against reusing the last ones. Every view, print and
 * export of a report is one row of report_access, chained by hash like the change log, in one
 * chain for the whole table (by id).
 */
export default /* sql */ `
CREATE TABLE user_sessions (
  token_hash  TEXT PRIMARY KEY,          -- SHA-256 hex of the token the client holds
  user_id     TEXT NOT NULL,
  created     TEXT NOT NULL,             -- ISO 8601 UTC with ms: the absolute expiry counts from it
  last_seen   TEXT NOT NULL,             -- the person's last own act: the idle expiry and lock count from it
  locked      INTEGER NOT NULL DEFAULT 0 CHECK (locked IN (0, 1)) -- locked after inactivity
) STRICT, WITHOUT ROWID;
CREATE INDEX user_sessions_user ON user_sessions(user_id);

-- Why the person must choose a new password before doing anything else; null when nothing is due.
ALTER TABLE users ADD COLUMN password_change_due TEXT CHECK (password_change_due IN ('firstSignIn', 'reset'));

-- The passwords a person had before the current one, newest last.
CREATE TABLE password_history (
  id        INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id   TEXT NOT NULL,
  hash      TEXT NOT NULL,               -- scrypt with its parameters and salt, as users.password_hash was
  replaced  TEXT NOT NULL                -- when it stopped being the password
) STRICT;
CREATE INDEX password_history_user ON password_history(user_id, id);

ALTER TABLE company_settings ADD COLUMN password_expiry_days INTEGER NOT NULL DEFAULT 90 CHECK (password_expiry_days BETWEEN 0 AND 3650); -- 0: never
ALTER TABLE company_settings ADD COLUMN password_history INTEGER NOT NULL DEFAULT 5 CHECK (password_history BETWEEN 0 AND 24);
ALTER TABLE company_settings ADD COLUMN password_min_length INTEGER NOT NULL DEFAULT 10 CHECK (password_min_length BETWEEN 8 AND 128);
ALTER TABLE company_settings ADD COLUMN change_at_first_sign_in INTEGER NOT NULL DEFAULT 1 CHECK (change_at_first_sign_in IN (0, 1));
ALTER TABLE company_settings ADD COLUMN change_after_reset INTEGER NOT NULL DEFAULT 1 CHECK (change_after_reset IN (0, 1));
ALTER TABLE company_settings ADD COLUMN session_idle_hours INTEGER NOT NULL DEFAULT 8 CHECK (session_idle_hours BETWEEN 1 AND 720);
ALTER TABLE company_settings ADD COLUMN session_max_hours INTEGER NOT NULL DEFAULT 12 CHECK (session_max_hours BETWEEN 1 AND 720);

CREATE TABLE report_access (
  id              INTEGER PRIMARY KEY AUTOINCREMENT,
  at              TEXT NOT NULL,         -- ISO 8601 UTC with ms
  label_report_id TEXT,                  -- null for an export of a list
  company_id      TEXT,                  -- the caller's company; null for the command line
  kind            TEXT NOT NULL CHECK (kind IN ('view', 'print', 'export')),
  format          TEXT NOT NULL,         -- 'json', 'print', 'pdf', 'readingsCsv', 'historyCsv', 'listCsv'
  detail          TEXT,                  -- a list export's query
  actor           TEXT NOT NULL CHECK (actor IN ('person', 'apiKey', 'commandLine')),
  api_key_id      TEXT,
  api_key_name    TEXT,
  user_id         TEXT,
  user_login      TEXT,
  user_name       TEXT,
  prev_hash       TEXT,                  -- the hash of the entry before (by id); null for the first
  hash            TEXT NOT NULL
) STRICT;
CREATE INDEX report_access_report ON report_access(label_report_id, id);
`;
