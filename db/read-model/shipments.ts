/**
 * `shipment_listing`: one row per shipment (docs/shipments.md#what-a-shipment-is), a company's
 * run of reports of one reference key whose creations lie no more than the gap apart, keyed by
 * its first creation, with everything the shipments list filters and sorts by: the labels, the
 * worst alert, the first start, the review state, and the product and leg modes of its facts.
 * The rows of a reference key are made again from its own listing rows (found by the
 * `listing_shipment` index) whenever one of them moves in a column they read, or the company's
 * review of one of them moves: a write costs a read of the reference's labels (a shipment's,
 * and those of the shipments the reference was used for before and after), and an upsert that
 * leaves every row whose figures did not move as it was, so a write moves its own shipment's row
 * alone. Facts written move the product and modes of their shipment's row.
 */
import { SHIPMENT_GAP_SECONDS } from '../../model/shipment';
import { countTriggers, index, table, triggers, type KeptTableDeclaration } from './declaration';
import { shipmentRefOf } from './listing';

/**
 * The reference key of a listing row `p`, as model/shipment.ts#referenceKey computes it, from the
 * value its company groups shipments by (`shipment_ref`: the label reference, or a custom field).
 */
export const referenceKeyOf = (p: string) =>
  `upper(replace(replace(replace(replace(replace(${p === '' ? '' : `${p}.`}shipment_ref, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), ''))`;

/** The figures of a shipment row, after its key. */
const FIGURES = 'last_created, labels, worst_alert, first_start, state, product, modes';
const COLUMNS = `ck, ref_key, first_created, ${FIGURES}`;

/** Where a shipment's review stands, from the tally of its labels `q` (model/shipment.ts#shipmentState). */
const STATE = `CASE WHEN count(CASE WHEN q.decision = 'rejected' THEN 1 END) > 0 THEN 'rejected'
              WHEN count(CASE WHEN q.decision = 'onHold' THEN 1 END) > 0 THEN 'onHold'
              WHEN count(CASE WHEN q.alert_level >= 1 AND coalesce(q.acknowledged_level, -1) < q.alert_level THEN 1 END) > 0 THEN 'awaitingAcknowledgement'
              WHEN count(CASE WHEN q.decision = 'released' THEN 1 END) = count(*) THEN 'released' ELSE 'awaitingReview' END`;

/** The leg modes of facts `f`, each between commas (`,road,air,`), or NULL when it has no legs. */
const modesOf = (f: string) => `(SELECT ',' || group_concat(DISTINCT j.value ->> '$.mode') || ',' FROM json_each(${f}.legs) j)`;

/** The facts of the shipment of reference key `key` first created at `created`, for the company of `ck`. */
const factOf = (column: string, ck: string, key: string, created: string) =>
  `(SELECT ${column} FROM shipment_facts f WHERE f.company_id = (SELECT k.company_id FROM company_keys k WHERE k.ck = ${ck}) AND f.shipment_id = ${key} || '@' || substr(${created}, 1, 10))`;

/**
 * The shipments of the listing rows meeting `where`, one row each: the rows in creation order
 * (within `partition`, a reference key's rows), each beginning a shipment when created more
 * than the gap after the one before.
 */
function shipmentsOf(where: string, partition: string): string {
  const over = `OVER (${partition === '' ? '' : `PARTITION BY ${partition} `}ORDER BY l.created, l.id)`;
  return `SELECT g.*, ${factOf('f.product', 'g.ck', 'g.ref_key', 'g.first_created')}, ${factOf(modesOf('f'), 'g.ck', 'g.ref_key', 'g.first_created')}
    FROM (SELECT q.ck, q.ref_key, min(q.created) AS first_created, max(q.created), count(*), max(q.alert_level), min(q.calc_start_time), ${STATE}
            FROM (SELECT p.*, sum(p.begins) OVER (PARTITION BY p.ck, p.ref_key ORDER BY p.created, p.id) AS shipment
                    FROM (SELECT l.id, l.ck, ${referenceKeyOf('l')} AS ref_key, l.created, l.calc_start_time, l.alert_level, r.decision, r.acknowledged_level,
                                 coalesce(unixepoch(l.created) - unixepoch(lag(l.created) ${over}) > ${SHIPMENT_GAP_SECONDS}, 1) AS begins
                            FROM report_listing l LEFT JOIN review_current r ON r.label_report_id = l.id AND r.company_id = (SELECT k.company_id FROM company_keys k WHERE k.ck = l.ck)
                           WHERE ${where} AND l.shipment_ref <> '') p) q
           GROUP BY q.ck, q.ref_key, q.shipment) g
   WHERE true`;
}

