/**
 * Numbered, append-only: a shipped migration is never edited, a new one is added. Its SQL is
 * written out as it shipped and imports nothing; the live declarations are in db/read-model/.
 *
 * Alarms: an alert that rises finds a person. Each company's rules say which reports raise an
 * alarm (a least level, and the list's filter and custom field conditions), who is told first
 * and who next when nobody acknowledges in time, and through which channels. An alarm is
 * written in the transaction of the change that raised it, once per rule, report and level;
 * its e-mails and escalations are jobs of one queue (jobs/README.md), each attempt logged.
 * People gain an e-mail address. The SMTP relay's settings are the desk's; its password is
 * never stored here (the running service holds it, as it holds the sync key).
 */
export default /* sql */ `
ALTER TABLE users ADD COLUMN email TEXT;

CREATE TABLE alarm_rules (
  id                      TEXT PRIMARY KEY,
  company_id              TEXT NOT NULL REFERENCES companies(id),
  name                    TEXT NOT NULL,
  min_level               INTEGER NOT NULL CHECK (min_level IN (1, 2)),
  filter                  TEXT NOT NULL DEFAULT '',   -- the list's filter grammar
  custom_fields           TEXT NOT NULL DEFAULT '',   -- the list's customFields grammar
  steps                   TEXT NOT NULL,              -- JSON [{users: [id], emails: [address]}]: first told, then each escalation
  channels                TEXT NOT NULL,              -- JSON subset of ["desktop", "email", "webhook"]
  escalate_after_minutes  INTEGER CHECK (escalate_after_minutes IS NULL OR escalate_after_minutes BETWEEN 1 AND 10080),
  enabled                 INTEGER NOT NULL DEFAULT 1 CHECK (enabled IN (0, 1)),
  created                 TEXT NOT NULL
) STRICT;
CREATE INDEX alarm_rules_company ON alarm_rules(company_id, enabled);

-- No foreign key to the rule or the report: an alarm stays in the record after either goes.
CREATE TABLE alarms (
  id               TEXT PRIMARY KEY,
  rule_id          TEXT NOT NULL,
  company_id       TEXT NOT NULL,
  label_report_id  TEXT NOT NULL,
  label_reference  TEXT NOT NULL,
  level            INTEGER NOT NULL CHECK (level IN (1, 2)),
  alert_timestamp  INTEGER NOT NULL,
  excursion        TEXT NOT NULL,               -- the excursion in words, when the alarm was raised
  cause            TEXT NOT NULL,               -- tap, edit, sync, import, demo
  step             INTEGER NOT NULL DEFAULT 0,  -- the rule's step told last
  escalated_at     TEXT,
  created          TEXT NOT NULL,
  UNIQUE (rule_id, label_report_id, level)
) STRICT;
CREATE INDEX alarms_company ON alarms(company_id, created);
CREATE INDEX alarms_report ON alarms(label_report_id, company_id);

-- The queue's jobs: an e-mail to the people of a step, an escalation due, a daily digest.
CREATE TABLE alarm_jobs (
  id               TEXT PRIMARY KEY,             -- an e-mail's Message-ID is made of it: the same at every attempt
  kind             TEXT NOT NULL CHECK (kind IN ('email', 'escalation', 'digest')),
  alarm_id         TEXT REFERENCES alarms(id),
  company_id       TEXT NOT NULL,
  step             INTEGER NOT NULL DEFAULT 0,
  recipients       TEXT NOT NULL DEFAULT '[]',   -- JSON addresses
  status           TEXT NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed', 'cancelled')),
  attempts         INTEGER NOT NULL DEFAULT 0,
  next_attempt_at  TEXT NOT NULL,
  lease_until      TEXT,
  lease_pid        INTEGER,
  created          TEXT NOT NULL
) STRICT;
CREATE INDEX alarm_jobs_due ON alarm_jobs(status, next_attempt_at);
CREATE INDEX alarm_jobs_alarm ON alarm_jobs(alarm_id);

-- The delivery log: each attempt, with the relay's reply or the error.
CREATE TABLE alarm_attempts (
  job_id           TEXT NOT NULL REFERENCES alarm_jobs(id) ON DELETE CASCADE,
  attempt          INTEGER NOT NULL,
  status           TEXT NOT NULL CHECK (status IN ('succeeded', 'failed')),
  reply            TEXT,
  error            TEXT,
  duration_ms      INTEGER,
  at               TEXT NOT NULL,
  next_attempt_at  TEXT,
  PRIMARY KEY (job_id, attempt)
) STRICT;

-- Who was told of an alarm, when, and through which channel.
CREATE TABLE alarm_notices (
  id         INTEGER PRIMARY KEY AUTOINCREMENT,
  alarm_id   TEXT NOT NULL REFERENCES alarms(id),
  step       INTEGER NOT NULL,
  channel    TEXT NOT NULL CHECK (channel IN ('desktop', 'email', 'webhook')),
  recipient  TEXT NOT NULL,
  at         TEXT NOT NULL
) STRICT;
CREATE INDEX alarm_notices_alarm ON alarm_notices(alarm_id, id);

CREATE TABLE alarm_settings (
  company_id   TEXT PRIMARY KEY REFERENCES companies(id),
  zone         TEXT NOT NULL DEFAULT 'UTC',
  quiet_from   TEXT,                           -- HH:MM in zone; e-mails wait until quiet_to
  quiet_to     TEXT,
  digest_at    TEXT,                           -- HH:MM in zone; null: no digest
  digest_to    TEXT NOT NULL DEFAULT '[]',     -- JSON addresses
  CHECK ((quiet_from IS NULL) = (quiet_to IS NULL))
) STRICT, WITHOUT ROWID;

-- The desk's relay. No password column: the password lives in the running service's memory.
CREATE TABLE smtp_settings (
  id            INTEGER PRIMARY KEY CHECK (id = 1),
  host          TEXT NOT NULL,
  port          INTEGER NOT NULL CHECK (port BETWEEN 1 AND 65535),
  security      TEXT NOT NULL CHECK (security IN ('none', 'starttls', 'tls')),
  user          TEXT,
  from_address  TEXT NOT NULL,
  app_url       TEXT
) STRICT;
`;
