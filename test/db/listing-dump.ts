/** Test helper: what the database derives for listing, comparable between two files. */
import Database from 'better-sqlite3';

/** Everything derived for listing, with integer keys replaced by the ids they stand for. */
export function derivedForListing(file: string) {
  const db = new Database(file, { readonly: true });
  try {
    const listing = db
      .prepare(
        `SELECT c.company_id AS company, o.company_id AS owner, l.*
         FROM report_listing l JOIN company_keys c ON c.ck = l.ck JOIN company_keys o ON o.ck = l.owner_ck
         ORDER BY l.id, company`,
      )
      .all()
      .map((row) => {
        const { rk: _rk, ck: _ck, owner_ck: _owner, ...rest } = row as Record<string, unknown>;
        return rest;
      });
    const elements = db
      .prepare(
        `SELECT k.report_id, e.field, e.elem, e.text, e.num, typeof(e.num) AS numType
         FROM custom_field_elements e JOIN report_keys k ON k.rk = e.rk ORDER BY 1, 2, 3`,
      )
      .all() as Record<string, unknown>[];
    const search = (match: string) =>
      db
        .prepare(`SELECT k.report_id FROM report_text t JOIN report_keys k ON k.rk = t.rowid WHERE report_text MATCH ? ORDER BY 1`)
        .pluck()
        .all(match);
    const searches = Object.fromEntries(
      ['label_reference : "ref-"', 'label_reference : "PO-77"', 'label_reference : "old"', 'label_uid : "uid-s"', 'label_name : "label"'].map(
        (m) => [m, search(m)],
      ),
    );
    return { listing, elements, searches };
  } finally {
    db.close();
  }
}