/** The first creations of the shipments of reference key `key` of `ck`. */
function firstsOf(ck: string, key: string): string {
  return `SELECT s.created FROM (SELECT l.created, unixepoch(l.created) - unixepoch(lag(l.created) OVER (ORDER BY l.created, l.id)) AS since
              FROM report_listing l WHERE l.ck = ${ck} AND ${referenceKeyOf('l')} = ${key} AND l.shipment_ref <> '') s
     WHERE s.since IS NULL OR s.since > ${SHIPMENT_GAP_SECONDS}`;
}

/**
 * Makes the shipments of the reference key `key` of `ck` (SQL expressions over NEW or OLD)
 * again: the rows of shipments that no longer begin where they did go, and each shipment's row
 * is written only when one of its figures moved.
 */
function reship(ck: string, key: string): string {
  const differs = FIGURES.split(', ').map((c) => `shipment_listing.${c} IS NOT excluded.${c}`).join(' OR ');
  return `DELETE FROM shipment_listing WHERE ck = ${ck} AND ref_key = ${key} AND first_created NOT IN (${firstsOf(ck, key)});
  INSERT INTO shipment_listing (${COLUMNS})
  ${shipmentsOf(`l.ck = ${ck} AND ${referenceKeyOf('l')} = ${key}`, '')}
  ON CONFLICT (ck, ref_key, first_created) DO UPDATE SET ${FIGURES.split(', ').map((c) => `${c} = excluded.${c}`).join(', ')}
   WHERE ${differs}`;
}

/** The listing row of the company and report a review_current row is about. */
const reviewedRow = (column: string) =>
  `(SELECT ${column} FROM report_listing m WHERE m.ck = (SELECT k.ck FROM company_keys k WHERE k.company_id = NEW.company_id) AND m.id = NEW.label_report_id AND m.shipment_ref <> '')`;

/** The shipment row whose facts a shipment_facts row holds: by its company, reference key and first day. */
const factsRow = `ck = (SELECT k.ck FROM company_keys k WHERE k.company_id = NEW.company_id) AND ref_key = substr(NEW.shipment_id, 1, length(NEW.shipment_id) - 11)
   AND first_created >= substr(NEW.shipment_id, -10) AND first_created < substr(NEW.shipment_id, -10) || 'U'`;

/**
 * A company's grouping set (@ck, @field: a custom field's id, or NULL for the label reference):
 * its listing rows take their new value and its shipments are made again from them in one
 * pass. While `regrouping` is set the per-row trigger stands aside, as a row-by-row remake of
 * each reference would read a shipment's labels once per label.
 */
export const REGROUP: readonly string[] = [
  `INSERT INTO shipment_grouping (ck, field, regrouping) VALUES (@ck, @field, 1)
   ON CONFLICT (ck) DO UPDATE SET field = excluded.field, regrouping = 1`,
  `UPDATE report_listing SET shipment_ref = ${shipmentRefOf('report_listing.ck', 'report_listing.id', 'report_listing.label_reference')}
   WHERE ck = @ck AND shipment_ref IS NOT ${shipmentRefOf('report_listing.ck', 'report_listing.id', 'report_listing.label_reference')}`,
  'DELETE FROM shipment_listing WHERE ck = @ck',
  `INSERT INTO shipment_listing (${COLUMNS})
${shipmentsOf('l.ck = @ck', `l.ck, ${referenceKeyOf('l')}`)}`,
  'UPDATE shipment_grouping SET regrouping = 0 WHERE ck = @ck',
];

