/**
 * Numbered, append-only: a shipped migration is never edited, a new one is added. Its SQL is
 * written out as it shipped and imports nothing; the live declarations are in db/read-model/.
 */
export default /* sql */ `
-- Webhooks (docs/webhooks.md): the endpoints a company registers, the durable outbox of the
-- messages owed to them, and the log of every delivery attempt.

CREATE TABLE webhooks (
  id                      TEXT PRIMARY KEY,
  company_id              TEXT NOT NULL REFERENCES companies(id),
  url                     TEXT NOT NULL,
  events                  TEXT NOT NULL,  -- JSON array of event types
  description             TEXT NOT NULL,
  enabled                 INTEGER NOT NULL CHECK (enabled IN (0, 1)),
  created                 TEXT NOT NULL,  -- ISO 8601 UTC with ms, like every time below
  disabled_reason         TEXT,           -- why delivery disabled it (410, days of failures); NULL otherwise
  failing_since           TEXT,           -- the first failed attempt since the last success
  -- Kept as given: signing needs the secret itself, unlike an API key, which only needs a hash.
  secret                  TEXT NOT NULL,  -- whsec_ + base64
  previous_secret         TEXT,           -- the secret before the last rotation ...
  previous_secret_expires TEXT            -- ... which signs beside the new one until then
) STRICT;
CREATE INDEX webhooks_company ON webhooks(company_id, created, id);

-- Written in the transaction of the change that causes it: a change that rolls back leaves
-- none, and a committed one is delivered even after a crash.
CREATE TABLE webhook_messages (
  id              TEXT PRIMARY KEY,       -- msg_…: the webhook-id header of every attempt
  webhook_id      TEXT NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
  type            TEXT NOT NULL,
  body            TEXT NOT NULL,          -- the exact text every attempt sends and signs
  created         TEXT NOT NULL,
  status          TEXT NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed')),
  attempts        INTEGER NOT NULL,       -- attempts recorded so far
  next_attempt_at TEXT,                   -- while pending
  -- A worker delivering the message holds it until lease_until; one that dies holding it
  -- (lease_pid no longer runs) or overruns it lets another take the message again.
  lease_until     TEXT,
  lease_pid       INTEGER
) STRICT;
CREATE INDEX webhook_messages_due ON webhook_messages(next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_messages_webhook ON webhook_messages(webhook_id, created);
CREATE INDEX webhook_messages_leased ON webhook_messages(lease_pid) WHERE lease_pid IS NOT NULL;

CREATE TABLE webhook_attempts (
  message_id      TEXT NOT NULL REFERENCES webhook_messages(id) ON DELETE CASCADE,
  attempt         INTEGER NOT NULL,       -- 1 for the first
  webhook_id      TEXT NOT NULL,          -- the message's, for a webhook's deliveries page
  status          TEXT NOT NULL CHECK (status IN ('succeeded', 'failed')),
  response_status INTEGER,                -- NULL when no answer came
  error           TEXT,
  duration_ms     INTEGER NOT NULL,
  at              TEXT NOT NULL,
  next_attempt_at TEXT,                   -- the retry this failure scheduled, if any
  PRIMARY KEY (message_id, attempt)
) STRICT, WITHOUT ROWID;
CREATE INDEX webhook_attempts_webhook ON webhook_attempts(webhook_id, at);
CREATE INDEX webhook_attempts_at ON webhook_attempts(at);
`;
