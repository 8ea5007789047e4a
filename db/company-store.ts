/** SQL for companies. */
import type { Statement } from 'better-sqlite3';
import type { Company } from '../schema/report';
import type { Db } from './database';

interface CompanyRow {
  id: string;
  name: string;
  short_code: string;
}

export class CompanyStore {
  private readonly upsertRow: Statement;
  private readonly selectOne: Statement;
  private readonly selectAll: Statement;
  private readonly selectExisting: Statement;
  private readonly insertMissing: Statement;

  constructor(db: Db) {
    this.upsertRow = db.prepare(
      `INSERT INTO companies (id, name, short_code) VALUES (?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET name = excluded.name, short_code = excluded.short_code`,
    );
    this.insertMissing = db.prepare('INSERT INTO companies (id, name, short_code) VALUES (?, ?, ?) ON CONFLICT (id) DO NOTHING');
    this.selectOne = db.prepare('SELECT * FROM companies WHERE id = ?');
    this.selectAll = db.prepare('SELECT * FROM companies ORDER BY id');
    this.selectExisting = db.prepare('SELECT id FROM companies WHERE id IN (SELECT value FROM json_each(?))').pluck();
  }

  upsert(company: Company): void {
    this.upsertRow.run(company.id, company.name, company.shortCode);
  }

  /** Adds a company known only by its id (named after it) unless it exists; an existing one keeps its name. */
  ensure(id: string): void {
    this.insertMissing.run(id, id, '');
  }

  find(id: string): Company | undefined {
    const row = this.selectOne.get(id) as CompanyRow | undefined;
    return row && toCompany(row);
  }

  all(): Company[] {
    return (this.selectAll.all() as CompanyRow[]).map(toCompany);
  }

  isEmpty(): boolean {
    return this.selectAll.get() === undefined;
  }

  existing(ids: readonly string[]): Set<string> {
    return new Set(this.selectExisting.all(JSON.stringify(ids)) as string[]);
  }
}

function toCompany(row: CompanyRow): Company {
  return { id: row.id, name: row.name, shortCode: row.short_code };
}
