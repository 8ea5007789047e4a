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
  /** Why the person must choose a new password before anything else, or null. */
  passwordChangeDue: PasswordChangeDue | null;
  /** Where alarm e-mails reach the person. */
  email: string | null;
  created: string;
}

export type PasswordChangeDue = 'firstSignIn' | 'reset';

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
  | 'signatureFailed'
  | 'passwordChanged'
  | 'sessionExpired'
  | 'emailChanged';

export interface CompanySettings {
  lockAfterMinutes: number;
  fourEyes: boolean;
  /** Days a password lasts before its person must change it; 0: it never expires. */
  passwordExpiryDays: number;
  /** A new password may not be any of the person's last N (the current one included); 0: no rule. */
  passwordHistory: number;
  passwordMinLength: number;
  /** A person whose password someone else chose changes it at their first sign-in. */
  changeAtFirstSignIn: boolean;
  /** A password an administrator reset is changed by its person at their next sign-in. */
  changeAfterReset: boolean;
  /** A session the person did nothing in for this long ends (the lock comes long before). */
  sessionIdleHours: number;
  /** A session ends this long after its sign-in, whatever happens in it. */
  sessionMaxHours: number;
}

/** The defaults, as migration 031 writes them (docs/operations.md#people-and-passwords). */
export const DEFAULT_SETTINGS: CompanySettings = {
  lockAfterMinutes: 15,
  fourEyes: false,
  passwordExpiryDays: 90,
  passwordHistory: 5,
  passwordMinLength: 10,
  changeAtFirstSignIn: true,
  changeAfterReset: true,
  sessionIdleHours: 8,
  sessionMaxHours: 12,
};

/** The most passwords a person's history keeps: the largest passwordHistory allowed. */
export const PASSWORD_HISTORY_KEPT = 24;

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
  password_change_due: PasswordChangeDue | null;
  email: string | null;
  created: string;
}

interface SettingsRow {
  lock_after_minutes: number;
  four_eyes: number;
  password_expiry_days: number;
  password_history: number;
  password_min_length: number;
  change_at_first_sign_in: number;
  change_after_reset: number;
  session_idle_hours: number;
  session_max_hours: number;
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
  private readonly insertHistory: Statement;
  private readonly selectHistory: Statement;
  private readonly pruneHistory: Statement;

  constructor(db: Db) {
    this.insertRow = db.prepare(
      `INSERT INTO users (id, company_id, login, name, role, password_hash, failed_sign_ins, locked_at, disabled_at, password_changed, password_change_due, email, created)
       VALUES (@id, @companyId, @login, @name, @role, @passwordHash, @failedSignIns, @lockedAt, @disabledAt, @passwordChanged, @passwordChangeDue, @email, @created)`,
    );
    this.selectById = db.prepare('SELECT * FROM users WHERE id = ?');
    this.selectByLogin = db.prepare('SELECT * FROM users WHERE login = ?');
    this.selectForCompany = db.prepare('SELECT * FROM users WHERE company_id = ? ORDER BY login');
    this.selectAll = db.prepare('SELECT * FROM users ORDER BY company_id, login');
    this.countActive = db.prepare('SELECT COUNT(*) FROM users WHERE company_id = ? AND disabled_at IS NULL').pluck();
    this.countAll = db.prepare('SELECT COUNT(*) FROM users').pluck();
    this.updateRow = db.prepare(
      `UPDATE users SET name = @name, role = @role, password_hash = @passwordHash, failed_sign_ins = @failedSignIns,
              locked_at = @lockedAt, disabled_at = @disabledAt, password_changed = @passwordChanged,
              password_change_due = @passwordChangeDue, email = @email
        WHERE id = @id`,
    );
    this.insertEvent = db.prepare(
      'INSERT INTO user_events (user_id, kind, detail, by_user_id, by_key_id, at) VALUES (?, ?, ?, ?, ?, ?)',
    );
    this.selectEvents = db.prepare('SELECT * FROM user_events WHERE user_id = ? ORDER BY id');
    this.selectSettings = db.prepare(
      `SELECT lock_after_minutes, four_eyes, password_expiry_days, password_history, password_min_length,
              change_at_first_sign_in, change_after_reset, session_idle_hours, session_max_hours
         FROM company_settings WHERE company_id = ?`,
    );
    this.upsertSettings = db.prepare(
      `INSERT INTO company_settings (company_id, lock_after_minutes, four_eyes, password_expiry_days, password_history, password_min_length,
                                     change_at_first_sign_in, change_after_reset, session_idle_hours, session_max_hours)
       VALUES (@companyId, @lockAfterMinutes, @fourEyes, @passwordExpiryDays, @passwordHistory, @passwordMinLength,
               @changeAtFirstSignIn, @changeAfterReset, @sessionIdleHours, @sessionMaxHours)
       ON CONFLICT (company_id) DO UPDATE SET lock_after_minutes = excluded.lock_after_minutes, four_eyes = excluded.four_eyes,
              password_expiry_days = excluded.password_expiry_days, password_history = excluded.password_history,
              password_min_length = excluded.password_min_length, change_at_first_sign_in = excluded.change_at_first_sign_in,
              change_after_reset = excluded.change_after_reset, session_idle_hours = excluded.session_idle_hours,
              session_max_hours = excluded.session_max_hours`,
    );
    this.insertHistory = db.prepare('INSERT INTO password_history (user_id, hash, replaced) VALUES (?, ?, ?)');
    this.selectHistory = db.prepare('SELECT hash FROM password_history WHERE user_id = ? ORDER BY id DESC LIMIT ?').pluck();
    this.pruneHistory = db.prepare(
      `DELETE FROM password_history WHERE user_id = @user
          AND id < (SELECT MIN(id) FROM (SELECT id FROM password_history WHERE user_id = @user ORDER BY id DESC LIMIT @keep))`,
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
    const row = this.selectSettings.get(companyId) as SettingsRow | undefined;
    if (!row) return { ...DEFAULT_SETTINGS };
    return {
      lockAfterMinutes: row.lock_after_minutes,
      fourEyes: row.four_eyes === 1,
      passwordExpiryDays: row.password_expiry_days,
      passwordHistory: row.password_history,
      passwordMinLength: row.password_min_length,
      changeAtFirstSignIn: row.change_at_first_sign_in === 1,
      changeAfterReset: row.change_after_reset === 1,
      sessionIdleHours: row.session_idle_hours,
      sessionMaxHours: row.session_max_hours,
    };
  }

  saveSettings(companyId: string, settings: CompanySettings): void {
    this.upsertSettings.run({
      ...settings,
      companyId,
      fourEyes: settings.fourEyes ? 1 : 0,
      changeAtFirstSignIn: settings.changeAtFirstSignIn ? 1 : 0,
      changeAfterReset: settings.changeAfterReset ? 1 : 0,
    });
  }

  /**
   * The password a person had until now joins their history, which keeps the newest
   * PASSWORD_HISTORY_KEPT: the rule against reuse never asks for more.
   */
  keepOldPassword(userId: string, hash: string, replaced: string): void {
    this.insertHistory.run(userId, hash, replaced);
    this.pruneHistory.run({ user: userId, keep: PASSWORD_HISTORY_KEPT });
  }

  /** The hashes of the person's previous passwords, newest first, at most `count`. */
  oldPasswords(userId: string, count: number): string[] {
    return count <= 0 ? [] : (this.selectHistory.all(userId, count) as string[]);
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
    passwordChangeDue: row.password_change_due,
    email: row.email,
    created: row.created,
  };
}
