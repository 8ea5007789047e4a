/**
 * Numbered, append-only: a shipped migration is never edited, a new one is added. Its SQL is
 * written out as it shipped and imports nothing; the live declarations are in db/read-model/.
 */
export default /* sql */ `
-- Companies, their API keys, label reports with their raw datapoints and stored figures,
-- access entries, per-company state and custom field values.

CREATE TABLE companies (
  id          TEXT PRIMARY KEY,
  name        TEXT NOT NULL,
  short_code  TEXT NOT NULL
) STRICT;

CREATE TABLE api_keys (
  id          TEXT PRIMARY KEY,
  key_hash    TEXT NOT NULL UNIQUE,
  company_id  TEXT NOT NULL REFERENCES companies(id),
  name        TEXT,
  permissions TEXT NOT NULL,            -- JSON array of permission names
  created     TEXT NOT NULL,
  revoked     TEXT                      -- ISO time of revocation, NULL while valid
) STRICT;

CREATE TABLE label_reports (
  id                    TEXT PRIMARY KEY,
  created               TEXT NOT NULL,  -- canonical ISO 8601 UTC with ms: sorts as instants
  updated               TEXT NOT NULL,
  owner_company_id      TEXT NOT NULL REFERENCES companies(id),
  sub_company           TEXT,           -- JSON object or NULL
  sub_company_id        TEXT GENERATED ALWAYS AS (json_extract(sub_company, '$.id')) VIRTUAL,
  user_info             TEXT,           -- JSON
  label_preset          TEXT,           -- JSON
  label_uid             TEXT NOT NULL,
  label_sequence_code   TEXT NOT NULL,
  label_type            TEXT NOT NULL,
  label_name            TEXT NOT NULL,
  firmware_version      TEXT NOT NULL,
  firmware_api_version  TEXT NOT NULL,
  battery_life_days     REAL,
  mode                  TEXT NOT NULL,
  type                  TEXT NOT NULL,
  status                TEXT NOT NULL,
  label_reference       TEXT NOT NULL DEFAULT '',
  interval              INTEGER NOT NULL,
  config_time           INTEGER NOT NULL,
  start_delay           INTEGER NOT NULL,
  running_time          INTEGER NOT NULL,
  min_temperature       REAL NOT NULL,
  max_temperature       REAL NOT NULL,
  min_humidity          REAL,
  max_humidity          REAL,
  alerts_config         TEXT,           -- JSON or NULL for the default rules
  number_of_taps        INTEGER NOT NULL,
  data_is_incomplete    INTEGER NOT NULL DEFAULT 0,
  reported_current_time INTEGER,
  reported_available    INTEGER,
  reported_measurements INTEGER,
  trim_start            INTEGER,
  trim_end              INTEGER,
  -- Stored results of the sense engine, so that listing never recalculates.
  calculated            TEXT NOT NULL,  -- JSON SenseFigures (without datapoints)
  trimmed               TEXT,           -- JSON SenseFigures or NULL
  minimal               TEXT NOT NULL,  -- JSON MinimalSenseData
  alert_level           INTEGER NOT NULL,
  alert_timestamp       INTEGER NOT NULL
) STRICT;

CREATE INDEX label_reports_created ON label_reports(created, id);
-- Text searches (like, ilike, includes) scan these small indexes instead of the table.
CREATE INDEX label_reports_reference ON label_reports(label_reference);
CREATE INDEX label_reports_sequence_code ON label_reports(label_sequence_code);
CREATE INDEX label_reports_label_uid ON label_reports(label_uid);
CREATE INDEX label_reports_status_alert ON label_reports(status, alert_level, created);
CREATE INDEX label_reports_owner ON label_reports(owner_company_id);

-- Raw datapoints live apart so that scans of label_reports stay small and fast.
CREATE TABLE report_datapoints (
  label_report_id TEXT PRIMARY KEY REFERENCES label_reports(id) ON DELETE CASCADE,
  datapoints      BLOB NOT NULL         -- columnar, see datapoint-codec.ts
) STRICT;

CREATE TABLE access (
  id              TEXT PRIMARY KEY,
  label_report_id TEXT NOT NULL REFERENCES label_reports(id) ON DELETE CASCADE,
  company_id      TEXT NOT NULL REFERENCES companies(id),
  role            TEXT NOT NULL CHECK (role IN ('owner', 'editor', 'viewer')),
  UNIQUE (label_report_id, company_id)
) STRICT;
CREATE INDEX access_company ON access(company_id, label_report_id);

CREATE TABLE company_report_state (
  company_id      TEXT NOT NULL REFERENCES companies(id),
  label_report_id TEXT NOT NULL REFERENCES label_reports(id) ON DELETE CASCADE,
  has_flag        INTEGER NOT NULL DEFAULT 0,
  is_archived     INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (company_id, label_report_id)
) STRICT, WITHOUT ROWID;

CREATE TABLE custom_field_values (
  label_report_id TEXT NOT NULL REFERENCES label_reports(id) ON DELETE CASCADE,
  custom_field_id TEXT NOT NULL,
  value           TEXT NOT NULL,        -- JSON: string, number or array of them
  UNIQUE (label_report_id, custom_field_id)
) STRICT;
CREATE INDEX custom_field_values_field ON custom_field_values(custom_field_id);
`;