export const SHIPMENTS: KeptTableDeclaration = {
  name: 'shipment_listing',
  tables: [
    table(`CREATE TABLE shipment_listing (
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
) STRICT, WITHOUT ROWID`),
  ],
  madeFrom:
    "report_listing: the listing rows of each company with a label reference, by reference key, cut where two creations lie more than the gap apart; review_current: the company's review of each of them; shipment_facts: the product and the legs' modes",
  key: '(ck, ref_key, first_created): one row per shipment, a company\'s reference key and the first creation of its run',
  reads: [
    {
      read: 'the shipments list (a page and its exact count, by worst alert, review state, labels, first start, mode and product) at 1 000 000 reports',
      figure:
        'cutting a reference used again after the gap into shipments when the list was read took 6.3 s at 100 000 reports (window functions over every listing row of each such reference); read from these rows, a few milliseconds (docs/benchmarks.md#shipments)',
    },
  ],
  writes:
    "A listing row inserted or deleted, or moved in what its company groups by (shipment_ref: its label reference, or a custom field's value), alert level, creation or start, makes the shipments of its reference key (of both keys, for a new reference) again from the index listing_shipment, writing only the rows whose figures moved; a review_current row written does so for its report's reference key; a shipment_facts row written moves its shipment's product and modes.",
  triggers: triggers([
    `CREATE TRIGGER shipment_listing_listing_insert AFTER INSERT ON report_listing WHEN NEW.shipment_ref <> '' BEGIN
  ${reship('NEW.ck', referenceKeyOf('NEW'))};
END`,
    `CREATE TRIGGER shipment_listing_listing_delete AFTER DELETE ON report_listing WHEN OLD.shipment_ref <> '' BEGIN
  ${reship('OLD.ck', referenceKeyOf('OLD'))};
END`,
    `CREATE TRIGGER shipment_listing_listing_reference AFTER UPDATE OF shipment_ref ON report_listing
WHEN OLD.shipment_ref IS NOT NEW.shipment_ref AND NOT EXISTS (SELECT 1 FROM shipment_grouping g WHERE g.ck = NEW.ck AND g.regrouping = 1) BEGIN
  ${reship('OLD.ck', referenceKeyOf('OLD'))};
  ${reship('NEW.ck', referenceKeyOf('NEW'))};
END`,
    `CREATE TRIGGER shipment_listing_listing_figures AFTER UPDATE OF alert_level, created, calc_start_time ON report_listing
WHEN NEW.shipment_ref <> '' AND (OLD.alert_level IS NOT NEW.alert_level OR OLD.created IS NOT NEW.created OR OLD.calc_start_time IS NOT NEW.calc_start_time) BEGIN
  ${reship('NEW.ck', referenceKeyOf('NEW'))};
END`,
    `CREATE TRIGGER shipment_listing_review_insert AFTER INSERT ON review_current BEGIN
  ${reship(reviewedRow('m.ck'), reviewedRow(referenceKeyOf('m')))};
END`,
    `CREATE TRIGGER shipment_listing_review_update AFTER UPDATE ON review_current BEGIN
  ${reship(reviewedRow('m.ck'), reviewedRow(referenceKeyOf('m')))};
END`,
    `CREATE TRIGGER shipment_listing_facts_insert AFTER INSERT ON shipment_facts BEGIN
  UPDATE shipment_listing SET product = NEW.product, modes = ${modesOf('NEW')} WHERE ${factsRow};
END`,
    `CREATE TRIGGER shipment_listing_facts_update AFTER UPDATE OF product, legs ON shipment_facts BEGIN
  UPDATE shipment_listing SET product = NEW.product, modes = ${modesOf('NEW')} WHERE ${factsRow};
END`,
  ]),
  indexes: [
    index(
      `CREATE INDEX listing_shipment ON report_listing (ck, ${referenceKeyOf('')}) WHERE shipment_ref <> ''`,
      "a reference key's labels: its shipments made again after a write, and the shipment view",
    ),
    index('CREATE INDEX shipment_listing_created ON shipment_listing (ck, first_created)', 'the shipments list in its default order, newest first'),
    index('CREATE INDEX shipment_listing_alert ON shipment_listing (ck, worst_alert, first_created)', 'the shipments list by worst alert, filtered or sorted'),
    index('CREATE INDEX shipment_listing_state ON shipment_listing (ck, state, first_created)', 'the shipments list by review state'),
    index('CREATE INDEX shipment_listing_labels ON shipment_listing (ck, labels, first_created)', 'the shipments list by number of labels, filtered or sorted'),
    index('CREATE INDEX shipment_listing_start ON shipment_listing (ck, first_start, first_created)', 'the shipments list by first start, filtered or sorted latest first (not yet started last)'),
    index(
      'CREATE INDEX shipment_listing_start_first ON shipment_listing (ck, first_start IS NULL, first_start, first_created)',
      'the shipments list sorted by first start, earliest first, not yet started last',
    ),
    index('CREATE INDEX shipment_listing_product ON shipment_listing (ck, product, first_created) WHERE product IS NOT NULL', 'the shipments list by product: the shipments with facts'),
    index('CREATE INDEX shipment_listing_modes ON shipment_listing (ck, first_created, modes) WHERE modes IS NOT NULL', 'the shipments list by a leg\'s mode: the shipments with legs'),
  ],
  statements: { regroup: REGROUP },
  bulkLoad: 'rebuilt',
  rebuild: `DELETE FROM shipment_listing;
INSERT INTO shipment_listing (${COLUMNS})
${shipmentsOf('1', `l.ck, ${referenceKeyOf('l')}`)};`,
};

