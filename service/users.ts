/**
 * The people who sign in at the desk: their accounts (created, renamed, given a role, disabled,
 * locked and unlocked, a password reset), signing in and out, the sessions they hold, the lock
 * after inactivity, and the password they re-enter to sign. Every change to an account is a
 * user event naming who made it.
 *
 * Sessions live in this process only, like the desktop's session key: a restart signs everyone
 * out. A session token travels exactly like an API key (x-api-key); ApiKeys asks here first.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { DataStore } from '../db/data-store';
import type { CompanySettings, UserEventKind, UserRecord } from '../db/user-store';
import { ForbiddenError, InvalidInputError, NotFoundError, PermissionDeniedError, UnauthenticatedError } from '../model/errors';
import { mayDo, ROLE_GRANTS, USER_ROLES, type SignedInPerson, type UserRole } from '../model/person';
import type { Caller } from './api-keys';
import { hashPassword, verifyPassword, weakPassword } from './passwords';

/** Failed sign-ins in a row that lock an account until an admin unlocks it. */
export const MAX_FAILED_SIGN_INS = 5;

export const SIGN_IN_FAILED_MESSAGE =
  `the login or password is wrong. After ${MAX_FAILED_SIGN_INS} failed attempts in a row the account locks until an administrator unlocks it`;

/** A user as listed: never the password's hash. */
export interface UserInfo {
  id: string;
  companyId: string;
  login: string;
  name: string;
  role: UserRole;
  locked: boolean;
  disabled: boolean;
  created: string;
}

export interface NewUser {
  login: string;
  name: string;
  role: UserRole;
  password: string;
  email?: string | null;
}

export interface SignedIn {
  token: string;
  person: SignedInPerson;
  companyId: string;
  lockAfterMinutes: number;
}

interface Session {
  person: SignedInPerson;
  companyId: string;
  lastSeen: number;
  locked: boolean;
}

const LOGIN_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/;

