/**
 * Numbered, append-only: a shipped migration is never edited, a new one is added. Its SQL is
 * written out as it shipped and imports nothing; the live declarations are in db/read-model/.
 *
 * Shipment counts (docs/shipments.md#at-scale): `shipment_counts`, per company the number of its
 * shipments in each review state with each worst alert, kept by triggers on shipment_listing;
 * the shipments list's exact count without a filter, or by worst alert and review state, sums
 * these instead of counting an index of one entry per shipment.
 */
export default /* sql */ `
CREATE TABLE shipment_counts (
  ck          INTEGER NOT NULL,
  state       TEXT NOT NULL,
  worst_alert INTEGER NOT NULL,
  n           INTEGER NOT NULL,
  PRIMARY KEY (ck, state, worst_alert)
) STRICT, WITHOUT ROWID;
CREATE TRIGGER shipment_counts_insert AFTER INSERT ON shipment_listing BEGIN
  
  UPDATE shipment_counts SET n = n + 1 WHERE ck = new.ck AND state = new.state AND worst_alert = new.worst_alert;
  INSERT INTO shipment_counts (ck, state, worst_alert, n)
    SELECT new.ck, new.state, new.worst_alert, 1
    WHERE NOT EXISTS (SELECT 1 FROM shipment_counts WHERE ck = new.ck AND state = new.state AND worst_alert = new.worst_alert);
END;
CREATE TRIGGER shipment_counts_delete AFTER DELETE ON shipment_listing BEGIN
  
  UPDATE shipment_counts SET n = n - 1 WHERE ck = old.ck AND state = old.state AND worst_alert = old.worst_alert;
  DELETE FROM shipment_counts WHERE ck = old.ck AND state = old.state AND worst_alert = old.worst_alert AND n <= 0;
END;
CREATE TRIGGER shipment_counts_update AFTER UPDATE OF ck, state, worst_alert ON shipment_listing
WHEN old.ck IS NOT new.ck OR old.state IS NOT new.state OR old.worst_alert IS NOT new.worst_alert BEGIN
  
  UPDATE shipment_counts SET n = n - 1 WHERE ck = old.ck AND state = old.state AND worst_alert = old.worst_alert;
  DELETE FROM shipment_counts WHERE ck = old.ck AND state = old.state AND worst_alert = old.worst_alert AND n <= 0;
  
  UPDATE shipment_counts SET n = n + 1 WHERE ck = new.ck AND state = new.state AND worst_alert = new.worst_alert;
  INSERT INTO shipment_counts (ck, state, worst_alert, n)
    SELECT new.ck, new.state, new.worst_alert, 1
    WHERE NOT EXISTS (SELECT 1 FROM shipment_counts WHERE ck = new.ck AND state = new.state AND worst_alert = new.worst_alert);
END;
INSERT INTO shipment_counts (ck, state, worst_alert, n)
  SELECT ck, state, worst_alert, count(*) FROM shipment_listing GROUP BY ck, state, worst_alert;
`;
