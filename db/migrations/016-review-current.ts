/**
 * Numbered, append-only: a shipped migration is never edited, a new one is added. Its SQL is
 * written out as it shipped and imports nothing; the live declarations are in db/read-model/.
 *
 * Where each company's review of each report stands, kept by triggers on the review entries
 * (which are only ever appended): the current decision, whether the newest settling entry is a
 * withdrawal, and the highest alert level acknowledged since the newest withdrawal. The review
 * list's filters and the insights read these rows instead of walking each report's entries:
 * a decision filter reads the decided reports from an index, and "awaiting" is one probe.
 */
export default /* sql */ `
CREATE TABLE review_current (
  label_report_id    TEXT NOT NULL,
  company_id         TEXT NOT NULL,
  decision           TEXT CHECK (decision IN ('released', 'rejected', 'onHold')),
  withdrawn          INTEGER NOT NULL DEFAULT 0 CHECK (withdrawn IN (0, 1)),
  acknowledged_level INTEGER,
  PRIMARY KEY (label_report_id, company_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX review_current_decision ON review_current(company_id, decision, label_report_id);

CREATE TRIGGER review_current_decision_entry AFTER INSERT ON report_reviews WHEN NEW.kind = 'decision' BEGIN
  INSERT INTO review_current (label_report_id, company_id, decision, withdrawn) VALUES (NEW.label_report_id, NEW.company_id, NEW.decision, 0)
    ON CONFLICT (label_report_id, company_id) DO UPDATE SET decision = excluded.decision, withdrawn = 0;
END;
CREATE TRIGGER review_current_withdrawal_entry AFTER INSERT ON report_reviews WHEN NEW.kind = 'withdrawal' BEGIN
  INSERT INTO review_current (label_report_id, company_id, decision, withdrawn, acknowledged_level) VALUES (NEW.label_report_id, NEW.company_id, NULL, 1, NULL)
    ON CONFLICT (label_report_id, company_id) DO UPDATE SET decision = NULL, withdrawn = 1, acknowledged_level = NULL;
END;
CREATE TRIGGER review_current_acknowledgement_entry AFTER INSERT ON report_reviews WHEN NEW.kind = 'acknowledgement' BEGIN
  INSERT INTO review_current (label_report_id, company_id, acknowledged_level) VALUES (NEW.label_report_id, NEW.company_id, NEW.alert_level)
    ON CONFLICT (label_report_id, company_id) DO UPDATE SET acknowledged_level = max(coalesce(acknowledged_level, excluded.acknowledged_level), excluded.acknowledged_level);
END;

-- The entries so far, as the triggers would have kept them.
INSERT INTO review_current (label_report_id, company_id, decision, withdrawn, acknowledged_level)
  SELECT p.label_report_id, p.company_id,
         (SELECT s.decision FROM report_reviews s WHERE s.label_report_id = p.label_report_id AND s.company_id = p.company_id
             AND s.kind IN ('decision', 'withdrawal') ORDER BY s.id DESC LIMIT 1),
         coalesce((SELECT s.kind = 'withdrawal' FROM report_reviews s WHERE s.label_report_id = p.label_report_id AND s.company_id = p.company_id
             AND s.kind IN ('decision', 'withdrawal') ORDER BY s.id DESC LIMIT 1), 0),
         (SELECT max(a.alert_level) FROM report_reviews a WHERE a.label_report_id = p.label_report_id AND a.company_id = p.company_id
             AND a.kind = 'acknowledgement'
             AND a.id > coalesce((SELECT max(w.id) FROM report_reviews w WHERE w.label_report_id = p.label_report_id
                                     AND w.company_id = p.company_id AND w.kind = 'withdrawal'), 0))
    FROM (SELECT DISTINCT label_report_id, company_id FROM report_reviews WHERE kind IN ('decision', 'withdrawal', 'acknowledgement')) p;
`;
