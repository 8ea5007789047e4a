/**
 * Numbered, append-only: a shipped migration is never edited, a new one is added. Its SQL is
 * written out as it shipped and imports nothing; the live declarations are in db/read-model/.
 *
 * The pairs of custom field values (025) are kept only for the reports holding at most 8 custom
 * fields. A report's pairs grow with the square of the fields it holds: a flag toggled on a
 * report holding 200 moved 80 000 pair rows (0.4 s of CPU), a custom field written on it 1 200.
 * `custom_field_widths` keeps how many fields each report holds some value of, moved by BEFORE
 * triggers on custom_field_elements (so the pairs' AFTER triggers see the width after the
 * element came or went); each pair trigger fires only for a report of at most 8 fields, and the
 * element that makes a report wider than 8 takes its pairs away, the one that makes it 8 again
 * brings them back. The reads add the pairs of the wide reports from their elements, found by
 * the partial index custom_field_widths_wide (db/field-counts.ts).
 *
 * The widths are counted and the pairs counted again from the listing rows and elements.
 */
export default /* sql */ `
DROP TRIGGER listing_custom_field_pair_counts_listing_insert;
DROP TRIGGER listing_custom_field_pair_counts_listing_delete;
DROP TRIGGER listing_custom_field_pair_counts_listing_update;
DROP TRIGGER listing_custom_field_pair_counts_element_insert;
DROP TRIGGER listing_custom_field_pair_counts_element_delete;

CREATE TABLE custom_field_widths (
  rk INTEGER PRIMARY KEY,
  fields INTEGER NOT NULL
) STRICT;

DELETE FROM custom_field_widths;
INSERT INTO custom_field_widths (rk, fields) SELECT e.rk AS rk, count(DISTINCT e.field) AS fields FROM custom_field_elements e WHERE coalesce(e.text, e.num) IS NOT NULL GROUP BY e.rk;
DELETE FROM custom_field_pair_counts;
INSERT INTO custom_field_pair_counts (ck, field, other_field, value, other_value, owner_ck, has_flag, is_archived, n)
  SELECT ck, field, other_field, value, other_value, owner_ck, has_flag, is_archived, count(*) FROM (
  WITH v AS (SELECT DISTINCT e.rk, e.field, coalesce(e.text, e.num) AS value FROM custom_field_elements e WHERE coalesce(e.text, e.num) IS NOT NULL
              AND e.rk IN (SELECT rk FROM (SELECT e.rk AS rk, count(DISTINCT e.field) AS fields FROM custom_field_elements e WHERE coalesce(e.text, e.num) IS NOT NULL GROUP BY e.rk) WHERE fields <= 8)),
       h AS (SELECT rk, field, value FROM v UNION ALL SELECT DISTINCT rk, field, x'' FROM v)
  SELECT l.ck AS ck, a.field AS field, b.field AS other_field, a.value AS value, b.value AS other_value, l.owner_ck AS owner_ck, l.has_flag AS has_flag, l.is_archived AS is_archived
    FROM v a JOIN h b ON b.rk = a.rk AND b.field <> a.field JOIN report_listing l ON l.rk = a.rk) GROUP BY ck, field, other_field, value, other_value, owner_ck, has_flag, is_archived;

CREATE INDEX custom_field_widths_wide ON custom_field_widths (rk) WHERE fields > 8;

CREATE TRIGGER listing_custom_field_pair_counts_width_insert BEFORE INSERT ON custom_field_elements
WHEN coalesce(new.text, new.num) IS NOT NULL AND NOT EXISTS (SELECT 1 FROM custom_field_elements o WHERE o.rk = new.rk AND o.field = new.field AND o.elem <> new.elem AND coalesce(o.text, o.num) IS NOT NULL) BEGIN
  UPDATE custom_field_widths SET fields = fields + 1 WHERE rk = new.rk;
  INSERT INTO custom_field_widths (rk, fields) SELECT new.rk, 1 WHERE NOT EXISTS (SELECT 1 FROM custom_field_widths w WHERE w.rk = new.rk);
END;

CREATE TRIGGER listing_custom_field_pair_counts_width_delete BEFORE DELETE ON custom_field_elements
WHEN coalesce(old.text, old.num) IS NOT NULL AND NOT EXISTS (SELECT 1 FROM custom_field_elements o WHERE o.rk = old.rk AND o.field = old.field AND o.elem <> old.elem AND coalesce(o.text, o.num) IS NOT NULL) BEGIN
  UPDATE custom_field_widths SET fields = fields - 1 WHERE rk = old.rk;
  DELETE FROM custom_field_widths WHERE rk = old.rk AND fields <= 0;
END;

CREATE TRIGGER listing_custom_field_pair_counts_listing_insert AFTER INSERT ON report_listing
WHEN coalesce((SELECT w.fields FROM custom_field_widths w WHERE w.rk = new.rk), 0) <= 8 BEGIN
  
  UPDATE custom_field_pair_counts SET n = n + 1 WHERE (ck, field, other_field, value, other_value, owner_ck, has_flag, is_archived) IN (SELECT * FROM (
  SELECT new.ck AS ck, a.field AS field, b.field AS other_field, a.value AS value, b.value AS other_value, new.owner_ck AS owner_ck, new.has_flag AS has_flag, new.is_archived AS is_archived
    FROM (SELECT DISTINCT e.field AS field, coalesce(e.text, e.num) AS value FROM custom_field_elements e WHERE e.rk = new.rk AND coalesce(e.text, e.num) IS NOT NULL) a JOIN (SELECT DISTINCT e.field AS field, coalesce(e.text, e.num) AS value FROM custom_field_elements e WHERE e.rk = new.rk AND coalesce(e.text, e.num) IS NOT NULL UNION ALL SELECT DISTINCT e.field, x'' FROM custom_field_elements e WHERE e.rk = new.rk AND coalesce(e.text, e.num) IS NOT NULL) b ON b.field <> a.field));
  INSERT INTO custom_field_pair_counts (ck, field, other_field, value, other_value, owner_ck, has_flag, is_archived, n)
    SELECT s.*, 1 FROM (
  SELECT new.ck AS ck, a.field AS field, b.field AS other_field, a.value AS value, b.value AS other_value, new.owner_ck AS owner_ck, new.has_flag AS has_flag, new.is_archived AS is_archived
    FROM (SELECT DISTINCT e.field AS field, coalesce(e.text, e.num) AS value FROM custom_field_elements e WHERE e.rk = new.rk AND coalesce(e.text, e.num) IS NOT NULL) a JOIN (SELECT DISTINCT e.field AS field, coalesce(e.text, e.num) AS value FROM custom_field_elements e WHERE e.rk = new.rk AND coalesce(e.text, e.num) IS NOT NULL UNION ALL SELECT DISTINCT e.field, x'' FROM custom_field_elements e WHERE e.rk = new.rk AND coalesce(e.text, e.num) IS NOT NULL) b ON b.field <> a.field) s
    WHERE NOT EXISTS (SELECT 1 FROM custom_field_pair_counts c WHERE c.ck = s.ck AND c.field = s.field AND c.other_field = s.other_field AND c.value = s.value AND c.other_value = s.other_value AND c.owner_ck = s.owner_ck AND c.has_flag = s.has_flag AND c.is_archived = s.is_archived);
END;

CREATE TRIGGER listing_custom_field_pair_counts_listing_delete AFTER DELETE ON report_listing
WHEN coalesce((SELECT w.fields FROM custom_field_widths w WHERE w.rk = old.rk), 0) <= 8 BEGIN
  
  UPDATE custom_field_pair_counts SET n = n - 1 WHERE (ck, field, other_field, value, other_value, owner_ck, has_flag, is_archived) IN (SELECT * FROM (
  SELECT old.ck AS ck, a.field AS field, b.field AS other_field, a.value AS value, b.value AS other_value, old.owner_ck AS owner_ck, old.has_flag AS has_flag, old.is_archived AS is_archived
    FROM (SELECT DISTINCT e.field AS field, coalesce(e.text, e.num) AS value FROM custom_field_elements e WHERE e.rk = old.rk AND coalesce(e.text, e.num) IS NOT NULL) a JOIN (SELECT DISTINCT e.field AS field, coalesce(e.text, e.num) AS value FROM custom_field_elements e WHERE e.rk = old.rk AND coalesce(e.text, e.num) IS NOT NULL UNION ALL SELECT DISTINCT e.field, x'' FROM custom_field_elements e WHERE e.rk = old.rk AND coalesce(e.text, e.num) IS NOT NULL) b ON b.field <> a.field));
  DELETE FROM custom_field_pair_counts WHERE n <= 0 AND (ck, field, other_field, value, other_value, owner_ck, has_flag, is_archived) IN (SELECT * FROM (
  SELECT old.ck AS ck, a.field AS field, b.field AS other_field, a.value AS value, b.value AS other_value, old.owner_ck AS owner_ck, old.has_flag AS has_flag, old.is_archived AS is_archived
    FROM (SELECT DISTINCT e.field AS field, coalesce(e.text, e.num) AS value FROM custom_field_elements e WHERE e.rk = old.rk AND coalesce(e.text, e.num) IS NOT NULL) a JOIN (SELECT DISTINCT e.field AS field, coalesce(e.text, e.num) AS value FROM custom_field_elements e WHERE e.rk = old.rk AND coalesce(e.text, e.num) IS NOT NULL UNION ALL SELECT DISTINCT e.field, x'' FROM custom_field_elements e WHERE e.rk = old.rk AND coalesce(e.text, e.num) IS NOT NULL) b ON b.field <> a.field));
END;

CREATE TRIGGER listing_custom_field_pair_counts_listing_update AFTER UPDATE OF owner_ck, has_flag, is_archived ON report_listing
WHEN (old.owner_ck IS NOT new.owner_ck OR old.has_flag IS NOT new.has_flag OR old.is_archived IS NOT new.is_archived) AND coalesce((SELECT w.fields FROM custom_field_widths w WHERE w.rk = new.rk), 0) <= 8 BEGIN
  
  UPDATE custom_field_pair_counts SET n = n - 1 WHERE (ck, field, other_field, value, other_value, owner_ck, has_flag, is_archived) IN (SELECT * FROM (
  SELECT old.ck AS ck, a.field AS field, b.field AS other_field, a.value AS value, b.value AS other_value, old.owner_ck AS owner_ck, old.has_flag AS has_flag, old.is_archived AS is_archived
    FROM (SELECT DISTINCT e.field AS field, coalesce(e.text, e.num) AS value FROM custom_field_elements e WHERE e.rk = old.rk AND coalesce(e.text, e.num) IS NOT NULL) a JOIN (SELECT DISTINCT e.field AS field, coalesce(e.text, e.num) AS value FROM custom_field_elements e WHERE e.rk = old.rk AND coalesce(e.text, e.num) IS NOT NULL UNION ALL SELECT DISTINCT e.field, x'' FROM custom_field_elements e WHERE e.rk = old.rk AND coalesce(e.text, e.num) IS NOT NULL) b ON b.field <> a.field));
  DELETE FROM custom_field_pair_counts WHERE n <= 0 AND (ck, field, other_field, value, other_value, owner_ck, has_flag, is_archived) IN (SELECT * FROM (
  SELECT old.ck AS ck, a.field AS field, b.field AS other_field, a.value AS value, b.value AS other_value, old.owner_ck AS owner_ck, old.has_flag AS has_flag, old.is_archived AS is_archived
    FROM (SELECT DISTINCT e.field AS field, coalesce(e.text, e.num) AS value FROM custom_field_elements e WHERE e.rk = old.rk AND coalesce(e.text, e.num) IS NOT NULL) a JOIN (SELECT DISTINCT e.field AS field, coalesce(e.text, e.num) AS value FROM custom_field_elements e WHERE e.rk = old.rk AND coalesce(e.text, e.num) IS NOT NULL UNION ALL SELECT DISTINCT e.field, x'' FROM custom_field_elements e WHERE e.rk = old.rk AND coalesce(e.text, e.num) IS NOT NULL) b ON b.field <> a.field));
  
  UPDATE custom_field_pair_counts SET n = n + 1 WHERE (ck, field, other_field, value, other_value, owner_ck, has_flag, is_archived) IN (SELECT * FROM (
  SELECT new.ck AS ck, a.field AS field, b.field AS other_field, a.value AS value, b.value AS other_value, new.owner_ck AS owner_ck, new.has_flag AS has_flag, new.is_archived AS is_archived
    FROM (SELECT DISTINCT e.field AS field, coalesce(e.text, e.num) AS value FROM custom_field_elements e WHERE e.rk = new.rk AND coalesce(e.text, e.num) IS NOT NULL) a JOIN (SELECT DISTINCT e.field AS field, coalesce(e.text, e.num) AS value FROM custom_field_elements e WHERE e.rk = new.rk AND coalesce(e.text, e.num) IS NOT NULL UNION ALL SELECT DISTINCT e.field, x'' FROM custom_field_elements e WHERE e.rk = new.rk AND coalesce(e.text, e.num) IS NOT NULL) b ON b.field <> a.field));
  INSERT INTO custom_field_pair_counts (ck, field, other_field, value, other_value, owner_ck, has_flag, is_archived, n)
    SELECT s.*, 1 FROM (
  SELECT new.ck AS ck, a.field AS field, b.field AS other_field, a.value AS value, b.value AS other_value, new.owner_ck AS owner_ck, new.has_flag AS has_flag, new.is_archived AS is_archived
    FROM (SELECT DISTINCT e.field AS field, coalesce(e.text, e.num) AS value FROM custom_field_elements e WHERE e.rk = new.rk AND coalesce(e.text, e.num) IS NOT NULL) a JOIN (SELECT DISTINCT e.field AS field, coalesce(e.text, e.num) AS value FROM custom_field_elements e WHERE e.rk = new.rk AND coalesce(e.text, e.num) IS NOT NULL UNION ALL SELECT DISTINCT e.field, x'' FROM custom_field_elements e WHERE e.rk = new.rk AND coalesce(e.text, e.num) IS NOT NULL) b ON b.field <> a.field) s
    WHERE NOT EXISTS (SELECT 1 FROM custom_field_pair_counts c WHERE c.ck = s.ck AND c.field = s.field AND c.other_field = s.other_field AND c.value = s.value AND c.other_value = s.other_value AND c.owner_ck = s.owner_ck AND c.has_flag = s.has_flag AND c.is_archived = s.is_archived);
END;

CREATE TRIGGER listing_custom_field_pair_counts_element_insert AFTER INSERT ON custom_field_elements
WHEN coalesce(new.text, new.num) IS NOT NULL AND coalesce((SELECT w.fields FROM custom_field_widths w WHERE w.rk = new.rk), 0) <= 8 BEGIN
  
  UPDATE custom_field_pair_counts SET n = n + 1 WHERE (ck, field, other_field, value, other_value, owner_ck, has_flag, is_archived) IN (SELECT * FROM (
  SELECT l.ck AS ck, new.field AS field, b.field AS other_field, coalesce(new.text, new.num) AS value, b.value AS other_value, l.owner_ck AS owner_ck, l.has_flag AS has_flag, l.is_archived AS is_archived
    FROM report_listing l JOIN (SELECT DISTINCT e.field AS field, coalesce(e.text, e.num) AS value FROM custom_field_elements e WHERE e.rk = new.rk AND coalesce(e.text, e.num) IS NOT NULL UNION ALL SELECT DISTINCT e.field, x'' FROM custom_field_elements e WHERE e.rk = new.rk AND coalesce(e.text, e.num) IS NOT NULL) b ON b.field <> new.field
   WHERE l.rk = new.rk AND NOT EXISTS (SELECT 1 FROM custom_field_elements o WHERE o.rk = new.rk AND o.field = new.field AND o.elem <> new.elem AND coalesce(o.text, o.num) = coalesce(new.text, new.num))
  UNION ALL
  SELECT l.ck, a.field, new.field, a.value, coalesce(new.text, new.num), l.owner_ck AS owner_ck, l.has_flag AS has_flag, l.is_archived AS is_archived
    FROM report_listing l JOIN (SELECT DISTINCT e.field AS field, coalesce(e.text, e.num) AS value FROM custom_field_elements e WHERE e.rk = new.rk AND coalesce(e.text, e.num) IS NOT NULL) a ON a.field <> new.field
   WHERE l.rk = new.rk AND NOT EXISTS (SELECT 1 FROM custom_field_elements o WHERE o.rk = new.rk AND o.field = new.field AND o.elem <> new.elem AND coalesce(o.text, o.num) = coalesce(new.text, new.num))
  UNION ALL
  SELECT l.ck, a.field, new.field, a.value, x'', l.owner_ck AS owner_ck, l.has_flag AS has_flag, l.is_archived AS is_archived
    FROM report_listing l JOIN (SELECT DISTINCT e.field AS field, coalesce(e.text, e.num) AS value FROM custom_field_elements e WHERE e.rk = new.rk AND coalesce(e.text, e.num) IS NOT NULL) a ON a.field <> new.field
   WHERE l.rk = new.rk AND NOT EXISTS (SELECT 1 FROM custom_field_elements o WHERE o.rk = new.rk AND o.field = new.field AND o.elem <> new.elem AND coalesce(o.text, o.num) IS NOT NULL)));
  INSERT INTO custom_field_pair_counts (ck, field, other_field, value, other_value, owner_ck, has_flag, is_archived, n)
    SELECT s.*, 1 FROM (
  SELECT l.ck AS ck, new.field AS field, b.field AS other_field, coalesce(new.text, new.num) AS value, b.value AS other_value, l.owner_ck AS owner_ck, l.has_flag AS has_flag, l.is_archived AS is_archived
    FROM report_listing l JOIN (SELECT DISTINCT e.field AS field, coalesce(e.text, e.num) AS value FROM custom_field_elements e WHERE e.rk = new.rk AND coalesce(e.text, e.num) IS NOT NULL UNION ALL SELECT DISTINCT e.field, x'' FROM custom_field_elements e WHERE e.rk = new.rk AND coalesce(e.text, e.num) IS NOT NULL) b ON b.field <> new.field
   WHERE l.rk = new.rk AND NOT EXISTS (SELECT 1 FROM custom_field_elements o WHERE o.rk = new.rk AND o.field = new.field AND o.elem <> new.elem AND coalesce(o.text, o.num) = coalesce(new.text, new.num))
  UNION ALL
  SELECT l.ck, a.field, new.field, a.value, coalesce(new.text, new.num), l.owner_ck AS owner_ck, l.has_flag AS has_flag, l.is_archived AS is_archived
    FROM report_listing l JOIN (SELECT DISTINCT e.field AS field, coalesce(e.text, e.num) AS value FROM custom_field_elements e WHERE e.rk = new.rk AND coalesce(e.text, e.num) IS NOT NULL) a ON a.field <> new.field
   WHERE l.rk = new.rk AND NOT EXISTS (SELECT 1 FROM custom_field_elements o WHERE o.rk = new.rk AND o.field = new.field AND o.elem <> new.elem AND coalesce(o.text, o.num) = coalesce(new.text, new.num))
  UNION ALL
  SELECT l.ck, a.field, new.field, a.value, x'', l.owner_ck AS owner_ck, l.has_flag AS has_flag, l.is_archived AS is_archived
    FROM report_listing l JOIN (SELECT DISTINCT e.field AS field, coalesce(e.text, e.num) AS value FROM custom_field_elements e WHERE e.rk = new.rk AND coalesce(e.text, e.num) IS NOT NULL) a ON a.field <> new.field
   WHERE l.rk = new.rk AND NOT EXISTS (SELECT 1 FROM custom_field_elements o WHERE o.rk = new.rk AND o.field = new.field AND o.elem <> new.elem AND coalesce(o.text, o.num) IS NOT NULL)) s
    WHERE NOT EXISTS (SELECT 1 FROM custom_field_pair_counts c WHERE c.ck = s.ck AND c.field = s.field AND c.other_field = s.other_field AND c.value = s.value AND c.other_value = s.other_value AND c.owner_ck = s.owner_ck AND c.has_flag = s.has_flag AND c.is_archived = s.is_archived);
END;

CREATE TRIGGER listing_custom_field_pair_counts_element_widens AFTER INSERT ON custom_field_elements
WHEN coalesce(new.text, new.num) IS NOT NULL AND coalesce((SELECT w.fields FROM custom_field_widths w WHERE w.rk = new.rk), 0) = 9 AND NOT EXISTS (SELECT 1 FROM custom_field_elements o WHERE o.rk = new.rk AND o.field = new.field AND o.elem <> new.elem AND coalesce(o.text, o.num) IS NOT NULL) BEGIN
  
  UPDATE custom_field_pair_counts SET n = n - 1 WHERE (ck, field, other_field, value, other_value, owner_ck, has_flag, is_archived) IN (SELECT * FROM (
  SELECT l.ck AS ck, a.field AS field, b.field AS other_field, a.value AS value, b.value AS other_value, l.owner_ck AS owner_ck, l.has_flag AS has_flag, l.is_archived AS is_archived
    FROM report_listing l JOIN (SELECT DISTINCT e.field AS field, coalesce(e.text, e.num) AS value FROM custom_field_elements e WHERE e.rk = new.rk AND coalesce(e.text, e.num) IS NOT NULL AND e.field <> new.field) a JOIN (SELECT DISTINCT e.field AS field, coalesce(e.text, e.num) AS value FROM custom_field_elements e WHERE e.rk = new.rk AND coalesce(e.text, e.num) IS NOT NULL AND e.field <> new.field UNION ALL SELECT DISTINCT e.field, x'' FROM custom_field_elements e WHERE e.rk = new.rk AND coalesce(e.text, e.num) IS NOT NULL AND e.field <> new.field) b ON b.field <> a.field
   WHERE l.rk = new.rk));
  DELETE FROM custom_field_pair_counts WHERE n <= 0 AND (ck, field, other_field, value, other_value, owner_ck, has_flag, is_archived) IN (SELECT * FROM (
  SELECT l.ck AS ck, a.field AS field, b.field AS other_field, a.value AS value, b.value AS other_value, l.owner_ck AS owner_ck, l.has_flag AS has_flag, l.is_archived AS is_archived
    FROM report_listing l JOIN (SELECT DISTINCT e.field AS field, coalesce(e.text, e.num) AS value FROM custom_field_elements e WHERE e.rk = new.rk AND coalesce(e.text, e.num) IS NOT NULL AND e.field <> new.field) a JOIN (SELECT DISTINCT e.field AS field, coalesce(e.text, e.num) AS value FROM custom_field_elements e WHERE e.rk = new.rk AND coalesce(e.text, e.num) IS NOT NULL AND e.field <> new.field UNION ALL SELECT DISTINCT e.field, x'' FROM custom_field_elements e WHERE e.rk = new.rk AND coalesce(e.text, e.num) IS NOT NULL AND e.field <> new.field) b ON b.field <> a.field
   WHERE l.rk = new.rk));
END;

CREATE TRIGGER listing_custom_field_pair_counts_element_delete AFTER DELETE ON custom_field_elements
WHEN coalesce(old.text, old.num) IS NOT NULL AND coalesce((SELECT w.fields FROM custom_field_widths w WHERE w.rk = old.rk), 0) + (NOT EXISTS (SELECT 1 FROM custom_field_elements o WHERE o.rk = old.rk AND o.field = old.field AND o.elem <> old.elem AND coalesce(o.text, o.num) IS NOT NULL)) <= 8 BEGIN
  
  UPDATE custom_field_pair_counts SET n = n - 1 WHERE (ck, field, other_field, value, other_value, owner_ck, has_flag, is_archived) IN (SELECT * FROM (
  SELECT l.ck AS ck, old.field AS field, b.field AS other_field, coalesce(old.text, old.num) AS value, b.value AS other_value, l.owner_ck AS owner_ck, l.has_flag AS has_flag, l.is_archived AS is_archived
    FROM report_listing l JOIN (SELECT DISTINCT e.field AS field, coalesce(e.text, e.num) AS value FROM custom_field_elements e WHERE e.rk = old.rk AND coalesce(e.text, e.num) IS NOT NULL UNION ALL SELECT DISTINCT e.field, x'' FROM custom_field_elements e WHERE e.rk = old.rk AND coalesce(e.text, e.num) IS NOT NULL) b ON b.field <> old.field
   WHERE l.rk = old.rk AND NOT EXISTS (SELECT 1 FROM custom_field_elements o WHERE o.rk = old.rk AND o.field = old.field AND o.elem <> old.elem AND coalesce(o.text, o.num) = coalesce(old.text, old.num))
  UNION ALL
  SELECT l.ck, a.field, old.field, a.value, coalesce(old.text, old.num), l.owner_ck AS owner_ck, l.has_flag AS has_flag, l.is_archived AS is_archived
    FROM report_listing l JOIN (SELECT DISTINCT e.field AS field, coalesce(e.text, e.num) AS value FROM custom_field_elements e WHERE e.rk = old.rk AND coalesce(e.text, e.num) IS NOT NULL) a ON a.field <> old.field
   WHERE l.rk = old.rk AND NOT EXISTS (SELECT 1 FROM custom_field_elements o WHERE o.rk = old.rk AND o.field = old.field AND o.elem <> old.elem AND coalesce(o.text, o.num) = coalesce(old.text, old.num))
  UNION ALL
  SELECT l.ck, a.field, old.field, a.value, x'', l.owner_ck AS owner_ck, l.has_flag AS has_flag, l.is_archived AS is_archived
    FROM report_listing l JOIN (SELECT DISTINCT e.field AS field, coalesce(e.text, e.num) AS value FROM custom_field_elements e WHERE e.rk = old.rk AND coalesce(e.text, e.num) IS NOT NULL) a ON a.field <> old.field
   WHERE l.rk = old.rk AND NOT EXISTS (SELECT 1 FROM custom_field_elements o WHERE o.rk = old.rk AND o.field = old.field AND o.elem <> old.elem AND coalesce(o.text, o.num) IS NOT NULL)));
  DELETE FROM custom_field_pair_counts WHERE n <= 0 AND (ck, field, other_field, value, other_value, owner_ck, has_flag, is_archived) IN (SELECT * FROM (
  SELECT l.ck AS ck, old.field AS field, b.field AS other_field, coalesce(old.text, old.num) AS value, b.value AS other_value, l.owner_ck AS owner_ck, l.has_flag AS has_flag, l.is_archived AS is_archived
    FROM report_listing l JOIN (SELECT DISTINCT e.field AS field, coalesce(e.text, e.num) AS value FROM custom_field_elements e WHERE e.rk = old.rk AND coalesce(e.text, e.num) IS NOT NULL UNION ALL SELECT DISTINCT e.field, x'' FROM custom_field_elements e WHERE e.rk = old.rk AND coalesce(e.text, e.num) IS NOT NULL) b ON b.field <> old.field
   WHERE l.rk = old.rk AND NOT EXISTS (SELECT 1 FROM custom_field_elements o WHERE o.rk = old.rk AND o.field = old.field AND o.elem <> old.elem AND coalesce(o.text, o.num) = coalesce(old.text, old.num))
  UNION ALL
  SELECT l.ck, a.field, old.field, a.value, coalesce(old.text, old.num), l.owner_ck AS owner_ck, l.has_flag AS has_flag, l.is_archived AS is_archived
    FROM report_listing l JOIN (SELECT DISTINCT e.field AS field, coalesce(e.text, e.num) AS value FROM custom_field_elements e WHERE e.rk = old.rk AND coalesce(e.text, e.num) IS NOT NULL) a ON a.field <> old.field
   WHERE l.rk = old.rk AND NOT EXISTS (SELECT 1 FROM custom_field_elements o WHERE o.rk = old.rk AND o.field = old.field AND o.elem <> old.elem AND coalesce(o.text, o.num) = coalesce(old.text, old.num))
  UNION ALL
  SELECT l.ck, a.field, old.field, a.value, x'', l.owner_ck AS owner_ck, l.has_flag AS has_flag, l.is_archived AS is_archived
    FROM report_listing l JOIN (SELECT DISTINCT e.field AS field, coalesce(e.text, e.num) AS value FROM custom_field_elements e WHERE e.rk = old.rk AND coalesce(e.text, e.num) IS NOT NULL) a ON a.field <> old.field
   WHERE l.rk = old.rk AND NOT EXISTS (SELECT 1 FROM custom_field_elements o WHERE o.rk = old.rk AND o.field = old.field AND o.elem <> old.elem AND coalesce(o.text, o.num) IS NOT NULL)));
END;

CREATE TRIGGER listing_custom_field_pair_counts_element_narrows AFTER DELETE ON custom_field_elements
WHEN coalesce(old.text, old.num) IS NOT NULL AND coalesce((SELECT w.fields FROM custom_field_widths w WHERE w.rk = old.rk), 0) = 8 AND NOT EXISTS (SELECT 1 FROM custom_field_elements o WHERE o.rk = old.rk AND o.field = old.field AND o.elem <> old.elem AND coalesce(o.text, o.num) IS NOT NULL) BEGIN
  
  UPDATE custom_field_pair_counts SET n = n + 1 WHERE (ck, field, other_field, value, other_value, owner_ck, has_flag, is_archived) IN (SELECT * FROM (
  SELECT l.ck AS ck, a.field AS field, b.field AS other_field, a.value AS value, b.value AS other_value, l.owner_ck AS owner_ck, l.has_flag AS has_flag, l.is_archived AS is_archived
    FROM report_listing l JOIN (SELECT DISTINCT e.field AS field, coalesce(e.text, e.num) AS value FROM custom_field_elements e WHERE e.rk = old.rk AND coalesce(e.text, e.num) IS NOT NULL) a JOIN (SELECT DISTINCT e.field AS field, coalesce(e.text, e.num) AS value FROM custom_field_elements e WHERE e.rk = old.rk AND coalesce(e.text, e.num) IS NOT NULL UNION ALL SELECT DISTINCT e.field, x'' FROM custom_field_elements e WHERE e.rk = old.rk AND coalesce(e.text, e.num) IS NOT NULL) b ON b.field <> a.field
   WHERE l.rk = old.rk));
  INSERT INTO custom_field_pair_counts (ck, field, other_field, value, other_value, owner_ck, has_flag, is_archived, n)
    SELECT s.*, 1 FROM (
  SELECT l.ck AS ck, a.field AS field, b.field AS other_field, a.value AS value, b.value AS other_value, l.owner_ck AS owner_ck, l.has_flag AS has_flag, l.is_archived AS is_archived
    FROM report_listing l JOIN (SELECT DISTINCT e.field AS field, coalesce(e.text, e.num) AS value FROM custom_field_elements e WHERE e.rk = old.rk AND coalesce(e.text, e.num) IS NOT NULL) a JOIN (SELECT DISTINCT e.field AS field, coalesce(e.text, e.num) AS value FROM custom_field_elements e WHERE e.rk = old.rk AND coalesce(e.text, e.num) IS NOT NULL UNION ALL SELECT DISTINCT e.field, x'' FROM custom_field_elements e WHERE e.rk = old.rk AND coalesce(e.text, e.num) IS NOT NULL) b ON b.field <> a.field
   WHERE l.rk = old.rk) s
    WHERE NOT EXISTS (SELECT 1 FROM custom_field_pair_counts c WHERE c.ck = s.ck AND c.field = s.field AND c.other_field = s.other_field AND c.value = s.value AND c.other_value = s.other_value AND c.owner_ck = s.owner_ck AND c.has_flag = s.has_flag AND c.is_archived = s.is_archived);
END;
`;
