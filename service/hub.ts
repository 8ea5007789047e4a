/**
 * A team's hub (docs/sync.md#a-hub-for-a-team). A hub is a LabelDesk its desks already sync
 * with: it hands them its company's people, in the order of their changes, and takes the
 * passwords people change at a desk. The hub assigns the order, so it decides: a password
 * changed at a desk is taken unless the hub's password of that person changed after the one the
 * desk held (at the hub, or from another desk that came first), or the person is disabled at
 * the hub. A desk that loses gets the hub's password at its next pull.
 *
 * The desk's side applies what the hub hands out: a person made at the hub can sign in at the
 * desk from then on; one disabled there is refused and their sessions end. The failed sign-ins
 * and the lock stay each desk's own.
 */
import type { DataStore } from '../db/data-store';
import type { OrderedPerson, QueuedPassword } from '../db/hub-store';
import type { UserEventKind, UserRecord } from '../db/user-store';
import { NotFoundError } from '../model/errors';
import type { HubPasswordAnswer, HubPasswordBody, HubPeoplePage, HubPerson } from '../schema/hub';
import { requirePermission, type Caller } from './api-keys';
import type { WallClock } from './clock';

export class TeamHub {
  constructor(
    private readonly data: DataStore,
    private readonly now: WallClock,
  ) {}

  /* ---------- the hub's side ---------- */

  /** The caller's company's people changed after `after`, oldest change first. */
  people(caller: Caller, after: number, limit: number): HubPeoplePage {
    requirePermission(caller, 'people:sync');
    return this.data.read(() => {
      const rows = this.data.hub.peopleSince(caller.companyId, after, limit + 1);
      return { people: rows.slice(0, limit).map(hubPersonOf), more: rows.length > limit };
    });
  }

  /** A password changed at a desk: taken, or refused with the hub's person, whose password the desk then takes. */
  takePassword(caller: Caller, userId: string, body: HubPasswordBody): HubPasswordAnswer {
    requirePermission(caller, 'people:sync');
    const at = this.now().toISOString();
    return this.data.write(() => {
      const user = this.data.users.find(userId);
      if (!user || user.companyId !== caller.companyId) throw new NotFoundError('USER_NOT_FOUND', `no user '${userId}' of this company`);
      const order = this.data.hub.order(userId)!;
      let reason: string | null = null;
      if (user.disabledAt !== null) reason = 'the person is disabled at the hub';
      else if (order.passwordSeq > body.basedOn) reason = 'the password was changed at the hub, or at another desk first, after the one this desk held';
      if (reason === null && user.passwordHash !== body.passwordHash) {
        this.data.users.keepOldPassword(user.id, user.passwordHash, at);
        this.data.users.update({ ...user, passwordHash: body.passwordHash, passwordChanged: body.passwordChanged, passwordChangeDue: body.passwordChangeDue });
        this.data.sessions.endAllOf(user.id);
        this.event(user.id, 'passwordChanged', `at ${body.desk}`, caller.keyId, at);
      }
      const [person] = this.data.hub.peopleSince(caller.companyId, this.data.hub.order(userId)!.seq - 1, 1);
      return { taken: reason === null, reason, person: hubPersonOf(person) };
    });
  }

  /* ---------- the desk's side ---------- */

  /** Where the desk's reading of the hub's people stands. */
  peopleAfter(): number {
    return this.data.read(() => this.data.hub.peopleAfter());
  }

  /**
   * The hub's people, applied in its order in one transaction, the reading moved past them.
   * Returns why a person could not be taken (their login belongs to another person here).
   */
  applyPeople(companyId: string, people: readonly HubPerson[]): string[] {
    const at = this.now().toISOString();
    const refused: string[] = [];
    this.data.write(() => {
      let after = this.data.hub.peopleAfter();
      for (const person of people) {
        after = Math.max(after, person.seq);
        const problem = this.applyPerson(companyId, person, at);
        if (problem) refused.push(problem);
      }
      this.data.hub.setPeopleAfter(after);
    });
    return refused;
  }

  private applyPerson(companyId: string, person: HubPerson, at: string): string | null {
    const users = this.data.users;
    const held = users.find(person.id);
    const sameLogin = users.findByLogin(person.login);
    if (sameLogin && sameLogin.id !== person.id) {
      return `the hub's person '${person.login}' was not taken: that login belongs to another person made at this desk`;
    }
    // A password changed here and not yet taken by the hub stays until the hub answers it.
    const keepPassword = held !== undefined && this.data.hub.hasQueuedPassword(person.id);
    const next: UserRecord = {
      id: person.id,
      companyId: held?.companyId ?? companyId,
      login: person.login,
      name: person.name,
      role: person.role,
      email: person.email,
      passwordHash: keepPassword ? held.passwordHash : person.passwordHash,
      passwordChanged: keepPassword ? held.passwordChanged : person.passwordChanged,
      passwordChangeDue: keepPassword ? held.passwordChangeDue : person.passwordChangeDue,
      disabledAt: person.disabled ? (held?.disabledAt ?? at) : null,
      failedSignIns: held?.failedSignIns ?? 0,
      lockedAt: held?.lockedAt ?? null,
      created: held?.created ?? at,
    };
    if (held) {
      if (held.passwordHash !== next.passwordHash) {
        users.keepOldPassword(held.id, held.passwordHash, at);
        this.data.sessions.endAllOf(held.id);
        this.event(held.id, 'passwordChanged', 'at the hub', null, at);
      }
      if (held.role !== next.role) this.event(held.id, 'roleChanged', `${held.role} → ${next.role} at the hub`, null, at);
      if (held.name !== next.name) this.event(held.id, 'renamed', `${held.name} → ${next.name} at the hub`, null, at);
      if ((held.disabledAt === null) !== (next.disabledAt === null)) this.event(held.id, next.disabledAt ? 'disabled' : 'enabled', 'at the hub', null, at);
      users.update(next);
    } else {
      users.insert(next);
      this.event(next.id, 'created', `role ${next.role}, from the hub`, null, at);
    }
    if (next.disabledAt !== null) this.data.sessions.endAllOf(next.id);
    if (!keepPassword) this.data.hub.markFromHub(person.id, person.passwordSeq);
    return null;
  }

  /** Passwords changed here that the hub has not yet taken, oldest first. */
  queuedPasswords(): QueuedPassword[] {
    return this.data.read(() => this.data.hub.queuedPasswords());
  }

  /** The hub answered a password sent up: the change leaves the queue, and the person is as the hub says. */
  passwordAnswered(companyId: string, queued: QueuedPassword, answer: HubPasswordAnswer): void {
    const at = this.now().toISOString();
    this.data.write(() => {
      this.data.hub.dropQueuedPassword(queued.userId, queued.passwordHash);
      if (!this.data.hub.hasQueuedPassword(queued.userId)) this.applyPerson(companyId, answer.person, at);
    });
  }

  private event(userId: string, kind: UserEventKind, detail: string | null, byKeyId: string | null, at: string): void {
    this.data.users.addEvent({ userId, kind, detail, byUserId: null, byKeyId, at });
  }
}

function hubPersonOf({ user, seq, passwordSeq }: OrderedPerson): HubPerson {
  return {
    id: user.id,
    login: user.login,
    name: user.name,
    email: user.email,
    role: user.role,
    disabled: user.disabledAt !== null,
    passwordHash: user.passwordHash,
    passwordChanged: user.passwordChanged,
    passwordChangeDue: user.passwordChangeDue,
    seq,
    passwordSeq,
  };
}
