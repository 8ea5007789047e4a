/**
 * Numbered, append-only: a shipped migration is never edited, a new one is added.
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
import { VALUE } from '../read-model/custom-field-counts';
import { add, ofElement, ofListingRow, PAIR_KEY, PAIR_RECOUNT, prefix, remove, SPLIT_COLUMNS, TABLE } from '../read-model/custom-field-pair-counts';

export default /* sql */ `
CREATE TABLE ${TABLE} (
  ck INTEGER NOT NULL,
  field TEXT NOT NULL,
  other_field TEXT NOT NULL,
  value ANY NOT NULL,
  other_value ANY NOT NULL,
  ${SPLIT_COLUMNS.map(([c, type]) => `${c} ${type}`).join(',\n  ')},
  n INTEGER NOT NULL,
  PRIMARY KEY (${PAIR_KEY.join(', ')})
) STRICT, WITHOUT ROWID;

${PAIR_RECOUNT}

CREATE TRIGGER ${prefix}_listing_insert AFTER INSERT ON report_listing BEGIN
  ${add(ofListingRow('new'))};
END;

CREATE TRIGGER ${prefix}_listing_delete AFTER DELETE ON report_listing BEGIN
  ${remove(ofListingRow('old'))};
END;

CREATE TRIGGER ${prefix}_listing_update AFTER UPDATE OF ${SPLIT_COLUMNS.map(([c]) => c).join(', ')} ON report_listing
WHEN ${SPLIT_COLUMNS.map(([c]) => `old.${c} IS NOT new.${c}`).join(' OR ')} BEGIN
  ${remove(ofListingRow('old'))};
  ${add(ofListingRow('new'))};
END;

CREATE TRIGGER ${prefix}_element_insert AFTER INSERT ON custom_field_elements
WHEN ${VALUE('new')} IS NOT NULL BEGIN
  ${add(ofElement('new'))};
END;

CREATE TRIGGER ${prefix}_element_delete AFTER DELETE ON custom_field_elements
WHEN ${VALUE('old')} IS NOT NULL BEGIN
  ${remove(ofElement('old'))};
END;
`;
