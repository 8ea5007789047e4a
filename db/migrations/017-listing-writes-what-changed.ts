/**
 * Numbered, append-only: a shipped migration is never edited, a new one is added. Its SQL is
 * written out as it shipped and imports nothing; the live declarations are in db/read-model/.
 *
 * A change of a report rewrites only the listing columns whose values moved. The listing's one
 * update trigger set every column of the report's listing rows, and SQLite rewrites each index
 * that holds a column an UPDATE names, changed or not: every write of a report (a tap, a PATCH,
 * a sync pull) deleted and inserted an entry in all 24 listing indexes of each company that sees
 * it, some 46 pages of the write-ahead log for one tap. Here each listing column has a trigger of
 * its own, fired only by an update of the report column it comes from and only when its value
 * moves, which names that one column: an index none of whose columns moved is not touched.
 *
 * The triggers' names start with `listing_`, so a bulk import sets them aside with the others
 * (ReportStore.writingMany).
 */
export default /* sql */ `
DROP TRIGGER listing_report_update;

CREATE TRIGGER listing_report_update_owner_ck
AFTER UPDATE OF owner_company_id ON label_reports
WHEN old.owner_company_id IS NOT new.owner_company_id BEGIN
  INSERT INTO company_keys (company_id) SELECT new.owner_company_id WHERE NOT EXISTS (SELECT 1 FROM company_keys WHERE company_id = new.owner_company_id);
  UPDATE report_listing SET owner_ck = (SELECT ck FROM company_keys WHERE company_id = new.owner_company_id) WHERE rk = (SELECT rk FROM report_keys WHERE report_id = new.id);
END;

CREATE TRIGGER listing_report_update_created
AFTER UPDATE OF created ON label_reports
WHEN old.created IS NOT new.created BEGIN
  UPDATE report_listing SET created = new.created WHERE rk = (SELECT rk FROM report_keys WHERE report_id = new.id);
END;

CREATE TRIGGER listing_report_update_updated
AFTER UPDATE OF updated ON label_reports
WHEN old.updated IS NOT new.updated BEGIN
  UPDATE report_listing SET updated = new.updated WHERE rk = (SELECT rk FROM report_keys WHERE report_id = new.id);
END;

CREATE TRIGGER listing_report_update_sub_company_id
AFTER UPDATE OF sub_company ON label_reports
WHEN json_extract(old.sub_company, '$.id') IS NOT json_extract(new.sub_company, '$.id') BEGIN
  UPDATE report_listing SET sub_company_id = json_extract(new.sub_company, '$.id') WHERE rk = (SELECT rk FROM report_keys WHERE report_id = new.id);
END;

CREATE TRIGGER listing_report_update_label_uid
AFTER UPDATE OF label_uid ON label_reports
WHEN old.label_uid IS NOT new.label_uid BEGIN
  UPDATE report_listing SET label_uid = new.label_uid WHERE rk = (SELECT rk FROM report_keys WHERE report_id = new.id);
END;

CREATE TRIGGER listing_report_update_label_sequence_code
AFTER UPDATE OF label_sequence_code ON label_reports
WHEN old.label_sequence_code IS NOT new.label_sequence_code BEGIN
  UPDATE report_listing SET label_sequence_code = new.label_sequence_code WHERE rk = (SELECT rk FROM report_keys WHERE report_id = new.id);
END;

CREATE TRIGGER listing_report_update_label_type
AFTER UPDATE OF label_type ON label_reports
WHEN old.label_type IS NOT new.label_type BEGIN
  UPDATE report_listing SET label_type = new.label_type WHERE rk = (SELECT rk FROM report_keys WHERE report_id = new.id);
END;

CREATE TRIGGER listing_report_update_label_name
AFTER UPDATE OF label_name ON label_reports
WHEN old.label_name IS NOT new.label_name BEGIN
  UPDATE report_listing SET label_name = new.label_name WHERE rk = (SELECT rk FROM report_keys WHERE report_id = new.id);
END;

CREATE TRIGGER listing_report_update_firmware_version
AFTER UPDATE OF firmware_version ON label_reports
WHEN old.firmware_version IS NOT new.firmware_version BEGIN
  UPDATE report_listing SET firmware_version = new.firmware_version WHERE rk = (SELECT rk FROM report_keys WHERE report_id = new.id);
END;

CREATE TRIGGER listing_report_update_firmware_api_version
AFTER UPDATE OF firmware_api_version ON label_reports
WHEN old.firmware_api_version IS NOT new.firmware_api_version BEGIN
  UPDATE report_listing SET firmware_api_version = new.firmware_api_version WHERE rk = (SELECT rk FROM report_keys WHERE report_id = new.id);
END;

CREATE TRIGGER listing_report_update_mode
AFTER UPDATE OF mode ON label_reports
WHEN old.mode IS NOT new.mode BEGIN
  UPDATE report_listing SET mode = new.mode WHERE rk = (SELECT rk FROM report_keys WHERE report_id = new.id);
END;

CREATE TRIGGER listing_report_update_type
AFTER UPDATE OF type ON label_reports
WHEN old.type IS NOT new.type BEGIN
  UPDATE report_listing SET type = new.type WHERE rk = (SELECT rk FROM report_keys WHERE report_id = new.id);
END;

CREATE TRIGGER listing_report_update_status
AFTER UPDATE OF status ON label_reports
WHEN old.status IS NOT new.status BEGIN
  UPDATE report_listing SET status = new.status WHERE rk = (SELECT rk FROM report_keys WHERE report_id = new.id);
END;

CREATE TRIGGER listing_report_update_label_reference
AFTER UPDATE OF label_reference ON label_reports
WHEN old.label_reference IS NOT new.label_reference BEGIN
  UPDATE report_listing SET label_reference = new.label_reference WHERE rk = (SELECT rk FROM report_keys WHERE report_id = new.id);
END;

CREATE TRIGGER listing_report_update_number_of_taps
AFTER UPDATE OF number_of_taps ON label_reports
WHEN old.number_of_taps IS NOT new.number_of_taps BEGIN
  UPDATE report_listing SET number_of_taps = new.number_of_taps WHERE rk = (SELECT rk FROM report_keys WHERE report_id = new.id);
END;

CREATE TRIGGER listing_report_update_data_is_incomplete
AFTER UPDATE OF data_is_incomplete ON label_reports
WHEN old.data_is_incomplete IS NOT new.data_is_incomplete BEGIN
  UPDATE report_listing SET data_is_incomplete = new.data_is_incomplete WHERE rk = (SELECT rk FROM report_keys WHERE report_id = new.id);
END;

CREATE TRIGGER listing_report_update_interval
AFTER UPDATE OF interval ON label_reports
WHEN old.interval IS NOT new.interval BEGIN
  UPDATE report_listing SET interval = new.interval WHERE rk = (SELECT rk FROM report_keys WHERE report_id = new.id);
END;

CREATE TRIGGER listing_report_update_config_time
AFTER UPDATE OF config_time ON label_reports
WHEN old.config_time IS NOT new.config_time BEGIN
  UPDATE report_listing SET config_time = new.config_time WHERE rk = (SELECT rk FROM report_keys WHERE report_id = new.id);
END;

CREATE TRIGGER listing_report_update_start_delay
AFTER UPDATE OF start_delay ON label_reports
WHEN old.start_delay IS NOT new.start_delay BEGIN
  UPDATE report_listing SET start_delay = new.start_delay WHERE rk = (SELECT rk FROM report_keys WHERE report_id = new.id);
END;

CREATE TRIGGER listing_report_update_running_time
AFTER UPDATE OF running_time ON label_reports
WHEN old.running_time IS NOT new.running_time BEGIN
  UPDATE report_listing SET running_time = new.running_time WHERE rk = (SELECT rk FROM report_keys WHERE report_id = new.id);
END;

CREATE TRIGGER listing_report_update_min_temperature
AFTER UPDATE OF min_temperature ON label_reports
WHEN old.min_temperature IS NOT new.min_temperature BEGIN
  UPDATE report_listing SET min_temperature = new.min_temperature WHERE rk = (SELECT rk FROM report_keys WHERE report_id = new.id);
END;

CREATE TRIGGER listing_report_update_max_temperature
AFTER UPDATE OF max_temperature ON label_reports
WHEN old.max_temperature IS NOT new.max_temperature BEGIN
  UPDATE report_listing SET max_temperature = new.max_temperature WHERE rk = (SELECT rk FROM report_keys WHERE report_id = new.id);
END;

CREATE TRIGGER listing_report_update_min_humidity
AFTER UPDATE OF min_humidity ON label_reports
WHEN old.min_humidity IS NOT new.min_humidity BEGIN
  UPDATE report_listing SET min_humidity = new.min_humidity WHERE rk = (SELECT rk FROM report_keys WHERE report_id = new.id);
END;

CREATE TRIGGER listing_report_update_max_humidity
AFTER UPDATE OF max_humidity ON label_reports
WHEN old.max_humidity IS NOT new.max_humidity BEGIN
  UPDATE report_listing SET max_humidity = new.max_humidity WHERE rk = (SELECT rk FROM report_keys WHERE report_id = new.id);
END;

CREATE TRIGGER listing_report_update_alert_level
AFTER UPDATE OF alert_level ON label_reports
WHEN old.alert_level IS NOT new.alert_level BEGIN
  UPDATE report_listing SET alert_level = new.alert_level WHERE rk = (SELECT rk FROM report_keys WHERE report_id = new.id);
END;

CREATE TRIGGER listing_report_update_alert_timestamp
AFTER UPDATE OF alert_timestamp ON label_reports
WHEN old.alert_timestamp IS NOT new.alert_timestamp BEGIN
  UPDATE report_listing SET alert_timestamp = new.alert_timestamp WHERE rk = (SELECT rk FROM report_keys WHERE report_id = new.id);
END;

CREATE TRIGGER listing_report_update_calc_datapoints_read
AFTER UPDATE OF calculated ON label_reports
WHEN json_extract(old.calculated, '$.numberOfDatapointsRead') IS NOT json_extract(new.calculated, '$.numberOfDatapointsRead') BEGIN
  UPDATE report_listing SET calc_datapoints_read = json_extract(new.calculated, '$.numberOfDatapointsRead') WHERE rk = (SELECT rk FROM report_keys WHERE report_id = new.id);
END;

CREATE TRIGGER listing_report_update_calc_datapoints_available
AFTER UPDATE OF calculated ON label_reports
WHEN json_extract(old.calculated, '$.numberOfDatapointsAvailable') IS NOT json_extract(new.calculated, '$.numberOfDatapointsAvailable') BEGIN
  UPDATE report_listing SET calc_datapoints_available = json_extract(new.calculated, '$.numberOfDatapointsAvailable') WHERE rk = (SELECT rk FROM report_keys WHERE report_id = new.id);
END;

CREATE TRIGGER listing_report_update_calc_measurements_occurred
AFTER UPDATE OF calculated ON label_reports
WHEN json_extract(old.calculated, '$.numberOfMeasurementsOccurred') IS NOT json_extract(new.calculated, '$.numberOfMeasurementsOccurred') BEGIN
  UPDATE report_listing SET calc_measurements_occurred = json_extract(new.calculated, '$.numberOfMeasurementsOccurred') WHERE rk = (SELECT rk FROM report_keys WHERE report_id = new.id);
END;

CREATE TRIGGER listing_report_update_calc_start_time
AFTER UPDATE OF calculated ON label_reports
WHEN json_extract(old.calculated, '$.startTime') IS NOT json_extract(new.calculated, '$.startTime') BEGIN
  UPDATE report_listing SET calc_start_time = json_extract(new.calculated, '$.startTime') WHERE rk = (SELECT rk FROM report_keys WHERE report_id = new.id);
END;

CREATE TRIGGER listing_report_update_calc_current_time
AFTER UPDATE OF calculated ON label_reports
WHEN json_extract(old.calculated, '$.currentTime') IS NOT json_extract(new.calculated, '$.currentTime') BEGIN
  UPDATE report_listing SET calc_current_time = json_extract(new.calculated, '$.currentTime') WHERE rk = (SELECT rk FROM report_keys WHERE report_id = new.id);
END;

CREATE TRIGGER listing_report_update_calc_elapsed_time
AFTER UPDATE OF calculated ON label_reports
WHEN json_extract(old.calculated, '$.elapsedTime') IS NOT json_extract(new.calculated, '$.elapsedTime') BEGIN
  UPDATE report_listing SET calc_elapsed_time = json_extract(new.calculated, '$.elapsedTime') WHERE rk = (SELECT rk FROM report_keys WHERE report_id = new.id);
END;

CREATE TRIGGER listing_report_update_calc_violations_temperature
AFTER UPDATE OF calculated ON label_reports
WHEN json_extract(old.calculated, '$.numberOfViolations.temperature') IS NOT json_extract(new.calculated, '$.numberOfViolations.temperature') BEGIN
  UPDATE report_listing SET calc_violations_temperature = json_extract(new.calculated, '$.numberOfViolations.temperature') WHERE rk = (SELECT rk FROM report_keys WHERE report_id = new.id);
END;

CREATE TRIGGER listing_report_update_calc_violations_humidity
AFTER UPDATE OF calculated ON label_reports
WHEN json_extract(old.calculated, '$.numberOfViolations.humidity') IS NOT json_extract(new.calculated, '$.numberOfViolations.humidity') BEGIN
  UPDATE report_listing SET calc_violations_humidity = json_extract(new.calculated, '$.numberOfViolations.humidity') WHERE rk = (SELECT rk FROM report_keys WHERE report_id = new.id);
END;

CREATE TRIGGER listing_report_update_calc_violations_all
AFTER UPDATE OF calculated ON label_reports
WHEN json_extract(old.calculated, '$.numberOfViolations.all') IS NOT json_extract(new.calculated, '$.numberOfViolations.all') BEGIN
  UPDATE report_listing SET calc_violations_all = json_extract(new.calculated, '$.numberOfViolations.all') WHERE rk = (SELECT rk FROM report_keys WHERE report_id = new.id);
END;

CREATE TRIGGER listing_report_update_calc_violation_duration_temperature
AFTER UPDATE OF calculated ON label_reports
WHEN json_extract(old.calculated, '$.durationOfViolations.temperature') IS NOT json_extract(new.calculated, '$.durationOfViolations.temperature') BEGIN
  UPDATE report_listing SET calc_violation_duration_temperature = json_extract(new.calculated, '$.durationOfViolations.temperature') WHERE rk = (SELECT rk FROM report_keys WHERE report_id = new.id);
END;

CREATE TRIGGER listing_report_update_calc_violation_duration_humidity
AFTER UPDATE OF calculated ON label_reports
WHEN json_extract(old.calculated, '$.durationOfViolations.humidity') IS NOT json_extract(new.calculated, '$.durationOfViolations.humidity') BEGIN
  UPDATE report_listing SET calc_violation_duration_humidity = json_extract(new.calculated, '$.durationOfViolations.humidity') WHERE rk = (SELECT rk FROM report_keys WHERE report_id = new.id);
END;

CREATE TRIGGER listing_report_update_calc_violation_duration_all
AFTER UPDATE OF calculated ON label_reports
WHEN json_extract(old.calculated, '$.durationOfViolations.all') IS NOT json_extract(new.calculated, '$.durationOfViolations.all') BEGIN
  UPDATE report_listing SET calc_violation_duration_all = json_extract(new.calculated, '$.durationOfViolations.all') WHERE rk = (SELECT rk FROM report_keys WHERE report_id = new.id);
END;

CREATE TRIGGER listing_report_update_calc_attained_min_temperature
AFTER UPDATE OF calculated ON label_reports
WHEN json_extract(old.calculated, '$.attainedValues.minTemperature') IS NOT json_extract(new.calculated, '$.attainedValues.minTemperature') BEGIN
  UPDATE report_listing SET calc_attained_min_temperature = json_extract(new.calculated, '$.attainedValues.minTemperature') WHERE rk = (SELECT rk FROM report_keys WHERE report_id = new.id);
END;

CREATE TRIGGER listing_report_update_calc_attained_max_temperature
AFTER UPDATE OF calculated ON label_reports
WHEN json_extract(old.calculated, '$.attainedValues.maxTemperature') IS NOT json_extract(new.calculated, '$.attainedValues.maxTemperature') BEGIN
  UPDATE report_listing SET calc_attained_max_temperature = json_extract(new.calculated, '$.attainedValues.maxTemperature') WHERE rk = (SELECT rk FROM report_keys WHERE report_id = new.id);
END;

CREATE TRIGGER listing_report_update_calc_average_temperature
AFTER UPDATE OF calculated ON label_reports
WHEN json_extract(old.calculated, '$.analysedValues.temperature.average') IS NOT json_extract(new.calculated, '$.analysedValues.temperature.average') BEGIN
  UPDATE report_listing SET calc_average_temperature = json_extract(new.calculated, '$.analysedValues.temperature.average') WHERE rk = (SELECT rk FROM report_keys WHERE report_id = new.id);
END;

CREATE TRIGGER listing_report_update_calc_degree_hour
AFTER UPDATE OF calculated ON label_reports
WHEN json_extract(old.calculated, '$.analysedValues.temperature.degreeHour') IS NOT json_extract(new.calculated, '$.analysedValues.temperature.degreeHour') BEGIN
  UPDATE report_listing SET calc_degree_hour = json_extract(new.calculated, '$.analysedValues.temperature.degreeHour') WHERE rk = (SELECT rk FROM report_keys WHERE report_id = new.id);
END;

CREATE TRIGGER listing_report_update_calc_mean_kinetic_temperature
AFTER UPDATE OF calculated ON label_reports
WHEN json_extract(old.calculated, '$.analysedValues.temperature.meanKineticTemperature') IS NOT json_extract(new.calculated, '$.analysedValues.temperature.meanKineticTemperature') BEGIN
  UPDATE report_listing SET calc_mean_kinetic_temperature = json_extract(new.calculated, '$.analysedValues.temperature.meanKineticTemperature') WHERE rk = (SELECT rk FROM report_keys WHERE report_id = new.id);
END;
`;
