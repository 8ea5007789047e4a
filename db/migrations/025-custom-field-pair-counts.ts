/**
 * Numbered, append-only: a shipped migration is never edited, a new one is added. Its SQL is
 * written out as it shipped and imports nothing; the live declarations are in db/read-model/.
 *
 * Counts of the pairs of custom field values a report holds, kept by the write itself as
 * custom_field_counts (019) keeps those of single values: per company view, a value of one field
 * (`field`, `value`: the one a condition compares) beside a value of another (`other_field`,
 * `other_value`, or the empty blob for "holds some value of it", as in 019), split by owner, flag
 * and archive state as custom_field_totals. The facet of one custom field under a comparison of
 * another (the browser's batch facet under `customFields=pallets[gte]20`, with archived reports
 * hidden or not) is then a sum of the pair rows of the compared values, where reading every
 * match's elements took 0.75 s at a million reports. The insights read them only while each
 * report the company sees holds one value of the compared field (db/field-counts.ts): then no
 * report is counted twice.
 *
 * Triggers on report_listing (a view appears, goes, or its split columns move) and on
 * custom_field_elements (a value appears or goes) keep the counts exact in the write's
 * transaction; each statement finds its kept rows by primary key (020's form). Their names start
 * with `listing_`, so a bulk import sets them aside with the listing's own and counts again once
 * the listing rows are built (ReportStore.writingMany).
 */
