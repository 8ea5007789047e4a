/** Whose desk is this: the company the desktop window acts as. Plain SQL over the service's database. */
import type { Db } from '../db/database';

/** The company that owns the most reports (ties: the smaller id), else the first company, else null. */
export function homeCompany(db: Db): string | null {
  const owner = db
    .prepare(
      `SELECT company_id AS id, COUNT(*) AS n FROM access WHERE role = 'owner'
       GROUP BY company_id ORDER BY n DESC, company_id LIMIT 1`,
    )
    .get() as { id: string } | undefined;
  if (owner) return owner.id;
  const first = db.prepare('SELECT id FROM companies ORDER BY id LIMIT 1').get() as { id: string } | undefined;
  return first?.id ?? null;
}

/** True when the database has neither companies nor reports: a fresh install. */
export function isDatabaseEmpty(db: Db): boolean {
  const row = db
    .prepare('SELECT (SELECT COUNT(*) FROM companies) + (SELECT COUNT(*) FROM label_reports) AS n')
    .get() as { n: number };
  return row.n === 0;
}
