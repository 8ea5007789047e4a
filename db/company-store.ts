/** SQL for companies. */
import type { Company } from '../schema/report';
import type { Db } from './database';

interface CompanyRow {
  id: string;
  name: string;
  short_code: string;
}

export class CompanyStore {
  constructor(private readonly db: Db) {}

  upsert(company: Company): void {
    this.db
      .prepare(
        `INSERT INTO companies (id, name, short_code) VALUES (?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET name = excluded.name, short_code = excluded.short_code`,
      )
      .run(company.id, company.name, company.shortCode);
  }

  find(id: string): Company | undefined {
    const row = this.db.prepare('SELECT * FROM companies WHERE id = ?').get(id) as CompanyRow | undefined;
    return row && toCompany(row);
  }

  all(): Company[] {
    return (this.db.prepare('SELECT * FROM companies ORDER BY id').all() as CompanyRow[]).map(toCompany);
  }

  existing(ids: readonly string[]): Set<string> {
    const rows = this.db
      .prepare('SELECT id FROM companies WHERE id IN (SELECT value FROM json_each(?))')
      .all(JSON.stringify(ids)) as { id: string }[];
    return new Set(rows.map((r) => r.id));
  }
}

function toCompany(row: CompanyRow): Company {
  return { id: row.id, name: row.name, shortCode: row.short_code };
}
