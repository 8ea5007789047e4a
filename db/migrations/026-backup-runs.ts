/**
 * Numbered, append-only: a shipped migration is never edited, a new one is added. Its SQL is
 * written out as it shipped and imports nothing; the live declarations are in db/read-model/.
 *
 * Backups (docs/operations.md#backups-and-restore): one row per backup taken of this database,
 * with what its verification found. `ok` is 1 only when the copy opened read-only passed
 * `PRAGMA integrity_check`, its audit chains verified and its counts equalled the source's at
 * the backup's moment; else `failure` says what went wrong. `counts` is JSON (reports, people,
 * review entries, change log entries, alarms, webhooks, …), `reason` why it was taken
 * (`schedule`, `manual`, `command`, `migration`, `import`, `restore`).
 */
export default /* sql */ `
CREATE TABLE backup_runs (
  id          INTEGER PRIMARY KEY,
  at          TEXT NOT NULL,
  file        TEXT NOT NULL,
  bytes       INTEGER,
  reason      TEXT NOT NULL,
  ok          INTEGER NOT NULL CHECK (ok IN (0, 1)),
  failure     TEXT,
  counts      TEXT NOT NULL DEFAULT '{}',
  sha256      TEXT
) STRICT;
CREATE INDEX backup_runs_at ON backup_runs(at);
`;
