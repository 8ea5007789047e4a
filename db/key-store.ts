/** SQL for API keys. Only hashes are stored; the key itself is shown once, when created. */
import type { Statement } from 'better-sqlite3';
import type { Permission } from '../schema/report';
import type { Db } from './database';

export interface ApiKeyRecord {
  id: string;
  keyHash: string;
  companyId: string;
  name: string | null;
  permissions: Permission[];
  created: string;
  revoked: string | null;
}

interface ApiKeyRow {
  id: string;
  key_hash: string;
  company_id: string;
  name: string | null;
  permissions: string;
  created: string;
  revoked: string | null;
}

export class KeyStore {
  private readonly upsertRow: Statement;
  private readonly selectByHash: Statement;
  private readonly selectById: Statement;
  private readonly selectAll: Statement;
  private readonly selectForCompany: Statement;
  private readonly revokeRow: Statement;

  constructor(db: Db) {
    this.upsertRow = db.prepare(
      `INSERT INTO api_keys (id, key_hash, company_id, name, permissions, created, revoked)
       VALUES (@id, @keyHash, @companyId, @name, @permissions, @created, @revoked)
       ON CONFLICT (key_hash) DO UPDATE SET company_id = excluded.company_id, name = excluded.name,
         permissions = excluded.permissions, revoked = excluded.revoked`,
    );
    this.selectByHash = db.prepare('SELECT * FROM api_keys WHERE key_hash = ?');
    this.selectById = db.prepare('SELECT * FROM api_keys WHERE id = ?');
    this.selectAll = db.prepare('SELECT * FROM api_keys ORDER BY created, id');
    this.selectForCompany = db.prepare('SELECT * FROM api_keys WHERE company_id = ? ORDER BY created, id');
    this.revokeRow = db.prepare('UPDATE api_keys SET revoked = ? WHERE id = ? AND revoked IS NULL');
  }

  upsert(key: ApiKeyRecord): void {
    this.upsertRow.run({ ...key, permissions: JSON.stringify(key.permissions) });
  }

  findByHash(keyHash: string): ApiKeyRecord | undefined {
    const row = this.selectByHash.get(keyHash) as ApiKeyRow | undefined;
    return row && toRecord(row);
  }

  find(id: string): ApiKeyRecord | undefined {
    const row = this.selectById.get(id) as ApiKeyRow | undefined;
    return row && toRecord(row);
  }

  list(companyId?: string): ApiKeyRecord[] {
    const rows = (companyId === undefined ? this.selectAll.all() : this.selectForCompany.all(companyId)) as ApiKeyRow[];
    return rows.map(toRecord);
  }

  /** Returns false when there was no such unrevoked key. */
  revoke(id: string, at: string): boolean {
    return this.revokeRow.run(at, id).changes === 1;
  }
}

function toRecord(row: ApiKeyRow): ApiKeyRecord {
  return {
    id: row.id,
    keyHash: row.key_hash,
    companyId: row.company_id,
    name: row.name,
    permissions: JSON.parse(row.permissions) as Permission[],
    created: row.created,
    revoked: row.revoked,
  };
}
