/**
 * The people who sign in at the desk: their accounts (created, renamed, given a role, disabled,
 * locked and unlocked, a password reset), signing in and out, the sessions they hold, the lock
 * after inactivity, and the password they re-enter to sign. Every change to an account is a
 * user event naming who made it.
 *
 * Sessions are kept in the database, so a restart signs nobody out: the client holds a random
 * token, the database only its SHA-256. A session ends at sign-out, when its person is disabled,
 * locked out or changes their password (their other sessions), and when it expires: idle too long,
 * or too long after its sign-in (docs/review-and-audit.md#sessions). A session token travels
 * exactly like an API key (x-api-key); ApiKeys asks here first.
 *
 * The company's password policy (docs/review-and-audit.md#password-policy) is judged here: the
 * least length, no reuse of the last passwords, the expiry, and the change a person must make
 * before anything else after an administrator chose their password.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { DataStore } from '../db/data-store';
import type { SessionRecord } from '../db/session-store';
import type { CompanySettings, PasswordChangeDue, UserEventKind, UserRecord } from '../db/user-store';
import { ForbiddenError, InvalidInputError, NotFoundError, PermissionDeniedError, UnauthenticatedError } from '../model/errors';
import { mayDo, ROLE_GRANTS, USER_ROLES, type SignedInPerson, type UserRole } from '../model/person';
import type { Caller } from './api-keys';
import { hashPassword, verifyPassword } from './passwords';
import { Elapsed, monotonicFor, type WallClock } from './clock';

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
  email: string | null;
  /** Why the person must change their password at the next sign-in, or null. */
  passwordChangeDue: PasswordChangeDue | null;
  passwordChanged: string;
  created: string;
}

/** Why a session may do nothing but change its password: an administrator chose it, or it expired. */
export type PasswordChangeReason = PasswordChangeDue | 'expired';

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
  /** When the session ends at the latest (ISO 8601 UTC), whatever happens in it. */
  expires: string;
  /** Set while the session may do nothing but change the password. */
  passwordChangeDue: PasswordChangeReason | null;
}

/** The rules of the company settings that take a whole number: their range. */
const SETTING_RANGES = {
  lockAfterMinutes: [1, 1440, 'minutes'],
  passwordExpiryDays: [0, 3650, 'days (0: never)'],
  passwordHistory: [0, 24, 'passwords (0: no rule)'],
  passwordMinLength: [8, 128, 'characters'],
  sessionIdleHours: [1, 720, 'hours'],
  sessionMaxHours: [1, 720, 'hours'],
} as const satisfies Partial<Record<keyof CompanySettings, readonly [number, number, string]>>;

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Every session token starts so; an API key (ldk_) never does, so a key is never looked up as a session. */
export const SESSION_TOKEN_PREFIX = 'lds_';

const LOGIN_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/;

