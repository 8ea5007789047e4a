/**
 * Numbered, append-only: a shipped migration is never edited, a new one is added. Its SQL is
 * written out as it shipped and imports nothing; the live declarations are in db/read-model/.
 *
 * Counts kept by the write itself. `listing_counts` holds, per company, how many of its listing
 * rows share each combination of the values the report browser filters by (owner, status, alert
 * level, mode, type, flag, archive state): a few hundred rows per company at most, whatever the
 * number of reports. Triggers on report_listing keep it exact in the transaction that changes a
 * listing row, so a count whose filter only tests these columns sums a handful of rows instead
 * of reading an index range of every match (about 40 ms at a million reports, paid again after
 * every change). The columns carry report_listing's names and types, so a compiled condition
 * over the listing alias l reads the same over this table and picks the same rows.
 *
 * The triggers' names start with `listing_`: a bulk import sets them aside with the listing's
 * own and counts again once the listing rows are built (ReportStore.writingMany).
 *
 * Also an index per analysed temperature figure (mean kinetic temperature, degree hours,
 * average), which no other index held: the company, the figure, the id (the tiebreak), the
 * archive state. A first page walks it in order and stops at
 * the page instead of sorting every report the company sees.
 */
export default /* sql */ `
CREATE TABLE listing_counts (
  ck INTEGER NOT NULL,
  owner_ck INTEGER NOT NULL,
  status TEXT NOT NULL,
  alert_level INTEGER NOT NULL,
  mode TEXT NOT NULL,
  type TEXT NOT NULL,
  has_flag INTEGER NOT NULL,
  is_archived INTEGER NOT NULL,
  n INTEGER NOT NULL,
  PRIMARY KEY (ck, owner_ck, status, alert_level, mode, type, has_flag, is_archived)
) STRICT, WITHOUT ROWID;

INSERT INTO listing_counts (ck, owner_ck, status, alert_level, mode, type, has_flag, is_archived, n)
  SELECT ck, owner_ck, status, alert_level, mode, type, has_flag, is_archived, count(*) FROM report_listing GROUP BY ck, owner_ck, status, alert_level, mode, type, has_flag, is_archived;

CREATE TRIGGER listing_counts_insert AFTER INSERT ON report_listing BEGIN
  
  UPDATE listing_counts SET n = n + 1 WHERE ck = new.ck AND owner_ck = new.owner_ck AND status = new.status AND alert_level = new.alert_level AND mode = new.mode AND type = new.type AND has_flag = new.has_flag AND is_archived = new.is_archived;
  INSERT INTO listing_counts (ck, owner_ck, status, alert_level, mode, type, has_flag, is_archived, n)
    SELECT new.ck, new.owner_ck, new.status, new.alert_level, new.mode, new.type, new.has_flag, new.is_archived, 1
    WHERE NOT EXISTS (SELECT 1 FROM listing_counts WHERE ck = new.ck AND owner_ck = new.owner_ck AND status = new.status AND alert_level = new.alert_level AND mode = new.mode AND type = new.type AND has_flag = new.has_flag AND is_archived = new.is_archived);
END;

CREATE TRIGGER listing_counts_delete AFTER DELETE ON report_listing BEGIN
  
  UPDATE listing_counts SET n = n - 1 WHERE ck = old.ck AND owner_ck = old.owner_ck AND status = old.status AND alert_level = old.alert_level AND mode = old.mode AND type = old.type AND has_flag = old.has_flag AND is_archived = old.is_archived;
  DELETE FROM listing_counts WHERE ck = old.ck AND owner_ck = old.owner_ck AND status = old.status AND alert_level = old.alert_level AND mode = old.mode AND type = old.type AND has_flag = old.has_flag AND is_archived = old.is_archived AND n <= 0;
END;

CREATE TRIGGER listing_counts_update AFTER UPDATE OF ck, owner_ck, status, alert_level, mode, type, has_flag, is_archived ON report_listing
WHEN old.ck IS NOT new.ck OR old.owner_ck IS NOT new.owner_ck OR old.status IS NOT new.status OR old.alert_level IS NOT new.alert_level OR old.mode IS NOT new.mode OR old.type IS NOT new.type OR old.has_flag IS NOT new.has_flag OR old.is_archived IS NOT new.is_archived BEGIN
  
  UPDATE listing_counts SET n = n - 1 WHERE ck = old.ck AND owner_ck = old.owner_ck AND status = old.status AND alert_level = old.alert_level AND mode = old.mode AND type = old.type AND has_flag = old.has_flag AND is_archived = old.is_archived;
  DELETE FROM listing_counts WHERE ck = old.ck AND owner_ck = old.owner_ck AND status = old.status AND alert_level = old.alert_level AND mode = old.mode AND type = old.type AND has_flag = old.has_flag AND is_archived = old.is_archived AND n <= 0;
  
  UPDATE listing_counts SET n = n + 1 WHERE ck = new.ck AND owner_ck = new.owner_ck AND status = new.status AND alert_level = new.alert_level AND mode = new.mode AND type = new.type AND has_flag = new.has_flag AND is_archived = new.is_archived;
  INSERT INTO listing_counts (ck, owner_ck, status, alert_level, mode, type, has_flag, is_archived, n)
    SELECT new.ck, new.owner_ck, new.status, new.alert_level, new.mode, new.type, new.has_flag, new.is_archived, 1
    WHERE NOT EXISTS (SELECT 1 FROM listing_counts WHERE ck = new.ck AND owner_ck = new.owner_ck AND status = new.status AND alert_level = new.alert_level AND mode = new.mode AND type = new.type AND has_flag = new.has_flag AND is_archived = new.is_archived);
END;

CREATE INDEX listing_mean_kinetic_temperature ON report_listing (ck, calc_mean_kinetic_temperature, id, is_archived);
CREATE INDEX listing_degree_hour ON report_listing (ck, calc_degree_hour, id, is_archived);
CREATE INDEX listing_average_temperature ON report_listing (ck, calc_average_temperature, id, is_archived);
PRAGMA analysis_limit = 1000;
ANALYZE report_listing;
`;
