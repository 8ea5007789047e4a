/**
 * People from a hub (docs/sync.md#a-hub-for-a-team), with real instances: the hub is a LabelDesk
 * service on its own SQLite file, each desk another on its own, syncing through its own fault
 * proxy (test/support/sync-desks.ts). People are made, disabled and given passwords at the hub
 * through its rules, and signed in at the desks over HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Permission } from '../../schema/report';
import { SyncDesks } from '../support/sync-desks';
import { plainReports } from '../support/sync-reports';
import { COMPANY } from '../support/sync-pair';

const HUB_KEY: Permission[] = ['people:sync'];

async function signIn(baseUrl: string, login: string, password: string): Promise<{ status: number; body: any }> {
  const res = await fetch(`${baseUrl}/local/session/sign-in`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ login, password }) });
  return { status: res.status, body: await res.json() };
}

describe('people from a hub', () => {
  let team: SyncDesks;
  const url = (name: string) => team.desk(name).pair.local.url;

  beforeAll(async () => {
    team = await SyncDesks.start(2, plainReports(1), {}, HUB_KEY);
    for (const desk of team.desks) await desk.pair.cycleOk();
  });
  afterAll(() => team?.close());

  it('a person made at the hub signs in at both desks after their next cycle, and not before', async () => {
    team.remote.service.users.create(null, COMPANY, { login: 'ben', name: 'Ben Ortiz', role: 'approver', password: 'ben-first-password' });
    expect((await signIn(url('desk1'), 'ben', 'ben-first-password')).status).toBe(401);
    for (const desk of team.desks) await desk.pair.cycleOk();
    for (const desk of team.desks) {
      const answer = await signIn(url(desk.name), 'ben', 'ben-first-password');
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(answer.body.person).toMatchObject({ login: 'ben', name: 'Ben Ortiz', role: 'approver' });
      // The hub made the password for him: he chooses his own first, at whichever desk.
      expect(answer.body.passwordChangeDue).toBe('firstSignIn');
    }
  });

  it('disabled at the hub: refused at a desk from its next cycle, its sessions ended; the other desk, offline, still lets him in', async () => {
    team.remote.service.users.create(null, COMPANY, { login: 'dana', name: 'Dana Kim', role: 'reviewer', password: 'dana-first-password' });
    for (const desk of team.desks) await desk.pair.cycleOk();
    const session = await signIn(url('desk1'), 'dana', 'dana-first-password');
    expect(session.status).toBe(200);

    const dana = team.remote.service.users.listAll(COMPANY).find((u) => u.login === 'dana')!;
    team.remote.service.users.setDisabled(null, dana.id, true);
    await team.desk('desk2').pair.proxy.offline();
    try {
      await team.desk('desk1').pair.cycleOk();
      expect((await signIn(url('desk1'), 'dana', 'dana-first-password')).status).toBe(401);
      const after = await fetch(`${url('desk1')}/local/session`, { headers: { 'x-api-key': session.body.token } });
      expect(after.status).toBe(401);

      // Desk 2 cannot reach the hub: it signs Dana in with the hash the hub last gave it.
      expect((await team.desk('desk2').pair.cycle()).ok).toBe(false);
      expect((await signIn(url('desk2'), 'dana', 'dana-first-password')).status).toBe(200);
    } finally {
      await team.desk('desk2').pair.proxy.online();
    }
    await team.desk('desk2').pair.cycleOk();
    expect((await signIn(url('desk2'), 'dana', 'dana-first-password')).status).toBe(401);
  });

  it('a password changed at a desk goes up to the hub and down to the other desk; a change that lost to the hub’s is replaced', async () => {
    team.remote.service.users.create(null, COMPANY, { login: 'carla', name: 'Carla Ruiz', role: 'approver', password: 'carla-first-password' });
    for (const desk of team.desks) await desk.pair.cycleOk();
    const first = await signIn(url('desk1'), 'carla', 'carla-first-password');
    const changed = await fetch(`${url('desk1')}/local/session/password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': first.body.token },
      body: JSON.stringify({ currentPassword: 'carla-first-password', newPassword: 'carla-chosen-at-desk1' }),
    });
    expect(changed.status).toBe(200);
    await team.desk('desk1').pair.cycleOk();
    await team.desk('desk2').pair.cycleOk();
    expect((await signIn(team.remote.url, 'carla', 'carla-chosen-at-desk1')).status).toBe(200);
    expect((await signIn(url('desk2'), 'carla', 'carla-chosen-at-desk1')).status).toBe(200);
    expect((await signIn(url('desk2'), 'carla', 'carla-first-password')).status).toBe(401);

    // Desk 2 changes it offline while the hub's administrator resets it: the hub's order wins.
    const carla = team.remote.service.users.listAll(COMPANY).find((u) => u.login === 'carla')!;
    const second = await signIn(url('desk2'), 'carla', 'carla-chosen-at-desk1');
    const offline = await fetch(`${url('desk2')}/local/session/password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': second.body.token },
      body: JSON.stringify({ currentPassword: 'carla-chosen-at-desk1', newPassword: 'carla-chosen-at-desk2' }),
    });
    expect(offline.status).toBe(200);
    team.remote.service.users.resetPassword(null, carla.id, 'carla-reset-at-the-hub');
    await team.desk('desk2').pair.cycleOk();
    expect((await signIn(url('desk2'), 'carla', 'carla-chosen-at-desk2')).status).toBe(401);
    expect((await signIn(url('desk2'), 'carla', 'carla-reset-at-the-hub')).status).toBe(200);
    expect(team.desk('desk2').pair.local.service.users.listAll(COMPANY).find((u) => u.login === 'carla')?.passwordChangeDue).toBe('reset');
  });

  it('the hub’s people need people:sync; answers are checked', async () => {
    const plain = await team.desk('desk1').pair.remoteApi('/local/hub/people');
    expect(plain.status).toBe(403);
    const key = team.remote.service.apiKeys.create(COMPANY, ['people:sync'], 'reader').key;
    const bad = await fetch(`${team.remote.url}/local/hub/people?after=-1`, { headers: { 'x-api-key': key } });
    expect(bad.status).toBe(400);
    const page = await (await fetch(`${team.remote.url}/local/hub/people?limit=2`, { headers: { 'x-api-key': key } })).json();
    expect(page.people).toHaveLength(2);
    expect(page.more).toBe(true);
    expect(page.people[0].passwordHash).toMatch(/^scrypt\$/);
    const body = await fetch(`${team.remote.url}/local/hub/people/${page.people[0].id}/password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key },
      body: JSON.stringify({ passwordHash: 'plain', passwordChanged: '2026-01-01T00:00:00Z', passwordChangeDue: null, basedOn: 0, desk: 'x' }),
    });
    expect(body.status).toBe(400);
    expect((await body.json()).message).toMatch(/passwordHash/);
  });
});
