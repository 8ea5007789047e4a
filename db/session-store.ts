/**
 * SQL for the sessions of people signed in. A session is found by the SHA-256 of its token:
 * the token itself never reaches the file.
 */
import type { Statement } from 'better-sqlite3';
import type { Db } from './database';

export interface SessionRecord {
  /** SHA-256 hex of the token the client holds. */
  tokenHash: string;
  userId: string;
  /** ISO 8601 UTC: the sign-in, from which the absolute expiry counts. */
  created: string;
  /** ISO 8601 UTC: the person's last own act. */
  lastSeen: string;
  /** Locked after inactivity until the password unlocks it. */
  locked: boolean;
}

interface SessionRow {
  token_hash: string;
  user_id: string;
  created: string;
  last_seen: string;
  locked: number;
}

export class SessionStore {
  private readonly insertRow: Statement;
  private readonly selectRow: Statement;
  private readonly updateRow: Statement;
  private readonly deleteRow: Statement;
  private readonly deleteForUser: Statement;
  private readonly deleteOthers: Statement;
  private readonly countForUser: Statement;
  private readonly selectForUser: Statement;

  constructor(db: Db) {
    this.insertRow = db.prepare('INSERT INTO user_sessions (token_hash, user_id, created, last_seen, locked) VALUES (?, ?, ?, ?, ?)');
    this.selectRow = db.prepare('SELECT * FROM user_sessions WHERE token_hash = ?');
    this.updateRow = db.prepare('UPDATE user_sessions SET last_seen = ?, locked = ? WHERE token_hash = ?');
    this.deleteRow = db.prepare('DELETE FROM user_sessions WHERE token_hash = ?');
    this.deleteForUser = db.prepare('DELETE FROM user_sessions WHERE user_id = ?');
    this.deleteOthers = db.prepare('DELETE FROM user_sessions WHERE user_id = ? AND token_hash <> ?');
    this.countForUser = db.prepare('SELECT COUNT(*) FROM user_sessions WHERE user_id = ?').pluck();
    this.selectForUser = db.prepare('SELECT * FROM user_sessions WHERE user_id = ?');
  }

  insert(session: SessionRecord): void {
    this.insertRow.run(session.tokenHash, session.userId, session.created, session.lastSeen, session.locked ? 1 : 0);
  }

  find(tokenHash: string): SessionRecord | undefined {
    const row = this.selectRow.get(tokenHash) as SessionRow | undefined;
    return row && recordOf(row);
  }

  update(session: Pick<SessionRecord, 'tokenHash' | 'lastSeen' | 'locked'>): void {
    this.updateRow.run(session.lastSeen, session.locked ? 1 : 0, session.tokenHash);
  }

  /** Whether a session was there to end. */
  end(tokenHash: string): boolean {
    return this.deleteRow.run(tokenHash).changes === 1;
  }

  /** Every session of the person, or every one but `keep`. Answers how many ended. */
  endAllOf(userId: string, keep?: string): number {
    return (keep === undefined ? this.deleteForUser.run(userId) : this.deleteOthers.run(userId, keep)).changes;
  }

  /** Every session of the person. */
  allOf(userId: string): SessionRecord[] {
    return (this.selectForUser.all(userId) as SessionRow[]).map(recordOf);
  }

  countOf(userId: string): number {
    return this.countForUser.get(userId) as number;
  }
}

function recordOf(row: SessionRow): SessionRecord {
  return { tokenHash: row.token_hash, userId: row.user_id, created: row.created, lastSeen: row.last_seen, locked: row.locked === 1 };
}
