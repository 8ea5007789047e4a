/**
 * Numbered, append-only: a shipped migration is never edited, a new one is added. Its SQL is
 * written out as it shipped and imports nothing; the live declarations are in db/read-model/.
 *
 * Counts per custom field value kept by the write itself, as listing_counts (015) keeps those of
 * the fixed keys. `custom_field_counts` holds, per company view, custom field and value, how many
 * of the company's listing rows hold that value, split by the same columns as listing_counts
 * (owner, status, alert level, mode, type, flag, archive state) and under their names, so a
 * compiled browser filter over the alias l reads the same over it. Reading every report holding a
 * field (a thousand batches over 100 000 reports) took seconds per facet; summing the kept rows of
 * one field takes milliseconds.
 *
 * A report is counted once per value however often it holds it (`[3, 3.0]` is one 3), as the
 * list's eq picks a report once: a value's count moves only when the first element holding it
 * comes or the last goes. `value` is the element as typed (STRICT ANY keeps a text `10` apart
 * from the number 10, and 10 and 10.0 together, as eq compares them). The empty blob, which no
 * custom field element can be, stands for "holds some value of the field": the facet's `null`
 * (holding none) is the matches less these.
 *
 * Beside it `custom_field_totals` holds the same counts split only by owner, flag and archive
 * state: a few rows per value where the fine split holds one per handful of reports (60 000 rows
 * for a thousand batches over 100 000 reports), so a facet with no filter or one on those columns
 * alone (the browser's "not archived") sums a thousand rows, not sixty thousand.
 *
 * Triggers on report_listing (a view appears, goes, or its split columns move) and on
 * custom_field_elements (a value appears or goes) keep both exact in the transaction of the
 * write. Not an upsert: inside a trigger, the conflict clause of the outer statement would take
 * its place. The triggers' names start with `listing_` and the table's name, so a bulk import
 * sets them aside with the listing's own and counts again once the listing rows are built
 * (ReportStore.writingMany).
 */
