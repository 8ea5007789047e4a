/**
 * Numbered, append-only: a shipped migration is never edited, a new one is added. Its SQL is
 * written out as it shipped and imports nothing; the live declarations are in db/read-model/.
 *
 * A company's flag or archive state written again (the write path's upsert takes the UPDATE
 * branch) set its listing row to no state and then to the new one: every kept table split by
 * flag or archive state (listing_counts, custom_field_counts and custom_field_totals, the pairs,
 * the group figures) moved twice, on a report holding 200 custom fields 1 600 rows of the counts
 * where 800 follow. The row goes back to no state now only when the state moved to another
 * report or company.
 */
export default /* sql */ `
DROP TRIGGER listing_state_update;

CREATE TRIGGER listing_state_update AFTER UPDATE ON company_report_state BEGIN
  UPDATE report_listing SET has_flag = 0, is_archived = 0
  WHERE (old.label_report_id IS NOT new.label_report_id OR old.company_id IS NOT new.company_id)
    AND rk = (SELECT rk FROM report_keys WHERE report_id = old.label_report_id) AND ck = (SELECT ck FROM company_keys WHERE company_id = old.company_id);
  UPDATE report_listing SET has_flag = new.has_flag, is_archived = new.is_archived
  WHERE rk = (SELECT rk FROM report_keys WHERE report_id = new.label_report_id) AND ck = (SELECT ck FROM company_keys WHERE company_id = new.company_id);
END;
`;
