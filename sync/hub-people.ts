/**
 * The people step of a cycle with a hub (docs/sync.md#a-hub-for-a-team), after the /v2 push:
 * the passwords changed here go up first, each answered by the hub's person (taken or not),
 * then the hub's people changed since the last reading come down, in the hub's order, a page
 * in one transaction with the reading's new position. A remote that serves no people (a
 * vendor's, or a key without `people:sync`) ends the step at once and changes nothing.
 */
import type { TeamHub } from '../service/hub';
import type { CycleContext } from './context';
import type { RetryingRemote } from './retrying-remote';

export async function syncPeople(
  ctx: Pick<CycleContext, 'companyId' | 'write' | 'warn' | 'checkpoint'>,
  hub: TeamHub,
  remote: Pick<RetryingRemote, 'hubPeople' | 'hubPassword'>,
  deskName: string,
): Promise<void> {
  for (const queued of hub.queuedPasswords()) {
    const { userId, basedOn, ...password } = queued;
    const answer = await remote.hubPassword(userId, { ...password, basedOn, desk: deskName });
    if (answer === null) return;
    await ctx.write(() => hub.passwordAnswered(ctx.companyId, queued, answer));
    if (!answer.taken) ctx.warn(`the hub kept its own password of '${answer.person.login}': ${answer.reason ?? 'changed there first'}`);
    await ctx.checkpoint();
  }
  for (;;) {
    const page = await remote.hubPeople(hub.peopleAfter());
    if (page === null) return;
    const refused = await ctx.write(() => hub.applyPeople(ctx.companyId, page.people));
    for (const why of refused) ctx.warn(why);
    if (!page.more || page.people.length === 0) return;
    await ctx.checkpoint();
  }
}
