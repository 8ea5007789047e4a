/** SQL for the people who sign in at the desk, what happened to their accounts, and each company's settings for them. */
import type { Statement } from 'better-sqlite3';
import type { UserRole } from '../model/person';
import type { Db } from './database';

export interface UserRecord {
  id: string;
  companyId: string;
  login: string;
  name: string;
  role: UserRole;
  passwordHash: string;
  failedSignIns: number;
  lockedAt: string | null;
  disabledAt: string | null;
  passwordChanged: string;
  created: string;
}

export interface UserEvent {
  id: number;
  userId: string;
  kind: UserEventKind;
  detail: string | null;
  byUserId: string | null;
  byKeyId: string | null;
  at: string;
}

export type UserEventKind =
  | 'created'
  | 'renamed'
  | 'roleChanged'
  | 'passwordReset'
  | 'locked'
  | 'unlocked'
  | 'disabled'
  | 'enabled'
  | 'signedIn'
  | 'signInFailed'
  | 'signedOut'
  | 'signatureFailed';

export interface CompanySettings {
  lockAfterMinutes: number;
  fourEyes: boolean;
}

export const DEFAULT_SETTINGS: CompanySettings = { lockAfterMinutes: 15, fourEyes: false };

interface UserRow {
  id: string;
  company_id: string;
  login: string;
  name: string;
  role: UserRole;
  password_hash: string;
  failed_sign_ins: number;
  locked_at: string | null;
  disabled_at: string | null;
  password_changed: string;
  created: string;
}

interface EventRow {
  id: number;
  user_id: string;
  kind: UserEventKind;
  detail: string | null;
  by_user_id: string | null;
  by_key_id: string | null;
  at: string;
}

export class UserStore {
  private readonly insertRow: Statement;
  private readonly selectById: Statement;
  private readonly selectByLogin: Statement;
  private readonly selectForCompany: Statement;
  private readonly selectAll: Statement;
  private readonly countActive: Statement;
  private readonly countAll: Statement;
  private readonly updateRow: Statement;
  private readonly insertEvent: Statement;
  private readonly selectEvents: Statement;
  private readonly selectSettings: Statement;
  private readonly upsertSettings: Statement;

  constructor(db: Db) {
    this.insertRow = db.prepare(
      `INSERT INTO users (id, company_id, login, name, role, password_hash, failed_sign_ins, locked_at, disabled_at, password_changed, created)
       VALUES (@id, @companyId, @login, @name, @role, @passwordHash, @failedSignIns, @lockedAt, @disabledAt, @passwordChanged, @created)`,
    );
    this.selectById = db.prepare('SELECT * FROM users WHERE id = ?');
    this.selectByLogin = db.prepare('SELECT * FROM users WHERE login = ?');
    this.selectForCompany = db.prepare('SELECT * FROM users WHERE company_id = ? ORDER BY login');
    this.selectAll = db.prepare('SELECT * FROM users ORDER BY company_id, login');
    this.countActive = db.prepare('SELECT COUNT(*) FROM users WHERE company_id = ? AND disabled_at IS NULL').pluck();
    this.countAll = db.prepare('SELECT COUNT(*) FROM users').pluck();
    this.updateRow = db.prepare(
      `UPDATE users SET name = @name, role = @role, password_hash = @passwordHash, failed_sign_ins = @failedSignIns,
              locked_at = @lockedAt, disabled_at = @disabledAt, password_changed = @passwordChanged
        WHERE id = @id`,
    );
    this.insertEvent = db.prepare(
      'INSERT INTO user_events (user_id, kind, detail, by_user_id, by_key_id, at) VALUES (?, ?, ?, ?, ?, ?)',
    );
    this.selectEvents = db.prepare('SELECT * FROM user_events WHERE user_id = ? ORDER BY id');
    this.selectSettings = db.prepare('SELECT lock_after_minutes, four_eyes FROM company_settings WHERE company_id = ?');
    this.upsertSettings = db.prepare(
      `INSERT INTO company_settings (company_id, lock_after_minutes, four_eyes) VALUES (?, ?, ?)
       ON CONFLICT (company_id) DO UPDATE SET lock_after_minutes = excluded.lock_after_minutes, four_eyes = excluded.four_eyes`,
    );
  }

  insert(user: UserRecord): void {
    this.insertRow.run(user);
  }

  update(user: UserRecord): void {
    this.updateRow.run(user);
  }

  find(id: string): UserRecord | undefined {
    const row = this.selectById.get(id) as UserRow | undefined;
    return row && toRecord(row);
  }

  /** Logins are compared without case: `Anna` and `anna` are one person. */
  findByLogin(login: string): UserRecord | undefined {
    const row = this.selectByLogin.get(login) as UserRow | undefined;
    return row && toRecord(row);
  }

  list(companyId?: string): UserRecord[] {
    const rows = (companyId === undefined ? this.selectAll.all() : this.selectForCompany.all(companyId)) as UserRow[];
    return rows.map(toRecord);
  }

  /** People of the company who may still sign in (disabled ones do not count). */
  activeCount(companyId: string): number {
    return this.countActive.get(companyId) as number;
  }

  count(): number {
    return this.countAll.get() as number;
  }

  addEvent(event: Omit<UserEvent, 'id'>): void {
    this.insertEvent.run(event.userId, event.kind, event.detail, event.byUserId, event.byKeyId, event.at);
  }

  events(userId: string): UserEvent[] {
    return (this.selectEvents.all(userId) as EventRow[]).map((row) => ({
      id: row.id,
      userId: row.user_id,
      kind: row.kind,
      detail: row.detail,
      byUserId: row.by_user_id,
      byKeyId: row.by_key_id,
      at: row.at,
    }));
  }

  settings(companyId: string): CompanySettings {
    const row = this.selectSettings.get(companyId) as { lock_after_minutes: number; four_eyes: number } | undefined;
    return row ? { lockAfterMinutes: row.lock_after_minutes, fourEyes: row.four_eyes === 1 } : { ...DEFAULT_SETTINGS };
  }

  saveSettings(companyId: string, settings: CompanySettings): void {
    this.upsertSettings.run(companyId, settings.lockAfterMinutes, settings.fourEyes ? 1 : 0);
  }
}

function toRecord(row: UserRow): UserRecord {
  return {
    id: row.id,
    companyId: row.company_id,
    login: row.login,
    name: row.name,
    role: row.role,
    passwordHash: row.password_hash,
    failedSignIns: row.failed_sign_ins,
    lockedAt: row.locked_at,
    disabledAt: row.disabled_at,
    passwordChanged: row.password_changed,
    created: row.created,
  };
}
