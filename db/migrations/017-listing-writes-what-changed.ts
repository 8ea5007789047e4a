/**
 * Numbered, append-only: a shipped migration is never edited, a new one is added.
 *
 * A change of a report rewrites only the listing columns whose values moved. The listing's one
 * update trigger set every column of the report's listing rows, and SQLite rewrites each index
 * that holds a column an UPDATE names, changed or not: every write of a report (a tap, a PATCH,
 * a sync pull) deleted and inserted an entry in all 24 listing indexes of each company that sees
 * it, some 46 pages of the write-ahead log for one tap. Here each listing column has a trigger of
 * its own, fired only by an update of the report column it comes from and only when its value
 * moves, which names that one column: an index none of whose columns moved is not touched.
 *
 * The triggers' names start with `listing_`, so a bulk import sets them aside with the others
 * (ReportStore.writingMany).
 */
import { ckOf, ensureCompanyKey, perColumn, rkOf } from '../read-model/listing';

export default /* sql */ `
DROP TRIGGER listing_report_update;

CREATE TRIGGER listing_report_update_owner_ck
AFTER UPDATE OF owner_company_id ON label_reports
WHEN old.owner_company_id IS NOT new.owner_company_id BEGIN
  ${ensureCompanyKey('new.owner_company_id')};
  UPDATE report_listing SET owner_ck = ${ckOf('new.owner_company_id')} WHERE rk = ${rkOf('new.id')};
END;
${perColumn}
`;
