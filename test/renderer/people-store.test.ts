/**
 * The connection store and a person's password against a real service whose clock the test moves:
 * a password that expires while its person works turns the next refused request into the change
 * the app asks for (the session then says why), the change through the store (a reused password
 * refused in the service's words, a wrong current one in the screen's), and after it the same
 * person goes on with a fresh client that is answered again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERSON_STORAGE_KEY, createConnectionStore, type ConnectionEnv } from '../../renderer/state/connection';
import { makeReport, startTestService, type TestService } from '../support/service-fixture';

const DAY = 86_400_000;
let clock = Date.parse('2026-11-20T08:00:00.000Z');
let svc: TestService;
const GIVEN = 'anna chose this first';

beforeAll(async () => {
  svc = await startTestService([makeReport('r1')], { now: () => new Date(clock) });
  const users = svc.service.users;
  // A password lasts a day here; the session locks only after an hour, so the day can pass in it.
  users.saveSettings(null, 'acme', { changeAtFirstSignIn: false, passwordExpiryDays: 1, lockAfterMinutes: 60 });
  users.create(null, 'acme', { login: 'anna', name: 'Anna Berg', role: 'admin', password: GIVEN });
});
afterAll(() => svc?.stop());

function env(): ConnectionEnv & { storage: Map<string, string> & ConnectionEnv['storage'] } {
  const map = new Map<string, string>() as Map<string, string> & ConnectionEnv['storage'];
  map.getItem = (k) => map.get(k) ?? null;
  map.setItem = (k, v) => void map.set(k, v);
  map.removeItem = (k) => void map.delete(k);
  return { href: `${svc.url}/#key=${svc.keys.acme}`, origin: svc.url, storage: map, replaceUrl: () => undefined };
}

describe('a password that must change', () => {
  it('expires while its person works: the next refusal leads to the change, after which the person goes on', async () => {
    const store = createConnectionStore();
    const e = env();
    await store.getState().resolve(e);
    clock += DAY - 30 * 60_000;
    expect(await store.getState().signInPerson('anna', GIVEN)).toBeNull();
    expect(store.getState().session).toMatchObject({ person: { login: 'anna' } });
    expect(store.getState().session?.passwordChangeDue).toBeUndefined();
    const before = store.getState().client!;
    const token = e.storage.get(PERSON_STORAGE_KEY);
    expect((await before.listReports({ pageSize: 1 })).totalDocuments).toBe(1);

    clock += 31 * 60_000;
    await expect(before.listReports({ pageSize: 1 })).rejects.toMatchObject({ status: 403, code: 'PASSWORD_CHANGE_REQUIRED' });
    await expect.poll(() => store.getState().session?.passwordChangeDue).toBe('expired');
    // Still signed in as the same person, only held at the change.
    expect([store.getState().phase, store.getState().session?.person?.login]).toEqual(['ready', 'anna']);

    expect(await store.getState().changePassword(GIVEN, GIVEN)).toBe('The password is one of the last 5 of this person: choose one not used before.');
    expect(await store.getState().changePassword('not it at all', 'a fresh one for anna')).toBe('The current password is wrong: enter the one you signed in with.');
    expect(store.getState().session?.passwordChangeDue).toBe('expired');

    expect(await store.getState().changePassword(GIVEN, 'a fresh one for anna')).toBeNull();
    expect(store.getState().session?.passwordChangeDue).toBeUndefined();
    const after = store.getState().client!;
    expect(after).not.toBe(before);
    expect((await after.listReports({ pageSize: 1 })).totalDocuments).toBe(1);
    // The same session goes on: the token kept for reloads is the one signed in with.
    expect(e.storage.get(PERSON_STORAGE_KEY)).toBe(token);
  });

  it('is asked for at sign-in once the password is older than the company allows', async () => {
    clock += 2 * DAY;
    const store = createConnectionStore();
    await store.getState().resolve(env());
    expect(await store.getState().signInPerson('anna', 'a fresh one for anna')).toBeNull();
    expect(store.getState().session).toMatchObject({ person: { login: 'anna' }, passwordChangeDue: 'expired' });
    expect(await store.getState().changePassword('a fresh one for anna', 'anna again, renewed')).toBeNull();
    expect(store.getState().session?.passwordChangeDue).toBeUndefined();
  });
});
