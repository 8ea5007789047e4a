/**
 * Numbered, append-only: a shipped migration is never edited, a new one is added.
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
import { add, FIGURE_INDEXES, KEY, remove, SPLIT } from '../read-model/listing-counts';

export default /* sql */ `
CREATE TABLE listing_counts (
  ck INTEGER NOT NULL,
  ${SPLIT.map(([c, type]) => `${c} ${type}`).join(',\n  ')},
  n INTEGER NOT NULL,
  PRIMARY KEY (${KEY.join(', ')})
) STRICT, WITHOUT ROWID;

INSERT INTO listing_counts (${KEY.join(', ')}, n)
  SELECT ${KEY.join(', ')}, count(*) FROM report_listing GROUP BY ${KEY.join(', ')};

CREATE TRIGGER listing_counts_insert AFTER INSERT ON report_listing BEGIN
  ${add('new')};
END;

CREATE TRIGGER listing_counts_delete AFTER DELETE ON report_listing BEGIN
  ${remove('old')};
END;

CREATE TRIGGER listing_counts_update AFTER UPDATE OF ${KEY.join(', ')} ON report_listing
WHEN ${KEY.map((c) => `old.${c} IS NOT new.${c}`).join(' OR ')} BEGIN
  ${remove('old')};
  ${add('new')};
END;

${FIGURE_INDEXES.map(([name, column]) => `CREATE INDEX ${name} ON report_listing (ck, ${column}, id, is_archived);`).join('\n')}
PRAGMA analysis_limit = 1000;
ANALYZE report_listing;
`;
