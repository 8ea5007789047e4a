/**
 * SQL for a team's hub (docs/sync.md#a-hub-for-a-team): on a hub, its people in the order of
 * their changes; on a desk, which people came from the hub, the password changes made here that
 * the hub has not yet taken, and how far the desk has read the hub.
 */
import type { Statement } from 'better-sqlite3';
import type { PasswordChangeDue, UserRecord } from './user-store';
import type { Db } from './database';

/** A person as a hub hands them out: the account and the numbers of its latest change and password change. */
export interface OrderedPerson {
  user: UserRecord;
  seq: number;
  passwordSeq: number;
}

/** A password changed here, waiting for the hub. */
export interface QueuedPassword {
  userId: string;
  passwordHash: string;
  passwordChanged: string;
  passwordChangeDue: PasswordChangeDue | null;
  basedOn: number;
}

export class HubStore {
  private readonly selectPeopleSince: Statement;
  private readonly selectOrder: Statement;
  private readonly selectHubSeq: Statement;
  private readonly upsertHubPerson: Statement;
  private readonly upsertOutbox: Statement;
  private readonly selectOutbox: Statement;
  private readonly selectOutboxOf: Statement;
  private readonly deleteOutbox: Statement;
  private readonly selectPeopleAfter: Statement;
  private readonly updatePeopleAfter: Statement;

  constructor(db: Db) {
    this.selectPeopleSince = db.prepare(
      `SELECT u.*, o.seq AS seq, o.password_seq AS password_seq FROM people_order o JOIN users u ON u.id = o.user_id
        WHERE u.company_id = ? AND o.seq > ? ORDER BY o.seq LIMIT ?`,
    );
    this.selectOrder = db.prepare('SELECT seq, password_seq AS passwordSeq FROM people_order WHERE user_id = ?');
    this.selectHubSeq = db.prepare('SELECT hub_password_seq FROM hub_people WHERE user_id = ?').pluck();
    this.upsertHubPerson = db.prepare(
      'INSERT INTO hub_people (user_id, hub_password_seq) VALUES (?, ?) ON CONFLICT (user_id) DO UPDATE SET hub_password_seq = excluded.hub_password_seq',
    );
    this.upsertOutbox = db.prepare(
      `INSERT INTO hub_password_outbox (user_id, password_hash, password_changed, password_change_due, based_on, queued)
       VALUES (@userId, @passwordHash, @passwordChanged, @passwordChangeDue, @basedOn, @queued)
       ON CONFLICT (user_id) DO UPDATE SET password_hash = excluded.password_hash, password_changed = excluded.password_changed,
              password_change_due = excluded.password_change_due, queued = excluded.queued`,
    );
    this.selectOutbox = db.prepare(
      `SELECT user_id AS userId, password_hash AS passwordHash, password_changed AS passwordChanged,
              password_change_due AS passwordChangeDue, based_on AS basedOn
         FROM hub_password_outbox ORDER BY queued, user_id`,
    );
    this.selectOutboxOf = db.prepare('SELECT 1 FROM hub_password_outbox WHERE user_id = ?').pluck();
    this.deleteOutbox = db.prepare('DELETE FROM hub_password_outbox WHERE user_id = ? AND password_hash = ?');
    this.selectPeopleAfter = db.prepare('SELECT people_after FROM hub_state WHERE id = 1').pluck();
    this.updatePeopleAfter = db.prepare('UPDATE hub_state SET people_after = ? WHERE id = 1');
  }

  /** The company's people whose latest change is numbered after `after`, in that order. */
  peopleSince(companyId: string, after: number, limit: number): OrderedPerson[] {
    const rows = this.selectPeopleSince.all(companyId, after, limit) as (Record<string, unknown> & { seq: number; password_seq: number })[];
    return rows.map((row) => ({ user: userOf(row), seq: row.seq, passwordSeq: row.password_seq }));
  }

  order(userId: string): { seq: number; passwordSeq: number } | undefined {
    return this.selectOrder.get(userId) as { seq: number; passwordSeq: number } | undefined;
  }

  /** The hub's number of the password change this desk holds of the person; undefined for a person made here. */
  hubPasswordSeq(userId: string): number | undefined {
    return this.selectHubSeq.get(userId) as number | undefined;
  }

  markFromHub(userId: string, hubPasswordSeq: number): void {
    this.upsertHubPerson.run(userId, hubPasswordSeq);
  }

  queuePassword(entry: QueuedPassword, queued: string): void {
    this.upsertOutbox.run({ ...entry, queued });
  }

  queuedPasswords(): QueuedPassword[] {
    return this.selectOutbox.all() as QueuedPassword[];
  }

  hasQueuedPassword(userId: string): boolean {
    return this.selectOutboxOf.get(userId) !== undefined;
  }

  /** The entry leaves the queue, unless a newer change of that person's password replaced it meanwhile. */
  dropQueuedPassword(userId: string, passwordHash: string): void {
    this.deleteOutbox.run(userId, passwordHash);
  }

  peopleAfter(): number {
    return this.selectPeopleAfter.get() as number;
  }

  setPeopleAfter(seq: number): void {
    this.updatePeopleAfter.run(seq);
  }
}

function userOf(row: Record<string, unknown>): UserRecord {
  return {
    id: row.id as string,
    companyId: row.company_id as string,
    login: row.login as string,
    name: row.name as string,
    role: row.role as UserRecord['role'],
    passwordHash: row.password_hash as string,
    failedSignIns: row.failed_sign_ins as number,
    lockedAt: row.locked_at as string | null,
    disabledAt: row.disabled_at as string | null,
    passwordChanged: row.password_changed as string,
    passwordChangeDue: row.password_change_due as PasswordChangeDue | null,
    email: row.email as string | null,
    created: row.created as string,
  };
}
