/**
 * Numbered, append-only: a shipped migration is never edited, a new one is added. Its SQL is
 * written out as it shipped and imports nothing; the live declarations are in db/read-model/.
 *
 * Shipments (docs/shipments.md): `shipment_groups`, the kept table the shipments list reads
 * (one row per company and reference key), with the index `listing_shipment` that finds a
 * reference's listing rows; the facts a company keeps on a shipment (`shipment_facts`) and
 * each change of them with its reason (`shipment_fact_changes`, only ever appended); the
 * signed shipment decisions, the review entry each wrote on each of its reports, and their
 * withdrawals.
 */
export default /* sql */ `
CREATE TABLE shipment_groups (
  ck             INTEGER NOT NULL,
  ref_key        TEXT NOT NULL,
  labels         INTEGER NOT NULL,
  worst_alert    INTEGER NOT NULL,
  first_created  TEXT NOT NULL,
  last_created   TEXT NOT NULL,
  span_seconds   INTEGER,
  first_start    ANY,
  released       INTEGER NOT NULL,
  rejected       INTEGER NOT NULL,
  on_hold        INTEGER NOT NULL,
  unacknowledged INTEGER NOT NULL,
  PRIMARY KEY (ck, ref_key)
) STRICT, WITHOUT ROWID;
CREATE INDEX listing_shipment ON report_listing (ck, upper(replace(replace(replace(replace(replace(label_reference, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), ''))) WHERE label_reference <> '';
CREATE INDEX shipment_groups_alert ON shipment_groups (ck, worst_alert, first_created);
CREATE INDEX shipment_groups_start ON shipment_groups (ck, first_start);
CREATE INDEX shipment_groups_created ON shipment_groups (ck, first_created);
CREATE INDEX shipment_groups_span ON shipment_groups (ck, span_seconds);
CREATE TRIGGER shipment_groups_listing_insert AFTER INSERT ON report_listing WHEN NEW.label_reference <> '' BEGIN
  DELETE FROM shipment_groups WHERE ck = NEW.ck AND ref_key = upper(replace(replace(replace(replace(replace(NEW.label_reference, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), ''));
  INSERT INTO shipment_groups (ck, ref_key, labels, worst_alert, first_created, last_created, span_seconds, first_start, released, rejected, on_hold, unacknowledged)
  SELECT l.ck, upper(replace(replace(replace(replace(replace(l.label_reference, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')), count(*), max(l.alert_level), min(l.created), max(l.created), unixepoch(max(l.created)) - unixepoch(min(l.created)), min(l.calc_start_time),
         count(CASE WHEN r.decision = 'released' THEN 1 END), count(CASE WHEN r.decision = 'rejected' THEN 1 END), count(CASE WHEN r.decision = 'onHold' THEN 1 END),
         count(CASE WHEN l.alert_level >= 1 AND coalesce(r.acknowledged_level, -1) < l.alert_level THEN 1 END)
    FROM report_listing l LEFT JOIN review_current r ON r.label_report_id = l.id AND r.company_id = (SELECT k.company_id FROM company_keys k WHERE k.ck = l.ck)
   WHERE l.ck = NEW.ck AND upper(replace(replace(replace(replace(replace(l.label_reference, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) = upper(replace(replace(replace(replace(replace(NEW.label_reference, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) AND l.label_reference <> ''
   GROUP BY l.ck;
END;
CREATE TRIGGER shipment_groups_listing_delete AFTER DELETE ON report_listing WHEN OLD.label_reference <> '' BEGIN
  DELETE FROM shipment_groups WHERE ck = OLD.ck AND ref_key = upper(replace(replace(replace(replace(replace(OLD.label_reference, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), ''));
  INSERT INTO shipment_groups (ck, ref_key, labels, worst_alert, first_created, last_created, span_seconds, first_start, released, rejected, on_hold, unacknowledged)
  SELECT l.ck, upper(replace(replace(replace(replace(replace(l.label_reference, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')), count(*), max(l.alert_level), min(l.created), max(l.created), unixepoch(max(l.created)) - unixepoch(min(l.created)), min(l.calc_start_time),
         count(CASE WHEN r.decision = 'released' THEN 1 END), count(CASE WHEN r.decision = 'rejected' THEN 1 END), count(CASE WHEN r.decision = 'onHold' THEN 1 END),
         count(CASE WHEN l.alert_level >= 1 AND coalesce(r.acknowledged_level, -1) < l.alert_level THEN 1 END)
    FROM report_listing l LEFT JOIN review_current r ON r.label_report_id = l.id AND r.company_id = (SELECT k.company_id FROM company_keys k WHERE k.ck = l.ck)
   WHERE l.ck = OLD.ck AND upper(replace(replace(replace(replace(replace(l.label_reference, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) = upper(replace(replace(replace(replace(replace(OLD.label_reference, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) AND l.label_reference <> ''
   GROUP BY l.ck;
END;
CREATE TRIGGER shipment_groups_listing_reference AFTER UPDATE OF label_reference ON report_listing WHEN OLD.label_reference IS NOT NEW.label_reference BEGIN
  DELETE FROM shipment_groups WHERE ck = OLD.ck AND ref_key = upper(replace(replace(replace(replace(replace(OLD.label_reference, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), ''));
  INSERT INTO shipment_groups (ck, ref_key, labels, worst_alert, first_created, last_created, span_seconds, first_start, released, rejected, on_hold, unacknowledged)
  SELECT l.ck, upper(replace(replace(replace(replace(replace(l.label_reference, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')), count(*), max(l.alert_level), min(l.created), max(l.created), unixepoch(max(l.created)) - unixepoch(min(l.created)), min(l.calc_start_time),
         count(CASE WHEN r.decision = 'released' THEN 1 END), count(CASE WHEN r.decision = 'rejected' THEN 1 END), count(CASE WHEN r.decision = 'onHold' THEN 1 END),
         count(CASE WHEN l.alert_level >= 1 AND coalesce(r.acknowledged_level, -1) < l.alert_level THEN 1 END)
    FROM report_listing l LEFT JOIN review_current r ON r.label_report_id = l.id AND r.company_id = (SELECT k.company_id FROM company_keys k WHERE k.ck = l.ck)
   WHERE l.ck = OLD.ck AND upper(replace(replace(replace(replace(replace(l.label_reference, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) = upper(replace(replace(replace(replace(replace(OLD.label_reference, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) AND l.label_reference <> ''
   GROUP BY l.ck;
  DELETE FROM shipment_groups WHERE ck = NEW.ck AND ref_key = upper(replace(replace(replace(replace(replace(NEW.label_reference, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), ''));
  INSERT INTO shipment_groups (ck, ref_key, labels, worst_alert, first_created, last_created, span_seconds, first_start, released, rejected, on_hold, unacknowledged)
  SELECT l.ck, upper(replace(replace(replace(replace(replace(l.label_reference, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')), count(*), max(l.alert_level), min(l.created), max(l.created), unixepoch(max(l.created)) - unixepoch(min(l.created)), min(l.calc_start_time),
         count(CASE WHEN r.decision = 'released' THEN 1 END), count(CASE WHEN r.decision = 'rejected' THEN 1 END), count(CASE WHEN r.decision = 'onHold' THEN 1 END),
         count(CASE WHEN l.alert_level >= 1 AND coalesce(r.acknowledged_level, -1) < l.alert_level THEN 1 END)
    FROM report_listing l LEFT JOIN review_current r ON r.label_report_id = l.id AND r.company_id = (SELECT k.company_id FROM company_keys k WHERE k.ck = l.ck)
   WHERE l.ck = NEW.ck AND upper(replace(replace(replace(replace(replace(l.label_reference, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) = upper(replace(replace(replace(replace(replace(NEW.label_reference, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) AND l.label_reference <> ''
   GROUP BY l.ck;
END;
CREATE TRIGGER shipment_groups_listing_figures AFTER UPDATE OF alert_level, created, calc_start_time ON report_listing
WHEN NEW.label_reference <> '' AND (OLD.alert_level IS NOT NEW.alert_level OR OLD.created IS NOT NEW.created OR OLD.calc_start_time IS NOT NEW.calc_start_time) BEGIN
  DELETE FROM shipment_groups WHERE ck = NEW.ck AND ref_key = upper(replace(replace(replace(replace(replace(NEW.label_reference, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), ''));
  INSERT INTO shipment_groups (ck, ref_key, labels, worst_alert, first_created, last_created, span_seconds, first_start, released, rejected, on_hold, unacknowledged)
  SELECT l.ck, upper(replace(replace(replace(replace(replace(l.label_reference, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')), count(*), max(l.alert_level), min(l.created), max(l.created), unixepoch(max(l.created)) - unixepoch(min(l.created)), min(l.calc_start_time),
         count(CASE WHEN r.decision = 'released' THEN 1 END), count(CASE WHEN r.decision = 'rejected' THEN 1 END), count(CASE WHEN r.decision = 'onHold' THEN 1 END),
         count(CASE WHEN l.alert_level >= 1 AND coalesce(r.acknowledged_level, -1) < l.alert_level THEN 1 END)
    FROM report_listing l LEFT JOIN review_current r ON r.label_report_id = l.id AND r.company_id = (SELECT k.company_id FROM company_keys k WHERE k.ck = l.ck)
   WHERE l.ck = NEW.ck AND upper(replace(replace(replace(replace(replace(l.label_reference, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) = upper(replace(replace(replace(replace(replace(NEW.label_reference, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) AND l.label_reference <> ''
   GROUP BY l.ck;
END;
CREATE TRIGGER shipment_groups_review_insert AFTER INSERT ON review_current BEGIN
  DELETE FROM shipment_groups WHERE ck = (SELECT m.ck FROM report_listing m WHERE m.ck = (SELECT k.ck FROM company_keys k WHERE k.company_id = NEW.company_id) AND m.id = NEW.label_report_id AND m.label_reference <> '') AND ref_key = (SELECT upper(replace(replace(replace(replace(replace(m.label_reference, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) FROM report_listing m WHERE m.ck = (SELECT k.ck FROM company_keys k WHERE k.company_id = NEW.company_id) AND m.id = NEW.label_report_id AND m.label_reference <> '');
  INSERT INTO shipment_groups (ck, ref_key, labels, worst_alert, first_created, last_created, span_seconds, first_start, released, rejected, on_hold, unacknowledged)
  SELECT l.ck, upper(replace(replace(replace(replace(replace(l.label_reference, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')), count(*), max(l.alert_level), min(l.created), max(l.created), unixepoch(max(l.created)) - unixepoch(min(l.created)), min(l.calc_start_time),
         count(CASE WHEN r.decision = 'released' THEN 1 END), count(CASE WHEN r.decision = 'rejected' THEN 1 END), count(CASE WHEN r.decision = 'onHold' THEN 1 END),
         count(CASE WHEN l.alert_level >= 1 AND coalesce(r.acknowledged_level, -1) < l.alert_level THEN 1 END)
    FROM report_listing l LEFT JOIN review_current r ON r.label_report_id = l.id AND r.company_id = (SELECT k.company_id FROM company_keys k WHERE k.ck = l.ck)
   WHERE l.ck = (SELECT m.ck FROM report_listing m WHERE m.ck = (SELECT k.ck FROM company_keys k WHERE k.company_id = NEW.company_id) AND m.id = NEW.label_report_id AND m.label_reference <> '') AND upper(replace(replace(replace(replace(replace(l.label_reference, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) = (SELECT upper(replace(replace(replace(replace(replace(m.label_reference, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) FROM report_listing m WHERE m.ck = (SELECT k.ck FROM company_keys k WHERE k.company_id = NEW.company_id) AND m.id = NEW.label_report_id AND m.label_reference <> '') AND l.label_reference <> ''
   GROUP BY l.ck;
END;
CREATE TRIGGER shipment_groups_review_update AFTER UPDATE ON review_current BEGIN
  DELETE FROM shipment_groups WHERE ck = (SELECT m.ck FROM report_listing m WHERE m.ck = (SELECT k.ck FROM company_keys k WHERE k.company_id = NEW.company_id) AND m.id = NEW.label_report_id AND m.label_reference <> '') AND ref_key = (SELECT upper(replace(replace(replace(replace(replace(m.label_reference, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) FROM report_listing m WHERE m.ck = (SELECT k.ck FROM company_keys k WHERE k.company_id = NEW.company_id) AND m.id = NEW.label_report_id AND m.label_reference <> '');
  INSERT INTO shipment_groups (ck, ref_key, labels, worst_alert, first_created, last_created, span_seconds, first_start, released, rejected, on_hold, unacknowledged)
  SELECT l.ck, upper(replace(replace(replace(replace(replace(l.label_reference, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')), count(*), max(l.alert_level), min(l.created), max(l.created), unixepoch(max(l.created)) - unixepoch(min(l.created)), min(l.calc_start_time),
         count(CASE WHEN r.decision = 'released' THEN 1 END), count(CASE WHEN r.decision = 'rejected' THEN 1 END), count(CASE WHEN r.decision = 'onHold' THEN 1 END),
         count(CASE WHEN l.alert_level >= 1 AND coalesce(r.acknowledged_level, -1) < l.alert_level THEN 1 END)
    FROM report_listing l LEFT JOIN review_current r ON r.label_report_id = l.id AND r.company_id = (SELECT k.company_id FROM company_keys k WHERE k.ck = l.ck)
   WHERE l.ck = (SELECT m.ck FROM report_listing m WHERE m.ck = (SELECT k.ck FROM company_keys k WHERE k.company_id = NEW.company_id) AND m.id = NEW.label_report_id AND m.label_reference <> '') AND upper(replace(replace(replace(replace(replace(l.label_reference, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) = (SELECT upper(replace(replace(replace(replace(replace(m.label_reference, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) FROM report_listing m WHERE m.ck = (SELECT k.ck FROM company_keys k WHERE k.company_id = NEW.company_id) AND m.id = NEW.label_report_id AND m.label_reference <> '') AND l.label_reference <> ''
   GROUP BY l.ck;
END;
CREATE TABLE shipment_facts (
  company_id  TEXT NOT NULL,
  shipment_id TEXT NOT NULL,
  origin      TEXT,
  destination TEXT,
  product     TEXT,
  legs        TEXT NOT NULL DEFAULT '[]',
  budget      TEXT NOT NULL DEFAULT '[]',
  updated     TEXT NOT NULL,
  PRIMARY KEY (company_id, shipment_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX shipment_facts_product ON shipment_facts (company_id, product);
CREATE TABLE shipment_fact_changes (
  id           INTEGER PRIMARY KEY,
  company_id   TEXT NOT NULL,
  shipment_id  TEXT NOT NULL,
  changes      TEXT NOT NULL,
  reason       TEXT NOT NULL,
  api_key_id   TEXT,
  api_key_name TEXT,
  user_id      TEXT,
  user_login   TEXT,
  user_name    TEXT,
  at           TEXT NOT NULL
) STRICT;
CREATE INDEX shipment_fact_changes_of ON shipment_fact_changes (company_id, shipment_id, id);
CREATE TABLE shipment_decisions (
  id           INTEGER PRIMARY KEY,
  company_id   TEXT NOT NULL,
  shipment_id  TEXT NOT NULL,
  decision     TEXT NOT NULL CHECK (decision IN ('released', 'rejected', 'onHold')),
  reason       TEXT NOT NULL,
  api_key_id   TEXT,
  api_key_name TEXT,
  user_id      TEXT,
  user_login   TEXT,
  user_name    TEXT,
  meaning      TEXT,
  zone         TEXT,
  at           TEXT NOT NULL
) STRICT;
CREATE INDEX shipment_decisions_of ON shipment_decisions (company_id, shipment_id, id);
CREATE TABLE shipment_decision_reports (
  decision_id     INTEGER NOT NULL REFERENCES shipment_decisions(id),
  label_report_id TEXT NOT NULL,
  review_entry_id INTEGER NOT NULL,
  PRIMARY KEY (decision_id, label_report_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX shipment_decision_reports_entry ON shipment_decision_reports (review_entry_id);
CREATE TABLE shipment_decision_withdrawals (
  decision_id     INTEGER PRIMARY KEY REFERENCES shipment_decisions(id),
  label_report_id TEXT NOT NULL,
  text            TEXT NOT NULL,
  at              TEXT NOT NULL
) STRICT;
DELETE FROM shipment_groups;
INSERT INTO shipment_groups (ck, ref_key, labels, worst_alert, first_created, last_created, span_seconds, first_start, released, rejected, on_hold, unacknowledged)
  SELECT l.ck, upper(replace(replace(replace(replace(replace(l.label_reference, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')), count(*), max(l.alert_level), min(l.created), max(l.created), unixepoch(max(l.created)) - unixepoch(min(l.created)), min(l.calc_start_time),
         count(CASE WHEN r.decision = 'released' THEN 1 END), count(CASE WHEN r.decision = 'rejected' THEN 1 END), count(CASE WHEN r.decision = 'onHold' THEN 1 END),
         count(CASE WHEN l.alert_level >= 1 AND coalesce(r.acknowledged_level, -1) < l.alert_level THEN 1 END)
    FROM report_listing l LEFT JOIN review_current r ON r.label_report_id = l.id AND r.company_id = (SELECT k.company_id FROM company_keys k WHERE k.ck = l.ck)
   WHERE l.label_reference <> ''
   GROUP BY l.ck, upper(replace(replace(replace(replace(replace(l.label_reference, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), ''));
`;
