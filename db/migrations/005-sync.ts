/**
 * Numbered, append-only: a shipped migration is never edited, a new one is added. Its SQL is
 * written out as it shipped and imports nothing; the live declarations are in db/read-model/.
 */
export default /* sql */ `
-- Sync with a remote instance (docs/sync.md). The remote key is never stored here.

-- Where to sync from, and how far the pull has come. One row.
CREATE TABLE sync_settings (
  id                INTEGER PRIMARY KEY CHECK (id = 1),
  remote_url        TEXT,           -- NULL: sync is off
  company_id        TEXT,           -- the remote key's company, once known
  cursor_updated    TEXT,           -- the highest remote updated applied ...
  cursor_ids        TEXT NOT NULL DEFAULT '[]', -- ... and the ids applied at it (JSON array)
  last_reconcile_at TEXT
) STRICT;
INSERT INTO sync_settings (id) VALUES (1);

-- What the worker last said of itself, for 'labeldesk sync status' from another process. One row.
CREATE TABLE sync_state (
  id                 INTEGER PRIMARY KEY CHECK (id = 1),
  state              TEXT NOT NULL,
  last_success_at    TEXT,
  last_error_at      TEXT,
  last_error_message TEXT,
  next_attempt_at    TEXT
) STRICT;
INSERT INTO sync_state (id, state) VALUES (1, 'off');

-- The reports that mirror the remote, with the remote's updated last applied. No foreign key:
-- an import replaces a report by deleting it first, and the mirror must not forget it then.
CREATE TABLE sync_mirror (
  label_report_id TEXT PRIMARY KEY,
  remote_updated  TEXT            -- NULL: to fetch again at the next reconciliation
) STRICT, WITHOUT ROWID;

-- Local edits not yet sent: one entry per report, per field the value before the first pending
-- edit (base) and the newest one. Written in the transaction of the local edit.
CREATE TABLE sync_outbox (
  label_report_id TEXT PRIMARY KEY,
  fields          TEXT NOT NULL,    -- JSON {field: {base, value}}
  since           TEXT NOT NULL,    -- the first pending edit
  version         INTEGER NOT NULL  -- moves with every edit merged in, so a push knows what it sent
) STRICT;
CREATE INDEX sync_outbox_since ON sync_outbox(since);

CREATE TABLE sync_conflicts (
  id              TEXT PRIMARY KEY,
  label_report_id TEXT NOT NULL,
  field           TEXT NOT NULL,
  kind            TEXT NOT NULL CHECK (kind IN ('field', 'gone')),
  base            TEXT NOT NULL,    -- JSON values
  local           TEXT NOT NULL,
  remote          TEXT NOT NULL,
  at              TEXT NOT NULL
) STRICT;
CREATE INDEX sync_conflicts_at ON sync_conflicts(at, id);

-- Edits the remote refused (400, 404, 409, 422, a role's 403), with its answer.
CREATE TABLE sync_dead_letters (
  id              TEXT PRIMARY KEY,
  label_report_id TEXT NOT NULL,
  fields          TEXT NOT NULL,    -- JSON {field: {base, value}}, as the outbox held them
  status          INTEGER NOT NULL,
  message         TEXT NOT NULL,
  at              TEXT NOT NULL
) STRICT;
CREATE INDEX sync_dead_letters_at ON sync_dead_letters(at, id);

-- A pull pages by updated (docs/sync.md): on a remote that is a LabelDesk, each page is one
-- range of this index instead of a sort of every report.
CREATE INDEX label_reports_updated ON label_reports(updated, id);
`;