function tokenHash(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

export class Users {
  private readonly sessions = new Map<string, Session>();
  /**
   * Failures per login nobody has: a stranger trying logins meets the same lock as on a real
   * account, so the lock does not tell which logins exist.
   */
  private readonly strangers = new Map<string, number>();

  constructor(
    private readonly data: DataStore,
    private readonly now: () => Date,
  ) {}

  private get store() {
    return this.data.users;
  }

  /** Whether the company has anyone who may sign in: from then on only people sign. */
  hasPeople(companyId: string): boolean {
    return this.data.read(() => this.store.activeCount(companyId) > 0);
  }

  /** Whether the database has any user at all: a first start asks for the first administrator. */
  anyUser(): boolean {
    return this.data.read(() => this.store.count() > 0);
  }

  list(caller: Caller): UserInfo[] {
    this.requireManager(caller);
    return this.data.read(() => this.store.list(caller.companyId).map(infoOf));
  }

  /** Every user of the database (the command line, which holds the file). */
  listAll(companyId?: string): UserInfo[] {
    return this.data.read(() => this.store.list(companyId).map(infoOf));
  }

  /**
   * A new user of the caller's company; `caller` null is the command line, which holds the
   * database file. A caller grants no more than it holds.
   */
  create(caller: Caller | null, companyId: string, user: NewUser): UserInfo {
    if (caller) {
      this.requireManager(caller);
      if (companyId !== caller.companyId) throw new ForbiddenError('OTHER_COMPANY', 'a user is created for the caller’s own company only');
      requireGrantable(caller, user.role);
    }
    checkLogin(user.login);
    const name = checkName(user.name);
    checkRole(user.role);
    checkPassword(user.password);
    const at = this.now().toISOString();
    return this.data.write(() => {
      if (!this.data.companies.find(companyId)) throw new InvalidInputError('UNKNOWN_COMPANY', `unknown company '${companyId}'`);
      if (this.store.findByLogin(user.login)) throw new InvalidInputError('LOGIN_TAKEN', `the login '${user.login}' is taken`);
      const record: UserRecord = {
        id: randomUUID(),
        companyId,
        login: user.login,
        name,
        role: user.role,
        passwordHash: hashPassword(user.password),
        failedSignIns: 0,
        lockedAt: null,
        disabledAt: null,
        passwordChanged: at,
        created: at,
      };
      this.store.insert(record);
      if (user.email) this.data.alarms.setEmail(record.id, user.email);
      this.event(record.id, 'created', `role ${user.role}`, caller, at);
      return infoOf(record);
    });
  }

  update(caller: Caller | null, id: string, change: { name?: string; role?: UserRole; email?: string | null }): UserInfo {
    if (change.role !== undefined) checkRole(change.role);
    const name = change.name === undefined ? undefined : checkName(change.name);
    return this.change(caller, id, (user, at) => {
      if (caller && change.role !== undefined) requireGrantable(caller, change.role);
      if (caller?.person?.id === id && change.role !== undefined && change.role !== 'admin') {
        this.requireAnotherAdmin(user);
      }
      if (name !== undefined && name !== user.name) {
        this.event(id, 'renamed', `${user.name} → ${name}`, caller, at);
        user.name = name;
      }
      if (change.role !== undefined && change.role !== user.role) {
        if (user.role === 'admin') this.requireAnotherAdmin(user);
        this.event(id, 'roleChanged', `${user.role} → ${change.role}`, caller, at);
        user.role = change.role;
      }
      if (change.email !== undefined) this.data.alarms.setEmail(id, change.email);
    });
  }

  setDisabled(caller: Caller | null, id: string, disabled: boolean): UserInfo {
    return this.change(caller, id, (user, at) => {
      if (disabled === (user.disabledAt !== null)) return;
      if (disabled && user.role === 'admin') this.requireAnotherAdmin(user);
      user.disabledAt = disabled ? at : null;
      this.event(id, disabled ? 'disabled' : 'enabled', null, caller, at);
    });
  }

  unlock(caller: Caller | null, id: string): UserInfo {
    return this.change(caller, id, (user, at) => {
      if (user.lockedAt === null && user.failedSignIns === 0) return;
      user.lockedAt = null;
      user.failedSignIns = 0;
      this.event(id, 'unlocked', null, caller, at);
    });
  }

  resetPassword(caller: Caller | null, id: string, password: string): UserInfo {
    checkPassword(password);
    return this.change(caller, id, (user, at) => {
      user.passwordHash = hashPassword(password);
      user.passwordChanged = at;
      this.event(id, 'passwordReset', null, caller, at);
    });
  }

  events(caller: Caller | null, id: string) {
    if (caller) this.requireManager(caller);
    return this.data.read(() => {
      this.findFor(caller, id);
      return this.store.events(id);
    });
  }

  settings(caller: Caller): CompanySettings {
    return this.data.read(() => this.store.settings(caller.companyId));
  }

  saveSettings(caller: Caller | null, companyId: string, change: Partial<CompanySettings>): CompanySettings {
    if (caller) {
      this.requireManager(caller);
      if (companyId !== caller.companyId) throw new ForbiddenError('OTHER_COMPANY', 'only the caller’s own company’s settings');
    }
    if (change.lockAfterMinutes !== undefined && !(Number.isInteger(change.lockAfterMinutes) && change.lockAfterMinutes >= 1 && change.lockAfterMinutes <= 1440)) {
      throw new InvalidInputError('INVALID_BODY', 'lockAfterMinutes is a whole number of minutes from 1 to 1440');
    }
    return this.data.write(() => {
      const settings = { ...this.store.settings(companyId), ...change };
      this.store.saveSettings(companyId, settings);
      return settings;
    });
  }

  /* ---------- signing in ---------- */

  signIn(login: string, password: string): SignedIn {
    const at = this.now().toISOString();
    const user = this.data.read(() => this.store.findByLogin(login));
    if (!user) {
      const failures = (this.strangers.get(login.toLowerCase()) ?? 0) + 1;
      this.strangers.set(login.toLowerCase(), failures);
      throw failures > MAX_FAILED_SIGN_INS ? accountLocked() : signInFailed();
    }
    if (user.lockedAt !== null) {
      this.data.write(() => this.event(user.id, 'signInFailed', 'account locked', null, at));
      throw accountLocked();
    }
    if (!verifyPassword(password, user.passwordHash) || user.disabledAt !== null) {
      // A disabled account answers as a wrong password: its login is nobody's business.
      this.fail(user.id, user.disabledAt !== null ? 'account disabled' : 'wrong password', at);
      throw signInFailed();
    }
    const person = personOf(user);
    const settings = this.data.write(() => {
      const fresh = this.store.find(user.id)!;
      if (fresh.failedSignIns !== 0) this.store.update({ ...fresh, failedSignIns: 0 });
      this.event(user.id, 'signedIn', null, null, at);
      return this.store.settings(user.companyId);
    });
    const token = 'lds_' + randomBytes(32).toString('base64url');
    this.sessions.set(tokenHash(token), { person, companyId: user.companyId, lastSeen: this.now().getTime(), locked: false });
    return { token, person, companyId: user.companyId, lockAfterMinutes: settings.lockAfterMinutes };
  }

  signOut(token: string): boolean {
    const session = this.sessions.get(tokenHash(token));
    if (!session) return false;
    this.sessions.delete(tokenHash(token));
    this.data.write(() => this.event(session.person.id, 'signedOut', null, null, this.now().toISOString()));
    return true;
  }

  /** The locked session back, for the same person and password; the page keeps its state. */
  unlockSession(token: string, password: string): SignedIn {
    const session = this.sessions.get(tokenHash(token));
    if (!session) throw new UnauthenticatedError('SESSION_ENDED', 'the session has ended: sign in again');
    this.checkPassword(session.person.id, password, 'signInFailed');
    session.locked = false;
    session.lastSeen = this.now().getTime();
    const settings = this.data.read(() => this.store.settings(session.companyId));
    return { token, person: session.person, companyId: session.companyId, lockAfterMinutes: settings.lockAfterMinutes };
  }

  /**
   * The caller behind a session token, or undefined when it is none. A session idle longer than
   * its company allows is locked: refused until the password unlocks it. Only what the person
   * does counts as activity (`personActing`): an open page's own polling reads would otherwise
   * keep an empty desk unlocked forever.
   */
  resolve(key: string, personActing: boolean): Caller | undefined {
    const session = this.sessions.get(tokenHash(key));
    if (!session) return undefined;
    this.checkIdle(session);
    if (personActing) session.lastSeen = this.now().getTime();
    // Read again: a role changed or an account disabled counts from the next request.
    const user = this.data.read(() => this.store.find(session.person.id));
    if (!user || user.disabledAt !== null || user.lockedAt !== null) {
      this.sessions.delete(tokenHash(key));
      throw new UnauthenticatedError('SESSION_ENDED', 'the session has ended: sign in again');
    }
    session.person = personOf(user);
    return {
      keyId: `user:${user.id}`,
      companyId: user.companyId,
      permissions: new Set(ROLE_GRANTS[user.role].permissions),
      person: session.person,
    };
  }

  /** The page says its person is at the desk (keys pressed, clicks, scrolls): the session stays open. */
  touchSession(token: string): void {
    const session = this.sessions.get(tokenHash(token));
    if (!session) throw new UnauthenticatedError('SESSION_ENDED', 'the session has ended: sign in again');
    this.checkIdle(session);
    session.lastSeen = this.now().getTime();
  }

  private checkIdle(session: Session): void {
    const { lockAfterMinutes } = this.data.read(() => this.store.settings(session.companyId));
    if (!session.locked && this.now().getTime() - session.lastSeen > lockAfterMinutes * 60_000) session.locked = true;
    if (session.locked) throw new UnauthenticatedError('SESSION_LOCKED', 'the session is locked after inactivity: enter the password to unlock it');
  }

  /**
   * A signature's password, re-entered at the moment of signing. A wrong one counts as a failed
   * sign-in: five in a row lock the account, whoever is at the unlocked desk.
   */
  verifySignature(person: SignedInPerson, password: string | undefined): void {
    if (password === undefined || password === '') {
      throw new InvalidInputError('SIGNATURE_PASSWORD_MISSING', 'a signature needs the signer’s password, entered again');
    }
    this.checkPassword(person.id, password, 'signatureFailed');
  }

  private checkPassword(userId: string, password: string, failure: UserEventKind): void {
    const at = this.now().toISOString();
    const user = this.data.read(() => this.store.find(userId));
    if (!user || user.disabledAt !== null || user.lockedAt !== null) throw new UnauthenticatedError('SESSION_ENDED', 'the session has ended: sign in again');
    if (verifyPassword(password, user.passwordHash)) {
      if (user.failedSignIns !== 0) this.data.write(() => this.store.update({ ...this.store.find(userId)!, failedSignIns: 0 }));
      return;
    }
    const locked = this.fail(userId, 'wrong password', at, failure);
    if (locked) throw accountLocked();
    throw failure === 'signatureFailed'
      ? new ForbiddenError('SIGNATURE_PASSWORD_WRONG', 'the password is wrong: nothing was signed')
      : new UnauthenticatedError('PASSWORD_WRONG', 'the password is wrong');
  }

  /** Counts a failure; at the fifth in a row locks the account and ends its sessions. Returns whether it locked. */
  private fail(userId: string, detail: string, at: string, kind: UserEventKind = 'signInFailed'): boolean {
    const locked = this.data.write(() => {
      const user = this.store.find(userId)!;
      const failedSignIns = user.failedSignIns + 1;
      const lock = failedSignIns >= MAX_FAILED_SIGN_INS && user.lockedAt === null;
      this.store.update({ ...user, failedSignIns, lockedAt: lock ? at : user.lockedAt });
      this.event(userId, kind, detail, null, at);
      if (lock) this.event(userId, 'locked', `${failedSignIns} failed attempts in a row`, null, at);
      return lock;
    });
    if (locked) for (const [hash, session] of this.sessions) if (session.person.id === userId) this.sessions.delete(hash);
    return locked;
  }

  /* ---------- who may manage ---------- */

  /**
   * Only admins manage people. A key may too while its company has nobody yet: that is how the
   * first administrator is made, with the desktop's own key or a link's key.
   */
  private requireManager(caller: Caller): void {
    if (caller.person) {
      if (!mayDo(caller.person, 'manageUsers')) throw new ForbiddenError('ADMIN_ONLY', 'only an administrator manages users');
      return;
    }
    if (!caller.permissions.has('apiKeys:manage')) throw new PermissionDeniedError('apiKeys:manage');
    if (this.data.read(() => this.store.activeCount(caller.companyId)) > 0) {
      throw new ForbiddenError('ADMIN_ONLY', 'the company has users: an administrator signs in to manage them');
    }
  }

  private findFor(caller: Caller | null, id: string): UserRecord {
    const user = this.store.find(id);
    if (!user || (caller !== null && user.companyId !== caller.companyId)) throw new NotFoundError('USER_NOT_FOUND', `no user '${id}' of this company`);
    return user;
  }

  private change(caller: Caller | null, id: string, apply: (user: UserRecord, at: string) => void): UserInfo {
    if (caller) this.requireManager(caller);
    const at = this.now().toISOString();
    const result = this.data.write(() => {
      const user = { ...this.findFor(caller, id) };
      apply(user, at);
      this.store.update(user);
      return user;
    });
    if (result.disabledAt !== null) for (const [hash, session] of this.sessions) if (session.person.id === id) this.sessions.delete(hash);
    return infoOf(result);
  }

  /** A company never loses its last administrator who may sign in. */
  private requireAnotherAdmin(user: UserRecord): void {
    const others = this.store.list(user.companyId).filter((u) => u.id !== user.id && u.role === 'admin' && u.disabledAt === null);
    if (others.length === 0) throw new ForbiddenError('LAST_ADMIN', 'the company keeps at least one administrator');
  }

  private event(userId: string, kind: UserEventKind, detail: string | null, by: Caller | null, at: string): void {
    this.store.addEvent({ userId, kind, detail, byUserId: by?.person?.id ?? null, byKeyId: by && !by.person ? by.keyId : null, at });
  }
}

/** A key or person grants no more than it holds: every permission of the role must be the caller's. */
function requireGrantable(caller: Caller, role: UserRole): void {
  const missing = ROLE_GRANTS[role].permissions.filter((p) => !caller.permissions.has(p));
  if (missing.length > 0) throw new ForbiddenError('GRANT_EXCEEDS_CALLER', `the role ${role} needs ${missing.join(', ')}, which the caller does not hold`);
}

function personOf(user: UserRecord): SignedInPerson {
  return { id: user.id, login: user.login, name: user.name, role: user.role };
}

function infoOf(user: UserRecord): UserInfo {
  return {
    id: user.id,
    companyId: user.companyId,
    login: user.login,
    name: user.name,
    role: user.role,
    locked: user.lockedAt !== null,
    disabled: user.disabledAt !== null,
    created: user.created,
  };
}

function checkLogin(login: string): void {
  if (!LOGIN_PATTERN.test(login)) {
    throw new InvalidInputError('INVALID_LOGIN', 'a login is 1 to 64 letters, digits, and . _ @ -, starting with a letter or digit');
  }
}

function checkName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === '' || trimmed.length > 200) throw new InvalidInputError('INVALID_NAME', 'the printed name has 1 to 200 characters');
  return trimmed;
}

function checkRole(role: string): void {
  if (!(USER_ROLES as readonly string[]).includes(role)) throw new InvalidInputError('INVALID_ROLE', `the role is one of ${USER_ROLES.join(', ')}`);
}

function checkPassword(password: string): void {
  const weak = weakPassword(password);
  if (weak) throw new InvalidInputError('WEAK_PASSWORD', weak);
}

function signInFailed(): UnauthenticatedError {
  return new UnauthenticatedError('SIGN_IN_FAILED', SIGN_IN_FAILED_MESSAGE);
}

function accountLocked(): UnauthenticatedError {
  return new UnauthenticatedError(
    'ACCOUNT_LOCKED',
    `the account is locked after ${MAX_FAILED_SIGN_INS} failed attempts in a row: an administrator unlocks it`,
  );
}
