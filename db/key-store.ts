/** SQL for API keys. Only hashes are stored; the key itself is shown once, when created. */
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
  constructor(private readonly db: Db) {}

  upsert(key: ApiKeyRecord): void {
    this.db
      .prepare(
        `INSERT INTO api_keys (id, key_hash, company_id, name, permissions, created, revoked)
         VALUES (@id, @keyHash, @companyId, @name, @permissions, @created, @revoked)
         ON CONFLICT (key_hash) DO UPDATE SET company_id = excluded.company_id, name = excluded.name,
           permissions = excluded.permissions, revoked = excluded.revoked`,
      )
      .run({ ...key, permissions: JSON.stringify(key.permissions) });
  }

  findByHash(keyHash: string): ApiKeyRecord | undefined {
    const row = this.db.prepare('SELECT * FROM api_keys WHERE key_hash = ?').get(keyHash) as ApiKeyRow | undefined;
    return row && toRecord(row);
  }

  find(id: string): ApiKeyRecord | undefined {
    const row = this.db.prepare('SELECT * FROM api_keys WHERE id = ?').get(id) as ApiKeyRow | undefined;
    return row && toRecord(row);
  }

  list(companyId?: string): ApiKeyRecord[] {
    const rows = (
      companyId === undefined
        ? this.db.prepare('SELECT * FROM api_keys ORDER BY created, id').all()
        : this.db.prepare('SELECT * FROM api_keys WHERE company_id = ? ORDER BY created, id').all(companyId)
    ) as ApiKeyRow[];
    return rows.map(toRecord);
  }

  /** Returns false when there was no such unrevoked key. */
  revoke(id: string, at: string): boolean {
    return this.db.prepare('UPDATE api_keys SET revoked = ? WHERE id = ? AND revoked IS NULL').run(at, id).changes === 1;
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
