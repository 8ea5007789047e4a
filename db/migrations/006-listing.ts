/**
 * Numbered, append-only: a shipped migration is never edited, a new one is added. Its SQL is
 * written out as it shipped and imports nothing; the live declarations are in db/read-model/.
 *
 * A layout made for listing. `label_reports` keeps the whole report (wide JSON figures; the
 * datapoints stay in report_datapoints); beside it, SQLite itself keeps in step:
 * - integer keys for report and company ids, so the listing indexes hold small numbers;
 * - `report_listing`: one narrow row per (company, report) the company can see, with every
 *   allow-listed scalar of the list query and that company's flag and archive state, under
 *   indexes that lead with the company: a list query and its count read one company's range;
 * - `report_text`: a trigram index of the searchable texts, which narrows `like`, `ilike` and
 *   `includes` to the reports holding the pattern's literal runs;
 * - `custom_field_elements`: each custom field value as typed elements (an array gives one per
 *   element), so a custom field condition is an index search instead of JSON parsing.
 * `custom_field_values`, `access` and `company_report_state` stay the source of truth: the
 * triggers below derive everything here from them in the transaction that writes them, whatever
 * the order of the writes.
 */
export default /* sql */ `
-- Keys are never deleted: a report replaced by an import keeps its key.
CREATE TABLE report_keys (
  rk        INTEGER PRIMARY KEY,
  report_id TEXT NOT NULL UNIQUE
) STRICT;
CREATE TABLE company_keys (
  ck         INTEGER PRIMARY KEY,
  company_id TEXT NOT NULL UNIQUE
) STRICT;

CREATE TABLE report_listing (
  rk          INTEGER NOT NULL,
  ck          INTEGER NOT NULL,        -- the company that sees the report
  id          TEXT NOT NULL,           -- the report's id: the tiebreak of every order
  owner_ck    INTEGER NOT NULL,
  has_flag    INTEGER NOT NULL,        -- this company's own state
  is_archived INTEGER NOT NULL,
  created TEXT NOT NULL,
  updated TEXT NOT NULL,
  sub_company_id ANY,
  label_uid TEXT NOT NULL,
  label_sequence_code TEXT NOT NULL,
  label_type TEXT NOT NULL,
  label_name TEXT NOT NULL,
  firmware_version TEXT NOT NULL,
  firmware_api_version TEXT NOT NULL,
  mode TEXT NOT NULL,
  type TEXT NOT NULL,
  status TEXT NOT NULL,
  label_reference TEXT NOT NULL,
  number_of_taps INTEGER NOT NULL,
  data_is_incomplete INTEGER NOT NULL,
  interval INTEGER NOT NULL,
  config_time INTEGER NOT NULL,
  start_delay INTEGER NOT NULL,
  running_time INTEGER NOT NULL,
  min_temperature REAL NOT NULL,
  max_temperature REAL NOT NULL,
  min_humidity REAL,
  max_humidity REAL,
  alert_level INTEGER NOT NULL,
  alert_timestamp INTEGER NOT NULL,
  calc_datapoints_read ANY,
  calc_datapoints_available ANY,
  calc_measurements_occurred ANY,
  calc_start_time ANY,
  calc_current_time ANY,
  calc_elapsed_time ANY,
  calc_violations_temperature ANY,
  calc_violations_humidity ANY,
  calc_violations_all ANY,
  calc_violation_duration_temperature ANY,
  calc_violation_duration_humidity ANY,
  calc_violation_duration_all ANY,
  calc_attained_min_temperature ANY,
  calc_attained_max_temperature ANY,
  calc_average_temperature ANY,
  calc_degree_hour ANY,
  calc_mean_kinetic_temperature ANY,
  -- The company's rows lie together: a filter no index serves reads one range of the table.
  PRIMARY KEY (ck, rk)
) STRICT, WITHOUT ROWID;

CREATE VIRTUAL TABLE report_text USING fts5(
  label_reference, label_uid, label_sequence_code, label_name,
  content = '', contentless_delete = 1, tokenize = 'trigram case_sensitive 0'
);

CREATE TABLE custom_field_elements (
  rk    INTEGER NOT NULL,
  field TEXT NOT NULL,
  elem  INTEGER NOT NULL,              -- the element's json_each id within the value
  text  TEXT,                          -- a text element
  num   ANY,                           -- a number element, integer or real as stored
  PRIMARY KEY (rk, field, elem)
) STRICT, WITHOUT ROWID;

INSERT INTO report_keys (report_id) SELECT id FROM label_reports ORDER BY created, id;
INSERT OR IGNORE INTO company_keys (company_id)
  SELECT id FROM companies UNION SELECT company_id FROM access UNION SELECT owner_company_id FROM label_reports;
INSERT INTO report_listing (rk, ck, id, owner_ck, has_flag, is_archived, created, updated, sub_company_id, label_uid, label_sequence_code, label_type, label_name, firmware_version, firmware_api_version, mode, type, status, label_reference, number_of_taps, data_is_incomplete, interval, config_time, start_delay, running_time, min_temperature, max_temperature, min_humidity, max_humidity, alert_level, alert_timestamp, calc_datapoints_read, calc_datapoints_available, calc_measurements_occurred, calc_start_time, calc_current_time, calc_elapsed_time, calc_violations_temperature, calc_violations_humidity, calc_violations_all, calc_violation_duration_temperature, calc_violation_duration_humidity, calc_violation_duration_all, calc_attained_min_temperature, calc_attained_max_temperature, calc_average_temperature, calc_degree_hour, calc_mean_kinetic_temperature)
    SELECT rk.rk, ck.ck, r.id, oc.ck, COALESCE(s.has_flag, 0), COALESCE(s.is_archived, 0),
           r.created, r.updated, json_extract(r.sub_company, '$.id'), r.label_uid, r.label_sequence_code, r.label_type, r.label_name, r.firmware_version, r.firmware_api_version, r.mode, r.type, r.status, r.label_reference, r.number_of_taps, r.data_is_incomplete, r.interval, r.config_time, r.start_delay, r.running_time, r.min_temperature, r.max_temperature, r.min_humidity, r.max_humidity, r.alert_level, r.alert_timestamp, json_extract(r.calculated, '$.numberOfDatapointsRead'), json_extract(r.calculated, '$.numberOfDatapointsAvailable'), json_extract(r.calculated, '$.numberOfMeasurementsOccurred'), json_extract(r.calculated, '$.startTime'), json_extract(r.calculated, '$.currentTime'), json_extract(r.calculated, '$.elapsedTime'), json_extract(r.calculated, '$.numberOfViolations.temperature'), json_extract(r.calculated, '$.numberOfViolations.humidity'), json_extract(r.calculated, '$.numberOfViolations.all'), json_extract(r.calculated, '$.durationOfViolations.temperature'), json_extract(r.calculated, '$.durationOfViolations.humidity'), json_extract(r.calculated, '$.durationOfViolations.all'), json_extract(r.calculated, '$.attainedValues.minTemperature'), json_extract(r.calculated, '$.attainedValues.maxTemperature'), json_extract(r.calculated, '$.analysedValues.temperature.average'), json_extract(r.calculated, '$.analysedValues.temperature.degreeHour'), json_extract(r.calculated, '$.analysedValues.temperature.meanKineticTemperature')
    FROM access a
    JOIN label_reports r ON r.id = a.label_report_id
    JOIN report_keys rk ON rk.report_id = r.id
    JOIN company_keys ck ON ck.company_id = a.company_id
    JOIN company_keys oc ON oc.company_id = r.owner_company_id
    LEFT JOIN company_report_state s ON s.label_report_id = a.label_report_id AND s.company_id = a.company_id
    WHERE 1;
INSERT INTO report_text (rowid, label_reference, label_uid, label_sequence_code, label_name)
    SELECT rk.rk, r.label_reference, r.label_uid, r.label_sequence_code, r.label_name
    FROM label_reports r JOIN report_keys rk ON rk.report_id = r.id WHERE 1;
INSERT INTO custom_field_elements (rk, field, elem, text, num)
    SELECT rk.rk, v.custom_field_id, e.id,
           CASE WHEN e.type = 'text' THEN e.value END,
           CASE WHEN e.type IN ('integer', 'real') THEN e.value END
    FROM custom_field_values v
    JOIN report_keys rk ON rk.report_id = v.label_report_id,
    json_each(v.value) e
    WHERE e.type IN ('text', 'integer', 'real') AND 1;

CREATE INDEX listing_report ON report_listing (rk);
CREATE INDEX listing_created ON report_listing (ck, created DESC, id);
CREATE INDEX listing_updated ON report_listing (ck, updated DESC, id);
CREATE INDEX listing_status_alert ON report_listing (ck, status, alert_level, created DESC, id);
CREATE INDEX listing_alert ON report_listing (ck, alert_level, created DESC, id);
CREATE INDEX listing_mode ON report_listing (ck, mode, created DESC, id);
CREATE INDEX listing_type ON report_listing (ck, type, created DESC, id);
CREATE INDEX listing_flag ON report_listing (ck, has_flag, created DESC, id);
CREATE INDEX listing_archived ON report_listing (ck, is_archived, created DESC, id);
CREATE INDEX listing_owner ON report_listing (ck, owner_ck, created DESC, id);
CREATE INDEX custom_field_elements_text ON custom_field_elements (field, text) WHERE text IS NOT NULL;
CREATE INDEX custom_field_elements_num ON custom_field_elements (field, num) WHERE num IS NOT NULL;

-- The listing replaces these: text searches and the status filter read report_listing now.
DROP INDEX label_reports_reference;
DROP INDEX label_reports_sequence_code;
DROP INDEX label_reports_label_uid;
DROP INDEX label_reports_status_alert;

CREATE TRIGGER listing_report_insert AFTER INSERT ON label_reports BEGIN
  INSERT INTO report_keys (report_id) SELECT new.id WHERE NOT EXISTS (SELECT 1 FROM report_keys WHERE report_id = new.id);
  INSERT INTO company_keys (company_id) SELECT new.owner_company_id WHERE NOT EXISTS (SELECT 1 FROM company_keys WHERE company_id = new.owner_company_id);
  INSERT INTO report_listing (rk, ck, id, owner_ck, has_flag, is_archived, created, updated, sub_company_id, label_uid, label_sequence_code, label_type, label_name, firmware_version, firmware_api_version, mode, type, status, label_reference, number_of_taps, data_is_incomplete, interval, config_time, start_delay, running_time, min_temperature, max_temperature, min_humidity, max_humidity, alert_level, alert_timestamp, calc_datapoints_read, calc_datapoints_available, calc_measurements_occurred, calc_start_time, calc_current_time, calc_elapsed_time, calc_violations_temperature, calc_violations_humidity, calc_violations_all, calc_violation_duration_temperature, calc_violation_duration_humidity, calc_violation_duration_all, calc_attained_min_temperature, calc_attained_max_temperature, calc_average_temperature, calc_degree_hour, calc_mean_kinetic_temperature)
    SELECT rk.rk, ck.ck, r.id, oc.ck, COALESCE(s.has_flag, 0), COALESCE(s.is_archived, 0),
           r.created, r.updated, json_extract(r.sub_company, '$.id'), r.label_uid, r.label_sequence_code, r.label_type, r.label_name, r.firmware_version, r.firmware_api_version, r.mode, r.type, r.status, r.label_reference, r.number_of_taps, r.data_is_incomplete, r.interval, r.config_time, r.start_delay, r.running_time, r.min_temperature, r.max_temperature, r.min_humidity, r.max_humidity, r.alert_level, r.alert_timestamp, json_extract(r.calculated, '$.numberOfDatapointsRead'), json_extract(r.calculated, '$.numberOfDatapointsAvailable'), json_extract(r.calculated, '$.numberOfMeasurementsOccurred'), json_extract(r.calculated, '$.startTime'), json_extract(r.calculated, '$.currentTime'), json_extract(r.calculated, '$.elapsedTime'), json_extract(r.calculated, '$.numberOfViolations.temperature'), json_extract(r.calculated, '$.numberOfViolations.humidity'), json_extract(r.calculated, '$.numberOfViolations.all'), json_extract(r.calculated, '$.durationOfViolations.temperature'), json_extract(r.calculated, '$.durationOfViolations.humidity'), json_extract(r.calculated, '$.durationOfViolations.all'), json_extract(r.calculated, '$.attainedValues.minTemperature'), json_extract(r.calculated, '$.attainedValues.maxTemperature'), json_extract(r.calculated, '$.analysedValues.temperature.average'), json_extract(r.calculated, '$.analysedValues.temperature.degreeHour'), json_extract(r.calculated, '$.analysedValues.temperature.meanKineticTemperature')
    FROM access a
    JOIN label_reports r ON r.id = a.label_report_id
    JOIN report_keys rk ON rk.report_id = r.id
    JOIN company_keys ck ON ck.company_id = a.company_id
    JOIN company_keys oc ON oc.company_id = r.owner_company_id
    LEFT JOIN company_report_state s ON s.label_report_id = a.label_report_id AND s.company_id = a.company_id
    WHERE a.label_report_id = new.id;
  INSERT INTO report_text (rowid, label_reference, label_uid, label_sequence_code, label_name)
    SELECT rk.rk, r.label_reference, r.label_uid, r.label_sequence_code, r.label_name
    FROM label_reports r JOIN report_keys rk ON rk.report_id = r.id WHERE r.id = new.id;
END;

CREATE TRIGGER listing_report_update AFTER UPDATE ON label_reports BEGIN
  INSERT INTO company_keys (company_id) SELECT new.owner_company_id WHERE NOT EXISTS (SELECT 1 FROM company_keys WHERE company_id = new.owner_company_id);
  UPDATE report_listing SET
    owner_ck = (SELECT ck FROM company_keys WHERE company_id = new.owner_company_id),
    created = new.created,
    updated = new.updated,
    sub_company_id = json_extract(new.sub_company, '$.id'),
    label_uid = new.label_uid,
    label_sequence_code = new.label_sequence_code,
    label_type = new.label_type,
    label_name = new.label_name,
    firmware_version = new.firmware_version,
    firmware_api_version = new.firmware_api_version,
    mode = new.mode,
    type = new.type,
    status = new.status,
    label_reference = new.label_reference,
    number_of_taps = new.number_of_taps,
    data_is_incomplete = new.data_is_incomplete,
    interval = new.interval,
    config_time = new.config_time,
    start_delay = new.start_delay,
    running_time = new.running_time,
    min_temperature = new.min_temperature,
    max_temperature = new.max_temperature,
    min_humidity = new.min_humidity,
    max_humidity = new.max_humidity,
    alert_level = new.alert_level,
    alert_timestamp = new.alert_timestamp,
    calc_datapoints_read = json_extract(new.calculated, '$.numberOfDatapointsRead'),
    calc_datapoints_available = json_extract(new.calculated, '$.numberOfDatapointsAvailable'),
    calc_measurements_occurred = json_extract(new.calculated, '$.numberOfMeasurementsOccurred'),
    calc_start_time = json_extract(new.calculated, '$.startTime'),
    calc_current_time = json_extract(new.calculated, '$.currentTime'),
    calc_elapsed_time = json_extract(new.calculated, '$.elapsedTime'),
    calc_violations_temperature = json_extract(new.calculated, '$.numberOfViolations.temperature'),
    calc_violations_humidity = json_extract(new.calculated, '$.numberOfViolations.humidity'),
    calc_violations_all = json_extract(new.calculated, '$.numberOfViolations.all'),
    calc_violation_duration_temperature = json_extract(new.calculated, '$.durationOfViolations.temperature'),
    calc_violation_duration_humidity = json_extract(new.calculated, '$.durationOfViolations.humidity'),
    calc_violation_duration_all = json_extract(new.calculated, '$.durationOfViolations.all'),
    calc_attained_min_temperature = json_extract(new.calculated, '$.attainedValues.minTemperature'),
    calc_attained_max_temperature = json_extract(new.calculated, '$.attainedValues.maxTemperature'),
    calc_average_temperature = json_extract(new.calculated, '$.analysedValues.temperature.average'),
    calc_degree_hour = json_extract(new.calculated, '$.analysedValues.temperature.degreeHour'),
    calc_mean_kinetic_temperature = json_extract(new.calculated, '$.analysedValues.temperature.meanKineticTemperature')
  WHERE rk = (SELECT rk FROM report_keys WHERE report_id = new.id);
END;

CREATE TRIGGER listing_report_text_update
AFTER UPDATE OF label_reference, label_uid, label_sequence_code, label_name ON label_reports BEGIN
  DELETE FROM report_text WHERE rowid = (SELECT rk FROM report_keys WHERE report_id = old.id);
  INSERT INTO report_text (rowid, label_reference, label_uid, label_sequence_code, label_name)
    SELECT rk.rk, r.label_reference, r.label_uid, r.label_sequence_code, r.label_name
    FROM label_reports r JOIN report_keys rk ON rk.report_id = r.id WHERE r.id = new.id;
END;

CREATE TRIGGER listing_report_delete AFTER DELETE ON label_reports BEGIN
  DELETE FROM report_listing WHERE rk = (SELECT rk FROM report_keys WHERE report_id = old.id);
  DELETE FROM report_text WHERE rowid = (SELECT rk FROM report_keys WHERE report_id = old.id);
  DELETE FROM custom_field_elements WHERE rk = (SELECT rk FROM report_keys WHERE report_id = old.id);
END;

CREATE TRIGGER listing_access_insert AFTER INSERT ON access BEGIN
  INSERT INTO company_keys (company_id) SELECT new.company_id WHERE NOT EXISTS (SELECT 1 FROM company_keys WHERE company_id = new.company_id);
  INSERT INTO report_listing (rk, ck, id, owner_ck, has_flag, is_archived, created, updated, sub_company_id, label_uid, label_sequence_code, label_type, label_name, firmware_version, firmware_api_version, mode, type, status, label_reference, number_of_taps, data_is_incomplete, interval, config_time, start_delay, running_time, min_temperature, max_temperature, min_humidity, max_humidity, alert_level, alert_timestamp, calc_datapoints_read, calc_datapoints_available, calc_measurements_occurred, calc_start_time, calc_current_time, calc_elapsed_time, calc_violations_temperature, calc_violations_humidity, calc_violations_all, calc_violation_duration_temperature, calc_violation_duration_humidity, calc_violation_duration_all, calc_attained_min_temperature, calc_attained_max_temperature, calc_average_temperature, calc_degree_hour, calc_mean_kinetic_temperature)
    SELECT rk.rk, ck.ck, r.id, oc.ck, COALESCE(s.has_flag, 0), COALESCE(s.is_archived, 0),
           r.created, r.updated, json_extract(r.sub_company, '$.id'), r.label_uid, r.label_sequence_code, r.label_type, r.label_name, r.firmware_version, r.firmware_api_version, r.mode, r.type, r.status, r.label_reference, r.number_of_taps, r.data_is_incomplete, r.interval, r.config_time, r.start_delay, r.running_time, r.min_temperature, r.max_temperature, r.min_humidity, r.max_humidity, r.alert_level, r.alert_timestamp, json_extract(r.calculated, '$.numberOfDatapointsRead'), json_extract(r.calculated, '$.numberOfDatapointsAvailable'), json_extract(r.calculated, '$.numberOfMeasurementsOccurred'), json_extract(r.calculated, '$.startTime'), json_extract(r.calculated, '$.currentTime'), json_extract(r.calculated, '$.elapsedTime'), json_extract(r.calculated, '$.numberOfViolations.temperature'), json_extract(r.calculated, '$.numberOfViolations.humidity'), json_extract(r.calculated, '$.numberOfViolations.all'), json_extract(r.calculated, '$.durationOfViolations.temperature'), json_extract(r.calculated, '$.durationOfViolations.humidity'), json_extract(r.calculated, '$.durationOfViolations.all'), json_extract(r.calculated, '$.attainedValues.minTemperature'), json_extract(r.calculated, '$.attainedValues.maxTemperature'), json_extract(r.calculated, '$.analysedValues.temperature.average'), json_extract(r.calculated, '$.analysedValues.temperature.degreeHour'), json_extract(r.calculated, '$.analysedValues.temperature.meanKineticTemperature')
    FROM access a
    JOIN label_reports r ON r.id = a.label_report_id
    JOIN report_keys rk ON rk.report_id = r.id
    JOIN company_keys ck ON ck.company_id = a.company_id
    JOIN company_keys oc ON oc.company_id = r.owner_company_id
    LEFT JOIN company_report_state s ON s.label_report_id = a.label_report_id AND s.company_id = a.company_id
    WHERE a.id = new.id;
END;

CREATE TRIGGER listing_access_update AFTER UPDATE ON access BEGIN
  DELETE FROM report_listing WHERE rk = (SELECT rk FROM report_keys WHERE report_id = old.label_report_id) AND ck = (SELECT ck FROM company_keys WHERE company_id = old.company_id);
  INSERT INTO company_keys (company_id) SELECT new.company_id WHERE NOT EXISTS (SELECT 1 FROM company_keys WHERE company_id = new.company_id);
  INSERT INTO report_listing (rk, ck, id, owner_ck, has_flag, is_archived, created, updated, sub_company_id, label_uid, label_sequence_code, label_type, label_name, firmware_version, firmware_api_version, mode, type, status, label_reference, number_of_taps, data_is_incomplete, interval, config_time, start_delay, running_time, min_temperature, max_temperature, min_humidity, max_humidity, alert_level, alert_timestamp, calc_datapoints_read, calc_datapoints_available, calc_measurements_occurred, calc_start_time, calc_current_time, calc_elapsed_time, calc_violations_temperature, calc_violations_humidity, calc_violations_all, calc_violation_duration_temperature, calc_violation_duration_humidity, calc_violation_duration_all, calc_attained_min_temperature, calc_attained_max_temperature, calc_average_temperature, calc_degree_hour, calc_mean_kinetic_temperature)
    SELECT rk.rk, ck.ck, r.id, oc.ck, COALESCE(s.has_flag, 0), COALESCE(s.is_archived, 0),
           r.created, r.updated, json_extract(r.sub_company, '$.id'), r.label_uid, r.label_sequence_code, r.label_type, r.label_name, r.firmware_version, r.firmware_api_version, r.mode, r.type, r.status, r.label_reference, r.number_of_taps, r.data_is_incomplete, r.interval, r.config_time, r.start_delay, r.running_time, r.min_temperature, r.max_temperature, r.min_humidity, r.max_humidity, r.alert_level, r.alert_timestamp, json_extract(r.calculated, '$.numberOfDatapointsRead'), json_extract(r.calculated, '$.numberOfDatapointsAvailable'), json_extract(r.calculated, '$.numberOfMeasurementsOccurred'), json_extract(r.calculated, '$.startTime'), json_extract(r.calculated, '$.currentTime'), json_extract(r.calculated, '$.elapsedTime'), json_extract(r.calculated, '$.numberOfViolations.temperature'), json_extract(r.calculated, '$.numberOfViolations.humidity'), json_extract(r.calculated, '$.numberOfViolations.all'), json_extract(r.calculated, '$.durationOfViolations.temperature'), json_extract(r.calculated, '$.durationOfViolations.humidity'), json_extract(r.calculated, '$.durationOfViolations.all'), json_extract(r.calculated, '$.attainedValues.minTemperature'), json_extract(r.calculated, '$.attainedValues.maxTemperature'), json_extract(r.calculated, '$.analysedValues.temperature.average'), json_extract(r.calculated, '$.analysedValues.temperature.degreeHour'), json_extract(r.calculated, '$.analysedValues.temperature.meanKineticTemperature')
    FROM access a
    JOIN label_reports r ON r.id = a.label_report_id
    JOIN report_keys rk ON rk.report_id = r.id
    JOIN company_keys ck ON ck.company_id = a.company_id
    JOIN company_keys oc ON oc.company_id = r.owner_company_id
    LEFT JOIN company_report_state s ON s.label_report_id = a.label_report_id AND s.company_id = a.company_id
    WHERE a.id = new.id;
END;

CREATE TRIGGER listing_access_delete AFTER DELETE ON access BEGIN
  DELETE FROM report_listing WHERE rk = (SELECT rk FROM report_keys WHERE report_id = old.label_report_id) AND ck = (SELECT ck FROM company_keys WHERE company_id = old.company_id);
END;

CREATE TRIGGER listing_state_insert AFTER INSERT ON company_report_state BEGIN
  UPDATE report_listing SET has_flag = new.has_flag, is_archived = new.is_archived
  WHERE rk = (SELECT rk FROM report_keys WHERE report_id = new.label_report_id) AND ck = (SELECT ck FROM company_keys WHERE company_id = new.company_id);
END;

CREATE TRIGGER listing_state_update AFTER UPDATE ON company_report_state BEGIN
  UPDATE report_listing SET has_flag = 0, is_archived = 0
  WHERE rk = (SELECT rk FROM report_keys WHERE report_id = old.label_report_id) AND ck = (SELECT ck FROM company_keys WHERE company_id = old.company_id);
  UPDATE report_listing SET has_flag = new.has_flag, is_archived = new.is_archived
  WHERE rk = (SELECT rk FROM report_keys WHERE report_id = new.label_report_id) AND ck = (SELECT ck FROM company_keys WHERE company_id = new.company_id);
END;

CREATE TRIGGER listing_state_delete AFTER DELETE ON company_report_state BEGIN
  UPDATE report_listing SET has_flag = 0, is_archived = 0
  WHERE rk = (SELECT rk FROM report_keys WHERE report_id = old.label_report_id) AND ck = (SELECT ck FROM company_keys WHERE company_id = old.company_id);
END;

CREATE TRIGGER listing_custom_field_insert AFTER INSERT ON custom_field_values BEGIN
  INSERT INTO report_keys (report_id) SELECT new.label_report_id WHERE NOT EXISTS (SELECT 1 FROM report_keys WHERE report_id = new.label_report_id);
  INSERT INTO custom_field_elements (rk, field, elem, text, num)
    SELECT rk.rk, v.custom_field_id, e.id,
           CASE WHEN e.type = 'text' THEN e.value END,
           CASE WHEN e.type IN ('integer', 'real') THEN e.value END
    FROM custom_field_values v
    JOIN report_keys rk ON rk.report_id = v.label_report_id,
    json_each(v.value) e
    WHERE e.type IN ('text', 'integer', 'real') AND v.rowid = new.rowid;
END;

CREATE TRIGGER listing_custom_field_update AFTER UPDATE ON custom_field_values BEGIN
  DELETE FROM custom_field_elements WHERE rk = (SELECT rk FROM report_keys WHERE report_id = old.label_report_id) AND field = old.custom_field_id;
  INSERT INTO report_keys (report_id) SELECT new.label_report_id WHERE NOT EXISTS (SELECT 1 FROM report_keys WHERE report_id = new.label_report_id);
  INSERT INTO custom_field_elements (rk, field, elem, text, num)
    SELECT rk.rk, v.custom_field_id, e.id,
           CASE WHEN e.type = 'text' THEN e.value END,
           CASE WHEN e.type IN ('integer', 'real') THEN e.value END
    FROM custom_field_values v
    JOIN report_keys rk ON rk.report_id = v.label_report_id,
    json_each(v.value) e
    WHERE e.type IN ('text', 'integer', 'real') AND v.rowid = new.rowid;
END;

CREATE TRIGGER listing_custom_field_delete AFTER DELETE ON custom_field_values BEGIN
  DELETE FROM custom_field_elements WHERE rk = (SELECT rk FROM report_keys WHERE report_id = old.label_report_id) AND field = old.custom_field_id;
END;
`;