export default /* sql */ `
CREATE TABLE custom_field_pair_counts (
  ck INTEGER NOT NULL,
  field TEXT NOT NULL,
  other_field TEXT NOT NULL,
  value ANY NOT NULL,
  other_value ANY NOT NULL,
  owner_ck INTEGER NOT NULL,
  has_flag INTEGER NOT NULL,
  is_archived INTEGER NOT NULL,
  n INTEGER NOT NULL,
  PRIMARY KEY (ck, field, other_field, value, other_value, owner_ck, has_flag, is_archived)
) STRICT, WITHOUT ROWID;

DELETE FROM custom_field_pair_counts;
INSERT INTO custom_field_pair_counts (ck, field, other_field, value, other_value, owner_ck, has_flag, is_archived, n)
  SELECT ck, field, other_field, value, other_value, owner_ck, has_flag, is_archived, count(*) FROM (
  WITH v AS (SELECT DISTINCT e.rk, e.field, coalesce(e.text, e.num) AS value FROM custom_field_elements e WHERE coalesce(e.text, e.num) IS NOT NULL),
       h AS (SELECT rk, field, value FROM v UNION ALL SELECT DISTINCT rk, field, x'' FROM v)
  SELECT l.ck AS ck, a.field AS field, b.field AS other_field, a.value AS value, b.value AS other_value, l.owner_ck AS owner_ck, l.has_flag AS has_flag, l.is_archived AS is_archived
    FROM v a JOIN h b ON b.rk = a.rk AND b.field <> a.field JOIN report_listing l ON l.rk = a.rk) GROUP BY ck, field, other_field, value, other_value, owner_ck, has_flag, is_archived;

CREATE TRIGGER listing_custom_field_pair_counts_listing_insert AFTER INSERT ON report_listing BEGIN
  
  UPDATE custom_field_pair_counts SET n = n + 1 WHERE (ck, field, other_field, value, other_value, owner_ck, has_flag, is_archived) IN (SELECT * FROM (
  SELECT new.ck AS ck, a.field AS field, b.field AS other_field, a.value AS value, b.value AS other_value, new.owner_ck AS owner_ck, new.has_flag AS has_flag, new.is_archived AS is_archived
    FROM (SELECT DISTINCT e.field AS field, coalesce(e.text, e.num) AS value FROM custom_field_elements e WHERE e.rk = new.rk AND coalesce(e.text, e.num) IS NOT NULL) a JOIN (SELECT DISTINCT e.field AS field, coalesce(e.text, e.num) AS value FROM custom_field_elements e WHERE e.rk = new.rk AND coalesce(e.text, e.num) IS NOT NULL UNION ALL SELECT DISTINCT e.field, x'' FROM custom_field_elements e WHERE e.rk = new.rk AND coalesce(e.text, e.num) IS NOT NULL) b ON b.field <> a.field));
  INSERT INTO custom_field_pair_counts (ck, field, other_field, value, other_value, owner_ck, has_flag, is_archived, n)
    SELECT s.*, 1 FROM (
  SELECT new.ck AS ck, a.field AS field, b.field AS other_field, a.value AS value, b.value AS other_value, new.owner_ck AS owner_ck, new.has_flag AS has_flag, new.is_archived AS is_archived
    FROM (SELECT DISTINCT e.field AS field, coalesce(e.text, e.num) AS value FROM custom_field_elements e WHERE e.rk = new.rk AND coalesce(e.text, e.num) IS NOT NULL) a JOIN (SELECT DISTINCT e.field AS field, coalesce(e.text, e.num) AS value FROM custom_field_elements e WHERE e.rk = new.rk AND coalesce(e.text, e.num) IS NOT NULL UNION ALL SELECT DISTINCT e.field, x'' FROM custom_field_elements e WHERE e.rk = new.rk AND coalesce(e.text, e.num) IS NOT NULL) b ON b.field <> a.field) s
    WHERE NOT EXISTS (SELECT 1 FROM custom_field_pair_counts c WHERE c.ck = s.ck AND c.field = s.field AND c.other_field = s.other_field AND c.value = s.value AND c.other_value = s.other_value AND c.owner_ck = s.owner_ck AND c.has_flag = s.has_flag AND c.is_archived = s.is_archived);
END;

CREATE TRIGGER listing_custom_field_pair_counts_listing_delete AFTER DELETE ON report_listing BEGIN
  
  UPDATE custom_field_pair_counts SET n = n - 1 WHERE (ck, field, other_field, value, other_value, owner_ck, has_flag, is_archived) IN (SELECT * FROM (
  SELECT old.ck AS ck, a.field AS field, b.field AS other_field, a.value AS value, b.value AS other_value, old.owner_ck AS owner_ck, old.has_flag AS has_flag, old.is_archived AS is_archived
    FROM (SELECT DISTINCT e.field AS field, coalesce(e.text, e.num) AS value FROM custom_field_elements e WHERE e.rk = old.rk AND coalesce(e.text, e.num) IS NOT NULL) a JOIN (SELECT DISTINCT e.field AS field, coalesce(e.text, e.num) AS value FROM custom_field_elements e WHERE e.rk = old.rk AND coalesce(e.text, e.num) IS NOT NULL UNION ALL SELECT DISTINCT e.field, x'' FROM custom_field_elements e WHERE e.rk = old.rk AND coalesce(e.text, e.num) IS NOT NULL) b ON b.field <> a.field));
  DELETE FROM custom_field_pair_counts WHERE n <= 0 AND (ck, field, other_field, value, other_value, owner_ck, has_flag, is_archived) IN (SELECT * FROM (
  SELECT old.ck AS ck, a.field AS field, b.field AS other_field, a.value AS value, b.value AS other_value, old.owner_ck AS owner_ck, old.has_flag AS has_flag, old.is_archived AS is_archived
    FROM (SELECT DISTINCT e.field AS field, coalesce(e.text, e.num) AS value FROM custom_field_elements e WHERE e.rk = old.rk AND coalesce(e.text, e.num) IS NOT NULL) a JOIN (SELECT DISTINCT e.field AS field, coalesce(e.text, e.num) AS value FROM custom_field_elements e WHERE e.rk = old.rk AND coalesce(e.text, e.num) IS NOT NULL UNION ALL SELECT DISTINCT e.field, x'' FROM custom_field_elements e WHERE e.rk = old.rk AND coalesce(e.text, e.num) IS NOT NULL) b ON b.field <> a.field));
END;

CREATE TRIGGER listing_custom_field_pair_counts_listing_update AFTER UPDATE OF owner_ck, has_flag, is_archived ON report_listing
WHEN old.owner_ck IS NOT new.owner_ck OR old.has_flag IS NOT new.has_flag OR old.is_archived IS NOT new.is_archived BEGIN
  
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
WHEN coalesce(new.text, new.num) IS NOT NULL BEGIN
  
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

CREATE TRIGGER listing_custom_field_pair_counts_element_delete AFTER DELETE ON custom_field_elements
WHEN coalesce(old.text, old.num) IS NOT NULL BEGIN
  
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
`;
