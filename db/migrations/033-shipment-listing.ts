/**
 * Numbered, append-only: a shipped migration is never edited, a new one is added. Its SQL is
 * written out as it shipped and imports nothing; the live declarations are in db/read-model/.
 *
 * Shipment listing (docs/shipments.md#at-scale): `shipment_listing`, one kept row per shipment
 * (a company's reference key and the first creation of its run), in place of migration 30's
 * `shipment_groups`, one row per reference key that the list cut at the gap when it read it.
 * Each row holds what the list filters and sorts by, each with its index: the labels, the worst
 * alert, the first start, the review state, the product and the leg modes of its facts. The
 * index `listing_shipment` stays: the rows of a reference key are made again from it.
 */
export default /* sql */ `
DROP TRIGGER shipment_groups_listing_insert;
DROP TRIGGER shipment_groups_listing_delete;
DROP TRIGGER shipment_groups_listing_reference;
DROP TRIGGER shipment_groups_listing_figures;
DROP TRIGGER shipment_groups_review_insert;
DROP TRIGGER shipment_groups_review_update;
DROP TABLE shipment_groups;
CREATE TABLE shipment_listing (
  ck            INTEGER NOT NULL,
  ref_key       TEXT NOT NULL,
  first_created TEXT NOT NULL,
  last_created  TEXT NOT NULL,
  labels        INTEGER NOT NULL,
  worst_alert   INTEGER NOT NULL,
  first_start   ANY,
  state         TEXT NOT NULL,
  product       TEXT COLLATE NOCASE,
  modes         TEXT,
  PRIMARY KEY (ck, ref_key, first_created)
) STRICT, WITHOUT ROWID;
CREATE INDEX shipment_listing_created ON shipment_listing (ck, first_created);
CREATE INDEX shipment_listing_alert ON shipment_listing (ck, worst_alert, first_created);
CREATE INDEX shipment_listing_state ON shipment_listing (ck, state, first_created);
CREATE INDEX shipment_listing_labels ON shipment_listing (ck, labels, first_created);
CREATE INDEX shipment_listing_start ON shipment_listing (ck, first_start, first_created);
CREATE INDEX shipment_listing_start_first ON shipment_listing (ck, first_start IS NULL, first_start, first_created);
CREATE INDEX shipment_listing_product ON shipment_listing (ck, product, first_created) WHERE product IS NOT NULL;
CREATE INDEX shipment_listing_modes ON shipment_listing (ck, first_created, modes) WHERE modes IS NOT NULL;
CREATE TRIGGER shipment_listing_listing_insert AFTER INSERT ON report_listing WHEN NEW.label_reference <> '' BEGIN
  DELETE FROM shipment_listing WHERE ck = NEW.ck AND ref_key = upper(replace(replace(replace(replace(replace(NEW.label_reference, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) AND first_created NOT IN (SELECT s.created FROM (SELECT l.created, unixepoch(l.created) - unixepoch(lag(l.created) OVER (ORDER BY l.created, l.id)) AS since
              FROM report_listing l WHERE l.ck = NEW.ck AND upper(replace(replace(replace(replace(replace(l.label_reference, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) = upper(replace(replace(replace(replace(replace(NEW.label_reference, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) AND l.label_reference <> '') s
     WHERE s.since IS NULL OR s.since > 5184000);
  INSERT INTO shipment_listing (ck, ref_key, first_created, last_created, labels, worst_alert, first_start, state, product, modes)
  SELECT g.*, (SELECT f.product FROM shipment_facts f WHERE f.company_id = (SELECT k.company_id FROM company_keys k WHERE k.ck = g.ck) AND f.shipment_id = g.ref_key || '@' || substr(g.first_created, 1, 10)), (SELECT (SELECT ',' || group_concat(DISTINCT j.value ->> '$.mode') || ',' FROM json_each(f.legs) j) FROM shipment_facts f WHERE f.company_id = (SELECT k.company_id FROM company_keys k WHERE k.ck = g.ck) AND f.shipment_id = g.ref_key || '@' || substr(g.first_created, 1, 10))
    FROM (SELECT q.ck, q.ref_key, min(q.created) AS first_created, max(q.created), count(*), max(q.alert_level), min(q.calc_start_time), CASE WHEN count(CASE WHEN q.decision = 'rejected' THEN 1 END) > 0 THEN 'rejected'
              WHEN count(CASE WHEN q.decision = 'onHold' THEN 1 END) > 0 THEN 'onHold'
              WHEN count(CASE WHEN q.alert_level >= 1 AND coalesce(q.acknowledged_level, -1) < q.alert_level THEN 1 END) > 0 THEN 'awaitingAcknowledgement'
              WHEN count(CASE WHEN q.decision = 'released' THEN 1 END) = count(*) THEN 'released' ELSE 'awaitingReview' END
            FROM (SELECT p.*, sum(p.begins) OVER (PARTITION BY p.ck, p.ref_key ORDER BY p.created, p.id) AS shipment
                    FROM (SELECT l.id, l.ck, upper(replace(replace(replace(replace(replace(l.label_reference, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) AS ref_key, l.created, l.calc_start_time, l.alert_level, r.decision, r.acknowledged_level,
                                 coalesce(unixepoch(l.created) - unixepoch(lag(l.created) OVER (ORDER BY l.created, l.id)) > 5184000, 1) AS begins
                            FROM report_listing l LEFT JOIN review_current r ON r.label_report_id = l.id AND r.company_id = (SELECT k.company_id FROM company_keys k WHERE k.ck = l.ck)
                           WHERE l.ck = NEW.ck AND upper(replace(replace(replace(replace(replace(l.label_reference, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) = upper(replace(replace(replace(replace(replace(NEW.label_reference, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) AND l.label_reference <> '') p) q
           GROUP BY q.ck, q.ref_key, q.shipment) g
   WHERE true
  ON CONFLICT (ck, ref_key, first_created) DO UPDATE SET last_created = excluded.last_created, labels = excluded.labels, worst_alert = excluded.worst_alert, first_start = excluded.first_start, state = excluded.state, product = excluded.product, modes = excluded.modes
   WHERE shipment_listing.last_created IS NOT excluded.last_created OR shipment_listing.labels IS NOT excluded.labels OR shipment_listing.worst_alert IS NOT excluded.worst_alert OR shipment_listing.first_start IS NOT excluded.first_start OR shipment_listing.state IS NOT excluded.state OR shipment_listing.product IS NOT excluded.product OR shipment_listing.modes IS NOT excluded.modes;
END;
CREATE TRIGGER shipment_listing_listing_delete AFTER DELETE ON report_listing WHEN OLD.label_reference <> '' BEGIN
  DELETE FROM shipment_listing WHERE ck = OLD.ck AND ref_key = upper(replace(replace(replace(replace(replace(OLD.label_reference, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) AND first_created NOT IN (SELECT s.created FROM (SELECT l.created, unixepoch(l.created) - unixepoch(lag(l.created) OVER (ORDER BY l.created, l.id)) AS since
              FROM report_listing l WHERE l.ck = OLD.ck AND upper(replace(replace(replace(replace(replace(l.label_reference, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) = upper(replace(replace(replace(replace(replace(OLD.label_reference, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) AND l.label_reference <> '') s
     WHERE s.since IS NULL OR s.since > 5184000);
  INSERT INTO shipment_listing (ck, ref_key, first_created, last_created, labels, worst_alert, first_start, state, product, modes)
  SELECT g.*, (SELECT f.product FROM shipment_facts f WHERE f.company_id = (SELECT k.company_id FROM company_keys k WHERE k.ck = g.ck) AND f.shipment_id = g.ref_key || '@' || substr(g.first_created, 1, 10)), (SELECT (SELECT ',' || group_concat(DISTINCT j.value ->> '$.mode') || ',' FROM json_each(f.legs) j) FROM shipment_facts f WHERE f.company_id = (SELECT k.company_id FROM company_keys k WHERE k.ck = g.ck) AND f.shipment_id = g.ref_key || '@' || substr(g.first_created, 1, 10))
    FROM (SELECT q.ck, q.ref_key, min(q.created) AS first_created, max(q.created), count(*), max(q.alert_level), min(q.calc_start_time), CASE WHEN count(CASE WHEN q.decision = 'rejected' THEN 1 END) > 0 THEN 'rejected'
              WHEN count(CASE WHEN q.decision = 'onHold' THEN 1 END) > 0 THEN 'onHold'
              WHEN count(CASE WHEN q.alert_level >= 1 AND coalesce(q.acknowledged_level, -1) < q.alert_level THEN 1 END) > 0 THEN 'awaitingAcknowledgement'
              WHEN count(CASE WHEN q.decision = 'released' THEN 1 END) = count(*) THEN 'released' ELSE 'awaitingReview' END
            FROM (SELECT p.*, sum(p.begins) OVER (PARTITION BY p.ck, p.ref_key ORDER BY p.created, p.id) AS shipment
                    FROM (SELECT l.id, l.ck, upper(replace(replace(replace(replace(replace(l.label_reference, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) AS ref_key, l.created, l.calc_start_time, l.alert_level, r.decision, r.acknowledged_level,
                                 coalesce(unixepoch(l.created) - unixepoch(lag(l.created) OVER (ORDER BY l.created, l.id)) > 5184000, 1) AS begins
                            FROM report_listing l LEFT JOIN review_current r ON r.label_report_id = l.id AND r.company_id = (SELECT k.company_id FROM company_keys k WHERE k.ck = l.ck)
                           WHERE l.ck = OLD.ck AND upper(replace(replace(replace(replace(replace(l.label_reference, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) = upper(replace(replace(replace(replace(replace(OLD.label_reference, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) AND l.label_reference <> '') p) q
           GROUP BY q.ck, q.ref_key, q.shipment) g
   WHERE true
  ON CONFLICT (ck, ref_key, first_created) DO UPDATE SET last_created = excluded.last_created, labels = excluded.labels, worst_alert = excluded.worst_alert, first_start = excluded.first_start, state = excluded.state, product = excluded.product, modes = excluded.modes
   WHERE shipment_listing.last_created IS NOT excluded.last_created OR shipment_listing.labels IS NOT excluded.labels OR shipment_listing.worst_alert IS NOT excluded.worst_alert OR shipment_listing.first_start IS NOT excluded.first_start OR shipment_listing.state IS NOT excluded.state OR shipment_listing.product IS NOT excluded.product OR shipment_listing.modes IS NOT excluded.modes;
END;
CREATE TRIGGER shipment_listing_listing_reference AFTER UPDATE OF label_reference ON report_listing WHEN OLD.label_reference IS NOT NEW.label_reference BEGIN
  DELETE FROM shipment_listing WHERE ck = OLD.ck AND ref_key = upper(replace(replace(replace(replace(replace(OLD.label_reference, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) AND first_created NOT IN (SELECT s.created FROM (SELECT l.created, unixepoch(l.created) - unixepoch(lag(l.created) OVER (ORDER BY l.created, l.id)) AS since
              FROM report_listing l WHERE l.ck = OLD.ck AND upper(replace(replace(replace(replace(replace(l.label_reference, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) = upper(replace(replace(replace(replace(replace(OLD.label_reference, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) AND l.label_reference <> '') s
     WHERE s.since IS NULL OR s.since > 5184000);
  INSERT INTO shipment_listing (ck, ref_key, first_created, last_created, labels, worst_alert, first_start, state, product, modes)
  SELECT g.*, (SELECT f.product FROM shipment_facts f WHERE f.company_id = (SELECT k.company_id FROM company_keys k WHERE k.ck = g.ck) AND f.shipment_id = g.ref_key || '@' || substr(g.first_created, 1, 10)), (SELECT (SELECT ',' || group_concat(DISTINCT j.value ->> '$.mode') || ',' FROM json_each(f.legs) j) FROM shipment_facts f WHERE f.company_id = (SELECT k.company_id FROM company_keys k WHERE k.ck = g.ck) AND f.shipment_id = g.ref_key || '@' || substr(g.first_created, 1, 10))
    FROM (SELECT q.ck, q.ref_key, min(q.created) AS first_created, max(q.created), count(*), max(q.alert_level), min(q.calc_start_time), CASE WHEN count(CASE WHEN q.decision = 'rejected' THEN 1 END) > 0 THEN 'rejected'
              WHEN count(CASE WHEN q.decision = 'onHold' THEN 1 END) > 0 THEN 'onHold'
              WHEN count(CASE WHEN q.alert_level >= 1 AND coalesce(q.acknowledged_level, -1) < q.alert_level THEN 1 END) > 0 THEN 'awaitingAcknowledgement'
              WHEN count(CASE WHEN q.decision = 'released' THEN 1 END) = count(*) THEN 'released' ELSE 'awaitingReview' END
            FROM (SELECT p.*, sum(p.begins) OVER (PARTITION BY p.ck, p.ref_key ORDER BY p.created, p.id) AS shipment
                    FROM (SELECT l.id, l.ck, upper(replace(replace(replace(replace(replace(l.label_reference, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) AS ref_key, l.created, l.calc_start_time, l.alert_level, r.decision, r.acknowledged_level,
                                 coalesce(unixepoch(l.created) - unixepoch(lag(l.created) OVER (ORDER BY l.created, l.id)) > 5184000, 1) AS begins
                            FROM report_listing l LEFT JOIN review_current r ON r.label_report_id = l.id AND r.company_id = (SELECT k.company_id FROM company_keys k WHERE k.ck = l.ck)
                           WHERE l.ck = OLD.ck AND upper(replace(replace(replace(replace(replace(l.label_reference, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) = upper(replace(replace(replace(replace(replace(OLD.label_reference, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) AND l.label_reference <> '') p) q
           GROUP BY q.ck, q.ref_key, q.shipment) g
   WHERE true
  ON CONFLICT (ck, ref_key, first_created) DO UPDATE SET last_created = excluded.last_created, labels = excluded.labels, worst_alert = excluded.worst_alert, first_start = excluded.first_start, state = excluded.state, product = excluded.product, modes = excluded.modes
   WHERE shipment_listing.last_created IS NOT excluded.last_created OR shipment_listing.labels IS NOT excluded.labels OR shipment_listing.worst_alert IS NOT excluded.worst_alert OR shipment_listing.first_start IS NOT excluded.first_start OR shipment_listing.state IS NOT excluded.state OR shipment_listing.product IS NOT excluded.product OR shipment_listing.modes IS NOT excluded.modes;
  DELETE FROM shipment_listing WHERE ck = NEW.ck AND ref_key = upper(replace(replace(replace(replace(replace(NEW.label_reference, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) AND first_created NOT IN (SELECT s.created FROM (SELECT l.created, unixepoch(l.created) - unixepoch(lag(l.created) OVER (ORDER BY l.created, l.id)) AS since
              FROM report_listing l WHERE l.ck = NEW.ck AND upper(replace(replace(replace(replace(replace(l.label_reference, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) = upper(replace(replace(replace(replace(replace(NEW.label_reference, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) AND l.label_reference <> '') s
     WHERE s.since IS NULL OR s.since > 5184000);
  INSERT INTO shipment_listing (ck, ref_key, first_created, last_created, labels, worst_alert, first_start, state, product, modes)
  SELECT g.*, (SELECT f.product FROM shipment_facts f WHERE f.company_id = (SELECT k.company_id FROM company_keys k WHERE k.ck = g.ck) AND f.shipment_id = g.ref_key || '@' || substr(g.first_created, 1, 10)), (SELECT (SELECT ',' || group_concat(DISTINCT j.value ->> '$.mode') || ',' FROM json_each(f.legs) j) FROM shipment_facts f WHERE f.company_id = (SELECT k.company_id FROM company_keys k WHERE k.ck = g.ck) AND f.shipment_id = g.ref_key || '@' || substr(g.first_created, 1, 10))
    FROM (SELECT q.ck, q.ref_key, min(q.created) AS first_created, max(q.created), count(*), max(q.alert_level), min(q.calc_start_time), CASE WHEN count(CASE WHEN q.decision = 'rejected' THEN 1 END) > 0 THEN 'rejected'
              WHEN count(CASE WHEN q.decision = 'onHold' THEN 1 END) > 0 THEN 'onHold'
              WHEN count(CASE WHEN q.alert_level >= 1 AND coalesce(q.acknowledged_level, -1) < q.alert_level THEN 1 END) > 0 THEN 'awaitingAcknowledgement'
              WHEN count(CASE WHEN q.decision = 'released' THEN 1 END) = count(*) THEN 'released' ELSE 'awaitingReview' END
            FROM (SELECT p.*, sum(p.begins) OVER (PARTITION BY p.ck, p.ref_key ORDER BY p.created, p.id) AS shipment
                    FROM (SELECT l.id, l.ck, upper(replace(replace(replace(replace(replace(l.label_reference, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) AS ref_key, l.created, l.calc_start_time, l.alert_level, r.decision, r.acknowledged_level,
                                 coalesce(unixepoch(l.created) - unixepoch(lag(l.created) OVER (ORDER BY l.created, l.id)) > 5184000, 1) AS begins
                            FROM report_listing l LEFT JOIN review_current r ON r.label_report_id = l.id AND r.company_id = (SELECT k.company_id FROM company_keys k WHERE k.ck = l.ck)
                           WHERE l.ck = NEW.ck AND upper(replace(replace(replace(replace(replace(l.label_reference, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) = upper(replace(replace(replace(replace(replace(NEW.label_reference, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) AND l.label_reference <> '') p) q
           GROUP BY q.ck, q.ref_key, q.shipment) g
   WHERE true
  ON CONFLICT (ck, ref_key, first_created) DO UPDATE SET last_created = excluded.last_created, labels = excluded.labels, worst_alert = excluded.worst_alert, first_start = excluded.first_start, state = excluded.state, product = excluded.product, modes = excluded.modes
   WHERE shipment_listing.last_created IS NOT excluded.last_created OR shipment_listing.labels IS NOT excluded.labels OR shipment_listing.worst_alert IS NOT excluded.worst_alert OR shipment_listing.first_start IS NOT excluded.first_start OR shipment_listing.state IS NOT excluded.state OR shipment_listing.product IS NOT excluded.product OR shipment_listing.modes IS NOT excluded.modes;
END;
CREATE TRIGGER shipment_listing_listing_figures AFTER UPDATE OF alert_level, created, calc_start_time ON report_listing
WHEN NEW.label_reference <> '' AND (OLD.alert_level IS NOT NEW.alert_level OR OLD.created IS NOT NEW.created OR OLD.calc_start_time IS NOT NEW.calc_start_time) BEGIN
  DELETE FROM shipment_listing WHERE ck = NEW.ck AND ref_key = upper(replace(replace(replace(replace(replace(NEW.label_reference, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) AND first_created NOT IN (SELECT s.created FROM (SELECT l.created, unixepoch(l.created) - unixepoch(lag(l.created) OVER (ORDER BY l.created, l.id)) AS since
              FROM report_listing l WHERE l.ck = NEW.ck AND upper(replace(replace(replace(replace(replace(l.label_reference, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) = upper(replace(replace(replace(replace(replace(NEW.label_reference, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) AND l.label_reference <> '') s
     WHERE s.since IS NULL OR s.since > 5184000);
  INSERT INTO shipment_listing (ck, ref_key, first_created, last_created, labels, worst_alert, first_start, state, product, modes)
  SELECT g.*, (SELECT f.product FROM shipment_facts f WHERE f.company_id = (SELECT k.company_id FROM company_keys k WHERE k.ck = g.ck) AND f.shipment_id = g.ref_key || '@' || substr(g.first_created, 1, 10)), (SELECT (SELECT ',' || group_concat(DISTINCT j.value ->> '$.mode') || ',' FROM json_each(f.legs) j) FROM shipment_facts f WHERE f.company_id = (SELECT k.company_id FROM company_keys k WHERE k.ck = g.ck) AND f.shipment_id = g.ref_key || '@' || substr(g.first_created, 1, 10))
    FROM (SELECT q.ck, q.ref_key, min(q.created) AS first_created, max(q.created), count(*), max(q.alert_level), min(q.calc_start_time), CASE WHEN count(CASE WHEN q.decision = 'rejected' THEN 1 END) > 0 THEN 'rejected'
              WHEN count(CASE WHEN q.decision = 'onHold' THEN 1 END) > 0 THEN 'onHold'
              WHEN count(CASE WHEN q.alert_level >= 1 AND coalesce(q.acknowledged_level, -1) < q.alert_level THEN 1 END) > 0 THEN 'awaitingAcknowledgement'
              WHEN count(CASE WHEN q.decision = 'released' THEN 1 END) = count(*) THEN 'released' ELSE 'awaitingReview' END
            FROM (SELECT p.*, sum(p.begins) OVER (PARTITION BY p.ck, p.ref_key ORDER BY p.created, p.id) AS shipment
                    FROM (SELECT l.id, l.ck, upper(replace(replace(replace(replace(replace(l.label_reference, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) AS ref_key, l.created, l.calc_start_time, l.alert_level, r.decision, r.acknowledged_level,
                                 coalesce(unixepoch(l.created) - unixepoch(lag(l.created) OVER (ORDER BY l.created, l.id)) > 5184000, 1) AS begins
                            FROM report_listing l LEFT JOIN review_current r ON r.label_report_id = l.id AND r.company_id = (SELECT k.company_id FROM company_keys k WHERE k.ck = l.ck)
                           WHERE l.ck = NEW.ck AND upper(replace(replace(replace(replace(replace(l.label_reference, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) = upper(replace(replace(replace(replace(replace(NEW.label_reference, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) AND l.label_reference <> '') p) q
           GROUP BY q.ck, q.ref_key, q.shipment) g
   WHERE true
  ON CONFLICT (ck, ref_key, first_created) DO UPDATE SET last_created = excluded.last_created, labels = excluded.labels, worst_alert = excluded.worst_alert, first_start = excluded.first_start, state = excluded.state, product = excluded.product, modes = excluded.modes
   WHERE shipment_listing.last_created IS NOT excluded.last_created OR shipment_listing.labels IS NOT excluded.labels OR shipment_listing.worst_alert IS NOT excluded.worst_alert OR shipment_listing.first_start IS NOT excluded.first_start OR shipment_listing.state IS NOT excluded.state OR shipment_listing.product IS NOT excluded.product OR shipment_listing.modes IS NOT excluded.modes;
END;
CREATE TRIGGER shipment_listing_review_insert AFTER INSERT ON review_current BEGIN
  DELETE FROM shipment_listing WHERE ck = (SELECT m.ck FROM report_listing m WHERE m.ck = (SELECT k.ck FROM company_keys k WHERE k.company_id = NEW.company_id) AND m.id = NEW.label_report_id AND m.label_reference <> '') AND ref_key = (SELECT upper(replace(replace(replace(replace(replace(m.label_reference, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) FROM report_listing m WHERE m.ck = (SELECT k.ck FROM company_keys k WHERE k.company_id = NEW.company_id) AND m.id = NEW.label_report_id AND m.label_reference <> '') AND first_created NOT IN (SELECT s.created FROM (SELECT l.created, unixepoch(l.created) - unixepoch(lag(l.created) OVER (ORDER BY l.created, l.id)) AS since
              FROM report_listing l WHERE l.ck = (SELECT m.ck FROM report_listing m WHERE m.ck = (SELECT k.ck FROM company_keys k WHERE k.company_id = NEW.company_id) AND m.id = NEW.label_report_id AND m.label_reference <> '') AND upper(replace(replace(replace(replace(replace(l.label_reference, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) = (SELECT upper(replace(replace(replace(replace(replace(m.label_reference, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) FROM report_listing m WHERE m.ck = (SELECT k.ck FROM company_keys k WHERE k.company_id = NEW.company_id) AND m.id = NEW.label_report_id AND m.label_reference <> '') AND l.label_reference <> '') s
     WHERE s.since IS NULL OR s.since > 5184000);
  INSERT INTO shipment_listing (ck, ref_key, first_created, last_created, labels, worst_alert, first_start, state, product, modes)
  SELECT g.*, (SELECT f.product FROM shipment_facts f WHERE f.company_id = (SELECT k.company_id FROM company_keys k WHERE k.ck = g.ck) AND f.shipment_id = g.ref_key || '@' || substr(g.first_created, 1, 10)), (SELECT (SELECT ',' || group_concat(DISTINCT j.value ->> '$.mode') || ',' FROM json_each(f.legs) j) FROM shipment_facts f WHERE f.company_id = (SELECT k.company_id FROM company_keys k WHERE k.ck = g.ck) AND f.shipment_id = g.ref_key || '@' || substr(g.first_created, 1, 10))
    FROM (SELECT q.ck, q.ref_key, min(q.created) AS first_created, max(q.created), count(*), max(q.alert_level), min(q.calc_start_time), CASE WHEN count(CASE WHEN q.decision = 'rejected' THEN 1 END) > 0 THEN 'rejected'
              WHEN count(CASE WHEN q.decision = 'onHold' THEN 1 END) > 0 THEN 'onHold'
              WHEN count(CASE WHEN q.alert_level >= 1 AND coalesce(q.acknowledged_level, -1) < q.alert_level THEN 1 END) > 0 THEN 'awaitingAcknowledgement'
              WHEN count(CASE WHEN q.decision = 'released' THEN 1 END) = count(*) THEN 'released' ELSE 'awaitingReview' END
            FROM (SELECT p.*, sum(p.begins) OVER (PARTITION BY p.ck, p.ref_key ORDER BY p.created, p.id) AS shipment
                    FROM (SELECT l.id, l.ck, upper(replace(replace(replace(replace(replace(l.label_reference, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) AS ref_key, l.created, l.calc_start_time, l.alert_level, r.decision, r.acknowledged_level,
                                 coalesce(unixepoch(l.created) - unixepoch(lag(l.created) OVER (ORDER BY l.created, l.id)) > 5184000, 1) AS begins
                            FROM report_listing l LEFT JOIN review_current r ON r.label_report_id = l.id AND r.company_id = (SELECT k.company_id FROM company_keys k WHERE k.ck = l.ck)
                           WHERE l.ck = (SELECT m.ck FROM report_listing m WHERE m.ck = (SELECT k.ck FROM company_keys k WHERE k.company_id = NEW.company_id) AND m.id = NEW.label_report_id AND m.label_reference <> '') AND upper(replace(replace(replace(replace(replace(l.label_reference, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) = (SELECT upper(replace(replace(replace(replace(replace(m.label_reference, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) FROM report_listing m WHERE m.ck = (SELECT k.ck FROM company_keys k WHERE k.company_id = NEW.company_id) AND m.id = NEW.label_report_id AND m.label_reference <> '') AND l.label_reference <> '') p) q
           GROUP BY q.ck, q.ref_key, q.shipment) g
   WHERE true
  ON CONFLICT (ck, ref_key, first_created) DO UPDATE SET last_created = excluded.last_created, labels = excluded.labels, worst_alert = excluded.worst_alert, first_start = excluded.first_start, state = excluded.state, product = excluded.product, modes = excluded.modes
   WHERE shipment_listing.last_created IS NOT excluded.last_created OR shipment_listing.labels IS NOT excluded.labels OR shipment_listing.worst_alert IS NOT excluded.worst_alert OR shipment_listing.first_start IS NOT excluded.first_start OR shipment_listing.state IS NOT excluded.state OR shipment_listing.product IS NOT excluded.product OR shipment_listing.modes IS NOT excluded.modes;
END;
CREATE TRIGGER shipment_listing_review_update AFTER UPDATE ON review_current BEGIN
  DELETE FROM shipment_listing WHERE ck = (SELECT m.ck FROM report_listing m WHERE m.ck = (SELECT k.ck FROM company_keys k WHERE k.company_id = NEW.company_id) AND m.id = NEW.label_report_id AND m.label_reference <> '') AND ref_key = (SELECT upper(replace(replace(replace(replace(replace(m.label_reference, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) FROM report_listing m WHERE m.ck = (SELECT k.ck FROM company_keys k WHERE k.company_id = NEW.company_id) AND m.id = NEW.label_report_id AND m.label_reference <> '') AND first_created NOT IN (SELECT s.created FROM (SELECT l.created, unixepoch(l.created) - unixepoch(lag(l.created) OVER (ORDER BY l.created, l.id)) AS since
              FROM report_listing l WHERE l.ck = (SELECT m.ck FROM report_listing m WHERE m.ck = (SELECT k.ck FROM company_keys k WHERE k.company_id = NEW.company_id) AND m.id = NEW.label_report_id AND m.label_reference <> '') AND upper(replace(replace(replace(replace(replace(l.label_reference, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) = (SELECT upper(replace(replace(replace(replace(replace(m.label_reference, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) FROM report_listing m WHERE m.ck = (SELECT k.ck FROM company_keys k WHERE k.company_id = NEW.company_id) AND m.id = NEW.label_report_id AND m.label_reference <> '') AND l.label_reference <> '') s
     WHERE s.since IS NULL OR s.since > 5184000);
  INSERT INTO shipment_listing (ck, ref_key, first_created, last_created, labels, worst_alert, first_start, state, product, modes)
  SELECT g.*, (SELECT f.product FROM shipment_facts f WHERE f.company_id = (SELECT k.company_id FROM company_keys k WHERE k.ck = g.ck) AND f.shipment_id = g.ref_key || '@' || substr(g.first_created, 1, 10)), (SELECT (SELECT ',' || group_concat(DISTINCT j.value ->> '$.mode') || ',' FROM json_each(f.legs) j) FROM shipment_facts f WHERE f.company_id = (SELECT k.company_id FROM company_keys k WHERE k.ck = g.ck) AND f.shipment_id = g.ref_key || '@' || substr(g.first_created, 1, 10))
    FROM (SELECT q.ck, q.ref_key, min(q.created) AS first_created, max(q.created), count(*), max(q.alert_level), min(q.calc_start_time), CASE WHEN count(CASE WHEN q.decision = 'rejected' THEN 1 END) > 0 THEN 'rejected'
              WHEN count(CASE WHEN q.decision = 'onHold' THEN 1 END) > 0 THEN 'onHold'
              WHEN count(CASE WHEN q.alert_level >= 1 AND coalesce(q.acknowledged_level, -1) < q.alert_level THEN 1 END) > 0 THEN 'awaitingAcknowledgement'
              WHEN count(CASE WHEN q.decision = 'released' THEN 1 END) = count(*) THEN 'released' ELSE 'awaitingReview' END
            FROM (SELECT p.*, sum(p.begins) OVER (PARTITION BY p.ck, p.ref_key ORDER BY p.created, p.id) AS shipment
                    FROM (SELECT l.id, l.ck, upper(replace(replace(replace(replace(replace(l.label_reference, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) AS ref_key, l.created, l.calc_start_time, l.alert_level, r.decision, r.acknowledged_level,
                                 coalesce(unixepoch(l.created) - unixepoch(lag(l.created) OVER (ORDER BY l.created, l.id)) > 5184000, 1) AS begins
                            FROM report_listing l LEFT JOIN review_current r ON r.label_report_id = l.id AND r.company_id = (SELECT k.company_id FROM company_keys k WHERE k.ck = l.ck)
                           WHERE l.ck = (SELECT m.ck FROM report_listing m WHERE m.ck = (SELECT k.ck FROM company_keys k WHERE k.company_id = NEW.company_id) AND m.id = NEW.label_report_id AND m.label_reference <> '') AND upper(replace(replace(replace(replace(replace(l.label_reference, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) = (SELECT upper(replace(replace(replace(replace(replace(m.label_reference, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) FROM report_listing m WHERE m.ck = (SELECT k.ck FROM company_keys k WHERE k.company_id = NEW.company_id) AND m.id = NEW.label_report_id AND m.label_reference <> '') AND l.label_reference <> '') p) q
           GROUP BY q.ck, q.ref_key, q.shipment) g
   WHERE true
  ON CONFLICT (ck, ref_key, first_created) DO UPDATE SET last_created = excluded.last_created, labels = excluded.labels, worst_alert = excluded.worst_alert, first_start = excluded.first_start, state = excluded.state, product = excluded.product, modes = excluded.modes
   WHERE shipment_listing.last_created IS NOT excluded.last_created OR shipment_listing.labels IS NOT excluded.labels OR shipment_listing.worst_alert IS NOT excluded.worst_alert OR shipment_listing.first_start IS NOT excluded.first_start OR shipment_listing.state IS NOT excluded.state OR shipment_listing.product IS NOT excluded.product OR shipment_listing.modes IS NOT excluded.modes;
END;
CREATE TRIGGER shipment_listing_facts_insert AFTER INSERT ON shipment_facts BEGIN
  UPDATE shipment_listing SET product = NEW.product, modes = (SELECT ',' || group_concat(DISTINCT j.value ->> '$.mode') || ',' FROM json_each(NEW.legs) j) WHERE ck = (SELECT k.ck FROM company_keys k WHERE k.company_id = NEW.company_id) AND ref_key = substr(NEW.shipment_id, 1, length(NEW.shipment_id) - 11)
   AND first_created >= substr(NEW.shipment_id, -10) AND first_created < substr(NEW.shipment_id, -10) || 'U';
END;
CREATE TRIGGER shipment_listing_facts_update AFTER UPDATE OF product, legs ON shipment_facts BEGIN
  UPDATE shipment_listing SET product = NEW.product, modes = (SELECT ',' || group_concat(DISTINCT j.value ->> '$.mode') || ',' FROM json_each(NEW.legs) j) WHERE ck = (SELECT k.ck FROM company_keys k WHERE k.company_id = NEW.company_id) AND ref_key = substr(NEW.shipment_id, 1, length(NEW.shipment_id) - 11)
   AND first_created >= substr(NEW.shipment_id, -10) AND first_created < substr(NEW.shipment_id, -10) || 'U';
END;
INSERT INTO shipment_listing (ck, ref_key, first_created, last_created, labels, worst_alert, first_start, state, product, modes)
SELECT g.*, (SELECT f.product FROM shipment_facts f WHERE f.company_id = (SELECT k.company_id FROM company_keys k WHERE k.ck = g.ck) AND f.shipment_id = g.ref_key || '@' || substr(g.first_created, 1, 10)), (SELECT (SELECT ',' || group_concat(DISTINCT j.value ->> '$.mode') || ',' FROM json_each(f.legs) j) FROM shipment_facts f WHERE f.company_id = (SELECT k.company_id FROM company_keys k WHERE k.ck = g.ck) AND f.shipment_id = g.ref_key || '@' || substr(g.first_created, 1, 10))
    FROM (SELECT q.ck, q.ref_key, min(q.created) AS first_created, max(q.created), count(*), max(q.alert_level), min(q.calc_start_time), CASE WHEN count(CASE WHEN q.decision = 'rejected' THEN 1 END) > 0 THEN 'rejected'
              WHEN count(CASE WHEN q.decision = 'onHold' THEN 1 END) > 0 THEN 'onHold'
              WHEN count(CASE WHEN q.alert_level >= 1 AND coalesce(q.acknowledged_level, -1) < q.alert_level THEN 1 END) > 0 THEN 'awaitingAcknowledgement'
              WHEN count(CASE WHEN q.decision = 'released' THEN 1 END) = count(*) THEN 'released' ELSE 'awaitingReview' END
            FROM (SELECT p.*, sum(p.begins) OVER (PARTITION BY p.ck, p.ref_key ORDER BY p.created, p.id) AS shipment
                    FROM (SELECT l.id, l.ck, upper(replace(replace(replace(replace(replace(l.label_reference, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) AS ref_key, l.created, l.calc_start_time, l.alert_level, r.decision, r.acknowledged_level,
                                 coalesce(unixepoch(l.created) - unixepoch(lag(l.created) OVER (PARTITION BY l.ck, upper(replace(replace(replace(replace(replace(l.label_reference, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')) ORDER BY l.created, l.id)) > 5184000, 1) AS begins
                            FROM report_listing l LEFT JOIN review_current r ON r.label_report_id = l.id AND r.company_id = (SELECT k.company_id FROM company_keys k WHERE k.ck = l.ck)
                           WHERE 1 AND l.label_reference <> '') p) q
           GROUP BY q.ck, q.ref_key, q.shipment) g
   WHERE true;
`;
