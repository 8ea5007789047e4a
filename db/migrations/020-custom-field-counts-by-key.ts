/**
 * Numbered, append-only: a shipped migration is never edited, a new one is added. Its SQL is
 * written out as it shipped and imports nothing; the live declarations are in db/read-model/.
 *
 * The triggers of migration 19 that count a custom field element's value as it comes and goes
 * asked `(key) IN (own value UNION ALL holding row)`. SQLite plans a compound on the right of
 * IN by reading every row of the kept table and testing each against it: a write of one custom
 * field read all of custom_field_counts and custom_field_totals, which grow with the reports (3 ms
 * a field at a thousand reports, a quarter of an hour to seed three thousand). The same rows
 * selected through a subquery, `IN (SELECT * FROM (… UNION ALL …))`, are looked up by primary key.
 * The counts they keep are unchanged.
 */
export default /* sql */ `DROP TRIGGER listing_custom_field_counts_element_insert;
DROP TRIGGER listing_custom_field_counts_element_delete;
DROP TRIGGER listing_custom_field_totals_element_insert;
DROP TRIGGER listing_custom_field_totals_element_delete;

CREATE TRIGGER listing_custom_field_counts_element_insert AFTER INSERT ON custom_field_elements
WHEN coalesce(new.text, new.num) IS NOT NULL BEGIN
  
    UPDATE custom_field_counts SET n = n + 1 WHERE (ck, field, value, owner_ck, status, alert_level, mode, type, has_flag, is_archived) IN (SELECT * FROM (
    SELECT * FROM (SELECT l.ck AS ck, new.field AS field, coalesce(new.text, new.num) AS value, l.owner_ck AS owner_ck, l.status AS status, l.alert_level AS alert_level, l.mode AS mode, l.type AS type, l.has_flag AS has_flag, l.is_archived AS is_archived FROM report_listing l WHERE l.rk = new.rk) WHERE NOT EXISTS (SELECT 1 FROM custom_field_elements o WHERE o.rk = new.rk AND o.field = new.field AND o.elem <> new.elem AND coalesce(o.text, o.num) = coalesce(new.text, new.num))
    UNION ALL
    SELECT * FROM (SELECT l.ck AS ck, new.field AS field, x'' AS value, l.owner_ck AS owner_ck, l.status AS status, l.alert_level AS alert_level, l.mode AS mode, l.type AS type, l.has_flag AS has_flag, l.is_archived AS is_archived FROM report_listing l WHERE l.rk = new.rk) WHERE NOT EXISTS (SELECT 1 FROM custom_field_elements o WHERE o.rk = new.rk AND o.field = new.field AND o.elem <> new.elem AND coalesce(o.text, o.num) IS NOT NULL)));
    INSERT INTO custom_field_counts (ck, field, value, owner_ck, status, alert_level, mode, type, has_flag, is_archived, n)
      SELECT s.*, 1 FROM (SELECT * FROM (
    SELECT * FROM (SELECT l.ck AS ck, new.field AS field, coalesce(new.text, new.num) AS value, l.owner_ck AS owner_ck, l.status AS status, l.alert_level AS alert_level, l.mode AS mode, l.type AS type, l.has_flag AS has_flag, l.is_archived AS is_archived FROM report_listing l WHERE l.rk = new.rk) WHERE NOT EXISTS (SELECT 1 FROM custom_field_elements o WHERE o.rk = new.rk AND o.field = new.field AND o.elem <> new.elem AND coalesce(o.text, o.num) = coalesce(new.text, new.num))
    UNION ALL
    SELECT * FROM (SELECT l.ck AS ck, new.field AS field, x'' AS value, l.owner_ck AS owner_ck, l.status AS status, l.alert_level AS alert_level, l.mode AS mode, l.type AS type, l.has_flag AS has_flag, l.is_archived AS is_archived FROM report_listing l WHERE l.rk = new.rk) WHERE NOT EXISTS (SELECT 1 FROM custom_field_elements o WHERE o.rk = new.rk AND o.field = new.field AND o.elem <> new.elem AND coalesce(o.text, o.num) IS NOT NULL))) s
      WHERE NOT EXISTS (SELECT 1 FROM custom_field_counts c WHERE c.ck = s.ck AND c.field = s.field AND c.value = s.value AND c.owner_ck = s.owner_ck AND c.status = s.status AND c.alert_level = s.alert_level AND c.mode = s.mode AND c.type = s.type AND c.has_flag = s.has_flag AND c.is_archived = s.is_archived);
END;

CREATE TRIGGER listing_custom_field_counts_element_delete AFTER DELETE ON custom_field_elements
WHEN coalesce(old.text, old.num) IS NOT NULL BEGIN
  
    UPDATE custom_field_counts SET n = n - 1 WHERE (ck, field, value, owner_ck, status, alert_level, mode, type, has_flag, is_archived) IN (SELECT * FROM (
    SELECT * FROM (SELECT l.ck AS ck, old.field AS field, coalesce(old.text, old.num) AS value, l.owner_ck AS owner_ck, l.status AS status, l.alert_level AS alert_level, l.mode AS mode, l.type AS type, l.has_flag AS has_flag, l.is_archived AS is_archived FROM report_listing l WHERE l.rk = old.rk) WHERE NOT EXISTS (SELECT 1 FROM custom_field_elements o WHERE o.rk = old.rk AND o.field = old.field AND o.elem <> old.elem AND coalesce(o.text, o.num) = coalesce(old.text, old.num))
    UNION ALL
    SELECT * FROM (SELECT l.ck AS ck, old.field AS field, x'' AS value, l.owner_ck AS owner_ck, l.status AS status, l.alert_level AS alert_level, l.mode AS mode, l.type AS type, l.has_flag AS has_flag, l.is_archived AS is_archived FROM report_listing l WHERE l.rk = old.rk) WHERE NOT EXISTS (SELECT 1 FROM custom_field_elements o WHERE o.rk = old.rk AND o.field = old.field AND o.elem <> old.elem AND coalesce(o.text, o.num) IS NOT NULL)));
    DELETE FROM custom_field_counts WHERE n <= 0 AND (ck, field, value, owner_ck, status, alert_level, mode, type, has_flag, is_archived) IN (SELECT * FROM (
    SELECT * FROM (SELECT l.ck AS ck, old.field AS field, coalesce(old.text, old.num) AS value, l.owner_ck AS owner_ck, l.status AS status, l.alert_level AS alert_level, l.mode AS mode, l.type AS type, l.has_flag AS has_flag, l.is_archived AS is_archived FROM report_listing l WHERE l.rk = old.rk) WHERE NOT EXISTS (SELECT 1 FROM custom_field_elements o WHERE o.rk = old.rk AND o.field = old.field AND o.elem <> old.elem AND coalesce(o.text, o.num) = coalesce(old.text, old.num))
    UNION ALL
    SELECT * FROM (SELECT l.ck AS ck, old.field AS field, x'' AS value, l.owner_ck AS owner_ck, l.status AS status, l.alert_level AS alert_level, l.mode AS mode, l.type AS type, l.has_flag AS has_flag, l.is_archived AS is_archived FROM report_listing l WHERE l.rk = old.rk) WHERE NOT EXISTS (SELECT 1 FROM custom_field_elements o WHERE o.rk = old.rk AND o.field = old.field AND o.elem <> old.elem AND coalesce(o.text, o.num) IS NOT NULL)));
END;


CREATE TRIGGER listing_custom_field_totals_element_insert AFTER INSERT ON custom_field_elements
WHEN coalesce(new.text, new.num) IS NOT NULL BEGIN
  
    UPDATE custom_field_totals SET n = n + 1 WHERE (ck, field, value, owner_ck, has_flag, is_archived) IN (SELECT * FROM (
    SELECT * FROM (SELECT l.ck AS ck, new.field AS field, coalesce(new.text, new.num) AS value, l.owner_ck AS owner_ck, l.has_flag AS has_flag, l.is_archived AS is_archived FROM report_listing l WHERE l.rk = new.rk) WHERE NOT EXISTS (SELECT 1 FROM custom_field_elements o WHERE o.rk = new.rk AND o.field = new.field AND o.elem <> new.elem AND coalesce(o.text, o.num) = coalesce(new.text, new.num))
    UNION ALL
    SELECT * FROM (SELECT l.ck AS ck, new.field AS field, x'' AS value, l.owner_ck AS owner_ck, l.has_flag AS has_flag, l.is_archived AS is_archived FROM report_listing l WHERE l.rk = new.rk) WHERE NOT EXISTS (SELECT 1 FROM custom_field_elements o WHERE o.rk = new.rk AND o.field = new.field AND o.elem <> new.elem AND coalesce(o.text, o.num) IS NOT NULL)));
    INSERT INTO custom_field_totals (ck, field, value, owner_ck, has_flag, is_archived, n)
      SELECT s.*, 1 FROM (SELECT * FROM (
    SELECT * FROM (SELECT l.ck AS ck, new.field AS field, coalesce(new.text, new.num) AS value, l.owner_ck AS owner_ck, l.has_flag AS has_flag, l.is_archived AS is_archived FROM report_listing l WHERE l.rk = new.rk) WHERE NOT EXISTS (SELECT 1 FROM custom_field_elements o WHERE o.rk = new.rk AND o.field = new.field AND o.elem <> new.elem AND coalesce(o.text, o.num) = coalesce(new.text, new.num))
    UNION ALL
    SELECT * FROM (SELECT l.ck AS ck, new.field AS field, x'' AS value, l.owner_ck AS owner_ck, l.has_flag AS has_flag, l.is_archived AS is_archived FROM report_listing l WHERE l.rk = new.rk) WHERE NOT EXISTS (SELECT 1 FROM custom_field_elements o WHERE o.rk = new.rk AND o.field = new.field AND o.elem <> new.elem AND coalesce(o.text, o.num) IS NOT NULL))) s
      WHERE NOT EXISTS (SELECT 1 FROM custom_field_totals c WHERE c.ck = s.ck AND c.field = s.field AND c.value = s.value AND c.owner_ck = s.owner_ck AND c.has_flag = s.has_flag AND c.is_archived = s.is_archived);
END;

CREATE TRIGGER listing_custom_field_totals_element_delete AFTER DELETE ON custom_field_elements
WHEN coalesce(old.text, old.num) IS NOT NULL BEGIN
  
    UPDATE custom_field_totals SET n = n - 1 WHERE (ck, field, value, owner_ck, has_flag, is_archived) IN (SELECT * FROM (
    SELECT * FROM (SELECT l.ck AS ck, old.field AS field, coalesce(old.text, old.num) AS value, l.owner_ck AS owner_ck, l.has_flag AS has_flag, l.is_archived AS is_archived FROM report_listing l WHERE l.rk = old.rk) WHERE NOT EXISTS (SELECT 1 FROM custom_field_elements o WHERE o.rk = old.rk AND o.field = old.field AND o.elem <> old.elem AND coalesce(o.text, o.num) = coalesce(old.text, old.num))
    UNION ALL
    SELECT * FROM (SELECT l.ck AS ck, old.field AS field, x'' AS value, l.owner_ck AS owner_ck, l.has_flag AS has_flag, l.is_archived AS is_archived FROM report_listing l WHERE l.rk = old.rk) WHERE NOT EXISTS (SELECT 1 FROM custom_field_elements o WHERE o.rk = old.rk AND o.field = old.field AND o.elem <> old.elem AND coalesce(o.text, o.num) IS NOT NULL)));
    DELETE FROM custom_field_totals WHERE n <= 0 AND (ck, field, value, owner_ck, has_flag, is_archived) IN (SELECT * FROM (
    SELECT * FROM (SELECT l.ck AS ck, old.field AS field, coalesce(old.text, old.num) AS value, l.owner_ck AS owner_ck, l.has_flag AS has_flag, l.is_archived AS is_archived FROM report_listing l WHERE l.rk = old.rk) WHERE NOT EXISTS (SELECT 1 FROM custom_field_elements o WHERE o.rk = old.rk AND o.field = old.field AND o.elem <> old.elem AND coalesce(o.text, o.num) = coalesce(old.text, old.num))
    UNION ALL
    SELECT * FROM (SELECT l.ck AS ck, old.field AS field, x'' AS value, l.owner_ck AS owner_ck, l.has_flag AS has_flag, l.is_archived AS is_archived FROM report_listing l WHERE l.rk = old.rk) WHERE NOT EXISTS (SELECT 1 FROM custom_field_elements o WHERE o.rk = old.rk AND o.field = old.field AND o.elem <> old.elem AND coalesce(o.text, o.num) IS NOT NULL)));
END;
`;
