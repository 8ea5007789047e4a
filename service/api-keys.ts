/**
 * API keys: creation (the key is shown once), hashing, authentication and revocation.
 * A key is 32 random bytes; SHA-256 is enough to store it because it is not a password.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { DataStore } from '../db/data-store';
import type { ApiKeyRecord } from '../db/key-store';
import type { Permission } from '../schema/report';
import type { SignedInPerson } from '../model/person';
import type { Actor } from '../schema/change-log';
import { ForbiddenError, InvalidInputError, PermissionDeniedError, UnauthenticatedError } from '../model/errors';

/** Who is calling: the key's company and what the key may do; the person, when one signed in. */
export interface Caller {
  keyId: string;
  companyId: string;
  permissions: ReadonlySet<Permission>;
  person?: SignedInPerson;
  /**
   * Set on a person's session that may do nothing but change its password
   * (docs/review-and-audit.md#password-policy): an administrator chose it, or it expired.
   */
  passwordChangeDue?: 'firstSignIn' | 'reset' | 'expired';
}

export interface CreatedApiKey {
  id: string;
  key: string;
  name: string | null;
  companyId: string;
  permissions: Permission[];
  created: string;
}

/** The key id of the desktop window's session key, which has no record in the database. */
export const SESSION_KEY_ID = 'session';

export function hashKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

export function generateKey(): string {
  return 'ldk_' + randomBytes(32).toString('base64url');
}

export class ApiKeys {
  /** Keys that live only as long as this process: the desktop window's own session. */
  private readonly sessionKeys = new Map<string, Caller>();

  constructor(
    private readonly data: DataStore,
    /** Sessions of people signed in, whose tokens travel like keys; asked first. */
    private readonly people?: { resolve(key: string, personActing: boolean): Caller | undefined },
  ) {}

  private get keys() {
    return this.data.keys;
  }

  private get companies() {
    return this.data.companies;
  }

  create(companyId: string, permissions: readonly Permission[], name: string | null, key = generateKey()): CreatedApiKey {
    if (!this.companies.find(companyId)) throw new InvalidInputError('UNKNOWN_COMPANY', `unknown company '${companyId}'`);
    const record: ApiKeyRecord = {
      id: randomUUID(),
      keyHash: hashKey(key),
      companyId,
      name,
      permissions: [...new Set(permissions)],
      created: new Date().toISOString(),
      revoked: null,
    };
    this.data.write(() => this.keys.upsert(record));
    return { id: record.id, key, name, companyId, permissions: record.permissions, created: record.created };
  }

  /** A key for this process only, never written to the database; `keyId` names it in what it writes. */
  createSessionKey(companyId: string, permissions: readonly Permission[], keyId = SESSION_KEY_ID): string {
    if (!this.companies.find(companyId)) throw new InvalidInputError('UNKNOWN_COMPANY', `unknown company '${companyId}'`);
    const key = generateKey();
    this.sessionKeys.set(hashKey(key), { keyId, companyId, permissions: new Set(permissions) });
    return key;
  }

  /**
   * The caller behind a key, or a refusal that says whether the key was missing or wrong.
   * `personActing` says whether the request is a person's own doing rather than a page's
   * background read: only that keeps a person's session from locking.
   */
  authenticate(key: string | undefined, personActing = true): Caller {
    if (key === undefined || key === '') throw new UnauthenticatedError('API_KEY_MISSING', 'an API key is required: send it in the x-api-key header');
    const hash = hashKey(key);
    const session = this.sessionKeys.get(hash);
    if (session) return session;
    const person = this.people?.resolve(key, personActing);
    if (person) return person;
    const record = this.keys.findByHash(hash);
    if (!record || record.revoked !== null) throw new UnauthenticatedError('API_KEY_INVALID', 'the API key is unknown or revoked');
    return { keyId: record.id, companyId: record.companyId, permissions: new Set(record.permissions) };
  }

  /** A key made through the API: for the caller's own company, with no permission the caller lacks. */
  createFor(caller: Caller, permissions: readonly Permission[], name: string | null): CreatedApiKey {
    const missing = [...new Set(permissions)].filter((p) => !caller.permissions.has(p));
    if (missing.length > 0) {
      throw new ForbiddenError('GRANT_EXCEEDS_CALLER', `a key grants no more than its maker holds: the caller lacks ${missing.join(', ')}`);
    }
    if (caller.person && caller.person.role !== 'admin') throw new ForbiddenError('ADMIN_ONLY', 'only an administrator manages tool keys');
    return this.create(caller.companyId, permissions, name);
  }

  list(companyId?: string): Omit<ApiKeyRecord, 'keyHash'>[] {
    return this.keys.list(companyId).map(({ keyHash: _hash, ...rest }) => rest);
  }

  revoke(id: string, companyId?: string): boolean {
    const record = this.keys.find(id);
    if (!record || (companyId !== undefined && record.companyId !== companyId)) return false;
    return this.data.write(() => this.keys.revoke(id, new Date().toISOString()));
  }
}

export function requirePermission(caller: Pick<Caller, 'permissions'>, permission: Permission): void {
  if (!caller.permissions.has(permission)) {
    throw new PermissionDeniedError(permission);
  }
}

/** Who a change is written by: the key it came through, and the person when one signed in. */
export function actorOf(caller: Caller): Actor {
  return caller.person
    ? { kind: 'apiKey', keyId: caller.keyId, person: { id: caller.person.id, name: caller.person.name } }
    : { kind: 'apiKey', keyId: caller.keyId };
}