const COUNT_KEY = ['ck', 'state', 'worst_alert'];
/**
 * `shipment_counts`: per company, how many of its shipments stand in each review state with each
 * worst alert: at most 5 × 4 rows a company. The list's exact count without a filter, or filtered
 * by worst alert and review state only, is a sum of these, whatever the number of shipments.
 */
export const SHIPMENT_COUNTS: KeptTableDeclaration = {
  name: 'shipment_counts',
  tables: [
    table(`CREATE TABLE shipment_counts (
  ck          INTEGER NOT NULL,
  state       TEXT NOT NULL,
  worst_alert INTEGER NOT NULL,
  n           INTEGER NOT NULL,
  PRIMARY KEY (ck, state, worst_alert)
) STRICT, WITHOUT ROWID`),
  ],
  madeFrom: "shipment_listing: its rows counted by company, review state and worst alert",
  key: '(ck, state, worst_alert): one row per company, review state and worst alert, with n shipments',
  reads: [
    {
      read: 'the exact count of the shipments list without a filter, or by worst alert and review state, and the number of shipments a page weighs sorting against walking by',
      figure: 'a count of the index of shipment_listing reads one entry per shipment: 91 565 at 100 000 reports, about ten times as many at 1 000 000; the sum reads at most 20 rows',
    },
  ],
  writes: 'Each shipment row inserted or deleted moves its combination by one; one whose state or worst alert moved moves from its old combination to its new one. A combination whose count falls to 0 is deleted.',
  triggers: triggers(countTriggers('shipment_counts', 'shipment_listing', COUNT_KEY)),
  indexes: [],
  bulkLoad: 'rebuilt',
  rebuild: `DELETE FROM shipment_counts;
INSERT INTO shipment_counts (${COUNT_KEY.join(', ')}, n)
  SELECT ${COUNT_KEY.join(', ')}, count(*) FROM shipment_listing GROUP BY ${COUNT_KEY.join(', ')};`,
};
