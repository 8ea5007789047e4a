/**
 * `shipment_groups`: one row per company and reference key (docs/shipments.md#what-a-shipment-is)
 * with what the shipments list filters and sorts by: the labels, the worst alert, the first
 * creation and start, the span of creation, and the tally its review state is judged from (the
 * labels released, rejected, on hold, with an unacknowledged alert). A row is made again from its
 * own listing rows (found by the `listing_shipment` index) whenever one of them moves in a column
 * it reads, or the company's review of one of them moves: a write costs a read of its shipment's
 * labels, about 20 at most in practice. A reference used again after the gap is one row here;
 * the list cuts such rows (span over the gap, found by `shipment_groups_span`) into shipments
 * when it reads them.
 */
import { index, table, triggers, type KeptTableDeclaration } from './declaration';

/** The reference key of a listing row `p`, as model/shipment.ts#referenceKey computes it. */
export const referenceKeyOf = (p: string) =>
  `upper(replace(replace(replace(replace(replace(${p === '' ? '' : `${p}.`}label_reference, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), ''))`;

const COLUMNS = 'ck, ref_key, labels, worst_alert, first_created, last_created, span_seconds, first_start, released, rejected, on_hold, unacknowledged';

/** The group's figures (the columns after ref_key) from its listing rows `l` and the company's review rows `r`. */
export const figuresOf = (l: string, r: string) => `count(*), max(${l}.alert_level), min(${l}.created), max(${l}.created), unixepoch(max(${l}.created)) - unixepoch(min(${l}.created)), min(${l}.calc_start_time),
         count(CASE WHEN ${r}.decision = 'released' THEN 1 END), count(CASE WHEN ${r}.decision = 'rejected' THEN 1 END), count(CASE WHEN ${r}.decision = 'onHold' THEN 1 END),
         count(CASE WHEN ${l}.alert_level >= 1 AND coalesce(${r}.acknowledged_level, -1) < ${l}.alert_level THEN 1 END)`;
const FIGURES = figuresOf('l', 'r');

/** The columns of a shipment_groups row, in the order figuresOf gives them after ck and ref_key. */
export const SHIPMENT_GROUP_COLUMNS = COLUMNS;

/** Makes the group (ck, key) again: ck and key are SQL expressions over NEW or OLD. */
function regroup(ck: string, key: string): string {
  return `DELETE FROM shipment_groups WHERE ck = ${ck} AND ref_key = ${key};
  INSERT INTO shipment_groups (${COLUMNS})
  SELECT l.ck, ${referenceKeyOf('l')}, ${FIGURES}
    FROM report_listing l LEFT JOIN review_current r ON r.label_report_id = l.id AND r.company_id = (SELECT k.company_id FROM company_keys k WHERE k.ck = l.ck)
   WHERE l.ck = ${ck} AND ${referenceKeyOf('l')} = ${key} AND l.label_reference <> ''
   GROUP BY l.ck`;
}

/** The listing row of the company and report a review_current row is about. */
const reviewedRow = (column: string) =>
  `(SELECT ${column} FROM report_listing m WHERE m.ck = (SELECT k.ck FROM company_keys k WHERE k.company_id = NEW.company_id) AND m.id = NEW.label_report_id AND m.label_reference <> '')`;

export const SHIPMENTS: KeptTableDeclaration = {
  name: 'shipment_groups',
  tables: [
    table(`CREATE TABLE shipment_groups (
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
) STRICT, WITHOUT ROWID`),
  ],
  madeFrom: 'report_listing: the listing rows of each company with a label reference, by reference key; review_current: the company\'s review of each of them',
  key: '(ck, ref_key): one row per company and reference key',
  reads: [
    {
      read: 'the shipments list (a page and its exact count, by worst alert, review state, labels, first start) at 1 000 000 reports',
      figure: 'a GROUP BY over the listing rows reads every one of the company\'s rows',
    },
  ],
  writes:
    'A listing row inserted or deleted, or moved in its reference, alert level, creation or start, makes its group (both groups, for a new reference) again from the index listing_shipment; a review_current row written makes the group of its report\'s listing row again.',
  triggers: triggers([
    `CREATE TRIGGER shipment_groups_listing_insert AFTER INSERT ON report_listing WHEN NEW.label_reference <> '' BEGIN
  ${regroup('NEW.ck', referenceKeyOf('NEW'))};
END`,
    `CREATE TRIGGER shipment_groups_listing_delete AFTER DELETE ON report_listing WHEN OLD.label_reference <> '' BEGIN
  ${regroup('OLD.ck', referenceKeyOf('OLD'))};
END`,
    `CREATE TRIGGER shipment_groups_listing_reference AFTER UPDATE OF label_reference ON report_listing WHEN OLD.label_reference IS NOT NEW.label_reference BEGIN
  ${regroup('OLD.ck', referenceKeyOf('OLD'))};
  ${regroup('NEW.ck', referenceKeyOf('NEW'))};
END`,
    `CREATE TRIGGER shipment_groups_listing_figures AFTER UPDATE OF alert_level, created, calc_start_time ON report_listing
WHEN NEW.label_reference <> '' AND (OLD.alert_level IS NOT NEW.alert_level OR OLD.created IS NOT NEW.created OR OLD.calc_start_time IS NOT NEW.calc_start_time) BEGIN
  ${regroup('NEW.ck', referenceKeyOf('NEW'))};
END`,
    `CREATE TRIGGER shipment_groups_review_insert AFTER INSERT ON review_current BEGIN
  ${regroup(reviewedRow('m.ck'), reviewedRow(referenceKeyOf('m')))};
END`,
    `CREATE TRIGGER shipment_groups_review_update AFTER UPDATE ON review_current BEGIN
  ${regroup(reviewedRow('m.ck'), reviewedRow(referenceKeyOf('m')))};
END`,
  ]),
  indexes: [
    index(
      `CREATE INDEX listing_shipment ON report_listing (ck, ${referenceKeyOf('')}) WHERE label_reference <> ''`,
      'a shipment\'s labels: its group made again after a write, and the shipment view',
    ),
    index('CREATE INDEX shipment_groups_alert ON shipment_groups (ck, worst_alert, first_created)', 'the shipments list by worst alert'),
    index('CREATE INDEX shipment_groups_start ON shipment_groups (ck, first_start)', 'the shipments list by first start'),
    index('CREATE INDEX shipment_groups_created ON shipment_groups (ck, first_created)', 'the shipments list in its default order, newest first'),
    index('CREATE INDEX shipment_groups_span ON shipment_groups (ck, span_seconds)', 'the groups of a reference used again after the gap, cut into shipments when read'),
  ],
  bulkLoad: 'rebuilt',
  rebuild: `DELETE FROM shipment_groups;
INSERT INTO shipment_groups (${COLUMNS})
  SELECT l.ck, ${referenceKeyOf('l')}, ${FIGURES}
    FROM report_listing l LEFT JOIN review_current r ON r.label_report_id = l.id AND r.company_id = (SELECT k.company_id FROM company_keys k WHERE k.ck = l.ck)
   WHERE l.label_reference <> ''
   GROUP BY l.ck, ${referenceKeyOf('l')};`,
};