export default /* sql */ `
CREATE TABLE custom_field_counts (
  ck INTEGER NOT NULL,
  field TEXT NOT NULL,
  value ANY NOT NULL,
  owner_ck INTEGER NOT NULL,
  status TEXT NOT NULL,
  alert_level INTEGER NOT NULL,
  mode TEXT NOT NULL,
  type TEXT NOT NULL,
  has_flag INTEGER NOT NULL,
  is_archived INTEGER NOT NULL,
  n INTEGER NOT NULL,
  PRIMARY KEY (ck, field, value, owner_ck, status, alert_level, mode, type, has_flag, is_archived)
) STRICT, WITHOUT ROWID;

DELETE FROM custom_field_counts;
INSERT INTO custom_field_counts (ck, field, value, owner_ck, status, alert_level, mode, type, has_flag, is_archived, n)
  SELECT ck, field, value, owner_ck, status, alert_level, mode, type, has_flag, is_archived, count(*) FROM (SELECT l.ck, v.field, v.value, l.owner_ck, l.status, l.alert_level, l.mode, l.type, l.has_flag, l.is_archived FROM (SELECT DISTINCT e.rk, e.field, coalesce(e.text, e.num) AS value FROM custom_field_elements e WHERE coalesce(e.text, e.num) IS NOT NULL
      UNION ALL
      SELECT DISTINCT e.rk, e.field, x'' FROM custom_field_elements e WHERE coalesce(e.text, e.num) IS NOT NULL) v JOIN report_listing l ON l.rk = v.rk) GROUP BY ck, field, value, owner_ck, status, alert_level, mode, type, has_flag, is_archived;

CREATE TRIGGER listing_custom_field_counts_listing_insert AFTER INSERT ON report_listing BEGIN
  
    UPDATE custom_field_counts SET n = n + 1 WHERE (ck, field, value, owner_ck, status, alert_level, mode, type, has_flag, is_archived) IN (SELECT new.ck AS ck, v.field AS field, v.value AS value, new.owner_ck AS owner_ck, new.status AS status, new.alert_level AS alert_level, new.mode AS mode, new.type AS type, new.has_flag AS has_flag, new.is_archived AS is_archived FROM (
  SELECT DISTINCT e.field AS field, coalesce(e.text, e.num) AS value FROM custom_field_elements e WHERE e.rk = new.rk AND coalesce(e.text, e.num) IS NOT NULL
  UNION ALL
  SELECT DISTINCT e.field, x'' FROM custom_field_elements e WHERE e.rk = new.rk AND coalesce(e.text, e.num) IS NOT NULL) v);
    INSERT INTO custom_field_counts (ck, field, value, owner_ck, status, alert_level, mode, type, has_flag, is_archived, n)
      SELECT s.*, 1 FROM (SELECT new.ck AS ck, v.field AS field, v.value AS value, new.owner_ck AS owner_ck, new.status AS status, new.alert_level AS alert_level, new.mode AS mode, new.type AS type, new.has_flag AS has_flag, new.is_archived AS is_archived FROM (
  SELECT DISTINCT e.field AS field, coalesce(e.text, e.num) AS value FROM custom_field_elements e WHERE e.rk = new.rk AND coalesce(e.text, e.num) IS NOT NULL
  UNION ALL
  SELECT DISTINCT e.field, x'' FROM custom_field_elements e WHERE e.rk = new.rk AND coalesce(e.text, e.num) IS NOT NULL) v) s
      WHERE NOT EXISTS (SELECT 1 FROM custom_field_counts c WHERE c.ck = s.ck AND c.field = s.field AND c.value = s.value AND c.owner_ck = s.owner_ck AND c.status = s.status AND c.alert_level = s.alert_level AND c.mode = s.mode AND c.type = s.type AND c.has_flag = s.has_flag AND c.is_archived = s.is_archived);
END;

CREATE TRIGGER listing_custom_field_counts_listing_delete AFTER DELETE ON report_listing BEGIN
  
    UPDATE custom_field_counts SET n = n - 1 WHERE (ck, field, value, owner_ck, status, alert_level, mode, type, has_flag, is_archived) IN (SELECT old.ck AS ck, v.field AS field, v.value AS value, old.owner_ck AS owner_ck, old.status AS status, old.alert_level AS alert_level, old.mode AS mode, old.type AS type, old.has_flag AS has_flag, old.is_archived AS is_archived FROM (
  SELECT DISTINCT e.field AS field, coalesce(e.text, e.num) AS value FROM custom_field_elements e WHERE e.rk = old.rk AND coalesce(e.text, e.num) IS NOT NULL
  UNION ALL
  SELECT DISTINCT e.field, x'' FROM custom_field_elements e WHERE e.rk = old.rk AND coalesce(e.text, e.num) IS NOT NULL) v);
    DELETE FROM custom_field_counts WHERE n <= 0 AND (ck, field, value, owner_ck, status, alert_level, mode, type, has_flag, is_archived) IN (SELECT old.ck AS ck, v.field AS field, v.value AS value, old.owner_ck AS owner_ck, old.status AS status, old.alert_level AS alert_level, old.mode AS mode, old.type AS type, old.has_flag AS has_flag, old.is_archived AS is_archived FROM (
  SELECT DISTINCT e.field AS field, coalesce(e.text, e.num) AS value FROM custom_field_elements e WHERE e.rk = old.rk AND coalesce(e.text, e.num) IS NOT NULL
  UNION ALL
  SELECT DISTINCT e.field, x'' FROM custom_field_elements e WHERE e.rk = old.rk AND coalesce(e.text, e.num) IS NOT NULL) v);
END;

CREATE TRIGGER listing_custom_field_counts_listing_update AFTER UPDATE OF owner_ck, status, alert_level, mode, type, has_flag, is_archived ON report_listing
WHEN old.owner_ck IS NOT new.owner_ck OR old.status IS NOT new.status OR old.alert_level IS NOT new.alert_level OR old.mode IS NOT new.mode OR old.type IS NOT new.type OR old.has_flag IS NOT new.has_flag OR old.is_archived IS NOT new.is_archived BEGIN
  
    UPDATE custom_field_counts SET n = n - 1 WHERE (ck, field, value, owner_ck, status, alert_level, mode, type, has_flag, is_archived) IN (SELECT old.ck AS ck, v.field AS field, v.value AS value, old.owner_ck AS owner_ck, old.status AS status, old.alert_level AS alert_level, old.mode AS mode, old.type AS type, old.has_flag AS has_flag, old.is_archived AS is_archived FROM (
  SELECT DISTINCT e.field AS field, coalesce(e.text, e.num) AS value FROM custom_field_elements e WHERE e.rk = old.rk AND coalesce(e.text, e.num) IS NOT NULL
  UNION ALL
  SELECT DISTINCT e.field, x'' FROM custom_field_elements e WHERE e.rk = old.rk AND coalesce(e.text, e.num) IS NOT NULL) v);
    DELETE FROM custom_field_counts WHERE n <= 0 AND (ck, field, value, owner_ck, status, alert_level, mode, type, has_flag, is_archived) IN (SELECT old.ck AS ck, v.field AS field, v.value AS value, old.owner_ck AS owner_ck, old.status AS status, old.alert_level AS alert_level, old.mode AS mode, old.type AS type, old.has_flag AS has_flag, old.is_archived AS is_archived FROM (
  SELECT DISTINCT e.field AS field, coalesce(e.text, e.num) AS value FROM custom_field_elements e WHERE e.rk = old.rk AND coalesce(e.text, e.num) IS NOT NULL
  UNION ALL
  SELECT DISTINCT e.field, x'' FROM custom_field_elements e WHERE e.rk = old.rk AND coalesce(e.text, e.num) IS NOT NULL) v);
  
    UPDATE custom_field_counts SET n = n + 1 WHERE (ck, field, value, owner_ck, status, alert_level, mode, type, has_flag, is_archived) IN (SELECT new.ck AS ck, v.field AS field, v.value AS value, new.owner_ck AS owner_ck, new.status AS status, new.alert_level AS alert_level, new.mode AS mode, new.type AS type, new.has_flag AS has_flag, new.is_archived AS is_archived FROM (
  SELECT DISTINCT e.field AS field, coalesce(e.text, e.num) AS value FROM custom_field_elements e WHERE e.rk = new.rk AND coalesce(e.text, e.num) IS NOT NULL
  UNION ALL
  SELECT DISTINCT e.field, x'' FROM custom_field_elements e WHERE e.rk = new.rk AND coalesce(e.text, e.num) IS NOT NULL) v);
    INSERT INTO custom_field_counts (ck, field, value, owner_ck, status, alert_level, mode, type, has_flag, is_archived, n)
      SELECT s.*, 1 FROM (SELECT new.ck AS ck, v.field AS field, v.value AS value, new.owner_ck AS owner_ck, new.status AS status, new.alert_level AS alert_level, new.mode AS mode, new.type AS type, new.has_flag AS has_flag, new.is_archived AS is_archived FROM (
  SELECT DISTINCT e.field AS field, coalesce(e.text, e.num) AS value FROM custom_field_elements e WHERE e.rk = new.rk AND coalesce(e.text, e.num) IS NOT NULL
  UNION ALL
  SELECT DISTINCT e.field, x'' FROM custom_field_elements e WHERE e.rk = new.rk AND coalesce(e.text, e.num) IS NOT NULL) v) s
      WHERE NOT EXISTS (SELECT 1 FROM custom_field_counts c WHERE c.ck = s.ck AND c.field = s.field AND c.value = s.value AND c.owner_ck = s.owner_ck AND c.status = s.status AND c.alert_level = s.alert_level AND c.mode = s.mode AND c.type = s.type AND c.has_flag = s.has_flag AND c.is_archived = s.is_archived);
END;

CREATE TRIGGER listing_custom_field_counts_element_insert AFTER INSERT ON custom_field_elements
WHEN coalesce(new.text, new.num) IS NOT NULL BEGIN
  
    UPDATE custom_field_counts SET n = n + 1 WHERE (ck, field, value, owner_ck, status, alert_level, mode, type, has_flag, is_archived) IN (
    SELECT * FROM (SELECT l.ck AS ck, new.field AS field, coalesce(new.text, new.num) AS value, l.owner_ck AS owner_ck, l.status AS status, l.alert_level AS alert_level, l.mode AS mode, l.type AS type, l.has_flag AS has_flag, l.is_archived AS is_archived FROM report_listing l WHERE l.rk = new.rk) WHERE NOT EXISTS (SELECT 1 FROM custom_field_elements o WHERE o.rk = new.rk AND o.field = new.field AND o.elem <> new.elem AND coalesce(o.text, o.num) = coalesce(new.text, new.num))
    UNION ALL
    SELECT * FROM (SELECT l.ck AS ck, new.field AS field, x'' AS value, l.owner_ck AS owner_ck, l.status AS status, l.alert_level AS alert_level, l.mode AS mode, l.type AS type, l.has_flag AS has_flag, l.is_archived AS is_archived FROM report_listing l WHERE l.rk = new.rk) WHERE NOT EXISTS (SELECT 1 FROM custom_field_elements o WHERE o.rk = new.rk AND o.field = new.field AND o.elem <> new.elem AND coalesce(o.text, o.num) IS NOT NULL));
    INSERT INTO custom_field_counts (ck, field, value, owner_ck, status, alert_level, mode, type, has_flag, is_archived, n)
      SELECT s.*, 1 FROM (
    SELECT * FROM (SELECT l.ck AS ck, new.field AS field, coalesce(new.text, new.num) AS value, l.owner_ck AS owner_ck, l.status AS status, l.alert_level AS alert_level, l.mode AS mode, l.type AS type, l.has_flag AS has_flag, l.is_archived AS is_archived FROM report_listing l WHERE l.rk = new.rk) WHERE NOT EXISTS (SELECT 1 FROM custom_field_elements o WHERE o.rk = new.rk AND o.field = new.field AND o.elem <> new.elem AND coalesce(o.text, o.num) = coalesce(new.text, new.num))
    UNION ALL
    SELECT * FROM (SELECT l.ck AS ck, new.field AS field, x'' AS value, l.owner_ck AS owner_ck, l.status AS status, l.alert_level AS alert_level, l.mode AS mode, l.type AS type, l.has_flag AS has_flag, l.is_archived AS is_archived FROM report_listing l WHERE l.rk = new.rk) WHERE NOT EXISTS (SELECT 1 FROM custom_field_elements o WHERE o.rk = new.rk AND o.field = new.field AND o.elem <> new.elem AND coalesce(o.text, o.num) IS NOT NULL)) s
      WHERE NOT EXISTS (SELECT 1 FROM custom_field_counts c WHERE c.ck = s.ck AND c.field = s.field AND c.value = s.value AND c.owner_ck = s.owner_ck AND c.status = s.status AND c.alert_level = s.alert_level AND c.mode = s.mode AND c.type = s.type AND c.has_flag = s.has_flag AND c.is_archived = s.is_archived);
END;

CREATE TRIGGER listing_custom_field_counts_element_delete AFTER DELETE ON custom_field_elements
WHEN coalesce(old.text, old.num) IS NOT NULL BEGIN
  
    UPDATE custom_field_counts SET n = n - 1 WHERE (ck, field, value, owner_ck, status, alert_level, mode, type, has_flag, is_archived) IN (
    SELECT * FROM (SELECT l.ck AS ck, old.field AS field, coalesce(old.text, old.num) AS value, l.owner_ck AS owner_ck, l.status AS status, l.alert_level AS alert_level, l.mode AS mode, l.type AS type, l.has_flag AS has_flag, l.is_archived AS is_archived FROM report_listing l WHERE l.rk = old.rk) WHERE NOT EXISTS (SELECT 1 FROM custom_field_elements o WHERE o.rk = old.rk AND o.field = old.field AND o.elem <> old.elem AND coalesce(o.text, o.num) = coalesce(old.text, old.num))
    UNION ALL
    SELECT * FROM (SELECT l.ck AS ck, old.field AS field, x'' AS value, l.owner_ck AS owner_ck, l.status AS status, l.alert_level AS alert_level, l.mode AS mode, l.type AS type, l.has_flag AS has_flag, l.is_archived AS is_archived FROM report_listing l WHERE l.rk = old.rk) WHERE NOT EXISTS (SELECT 1 FROM custom_field_elements o WHERE o.rk = old.rk AND o.field = old.field AND o.elem <> old.elem AND coalesce(o.text, o.num) IS NOT NULL));
    DELETE FROM custom_field_counts WHERE n <= 0 AND (ck, field, value, owner_ck, status, alert_level, mode, type, has_flag, is_archived) IN (
    SELECT * FROM (SELECT l.ck AS ck, old.field AS field, coalesce(old.text, old.num) AS value, l.owner_ck AS owner_ck, l.status AS status, l.alert_level AS alert_level, l.mode AS mode, l.type AS type, l.has_flag AS has_flag, l.is_archived AS is_archived FROM report_listing l WHERE l.rk = old.rk) WHERE NOT EXISTS (SELECT 1 FROM custom_field_elements o WHERE o.rk = old.rk AND o.field = old.field AND o.elem <> old.elem AND coalesce(o.text, o.num) = coalesce(old.text, old.num))
    UNION ALL
    SELECT * FROM (SELECT l.ck AS ck, old.field AS field, x'' AS value, l.owner_ck AS owner_ck, l.status AS status, l.alert_level AS alert_level, l.mode AS mode, l.type AS type, l.has_flag AS has_flag, l.is_archived AS is_archived FROM report_listing l WHERE l.rk = old.rk) WHERE NOT EXISTS (SELECT 1 FROM custom_field_elements o WHERE o.rk = old.rk AND o.field = old.field AND o.elem <> old.elem AND coalesce(o.text, o.num) IS NOT NULL));
END;

CREATE TABLE custom_field_totals (
  ck INTEGER NOT NULL,
  field TEXT NOT NULL,
  value ANY NOT NULL,
  owner_ck INTEGER NOT NULL,
  has_flag INTEGER NOT NULL,
  is_archived INTEGER NOT NULL,
  n INTEGER NOT NULL,
  PRIMARY KEY (ck, field, value, owner_ck, has_flag, is_archived)
) STRICT, WITHOUT ROWID;

DELETE FROM custom_field_totals;
INSERT INTO custom_field_totals (ck, field, value, owner_ck, has_flag, is_archived, n)
  SELECT ck, field, value, owner_ck, has_flag, is_archived, sum(n) FROM custom_field_counts GROUP BY ck, field, value, owner_ck, has_flag, is_archived;

CREATE TRIGGER listing_custom_field_totals_listing_insert AFTER INSERT ON report_listing BEGIN
  
    UPDATE custom_field_totals SET n = n + 1 WHERE (ck, field, value, owner_ck, has_flag, is_archived) IN (SELECT new.ck AS ck, v.field AS field, v.value AS value, new.owner_ck AS owner_ck, new.has_flag AS has_flag, new.is_archived AS is_archived FROM (
  SELECT DISTINCT e.field AS field, coalesce(e.text, e.num) AS value FROM custom_field_elements e WHERE e.rk = new.rk AND coalesce(e.text, e.num) IS NOT NULL
  UNION ALL
  SELECT DISTINCT e.field, x'' FROM custom_field_elements e WHERE e.rk = new.rk AND coalesce(e.text, e.num) IS NOT NULL) v);
    INSERT INTO custom_field_totals (ck, field, value, owner_ck, has_flag, is_archived, n)
      SELECT s.*, 1 FROM (SELECT new.ck AS ck, v.field AS field, v.value AS value, new.owner_ck AS owner_ck, new.has_flag AS has_flag, new.is_archived AS is_archived FROM (
  SELECT DISTINCT e.field AS field, coalesce(e.text, e.num) AS value FROM custom_field_elements e WHERE e.rk = new.rk AND coalesce(e.text, e.num) IS NOT NULL
  UNION ALL
  SELECT DISTINCT e.field, x'' FROM custom_field_elements e WHERE e.rk = new.rk AND coalesce(e.text, e.num) IS NOT NULL) v) s
      WHERE NOT EXISTS (SELECT 1 FROM custom_field_totals c WHERE c.ck = s.ck AND c.field = s.field AND c.value = s.value AND c.owner_ck = s.owner_ck AND c.has_flag = s.has_flag AND c.is_archived = s.is_archived);
END;

CREATE TRIGGER listing_custom_field_totals_listing_delete AFTER DELETE ON report_listing BEGIN
  
    UPDATE custom_field_totals SET n = n - 1 WHERE (ck, field, value, owner_ck, has_flag, is_archived) IN (SELECT old.ck AS ck, v.field AS field, v.value AS value, old.owner_ck AS owner_ck, old.has_flag AS has_flag, old.is_archived AS is_archived FROM (
  SELECT DISTINCT e.field AS field, coalesce(e.text, e.num) AS value FROM custom_field_elements e WHERE e.rk = old.rk AND coalesce(e.text, e.num) IS NOT NULL
  UNION ALL
  SELECT DISTINCT e.field, x'' FROM custom_field_elements e WHERE e.rk = old.rk AND coalesce(e.text, e.num) IS NOT NULL) v);
    DELETE FROM custom_field_totals WHERE n <= 0 AND (ck, field, value, owner_ck, has_flag, is_archived) IN (SELECT old.ck AS ck, v.field AS field, v.value AS value, old.owner_ck AS owner_ck, old.has_flag AS has_flag, old.is_archived AS is_archived FROM (
  SELECT DISTINCT e.field AS field, coalesce(e.text, e.num) AS value FROM custom_field_elements e WHERE e.rk = old.rk AND coalesce(e.text, e.num) IS NOT NULL
  UNION ALL
  SELECT DISTINCT e.field, x'' FROM custom_field_elements e WHERE e.rk = old.rk AND coalesce(e.text, e.num) IS NOT NULL) v);
END;

CREATE TRIGGER listing_custom_field_totals_listing_update AFTER UPDATE OF owner_ck, has_flag, is_archived ON report_listing
WHEN old.owner_ck IS NOT new.owner_ck OR old.has_flag IS NOT new.has_flag OR old.is_archived IS NOT new.is_archived BEGIN
  
    UPDATE custom_field_totals SET n = n - 1 WHERE (ck, field, value, owner_ck, has_flag, is_archived) IN (SELECT old.ck AS ck, v.field AS field, v.value AS value, old.owner_ck AS owner_ck, old.has_flag AS has_flag, old.is_archived AS is_archived FROM (
  SELECT DISTINCT e.field AS field, coalesce(e.text, e.num) AS value FROM custom_field_elements e WHERE e.rk = old.rk AND coalesce(e.text, e.num) IS NOT NULL
  UNION ALL
  SELECT DISTINCT e.field, x'' FROM custom_field_elements e WHERE e.rk = old.rk AND coalesce(e.text, e.num) IS NOT NULL) v);
    DELETE FROM custom_field_totals WHERE n <= 0 AND (ck, field, value, owner_ck, has_flag, is_archived) IN (SELECT old.ck AS ck, v.field AS field, v.value AS value, old.owner_ck AS owner_ck, old.has_flag AS has_flag, old.is_archived AS is_archived FROM (
  SELECT DISTINCT e.field AS field, coalesce(e.text, e.num) AS value FROM custom_field_elements e WHERE e.rk = old.rk AND coalesce(e.text, e.num) IS NOT NULL
  UNION ALL
  SELECT DISTINCT e.field, x'' FROM custom_field_elements e WHERE e.rk = old.rk AND coalesce(e.text, e.num) IS NOT NULL) v);
  
    UPDATE custom_field_totals SET n = n + 1 WHERE (ck, field, value, owner_ck, has_flag, is_archived) IN (SELECT new.ck AS ck, v.field AS field, v.value AS value, new.owner_ck AS owner_ck, new.has_flag AS has_flag, new.is_archived AS is_archived FROM (
  SELECT DISTINCT e.field AS field, coalesce(e.text, e.num) AS value FROM custom_field_elements e WHERE e.rk = new.rk AND coalesce(e.text, e.num) IS NOT NULL
  UNION ALL
  SELECT DISTINCT e.field, x'' FROM custom_field_elements e WHERE e.rk = new.rk AND coalesce(e.text, e.num) IS NOT NULL) v);
    INSERT INTO custom_field_totals (ck, field, value, owner_ck, has_flag, is_archived, n)
      SELECT s.*, 1 FROM (SELECT new.ck AS ck, v.field AS field, v.value AS value, new.owner_ck AS owner_ck, new.has_flag AS has_flag, new.is_archived AS is_archived FROM (
  SELECT DISTINCT e.field AS field, coalesce(e.text, e.num) AS value FROM custom_field_elements e WHERE e.rk = new.rk AND coalesce(e.text, e.num) IS NOT NULL
  UNION ALL
  SELECT DISTINCT e.field, x'' FROM custom_field_elements e WHERE e.rk = new.rk AND coalesce(e.text, e.num) IS NOT NULL) v) s
      WHERE NOT EXISTS (SELECT 1 FROM custom_field_totals c WHERE c.ck = s.ck AND c.field = s.field AND c.value = s.value AND c.owner_ck = s.owner_ck AND c.has_flag = s.has_flag AND c.is_archived = s.is_archived);
END;

CREATE TRIGGER listing_custom_field_totals_element_insert AFTER INSERT ON custom_field_elements
WHEN coalesce(new.text, new.num) IS NOT NULL BEGIN
  
    UPDATE custom_field_totals SET n = n + 1 WHERE (ck, field, value, owner_ck, has_flag, is_archived) IN (
    SELECT * FROM (SELECT l.ck AS ck, new.field AS field, coalesce(new.text, new.num) AS value, l.owner_ck AS owner_ck, l.has_flag AS has_flag, l.is_archived AS is_archived FROM report_listing l WHERE l.rk = new.rk) WHERE NOT EXISTS (SELECT 1 FROM custom_field_elements o WHERE o.rk = new.rk AND o.field = new.field AND o.elem <> new.elem AND coalesce(o.text, o.num) = coalesce(new.text, new.num))
    UNION ALL
    SELECT * FROM (SELECT l.ck AS ck, new.field AS field, x'' AS value, l.owner_ck AS owner_ck, l.has_flag AS has_flag, l.is_archived AS is_archived FROM report_listing l WHERE l.rk = new.rk) WHERE NOT EXISTS (SELECT 1 FROM custom_field_elements o WHERE o.rk = new.rk AND o.field = new.field AND o.elem <> new.elem AND coalesce(o.text, o.num) IS NOT NULL));
    INSERT INTO custom_field_totals (ck, field, value, owner_ck, has_flag, is_archived, n)
      SELECT s.*, 1 FROM (
    SELECT * FROM (SELECT l.ck AS ck, new.field AS field, coalesce(new.text, new.num) AS value, l.owner_ck AS owner_ck, l.has_flag AS has_flag, l.is_archived AS is_archived FROM report_listing l WHERE l.rk = new.rk) WHERE NOT EXISTS (SELECT 1 FROM custom_field_elements o WHERE o.rk = new.rk AND o.field = new.field AND o.elem <> new.elem AND coalesce(o.text, o.num) = coalesce(new.text, new.num))
    UNION ALL
    SELECT * FROM (SELECT l.ck AS ck, new.field AS field, x'' AS value, l.owner_ck AS owner_ck, l.has_flag AS has_flag, l.is_archived AS is_archived FROM report_listing l WHERE l.rk = new.rk) WHERE NOT EXISTS (SELECT 1 FROM custom_field_elements o WHERE o.rk = new.rk AND o.field = new.field AND o.elem <> new.elem AND coalesce(o.text, o.num) IS NOT NULL)) s
      WHERE NOT EXISTS (SELECT 1 FROM custom_field_totals c WHERE c.ck = s.ck AND c.field = s.field AND c.value = s.value AND c.owner_ck = s.owner_ck AND c.has_flag = s.has_flag AND c.is_archived = s.is_archived);
END;

CREATE TRIGGER listing_custom_field_totals_element_delete AFTER DELETE ON custom_field_elements
WHEN coalesce(old.text, old.num) IS NOT NULL BEGIN
  
    UPDATE custom_field_totals SET n = n - 1 WHERE (ck, field, value, owner_ck, has_flag, is_archived) IN (
    SELECT * FROM (SELECT l.ck AS ck, old.field AS field, coalesce(old.text, old.num) AS value, l.owner_ck AS owner_ck, l.has_flag AS has_flag, l.is_archived AS is_archived FROM report_listing l WHERE l.rk = old.rk) WHERE NOT EXISTS (SELECT 1 FROM custom_field_elements o WHERE o.rk = old.rk AND o.field = old.field AND o.elem <> old.elem AND coalesce(o.text, o.num) = coalesce(old.text, old.num))
    UNION ALL
    SELECT * FROM (SELECT l.ck AS ck, old.field AS field, x'' AS value, l.owner_ck AS owner_ck, l.has_flag AS has_flag, l.is_archived AS is_archived FROM report_listing l WHERE l.rk = old.rk) WHERE NOT EXISTS (SELECT 1 FROM custom_field_elements o WHERE o.rk = old.rk AND o.field = old.field AND o.elem <> old.elem AND coalesce(o.text, o.num) IS NOT NULL));
    DELETE FROM custom_field_totals WHERE n <= 0 AND (ck, field, value, owner_ck, has_flag, is_archived) IN (
    SELECT * FROM (SELECT l.ck AS ck, old.field AS field, coalesce(old.text, old.num) AS value, l.owner_ck AS owner_ck, l.has_flag AS has_flag, l.is_archived AS is_archived FROM report_listing l WHERE l.rk = old.rk) WHERE NOT EXISTS (SELECT 1 FROM custom_field_elements o WHERE o.rk = old.rk AND o.field = old.field AND o.elem <> old.elem AND coalesce(o.text, o.num) = coalesce(old.text, old.num))
    UNION ALL
    SELECT * FROM (SELECT l.ck AS ck, old.field AS field, x'' AS value, l.owner_ck AS owner_ck, l.has_flag AS has_flag, l.is_archived AS is_archived FROM report_listing l WHERE l.rk = old.rk) WHERE NOT EXISTS (SELECT 1 FROM custom_field_elements o WHERE o.rk = old.rk AND o.field = old.field AND o.elem <> old.elem AND coalesce(o.text, o.num) IS NOT NULL));
END;
`;