function tokenHash(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

export class Users {
  /**
   * Failures per login nobody has: a stranger trying logins meets the same lock as on a real
   * account, so the lock does not tell which logins exist.
   */
  private readonly strangers = new Map<string, number>();

  /** Idle time and age of the sessions, on the monotonic clock for those this process saw begin and act (service/clock.ts). */
  private readonly elapsed: Elapsed;

  constructor(
    private readonly data: DataStore,
    private readonly now: WallClock,
  ) {
    this.elapsed = new Elapsed(now, monotonicFor(now));
  }

  /** The session's row now says it was seen at `at`. */
  private seen(tokenHash: string, at: string): void {
    this.sessions.update({ tokenHash, lastSeen: at, locked: false });
    this.elapsed.mark(`${tokenHash}:seen`, at);
  }

  /** Why the session has expired (in words), or null while it runs. */
  private expiryOf(session: SessionRecord, policy: CompanySettings): string | null {
    if (this.elapsed.since(`${session.tokenHash}:created`, session.created) > policy.sessionMaxHours * HOUR) return `${policy.sessionMaxHours} hours after its sign-in`;
    if (this.idleMs(session) > policy.sessionIdleHours * HOUR) return `after ${policy.sessionIdleHours} hours without activity`;
    return null;
  }

  private idleMs(session: SessionRecord): number {
    return this.elapsed.since(`${session.tokenHash}:seen`, session.lastSeen);
  }

  private ended(tokenHash: string): void {
    this.elapsed.forget(`${tokenHash}:created`);
    this.elapsed.forget(`${tokenHash}:seen`);
  }

  private get store() {
    return this.data.users;
  }

  private get sessions() {
    return this.data.sessions;
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
    const at = this.now().toISOString();
    return this.data.write(() => {
      if (!this.data.companies.find(companyId)) throw new InvalidInputError('UNKNOWN_COMPANY', `unknown company '${companyId}'`);
      const policy = this.store.settings(companyId);
      checkPassword(user.password, policy);
      if (this.store.findByLogin(user.login)) throw new InvalidInputError('LOGIN_TAKEN', `the login '${user.login}' is taken`);
      // Someone else chose this password (an administrator, the command line), unless a key makes
      // the first administrator in the app's form, who types their own and is signed in at once.
      const chosenByOther = caller === null || caller.person !== undefined;
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
        passwordChangeDue: chosenByOther && policy.changeAtFirstSignIn ? 'firstSignIn' : null,
        email: user.email ?? null,
        created: at,
      };
      this.store.insert(record);
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
      if (change.email !== undefined && change.email !== user.email) {
        this.event(id, 'emailChanged', change.email ?? 'removed', caller, at);
        user.email = change.email;
      }
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

  /**
   * An administrator (or the command line) sets a person's password: every session of theirs
   * ends, and with the policy's changeAfterReset they choose their own at the next sign-in.
   */
  resetPassword(caller: Caller | null, id: string, password: string): UserInfo {
    return this.change(caller, id, (user, at) => {
      const policy = this.store.settings(user.companyId);
      checkPassword(password, policy);
      this.replacePassword(user, password, policy, at);
      user.passwordChangeDue = policy.changeAfterReset ? 'reset' : null;
      this.sessions.endAllOf(id);
      this.event(id, 'passwordReset', null, caller, at);
    });
  }

  /**
   * The person behind a session chooses a new password: the current one entered again (a wrong one
   * counts as a failed sign-in), the policy's length, none of the last passwords. Their other
   * sessions end; this one goes on, free of a change that was due.
   */
  changePassword(token: string, currentPassword: string, newPassword: string): SignedIn {
    const session = this.liveSession(token);
    this.checkPassword(session.userId, currentPassword, 'signInFailed');
    const at = this.now().toISOString();
    return this.data.write(() => {
      const user = { ...this.store.find(session.userId)! };
      const policy = this.store.settings(user.companyId);
      checkPassword(newPassword, policy);
      this.replacePassword(user, newPassword, policy, at);
      user.passwordChangeDue = null;
      this.store.update(user);
      const ended = this.sessions.endAllOf(user.id, session.tokenHash);
      this.event(user.id, 'passwordChanged', ended > 0 ? `${ended} other session${ended === 1 ? '' : 's'} ended` : null, null, at);
      this.seen(session.tokenHash, at);
      return this.signedIn(token, user, session.created, policy);
    });
  }

  /** The new password, refused if it is one of the person's last `passwordHistory`; the old one joins the history. */
  private replacePassword(user: UserRecord, password: string, policy: CompanySettings, at: string): void {
    if (policy.passwordHistory > 0) {
      const recent = [user.passwordHash, ...this.store.oldPasswords(user.id, policy.passwordHistory - 1)];
      if (recent.some((hash) => verifyPassword(password, hash))) {
        throw new InvalidInputError(
          'PASSWORD_REUSED',
          `the password is one of the last ${policy.passwordHistory} of this person: choose one not used before`,
        );
      }
    }
    this.store.keepOldPassword(user.id, user.passwordHash, at);
    user.passwordHash = hashPassword(password);
    user.passwordChanged = at;
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
    for (const [name, [least, most, unit]] of Object.entries(SETTING_RANGES)) {
      const value = change[name as keyof typeof SETTING_RANGES];
      if (value !== undefined && !(Number.isInteger(value) && value >= least && value <= most)) {
        throw new InvalidInputError('INVALID_BODY', `${name} is a whole number of ${unit} from ${least} to ${most}`);
      }
    }
    return this.data.write(() => {
      const settings = { ...this.store.settings(companyId), ...change };
      if (settings.sessionMaxHours * 60 < settings.lockAfterMinutes || settings.sessionIdleHours * 60 < settings.lockAfterMinutes) {
        throw new InvalidInputError('INVALID_BODY', 'a session lasts at least as long as the lock after inactivity: sessionIdleHours and sessionMaxHours cover lockAfterMinutes');
      }
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
    const token = SESSION_TOKEN_PREFIX + randomBytes(32).toString('base64url');
    return this.data.write(() => {
      const fresh = this.store.find(user.id)!;
      if (fresh.failedSignIns !== 0) this.store.update({ ...fresh, failedSignIns: 0 });
      const policy = this.store.settings(user.companyId);
      // Sessions of the person that expired unseen go now: nobody presents them any more.
      for (const stale of this.sessions.allOf(user.id)) {
        if (this.expiryOf(stale, policy) === null) continue;
        this.sessions.end(stale.tokenHash);
        this.ended(stale.tokenHash);
      }
      const hash = tokenHash(token);
      this.sessions.insert({ tokenHash: hash, userId: user.id, created: at, lastSeen: at, locked: false });
      this.elapsed.mark(`${hash}:created`, at);
      this.elapsed.mark(`${hash}:seen`, at);
      const due = this.changeDue(fresh, policy);
      this.event(user.id, 'signedIn', due ? `must change the password (${due})` : null, null, at);
      return this.signedIn(token, fresh, at, policy);
    });
  }

  signOut(token: string): boolean {
    const hash = tokenHash(token);
    return this.data.write(() => {
      const session = this.sessions.find(hash);
      if (!session) return false;
      this.sessions.end(hash);
      this.ended(hash);
      this.event(session.userId, 'signedOut', null, null, this.now().toISOString());
      return true;
    });
  }

  /** The locked session back, for the same person and password; the page keeps its state. */
  unlockSession(token: string, password: string): SignedIn {
    const session = this.liveSession(token, { evenLocked: true });
    this.checkPassword(session.userId, password, 'signInFailed');
    const at = this.now().toISOString();
    return this.data.write(() => {
      this.seen(session.tokenHash, at);
      const user = this.store.find(session.userId)!;
      return this.signedIn(token, user, session.created, this.store.settings(user.companyId));
    });
  }

  /**
   * The caller behind a session token, or undefined when the key is no session token. A session
   * idle longer than its company allows is locked: refused until the password unlocks it. Only
   * what the person does counts as activity (`personActing`): an open page's own polling reads
   * would otherwise keep an empty desk unlocked forever.
   */
  resolve(key: string, personActing: boolean): Caller | undefined {
    if (!key.startsWith(SESSION_TOKEN_PREFIX)) return undefined;
    const session = this.liveSession(key);
    // Read again at every request: a role changed or an account disabled counts from the next one.
    const { user, policy } = this.data.read(() => {
      const found = this.store.find(session.userId)!;
      return { user: found, policy: this.store.settings(found.companyId) };
    });
    if (personActing) this.touch(session);
    const due = this.changeDue(user, policy);
    return {
      keyId: `user:${user.id}`,
      companyId: user.companyId,
      permissions: new Set(ROLE_GRANTS[user.role].permissions),
      person: personOf(user),
      ...(due && { passwordChangeDue: due }),
    };
  }

  /** The page says its person is at the desk (keys pressed, clicks, scrolls): the session stays open. */
  touchSession(token: string): void {
    this.touch(this.liveSession(token));
  }

  private touch(session: SessionRecord): void {
    this.data.write(() => this.seen(session.tokenHash, this.now().toISOString()));
  }

  /**
   * The session of a token, refused when it has ended, expired (ended now), its person can no
   * longer sign in (ended now), or it is locked (locked now, when idle past the company's lock).
   */
  private liveSession(token: string, options: { evenLocked?: boolean } = {}): SessionRecord {
    const hash = tokenHash(token);
    const nowMs = this.now().getTime();
    const found = this.data.read(() => {
      const session = this.sessions.find(hash);
      const user = session && this.store.find(session.userId);
      return session && user && { session, user, policy: this.store.settings(user.companyId) };
    });
    if (!found) throw sessionEnded();
    const { session, user, policy } = found;
    // Durations on the monotonic clock: a step of the wall clock neither extends a session nor ends it.
    const idleMs = this.idleMs(session);
    const expired = this.expiryOf(session, policy);
    if (expired || user.disabledAt !== null || user.lockedAt !== null) {
      this.ended(hash);
      this.data.write(() => {
        if (this.sessions.end(hash) && expired) this.event(user.id, 'sessionExpired', expired, null, new Date(nowMs).toISOString());
      });
      throw expired ? new UnauthenticatedError('SESSION_EXPIRED', `the session expired ${expired}: sign in again`) : sessionEnded();
    }
    if (options.evenLocked) return session;
    if (!session.locked && idleMs > policy.lockAfterMinutes * 60_000) {
      this.data.write(() => this.sessions.update({ tokenHash: hash, lastSeen: session.lastSeen, locked: true }));
      session.locked = true;
    }
    if (session.locked) throw new UnauthenticatedError('SESSION_LOCKED', 'the session is locked after inactivity: enter the password to unlock it');
    return session;
  }

  /** Why the person must change their password before anything else, or null. */
  private changeDue(user: UserRecord, policy: CompanySettings): PasswordChangeReason | null {
    if (user.passwordChangeDue) return user.passwordChangeDue;
    if (policy.passwordExpiryDays > 0 && this.now().getTime() - Date.parse(user.passwordChanged) > policy.passwordExpiryDays * DAY) return 'expired';
    return null;
  }

  private signedIn(token: string, user: UserRecord, created: string, policy: CompanySettings): SignedIn {
    return {
      token,
      person: personOf(user),
      companyId: user.companyId,
      lockAfterMinutes: policy.lockAfterMinutes,
      expires: iso(Date.parse(created) + policy.sessionMaxHours * HOUR),
      passwordChangeDue: this.changeDue(user, policy),
    };
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
    if (locked) this.data.write(() => this.sessions.endAllOf(userId));
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
      // A disabled person's sessions end with the change, in its transaction.
      if (user.disabledAt !== null) this.sessions.endAllOf(id);
      return user;
    });
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
    email: user.email,
    passwordChangeDue: user.passwordChangeDue,
    passwordChanged: user.passwordChanged,
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

function checkPassword(password: string, policy: CompanySettings): void {
  if ([...password].length < policy.passwordMinLength) {
    throw new InvalidInputError('WEAK_PASSWORD', `the password has at least ${policy.passwordMinLength} characters`);
  }
}

function sessionEnded(): UnauthenticatedError {
  return new UnauthenticatedError('SESSION_ENDED', 'the session has ended: sign in again');
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
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
