/**
 * `review_current`: where each company's review of each report stands, kept by triggers on the
 * review entries (which are only ever appended): the current decision, whether the newest
 * settling entry is a withdrawal, and the highest alert level acknowledged since the newest
 * withdrawal. The review list's filters and the insights read these rows instead of walking each
 * report's entries: a decision filter reads the decided reports from an index, and "awaiting" is
 * one probe. A bulk load brings no review entries (they are not part of the bundle): its triggers
 * stay.
 */
import { index, table, triggers, type KeptTableDeclaration } from './declaration';

export const REVIEW_CURRENT: KeptTableDeclaration = {
  name: 'review_current',
  tables: [
    table(`CREATE TABLE review_current (
  label_report_id    TEXT NOT NULL,
  company_id         TEXT NOT NULL,
  decision           TEXT CHECK (decision IN ('released', 'rejected', 'onHold')),
  withdrawn          INTEGER NOT NULL DEFAULT 0 CHECK (withdrawn IN (0, 1)),
  acknowledged_level INTEGER,
  PRIMARY KEY (label_report_id, company_id)
) STRICT, WITHOUT ROWID`),
  ],
  madeFrom: 'report_reviews: the newest decision or withdrawal of each company on each report, and the acknowledgements since the newest withdrawal',
  key: '(label_report_id, company_id): one row per company and report it has reviewed',
  reads: [
    {
      read: 'the review list\'s decision filter (first page · count) and awaiting review or acknowledgement, with its count, at 100 000 reports with 20 000 reviewed',
      figure: '10–25 ms · 25–80 ms, and 14–75 ms, against 85–160 ms and 0.4–1.7 s walking the entries',
    },
    { read: 'the group figures\' counts per current decision (group_figures_*)', figure: 'a decision is one row read by key, in the listing triggers\' statements' },
  ],
  writes:
    'Each review entry appended moves its company\'s row for the report: a decision sets the decision and clears the withdrawal, a withdrawal clears the decision and the acknowledged level, an acknowledgement raises the acknowledged level.',
  triggers: triggers([
    `CREATE TRIGGER review_current_decision_entry AFTER INSERT ON report_reviews WHEN NEW.kind = 'decision' BEGIN
  INSERT INTO review_current (label_report_id, company_id, decision, withdrawn) VALUES (NEW.label_report_id, NEW.company_id, NEW.decision, 0)
    ON CONFLICT (label_report_id, company_id) DO UPDATE SET decision = excluded.decision, withdrawn = 0;
END`,
    `CREATE TRIGGER review_current_withdrawal_entry AFTER INSERT ON report_reviews WHEN NEW.kind = 'withdrawal' BEGIN
  INSERT INTO review_current (label_report_id, company_id, decision, withdrawn, acknowledged_level) VALUES (NEW.label_report_id, NEW.company_id, NULL, 1, NULL)
    ON CONFLICT (label_report_id, company_id) DO UPDATE SET decision = NULL, withdrawn = 1, acknowledged_level = NULL;
END`,
    `CREATE TRIGGER review_current_acknowledgement_entry AFTER INSERT ON report_reviews WHEN NEW.kind = 'acknowledgement' BEGIN
  INSERT INTO review_current (label_report_id, company_id, acknowledged_level) VALUES (NEW.label_report_id, NEW.company_id, NEW.alert_level)
    ON CONFLICT (label_report_id, company_id) DO UPDATE SET acknowledged_level = max(coalesce(acknowledged_level, excluded.acknowledged_level), excluded.acknowledged_level);
END`,
  ]),
  indexes: [index(`CREATE INDEX review_current_decision ON review_current(company_id, decision, label_report_id)`, 'a decision filter: the company\'s decided reports of one decision, in report order')],
  bulkLoad: 'kept',
  rebuild: `DELETE FROM review_current;
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
    FROM (SELECT DISTINCT label_report_id, company_id FROM report_reviews WHERE kind IN ('decision', 'withdrawal', 'acknowledgement')) p;`,
};
