/**
 * Numbered, append-only: a shipped migration is never edited, a new one is added. Its SQL is
 * written out as it shipped and imports nothing; the live declarations are in db/read-model/.
 *
 * Shipments by a custom field (docs/shipments.md#grouping-by-a-custom-field): `shipment_grouping`,
 * the field a company groups its shipments by (none: the label reference), and on each listing
 * row `shipment_ref`, the value its company groups it by. The shipment triggers and the index
 * `listing_shipment` read it in place of the label reference; every row starts with its label
 * reference, so the kept shipment rows stand as they were.
 */
export default /* sql */ `
CREATE TABLE shipment_grouping (
  ck         INTEGER PRIMARY KEY,
  field      TEXT,
  regrouping INTEGER NOT NULL DEFAULT 0
) STRICT;
CREATE INDEX shipment_grouping_field ON shipment_grouping (field) WHERE field IS NOT NULL;
DROP TRIGGER listing_report_insert;
DROP TRIGGER listing_access_insert;
DROP TRIGGER listing_access_update;
DROP TRIGGER shipment_listing_listing_insert;
DROP TRIGGER shipment_listing_listing_delete;
DROP TRIGGER shipment_listing_listing_reference;
DROP TRIGGER shipment_listing_listing_figures;
DROP TRIGGER shipment_listing_review_insert;
DROP TRIGGER shipment_listing_review_update;
DROP INDEX listing_shipment;
ALTER TABLE report_listing ADD COLUMN shipment_ref TEXT NOT NULL DEFAULT '';
UPDATE report_listing SET shipment_ref = label_reference WHERE label_reference <> '';
CREATE INDEX listing_shipment ON report_listing (ck, upper(replace(replace(replace(replace(replace(shipment_ref, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), ''))) WHERE shipment_ref <> '';
CREATE TRIGGER listing_report_insert AFTER INSERT ON label_reports BEGIN
  INSERT INTO report_keys (report_id) SELECT new.id WHERE NOT EXISTS (SELECT 1 FROM report_keys WHERE report_id = new.id);
  INSERT INTO company_keys (company_id) SELECT new.owner_company_id WHERE NOT EXISTS (SELECT 1 FROM company_keys WHERE company_id = new.owner_company_id);
  INSERT INTO report_listing (rk, ck, id, owner_ck, has_flag, is_archived, created, updated, sub_company_id, label_uid, label_sequence_code, label_type, label_name, firmware_version, firmware_api_version, mode, type, status, label_reference, number_of_taps, data_is_incomplete, interval, config_time, start_delay, running_time, min_temperature, max_temperature, min_humidity, max_humidity, alert_level, alert_timestamp, calc_datapoints_read, calc_datapoints_available, calc_measurements_occurred, calc_start_time, calc_current_time, calc_elapsed_time, calc_violations_temperature, calc_violations_humidity, calc_violations_all, calc_violation_duration_temperature, calc_violation_duration_humidity, calc_violation_duration_all, calc_attained_min_temperature, calc_attained_max_temperature, calc_average_temperature, calc_degree_hour, calc_mean_kinetic_temperature, shipment_ref)
    SELECT rk.rk, ck.ck, r.id, oc.ck, COALESCE(s.has_flag, 0), COALESCE(s.is_archived, 0),
           r.created, r.updated, json_extract(r.sub_company, '$.id'), r.label_uid, r.label_sequence_code, r.label_type, r.label_name, r.firmware_version, r.firmware_api_version, r.mode, r.type, r.status, r.label_reference, r.number_of_taps, r.data_is_incomplete, r.interval, r.config_time, r.start_delay, r.running_time, r.min_temperature, r.max_temperature, r.min_humidity, r.max_humidity, r.alert_level, r.alert_timestamp, json_extract(r.calculated, '$.numberOfDatapointsRead'), json_extract(r.calculated, '$.numberOfDatapointsAvailable'), json_extract(r.calculated, '$.numberOfMeasurementsOccurred'), json_extract(r.calculated, '$.startTime'), json_extract(r.calculated, '$.currentTime'), json_extract(r.calculated, '$.elapsedTime'), json_extract(r.calculated, '$.numberOfViolations.temperature'), json_extract(r.calculated, '$.numberOfViolations.humidity'), json_extract(r.calculated, '$.numberOfViolations.all'), json_extract(r.calculated, '$.durationOfViolations.temperature'), json_extract(r.calculated, '$.durationOfViolations.humidity'), json_extract(r.calculated, '$.durationOfViolations.all'), json_extract(r.calculated, '$.attainedValues.minTemperature'), json_extract(r.calculated, '$.attainedValues.maxTemperature'), json_extract(r.calculated, '$.analysedValues.temperature.average'), json_extract(r.calculated, '$.analysedValues.temperature.degreeHour'), json_extract(r.calculated, '$.analysedValues.temperature.meanKineticTemperature'), coalesce((SELECT CASE WHEN g.field IS NULL THEN r.label_reference ELSE coalesce((SELECT coalesce(CASE json_type(v.value) WHEN 'text' THEN v.value ->> '$' WHEN 'integer' THEN v.value END, '') FROM custom_field_values v WHERE v.label_report_id = r.id AND v.custom_field_id = g.field), '') END
      FROM shipment_grouping g WHERE g.ck = ck.ck), r.label_reference)
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
CREATE TRIGGER listing_access_insert AFTER INSERT ON access BEGIN
  INSERT INTO company_keys (company_id) SELECT new.company_id WHERE NOT EXISTS (SELECT 1 FROM company_keys WHERE company_id = new.company_id);
  INSERT INTO report_listing (rk, ck, id, owner_ck, has_flag, is_archived, created, updated, sub_company_id, label_uid, label_sequence_code, label_type, label_name, firmware_version, firmware_api_version, mode, type, status, label_reference, number_of_taps, data_is_incomplete, interval, config_time, start_delay, running_time, min_temperature, max_temperature, min_humidity, max_humidity, alert_level, alert_timestamp, calc_datapoints_read, calc_datapoints_available, calc_measurements_occurred, calc_start_time, calc_current_time, calc_elapsed_time, calc_violations_temperature, calc_violations_humidity, calc_violations_all, calc_violation_duration_temperature, calc_violation_duration_humidity, calc_violation_duration_all, calc_attained_min_temperature, calc_attained_max_temperature, calc_average_temperature, calc_degree_hour, calc_mean_kinetic_temperature, shipment_ref)
    SELECT rk.rk, ck.ck, r.id, oc.ck, COALESCE(s.has_flag, 0), COALESCE(s.is_archived, 0),
           r.created, r.updated, json_extract(r.sub_company, '$.id'), r.label_uid, r.label_sequence_code, r.label_type, r.label_name, r.firmware_version, r.firmware_api_version, r.mode, r.type, r.status, r.label_reference, r.number_of_taps, r.data_is_incomplete, r.interval, r.config_time, r.start_delay, r.running_time, r.min_temperature, r.max_temperature, r.min_humidity, r.max_humidity, r.alert_level, r.alert_timestamp, json_extract(r.calculated, '$.numberOfDatapointsRead'), json_extract(r.calculated, '$.numberOfDatapointsAvailable'), json_extract(r.calculated, '$.numberOfMeasurementsOccurred'), json_extract(r.calculated, '$.startTime'), json_extract(r.calculated, '$.currentTime'), json_extract(r.calculated, '$.elapsedTime'), json_extract(r.calculated, '$.numberOfViolations.temperature'), json_extract(r.calculated, '$.numberOfViolations.humidity'), json_extract(r.calculated, '$.numberOfViolations.all'), json_extract(r.calculated, '$.durationOfViolations.temperature'), json_extract(r.calculated, '$.durationOfViolations.humidity'), json_extract(r.calculated, '$.durationOfViolations.all'), json_extract(r.calculated, '$.attainedValues.minTemperature'), json_extract(r.calculated, '$.attainedValues.maxTemperature'), json_extract(r.calculated, '$.analysedValues.temperature.average'), json_extract(r.calculated, '$.analysedValues.temperature.degreeHour'), json_extract(r.calculated, '$.analysedValues.temperature.meanKineticTemperature'), coalesce((SELECT CASE WHEN g.field IS NULL THEN r.label_reference ELSE coalesce((SELECT coalesce(CASE json_type(v.value) WHEN 'text' THEN v.value ->> '$' WHEN 'integer' THEN v.value END, '') FROM custom_field_values v WHERE v.label_report_id = r.id AND v.custom_field_id = g.field), '') END
      FROM shipment_grouping g WHERE g.ck = ck.ck), r.label_reference)
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
  INSERT INTO report_listing (rk, ck, id, owner_ck, has_flag, is_archived, created, updated, sub_company_id, label_uid, label_sequence_code, label_type, label_name, firmware_version, firmware_api_version, mode, type, status, label_reference, number_of_taps, data_is_incomplete, interval, config_time, start_delay, running_time, min_temperature, max_temperature, min_humidity, max_humidity, alert_level, alert_timestamp, calc_datapoints_read, calc_datapoints_available, calc_measurements_occurred, calc_start_time, calc_current_time, calc_elapsed_time, calc_violations_temperature, calc_violations_humidity, calc_violations_all, calc_violation_duration_temperature, calc_violation_duration_humidity, calc_violation_duration_all, calc_attained_min_temperature, calc_attained_max_temperature, calc_average_temperature, calc_degree_hour, calc_mean_kinetic_temperature, shipment_ref)
    SELECT rk.rk, ck.ck, r.id, oc.ck, COALESCE(s.has_flag, 0), COALESCE(s.is_archived, 0),
           r.created, r.updated, json_extract(r.sub_company, '$.id'), r.label_uid, r.label_sequence_code, r.label_type, r.label_name, r.firmware_version, r.firmware_api_version, r.mode, r.type, r.status, r.label_reference, r.number_of_taps, r.data_is_incomplete, r.interval, r.config_time, r.start_delay, r.running_time, r.min_temperature, r.max_temperature, r.min_humidity, r.max_humidity, r.alert_level, r.alert_timestamp, json_extract(r.calculated, '$.numberOfDatapointsRead'), json_extract(r.calculated, '$.numberOfDatapointsAvailable'), json_extract(r.calculated, '$.numberOfMeasurementsOccurred'), json_extract(r.calculated, '$.startTime'), json_extract(r.calculated, '$.currentTime'), json_extract(r.calculated, '$.elapsedTime'), json_extract(r.calculated, '$.numberOfViolations.temperature'), json_extract(r.calculated, '$.numberOfViolations.humidity'), json_extract(r.calculated, '$.numberOfViolations.all'), json_extract(r.calculated, '$.durationOfViolations.temperature'), json_extract(r.calculated, '$.durationOfViolations.humidity'), json_extract(r.calculated, '$.durationOfViolations.all'), json_extract(r.calculated, '$.attainedValues.minTemperature'), json_extract(r.calculated, '$.attainedValues.maxTemperature'), json_extract(r.calculated, '$.analysedValues.temperature.average'), json_extract(r.calculated, '$.analysedValues.temperature.degreeHour'), json_extract(r.calculated, '$.analysedValues.temperature.meanKineticTemperature'), coalesce((SELECT CASE WHEN g.field IS NULL THEN r.label_reference ELSE coalesce((SELECT coalesce(CASE json_type(v.value) WHEN 'text' THEN v.value ->> '$' WHEN 'integer' THEN v.value END, '') FROM custom_field_values v WHERE v.label_report_id = r.id AND v.custom_field_id = g.field), '') END
      FROM shipment_grouping g WHERE g.ck = ck.ck), r.label_reference)
    FROM access a
    JOIN label_reports r ON r.id = a.label_report_id
    JOIN report_keys rk ON rk.report_id = r.id
    JOIN company_keys ck ON ck.company_id = a.company_id
    JOIN company_keys oc ON oc.company_id = r.owner_company_id
    LEFT JOIN company_report_state s ON s.label_report_id = a.label_report_id AND s.company_id = a.company_id
    WHERE a.id = new.id;
END;
CREATE TRIGGER listing_shipment_ref_reference AFTER UPDATE OF label_reference ON report_listing
WHEN OLD.label_reference IS NOT NEW.label_reference BEGIN
  UPDATE report_listing SET shipment_ref = NEW.label_reference
  WHERE ck = NEW.ck AND rk = NEW.rk AND (SELECT g.field FROM shipment_grouping g WHERE g.ck = NEW.ck) IS NULL;
END;
CREATE TRIGGER listing_shipment_ref_field_insert AFTER INSERT ON custom_field_values BEGIN
  UPDATE report_listing SET shipment_ref = coalesce(CASE json_type(NEW.value) WHEN 'text' THEN NEW.value ->> '$' WHEN 'integer' THEN NEW.value END, '')
  WHERE ck IN (SELECT g.ck FROM shipment_grouping g WHERE g.field = NEW.custom_field_id) AND rk = (SELECT rk FROM report_keys WHERE report_id = NEW.label_report_id);
END;
CREATE TRIGGER listing_shipment_ref_field_update AFTER UPDATE ON custom_field_values BEGIN
  UPDATE report_listing SET shipment_ref = ''
  WHERE (OLD.label_report_id IS NOT NEW.label_report_id OR OLD.custom_field_id IS NOT NEW.custom_field_id)
    AND ck IN (SELECT g.ck FROM shipment_grouping g WHERE g.field = OLD.custom_field_id) AND rk = (SELECT rk FROM report_keys WHERE report_id = OLD.label_report_id);
  UPDATE report_listing SET shipment_ref = coalesce(CASE json_type(NEW.value) WHEN 'text' THEN NEW.value ->> '$' WHEN 'integer' THEN NEW.value END, '')
  WHERE ck IN (SELECT g.ck FROM shipment_grouping g WHERE g.field = NEW.custom_field_id) AND rk = (SELECT rk FROM report_keys WHERE report_id = NEW.label_report_id);
END;
CREATE TRIGGER listing_shipment_ref_field_delete AFTER DELETE ON custom_field_values BEGIN
  UPDATE report_listing SET shipment_ref = ''
  WHERE ck IN (SELECT g.ck FROM shipment_grouping g WHERE g.field = OLD.custom_field_id) AND rk = (SELECT rk FROM report_keys WHERE report_id = OLD.label_report_id);
END;
CREATE TRIGGER shipment_listing_listing_insert AFTER INSERT ON report_listing WHEN NEW.shipment_ref <> '' BEGIN
  DELETE FROM shipment_listing WHERE ck = NEW.ck AND ref_key = upper(replace(replace(replace(replace(replace(NEW.shipment_ref, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) AND first_created NOT IN (SELECT s.created FROM (SELECT l.created, unixepoch(l.created) - unixepoch(lag(l.created) OVER (ORDER BY l.created, l.id)) AS since
              FROM report_listing l WHERE l.ck = NEW.ck AND upper(replace(replace(replace(replace(replace(l.shipment_ref, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) = upper(replace(replace(replace(replace(replace(NEW.shipment_ref, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) AND l.shipment_ref <> '') s
     WHERE s.since IS NULL OR s.since > 5184000);
  INSERT INTO shipment_listing (ck, ref_key, first_created, last_created, labels, worst_alert, first_start, state, product, modes)
  SELECT g.*, (SELECT f.product FROM shipment_facts f WHERE f.company_id = (SELECT k.company_id FROM company_keys k WHERE k.ck = g.ck) AND f.shipment_id = g.ref_key || '@' || substr(g.first_created, 1, 10)), (SELECT (SELECT ',' || group_concat(DISTINCT j.value ->> '$.mode') || ',' FROM json_each(f.legs) j) FROM shipment_facts f WHERE f.company_id = (SELECT k.company_id FROM company_keys k WHERE k.ck = g.ck) AND f.shipment_id = g.ref_key || '@' || substr(g.first_created, 1, 10))
    FROM (SELECT q.ck, q.ref_key, min(q.created) AS first_created, max(q.created), count(*), max(q.alert_level), min(q.calc_start_time), CASE WHEN count(CASE WHEN q.decision = 'rejected' THEN 1 END) > 0 THEN 'rejected'
              WHEN count(CASE WHEN q.decision = 'onHold' THEN 1 END) > 0 THEN 'onHold'
              WHEN count(CASE WHEN q.alert_level >= 1 AND coalesce(q.acknowledged_level, -1) < q.alert_level THEN 1 END) > 0 THEN 'awaitingAcknowledgement'
              WHEN count(CASE WHEN q.decision = 'released' THEN 1 END) = count(*) THEN 'released' ELSE 'awaitingReview' END
            FROM (SELECT p.*, sum(p.begins) OVER (PARTITION BY p.ck, p.ref_key ORDER BY p.created, p.id) AS shipment
                    FROM (SELECT l.id, l.ck, upper(replace(replace(replace(replace(replace(l.shipment_ref, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) AS ref_key, l.created, l.calc_start_time, l.alert_level, r.decision, r.acknowledged_level,
                                 coalesce(unixepoch(l.created) - unixepoch(lag(l.created) OVER (ORDER BY l.created, l.id)) > 5184000, 1) AS begins
                            FROM report_listing l LEFT JOIN review_current r ON r.label_report_id = l.id AND r.company_id = (SELECT k.company_id FROM company_keys k WHERE k.ck = l.ck)
                           WHERE l.ck = NEW.ck AND upper(replace(replace(replace(replace(replace(l.shipment_ref, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) = upper(replace(replace(replace(replace(replace(NEW.shipment_ref, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) AND l.shipment_ref <> '') p) q
           GROUP BY q.ck, q.ref_key, q.shipment) g
   WHERE true
  ON CONFLICT (ck, ref_key, first_created) DO UPDATE SET last_created = excluded.last_created, labels = excluded.labels, worst_alert = excluded.worst_alert, first_start = excluded.first_start, state = excluded.state, product = excluded.product, modes = excluded.modes
   WHERE shipment_listing.last_created IS NOT excluded.last_created OR shipment_listing.labels IS NOT excluded.labels OR shipment_listing.worst_alert IS NOT excluded.worst_alert OR shipment_listing.first_start IS NOT excluded.first_start OR shipment_listing.state IS NOT excluded.state OR shipment_listing.product IS NOT excluded.product OR shipment_listing.modes IS NOT excluded.modes;
END;
CREATE TRIGGER shipment_listing_listing_delete AFTER DELETE ON report_listing WHEN OLD.shipment_ref <> '' BEGIN
  DELETE FROM shipment_listing WHERE ck = OLD.ck AND ref_key = upper(replace(replace(replace(replace(replace(OLD.shipment_ref, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) AND first_created NOT IN (SELECT s.created FROM (SELECT l.created, unixepoch(l.created) - unixepoch(lag(l.created) OVER (ORDER BY l.created, l.id)) AS since
              FROM report_listing l WHERE l.ck = OLD.ck AND upper(replace(replace(replace(replace(replace(l.shipment_ref, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) = upper(replace(replace(replace(replace(replace(OLD.shipment_ref, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) AND l.shipment_ref <> '') s
     WHERE s.since IS NULL OR s.since > 5184000);
  INSERT INTO shipment_listing (ck, ref_key, first_created, last_created, labels, worst_alert, first_start, state, product, modes)
  SELECT g.*, (SELECT f.product FROM shipment_facts f WHERE f.company_id = (SELECT k.company_id FROM company_keys k WHERE k.ck = g.ck) AND f.shipment_id = g.ref_key || '@' || substr(g.first_created, 1, 10)), (SELECT (SELECT ',' || group_concat(DISTINCT j.value ->> '$.mode') || ',' FROM json_each(f.legs) j) FROM shipment_facts f WHERE f.company_id = (SELECT k.company_id FROM company_keys k WHERE k.ck = g.ck) AND f.shipment_id = g.ref_key || '@' || substr(g.first_created, 1, 10))
    FROM (SELECT q.ck, q.ref_key, min(q.created) AS first_created, max(q.created), count(*), max(q.alert_level), min(q.calc_start_time), CASE WHEN count(CASE WHEN q.decision = 'rejected' THEN 1 END) > 0 THEN 'rejected'
              WHEN count(CASE WHEN q.decision = 'onHold' THEN 1 END) > 0 THEN 'onHold'
              WHEN count(CASE WHEN q.alert_level >= 1 AND coalesce(q.acknowledged_level, -1) < q.alert_level THEN 1 END) > 0 THEN 'awaitingAcknowledgement'
              WHEN count(CASE WHEN q.decision = 'released' THEN 1 END) = count(*) THEN 'released' ELSE 'awaitingReview' END
            FROM (SELECT p.*, sum(p.begins) OVER (PARTITION BY p.ck, p.ref_key ORDER BY p.created, p.id) AS shipment
                    FROM (SELECT l.id, l.ck, upper(replace(replace(replace(replace(replace(l.shipment_ref, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) AS ref_key, l.created, l.calc_start_time, l.alert_level, r.decision, r.acknowledged_level,
                                 coalesce(unixepoch(l.created) - unixepoch(lag(l.created) OVER (ORDER BY l.created, l.id)) > 5184000, 1) AS begins
                            FROM report_listing l LEFT JOIN review_current r ON r.label_report_id = l.id AND r.company_id = (SELECT k.company_id FROM company_keys k WHERE k.ck = l.ck)
                           WHERE l.ck = OLD.ck AND upper(replace(replace(replace(replace(replace(l.shipment_ref, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) = upper(replace(replace(replace(replace(replace(OLD.shipment_ref, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) AND l.shipment_ref <> '') p) q
           GROUP BY q.ck, q.ref_key, q.shipment) g
   WHERE true
  ON CONFLICT (ck, ref_key, first_created) DO UPDATE SET last_created = excluded.last_created, labels = excluded.labels, worst_alert = excluded.worst_alert, first_start = excluded.first_start, state = excluded.state, product = excluded.product, modes = excluded.modes
   WHERE shipment_listing.last_created IS NOT excluded.last_created OR shipment_listing.labels IS NOT excluded.labels OR shipment_listing.worst_alert IS NOT excluded.worst_alert OR shipment_listing.first_start IS NOT excluded.first_start OR shipment_listing.state IS NOT excluded.state OR shipment_listing.product IS NOT excluded.product OR shipment_listing.modes IS NOT excluded.modes;
END;
CREATE TRIGGER shipment_listing_listing_reference AFTER UPDATE OF shipment_ref ON report_listing
WHEN OLD.shipment_ref IS NOT NEW.shipment_ref AND NOT EXISTS (SELECT 1 FROM shipment_grouping g WHERE g.ck = NEW.ck AND g.regrouping = 1) BEGIN
  DELETE FROM shipment_listing WHERE ck = OLD.ck AND ref_key = upper(replace(replace(replace(replace(replace(OLD.shipment_ref, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) AND first_created NOT IN (SELECT s.created FROM (SELECT l.created, unixepoch(l.created) - unixepoch(lag(l.created) OVER (ORDER BY l.created, l.id)) AS since
              FROM report_listing l WHERE l.ck = OLD.ck AND upper(replace(replace(replace(replace(replace(l.shipment_ref, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) = upper(replace(replace(replace(replace(replace(OLD.shipment_ref, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) AND l.shipment_ref <> '') s
     WHERE s.since IS NULL OR s.since > 5184000);
  INSERT INTO shipment_listing (ck, ref_key, first_created, last_created, labels, worst_alert, first_start, state, product, modes)
  SELECT g.*, (SELECT f.product FROM shipment_facts f WHERE f.company_id = (SELECT k.company_id FROM company_keys k WHERE k.ck = g.ck) AND f.shipment_id = g.ref_key || '@' || substr(g.first_created, 1, 10)), (SELECT (SELECT ',' || group_concat(DISTINCT j.value ->> '$.mode') || ',' FROM json_each(f.legs) j) FROM shipment_facts f WHERE f.company_id = (SELECT k.company_id FROM company_keys k WHERE k.ck = g.ck) AND f.shipment_id = g.ref_key || '@' || substr(g.first_created, 1, 10))
    FROM (SELECT q.ck, q.ref_key, min(q.created) AS first_created, max(q.created), count(*), max(q.alert_level), min(q.calc_start_time), CASE WHEN count(CASE WHEN q.decision = 'rejected' THEN 1 END) > 0 THEN 'rejected'
              WHEN count(CASE WHEN q.decision = 'onHold' THEN 1 END) > 0 THEN 'onHold'
              WHEN count(CASE WHEN q.alert_level >= 1 AND coalesce(q.acknowledged_level, -1) < q.alert_level THEN 1 END) > 0 THEN 'awaitingAcknowledgement'
              WHEN count(CASE WHEN q.decision = 'released' THEN 1 END) = count(*) THEN 'released' ELSE 'awaitingReview' END
            FROM (SELECT p.*, sum(p.begins) OVER (PARTITION BY p.ck, p.ref_key ORDER BY p.created, p.id) AS shipment
                    FROM (SELECT l.id, l.ck, upper(replace(replace(replace(replace(replace(l.shipment_ref, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) AS ref_key, l.created, l.calc_start_time, l.alert_level, r.decision, r.acknowledged_level,
                                 coalesce(unixepoch(l.created) - unixepoch(lag(l.created) OVER (ORDER BY l.created, l.id)) > 5184000, 1) AS begins
                            FROM report_listing l LEFT JOIN review_current r ON r.label_report_id = l.id AND r.company_id = (SELECT k.company_id FROM company_keys k WHERE k.ck = l.ck)
                           WHERE l.ck = OLD.ck AND upper(replace(replace(replace(replace(replace(l.shipment_ref, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) = upper(replace(replace(replace(replace(replace(OLD.shipment_ref, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) AND l.shipment_ref <> '') p) q
           GROUP BY q.ck, q.ref_key, q.shipment) g
   WHERE true
  ON CONFLICT (ck, ref_key, first_created) DO UPDATE SET last_created = excluded.last_created, labels = excluded.labels, worst_alert = excluded.worst_alert, first_start = excluded.first_start, state = excluded.state, product = excluded.product, modes = excluded.modes
   WHERE shipment_listing.last_created IS NOT excluded.last_created OR shipment_listing.labels IS NOT excluded.labels OR shipment_listing.worst_alert IS NOT excluded.worst_alert OR shipment_listing.first_start IS NOT excluded.first_start OR shipment_listing.state IS NOT excluded.state OR shipment_listing.product IS NOT excluded.product OR shipment_listing.modes IS NOT excluded.modes;
  DELETE FROM shipment_listing WHERE ck = NEW.ck AND ref_key = upper(replace(replace(replace(replace(replace(NEW.shipment_ref, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) AND first_created NOT IN (SELECT s.created FROM (SELECT l.created, unixepoch(l.created) - unixepoch(lag(l.created) OVER (ORDER BY l.created, l.id)) AS since
              FROM report_listing l WHERE l.ck = NEW.ck AND upper(replace(replace(replace(replace(replace(l.shipment_ref, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) = upper(replace(replace(replace(replace(replace(NEW.shipment_ref, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) AND l.shipment_ref <> '') s
     WHERE s.since IS NULL OR s.since > 5184000);
  INSERT INTO shipment_listing (ck, ref_key, first_created, last_created, labels, worst_alert, first_start, state, product, modes)
  SELECT g.*, (SELECT f.product FROM shipment_facts f WHERE f.company_id = (SELECT k.company_id FROM company_keys k WHERE k.ck = g.ck) AND f.shipment_id = g.ref_key || '@' || substr(g.first_created, 1, 10)), (SELECT (SELECT ',' || group_concat(DISTINCT j.value ->> '$.mode') || ',' FROM json_each(f.legs) j) FROM shipment_facts f WHERE f.company_id = (SELECT k.company_id FROM company_keys k WHERE k.ck = g.ck) AND f.shipment_id = g.ref_key || '@' || substr(g.first_created, 1, 10))
    FROM (SELECT q.ck, q.ref_key, min(q.created) AS first_created, max(q.created), count(*), max(q.alert_level), min(q.calc_start_time), CASE WHEN count(CASE WHEN q.decision = 'rejected' THEN 1 END) > 0 THEN 'rejected'
              WHEN count(CASE WHEN q.decision = 'onHold' THEN 1 END) > 0 THEN 'onHold'
              WHEN count(CASE WHEN q.alert_level >= 1 AND coalesce(q.acknowledged_level, -1) < q.alert_level THEN 1 END) > 0 THEN 'awaitingAcknowledgement'
              WHEN count(CASE WHEN q.decision = 'released' THEN 1 END) = count(*) THEN 'released' ELSE 'awaitingReview' END
            FROM (SELECT p.*, sum(p.begins) OVER (PARTITION BY p.ck, p.ref_key ORDER BY p.created, p.id) AS shipment
                    FROM (SELECT l.id, l.ck, upper(replace(replace(replace(replace(replace(l.shipment_ref, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) AS ref_key, l.created, l.calc_start_time, l.alert_level, r.decision, r.acknowledged_level,
                                 coalesce(unixepoch(l.created) - unixepoch(lag(l.created) OVER (ORDER BY l.created, l.id)) > 5184000, 1) AS begins
                            FROM report_listing l LEFT JOIN review_current r ON r.label_report_id = l.id AND r.company_id = (SELECT k.company_id FROM company_keys k WHERE k.ck = l.ck)
                           WHERE l.ck = NEW.ck AND upper(replace(replace(replace(replace(replace(l.shipment_ref, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) = upper(replace(replace(replace(replace(replace(NEW.shipment_ref, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) AND l.shipment_ref <> '') p) q
           GROUP BY q.ck, q.ref_key, q.shipment) g
   WHERE true
  ON CONFLICT (ck, ref_key, first_created) DO UPDATE SET last_created = excluded.last_created, labels = excluded.labels, worst_alert = excluded.worst_alert, first_start = excluded.first_start, state = excluded.state, product = excluded.product, modes = excluded.modes
   WHERE shipment_listing.last_created IS NOT excluded.last_created OR shipment_listing.labels IS NOT excluded.labels OR shipment_listing.worst_alert IS NOT excluded.worst_alert OR shipment_listing.first_start IS NOT excluded.first_start OR shipment_listing.state IS NOT excluded.state OR shipment_listing.product IS NOT excluded.product OR shipment_listing.modes IS NOT excluded.modes;
END;
CREATE TRIGGER shipment_listing_listing_figures AFTER UPDATE OF alert_level, created, calc_start_time ON report_listing
WHEN NEW.shipment_ref <> '' AND (OLD.alert_level IS NOT NEW.alert_level OR OLD.created IS NOT NEW.created OR OLD.calc_start_time IS NOT NEW.calc_start_time) BEGIN
  DELETE FROM shipment_listing WHERE ck = NEW.ck AND ref_key = upper(replace(replace(replace(replace(replace(NEW.shipment_ref, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) AND first_created NOT IN (SELECT s.created FROM (SELECT l.created, unixepoch(l.created) - unixepoch(lag(l.created) OVER (ORDER BY l.created, l.id)) AS since
              FROM report_listing l WHERE l.ck = NEW.ck AND upper(replace(replace(replace(replace(replace(l.shipment_ref, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) = upper(replace(replace(replace(replace(replace(NEW.shipment_ref, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) AND l.shipment_ref <> '') s
     WHERE s.since IS NULL OR s.since > 5184000);
  INSERT INTO shipment_listing (ck, ref_key, first_created, last_created, labels, worst_alert, first_start, state, product, modes)
  SELECT g.*, (SELECT f.product FROM shipment_facts f WHERE f.company_id = (SELECT k.company_id FROM company_keys k WHERE k.ck = g.ck) AND f.shipment_id = g.ref_key || '@' || substr(g.first_created, 1, 10)), (SELECT (SELECT ',' || group_concat(DISTINCT j.value ->> '$.mode') || ',' FROM json_each(f.legs) j) FROM shipment_facts f WHERE f.company_id = (SELECT k.company_id FROM company_keys k WHERE k.ck = g.ck) AND f.shipment_id = g.ref_key || '@' || substr(g.first_created, 1, 10))
    FROM (SELECT q.ck, q.ref_key, min(q.created) AS first_created, max(q.created), count(*), max(q.alert_level), min(q.calc_start_time), CASE WHEN count(CASE WHEN q.decision = 'rejected' THEN 1 END) > 0 THEN 'rejected'
              WHEN count(CASE WHEN q.decision = 'onHold' THEN 1 END) > 0 THEN 'onHold'
              WHEN count(CASE WHEN q.alert_level >= 1 AND coalesce(q.acknowledged_level, -1) < q.alert_level THEN 1 END) > 0 THEN 'awaitingAcknowledgement'
              WHEN count(CASE WHEN q.decision = 'released' THEN 1 END) = count(*) THEN 'released' ELSE 'awaitingReview' END
            FROM (SELECT p.*, sum(p.begins) OVER (PARTITION BY p.ck, p.ref_key ORDER BY p.created, p.id) AS shipment
                    FROM (SELECT l.id, l.ck, upper(replace(replace(replace(replace(replace(l.shipment_ref, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) AS ref_key, l.created, l.calc_start_time, l.alert_level, r.decision, r.acknowledged_level,
                                 coalesce(unixepoch(l.created) - unixepoch(lag(l.created) OVER (ORDER BY l.created, l.id)) > 5184000, 1) AS begins
                            FROM report_listing l LEFT JOIN review_current r ON r.label_report_id = l.id AND r.company_id = (SELECT k.company_id FROM company_keys k WHERE k.ck = l.ck)
                           WHERE l.ck = NEW.ck AND upper(replace(replace(replace(replace(replace(l.shipment_ref, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) = upper(replace(replace(replace(replace(replace(NEW.shipment_ref, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) AND l.shipment_ref <> '') p) q
           GROUP BY q.ck, q.ref_key, q.shipment) g
   WHERE true
  ON CONFLICT (ck, ref_key, first_created) DO UPDATE SET last_created = excluded.last_created, labels = excluded.labels, worst_alert = excluded.worst_alert, first_start = excluded.first_start, state = excluded.state, product = excluded.product, modes = excluded.modes
   WHERE shipment_listing.last_created IS NOT excluded.last_created OR shipment_listing.labels IS NOT excluded.labels OR shipment_listing.worst_alert IS NOT excluded.worst_alert OR shipment_listing.first_start IS NOT excluded.first_start OR shipment_listing.state IS NOT excluded.state OR shipment_listing.product IS NOT excluded.product OR shipment_listing.modes IS NOT excluded.modes;
END;
CREATE TRIGGER shipment_listing_review_insert AFTER INSERT ON review_current BEGIN
  DELETE FROM shipment_listing WHERE ck = (SELECT m.ck FROM report_listing m WHERE m.ck = (SELECT k.ck FROM company_keys k WHERE k.company_id = NEW.company_id) AND m.id = NEW.label_report_id AND m.shipment_ref <> '') AND ref_key = (SELECT upper(replace(replace(replace(replace(replace(m.shipment_ref, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) FROM report_listing m WHERE m.ck = (SELECT k.ck FROM company_keys k WHERE k.company_id = NEW.company_id) AND m.id = NEW.label_report_id AND m.shipment_ref <> '') AND first_created NOT IN (SELECT s.created FROM (SELECT l.created, unixepoch(l.created) - unixepoch(lag(l.created) OVER (ORDER BY l.created, l.id)) AS since
              FROM report_listing l WHERE l.ck = (SELECT m.ck FROM report_listing m WHERE m.ck = (SELECT k.ck FROM company_keys k WHERE k.company_id = NEW.company_id) AND m.id = NEW.label_report_id AND m.shipment_ref <> '') AND upper(replace(replace(replace(replace(replace(l.shipment_ref, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) = (SELECT upper(replace(replace(replace(replace(replace(m.shipment_ref, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) FROM report_listing m WHERE m.ck = (SELECT k.ck FROM company_keys k WHERE k.company_id = NEW.company_id) AND m.id = NEW.label_report_id AND m.shipment_ref <> '') AND l.shipment_ref <> '') s
     WHERE s.since IS NULL OR s.since > 5184000);
  INSERT INTO shipment_listing (ck, ref_key, first_created, last_created, labels, worst_alert, first_start, state, product, modes)
  SELECT g.*, (SELECT f.product FROM shipment_facts f WHERE f.company_id = (SELECT k.company_id FROM company_keys k WHERE k.ck = g.ck) AND f.shipment_id = g.ref_key || '@' || substr(g.first_created, 1, 10)), (SELECT (SELECT ',' || group_concat(DISTINCT j.value ->> '$.mode') || ',' FROM json_each(f.legs) j) FROM shipment_facts f WHERE f.company_id = (SELECT k.company_id FROM company_keys k WHERE k.ck = g.ck) AND f.shipment_id = g.ref_key || '@' || substr(g.first_created, 1, 10))
    FROM (SELECT q.ck, q.ref_key, min(q.created) AS first_created, max(q.created), count(*), max(q.alert_level), min(q.calc_start_time), CASE WHEN count(CASE WHEN q.decision = 'rejected' THEN 1 END) > 0 THEN 'rejected'
              WHEN count(CASE WHEN q.decision = 'onHold' THEN 1 END) > 0 THEN 'onHold'
              WHEN count(CASE WHEN q.alert_level >= 1 AND coalesce(q.acknowledged_level, -1) < q.alert_level THEN 1 END) > 0 THEN 'awaitingAcknowledgement'
              WHEN count(CASE WHEN q.decision = 'released' THEN 1 END) = count(*) THEN 'released' ELSE 'awaitingReview' END
            FROM (SELECT p.*, sum(p.begins) OVER (PARTITION BY p.ck, p.ref_key ORDER BY p.created, p.id) AS shipment
                    FROM (SELECT l.id, l.ck, upper(replace(replace(replace(replace(replace(l.shipment_ref, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) AS ref_key, l.created, l.calc_start_time, l.alert_level, r.decision, r.acknowledged_level,
                                 coalesce(unixepoch(l.created) - unixepoch(lag(l.created) OVER (ORDER BY l.created, l.id)) > 5184000, 1) AS begins
                            FROM report_listing l LEFT JOIN review_current r ON r.label_report_id = l.id AND r.company_id = (SELECT k.company_id FROM company_keys k WHERE k.ck = l.ck)
                           WHERE l.ck = (SELECT m.ck FROM report_listing m WHERE m.ck = (SELECT k.ck FROM company_keys k WHERE k.company_id = NEW.company_id) AND m.id = NEW.label_report_id AND m.shipment_ref <> '') AND upper(replace(replace(replace(replace(replace(l.shipment_ref, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) = (SELECT upper(replace(replace(replace(replace(replace(m.shipment_ref, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) FROM report_listing m WHERE m.ck = (SELECT k.ck FROM company_keys k WHERE k.company_id = NEW.company_id) AND m.id = NEW.label_report_id AND m.shipment_ref <> '') AND l.shipment_ref <> '') p) q
           GROUP BY q.ck, q.ref_key, q.shipment) g
   WHERE true
  ON CONFLICT (ck, ref_key, first_created) DO UPDATE SET last_created = excluded.last_created, labels = excluded.labels, worst_alert = excluded.worst_alert, first_start = excluded.first_start, state = excluded.state, product = excluded.product, modes = excluded.modes
   WHERE shipment_listing.last_created IS NOT excluded.last_created OR shipment_listing.labels IS NOT excluded.labels OR shipment_listing.worst_alert IS NOT excluded.worst_alert OR shipment_listing.first_start IS NOT excluded.first_start OR shipment_listing.state IS NOT excluded.state OR shipment_listing.product IS NOT excluded.product OR shipment_listing.modes IS NOT excluded.modes;
END;
CREATE TRIGGER shipment_listing_review_update AFTER UPDATE ON review_current BEGIN
  DELETE FROM shipment_listing WHERE ck = (SELECT m.ck FROM report_listing m WHERE m.ck = (SELECT k.ck FROM company_keys k WHERE k.company_id = NEW.company_id) AND m.id = NEW.label_report_id AND m.shipment_ref <> '') AND ref_key = (SELECT upper(replace(replace(replace(replace(replace(m.shipment_ref, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) FROM report_listing m WHERE m.ck = (SELECT k.ck FROM company_keys k WHERE k.company_id = NEW.company_id) AND m.id = NEW.label_report_id AND m.shipment_ref <> '') AND first_created NOT IN (SELECT s.created FROM (SELECT l.created, unixepoch(l.created) - unixepoch(lag(l.created) OVER (ORDER BY l.created, l.id)) AS since
              FROM report_listing l WHERE l.ck = (SELECT m.ck FROM report_listing m WHERE m.ck = (SELECT k.ck FROM company_keys k WHERE k.company_id = NEW.company_id) AND m.id = NEW.label_report_id AND m.shipment_ref <> '') AND upper(replace(replace(replace(replace(replace(l.shipment_ref, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) = (SELECT upper(replace(replace(replace(replace(replace(m.shipment_ref, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) FROM report_listing m WHERE m.ck = (SELECT k.ck FROM company_keys k WHERE k.company_id = NEW.company_id) AND m.id = NEW.label_report_id AND m.shipment_ref <> '') AND l.shipment_ref <> '') s
     WHERE s.since IS NULL OR s.since > 5184000);
  INSERT INTO shipment_listing (ck, ref_key, first_created, last_created, labels, worst_alert, first_start, state, product, modes)
  SELECT g.*, (SELECT f.product FROM shipment_facts f WHERE f.company_id = (SELECT k.company_id FROM company_keys k WHERE k.ck = g.ck) AND f.shipment_id = g.ref_key || '@' || substr(g.first_created, 1, 10)), (SELECT (SELECT ',' || group_concat(DISTINCT j.value ->> '$.mode') || ',' FROM json_each(f.legs) j) FROM shipment_facts f WHERE f.company_id = (SELECT k.company_id FROM company_keys k WHERE k.ck = g.ck) AND f.shipment_id = g.ref_key || '@' || substr(g.first_created, 1, 10))
    FROM (SELECT q.ck, q.ref_key, min(q.created) AS first_created, max(q.created), count(*), max(q.alert_level), min(q.calc_start_time), CASE WHEN count(CASE WHEN q.decision = 'rejected' THEN 1 END) > 0 THEN 'rejected'
              WHEN count(CASE WHEN q.decision = 'onHold' THEN 1 END) > 0 THEN 'onHold'
              WHEN count(CASE WHEN q.alert_level >= 1 AND coalesce(q.acknowledged_level, -1) < q.alert_level THEN 1 END) > 0 THEN 'awaitingAcknowledgement'
              WHEN count(CASE WHEN q.decision = 'released' THEN 1 END) = count(*) THEN 'released' ELSE 'awaitingReview' END
            FROM (SELECT p.*, sum(p.begins) OVER (PARTITION BY p.ck, p.ref_key ORDER BY p.created, p.id) AS shipment
                    FROM (SELECT l.id, l.ck, upper(replace(replace(replace(replace(replace(l.shipment_ref, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) AS ref_key, l.created, l.calc_start_time, l.alert_level, r.decision, r.acknowledged_level,
                                 coalesce(unixepoch(l.created) - unixepoch(lag(l.created) OVER (ORDER BY l.created, l.id)) > 5184000, 1) AS begins
                            FROM report_listing l LEFT JOIN review_current r ON r.label_report_id = l.id AND r.company_id = (SELECT k.company_id FROM company_keys k WHERE k.ck = l.ck)
                           WHERE l.ck = (SELECT m.ck FROM report_listing m WHERE m.ck = (SELECT k.ck FROM company_keys k WHERE k.company_id = NEW.company_id) AND m.id = NEW.label_report_id AND m.shipment_ref <> '') AND upper(replace(replace(replace(replace(replace(l.shipment_ref, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) = (SELECT upper(replace(replace(replace(replace(replace(m.shipment_ref, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) FROM report_listing m WHERE m.ck = (SELECT k.ck FROM company_keys k WHERE k.company_id = NEW.company_id) AND m.id = NEW.label_report_id AND m.shipment_ref <> '') AND l.shipment_ref <> '') p) q
           GROUP BY q.ck, q.ref_key, q.shipment) g
   WHERE true
  ON CONFLICT (ck, ref_key, first_created) DO UPDATE SET last_created = excluded.last_created, labels = excluded.labels, worst_alert = excluded.worst_alert, first_start = excluded.first_start, state = excluded.state, product = excluded.product, modes = excluded.modes
   WHERE shipment_listing.last_created IS NOT excluded.last_created OR shipment_listing.labels IS NOT excluded.labels OR shipment_listing.worst_alert IS NOT excluded.worst_alert OR shipment_listing.first_start IS NOT excluded.first_start OR shipment_listing.state IS NOT excluded.state OR shipment_listing.product IS NOT excluded.product OR shipment_listing.modes IS NOT excluded.modes;
END;
`;
