/**
 * Nothing is lost with the desk: a site with reports, people (`labeldesk users create`), review
 * entries with e-signatures (a comment, an acknowledgement, a decision), an alarm, a webhook and
 * company settings is backed up, then restored into a fresh folder at another path, as on another
 * machine. A service started on the restored file answers the same reports, people, reviews,
 * signatures, history, alarms, webhooks and settings over its HTTP API; the people sign in with
 * their passwords; and `labeldesk audit verify` passes there.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { acmeManagerKey, call, serveFile, type Served } from './backup-site';
import { runLabeldesk, runLabeldeskInProcess } from './run-labeldesk';

const PASSWORD = 'correct horse battery';
let dir: string;
const running: Served[] = [];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'labeldesk-restore-site-'));
});
afterAll(async () => {
  await Promise.all(running.map((s) => s.stop()));
  rmSync(dir, { recursive: true, force: true });
});

async function serve(dbFile: string): Promise<Served> {
  const served = await serveFile(dbFile, { LABELDESK_BACKUP_EVERY_HOURS: '0' });
  running.push(served);
  return served;
}

async function signIn(url: string, login: string, password = PASSWORD): Promise<string> {
  const res = await call(url, '/local/session/sign-in', null, { method: 'POST', body: { login, password } });
  expect(res.status).toBe(200);
  return res.body.token as string;
}

/** `labeldesk users create` chose the password: the person signs in with it and chooses their own, PASSWORD. */
async function firstSignIn(url: string, login: string): Promise<string> {
  const token = await signIn(url, login, TEMPORARY_PASSWORD);
  const changed = await call(url, '/local/session/password', token, { method: 'POST', body: { currentPassword: TEMPORARY_PASSWORD, newPassword: PASSWORD } });
  expect(changed.status, JSON.stringify(changed.body)).toBe(200);
  return token;
}
const TEMPORARY_PASSWORD = 'given by the administrator';

/** What the site holds, as its HTTP API answers it. */
async function siteState(url: string, key: string, token: string, reviewed: string, patched: string) {
  const get = async (path: string, as = token) => {
    const res = await call(url, path, as);
    expect(res.status, path).toBe(200);
    return res.body;
  };
  const alarms = await get('/local/alarms');
  const webhooks = await get('/v2/webhooks');
  return {
    reports: await get('/v2/labelReports?pageSize=1000&order=created[asc]', key),
    users: await get('/local/users'),
    review: await get(`/local/labelReports/${reviewed}/review`),
    reviewedHistory: await get(`/local/labelReports/${reviewed}/history`),
    patchedHistory: await get(`/local/labelReports/${patched}/history`),
    settings: await get('/local/settings'),
    alarms: (alarms.alarms as { id: string; reportId: string; level: number; ruleName: string }[]).map(({ id, reportId, level, ruleName }) => ({ id, reportId, level, ruleName })),
    webhooks: (webhooks.data ?? webhooks).map((w: { id: string; url: string }) => ({ id: w.id, url: w.url })),
  };
}

it('a backed up site restored into another folder answers the same reports, people, reviews, signatures, alarms and settings; audit verify passes', async () => {
  const site = join(dir, 'site');
  mkdirSync(site);
  const dbFile = join(site, 'labeldesk.db');
  const demo = await runLabeldeskInProcess(['demo', '--db', dbFile, '--reports', '30', '--seed', '3']);
  expect(demo.code).toBe(0);
  const key = acmeManagerKey(demo.stdout);
  const passwordFile = join(dir, 'password.txt');
  writeFileSync(passwordFile, TEMPORARY_PASSWORD + '\n');
  for (const [login, name, role] of [
    ['anna', 'Anna Berg', 'admin'],
    ['otto', 'Otto Lind', 'approver'],
  ]) {
    const made = await runLabeldeskInProcess(['users', 'create', '--db', dbFile, '--company', 'acme', '--login', login, '--name', name, '--role', role, '--password-file', passwordFile]);
    expect(made.code, made.stderr).toBe(0);
  }
  const hook = await runLabeldeskInProcess(['webhooks', 'create', '--db', dbFile, '--company', 'acme', '--url', 'http://127.0.0.1:9/hook']);
  expect(hook.code, hook.stderr).toBe(0);

  const served = await serve(dbFile);
  const anna = await firstSignIn(served.url, 'anna');
  const otto = await firstSignIn(served.url, 'otto');
  expect((await call(served.url, '/local/settings', anna, { method: 'PUT', body: { lockAfterMinutes: 45, fourEyes: true } })).status).toBe(200);
  const rule = await call(served.url, '/local/alarms/rules', anna, {
    method: 'POST',
    body: { name: 'Any alert', minLevel: 1, steps: [{ emails: ['qa@acme.example'] }], channels: ['desktop'] },
  });
  expect(rule.status, JSON.stringify(rule.body)).toBe(201);

  // A report with an alert that acme may review: comment, acknowledge (signed), decide (signed by another person).
  const alerted = (await call(served.url, '/v2/labelReports?filter=alert.level[gte]1&pageSize=100', key)).body.data as { id: string }[];
  let reviewed: string | undefined;
  for (const { id } of alerted) {
    const ack = await call(served.url, `/local/labelReports/${id}/acknowledgement`, anna, { method: 'PUT', body: { password: PASSWORD, zone: 'Europe/Stockholm', note: 'QA informed' } });
    if (ack.status === 200) {
      reviewed = id;
      break;
    }
  }
  expect(reviewed).toBeDefined();
  expect((await call(served.url, `/local/labelReports/${reviewed}/comments`, anna, { method: 'POST', body: { text: 'Pallet warm on top' } })).status).toBe(201);
  const decided = await call(served.url, `/local/labelReports/${reviewed}/decision`, otto, { method: 'PUT', body: { decision: 'onHold', reason: 'Waiting for the stability data', password: PASSWORD, zone: 'UTC' } });
  expect(decided.status, JSON.stringify(decided.body)).toBe(200);

  // A report without an alert gets limits that raise one: a change log entry with its reason, and an alarm.
  const calm = (await call(served.url, '/v2/labelReports?filter=alert.level[eq]0&pageSize=100', key)).body.data as { id: string }[];
  let patched: string | undefined;
  for (const { id } of calm) {
    const res = await call(served.url, `/v2/labelReports/${id}`, anna, {
      method: 'PATCH',
      headers: { 'x-change-reason': 'Customer%20SOP%2012' },
      body: { limits: { minTemperature: -100, maxTemperature: -90 } },
    });
    if (res.status === 200) {
      patched = id;
      break;
    }
  }
  expect(patched).toBeDefined();

  const before = await siteState(served.url, key, anna, reviewed!, patched!);
  expect(before.alarms.length).toBeGreaterThan(0);
  expect(before.webhooks).toHaveLength(1);
  expect(before.review).toMatchObject({ acknowledgement: { meaning: 'Reviewed', zone: 'Europe/Stockholm' }, decision: { decision: 'onHold' } });
  expect(await served.stop()).toBe(0);

  const backup = await runLabeldeskInProcess(['backup', '--db', dbFile, '--to', join(dir, 'share')]);
  expect(backup.code, backup.stderr).toBe(0);
  const file = readdirSync(join(dir, 'share')).find((n) => n.endsWith('.sqlite'))!;

  // Another machine: a fresh folder at another path, with the real command.
  const other = join(dir, 'other-machine', 'data');
  mkdirSync(other, { recursive: true });
  const restoredFile = join(other, 'labeldesk.db');
  const restore = await runLabeldesk(dir, ['restore', '--from', join(dir, 'share', file), '--db', restoredFile]);
  expect(restore.stderr).toBe('');
  expect(restore.code).toBe(0);
  expect(restore.stdout).toContain(`to ${restoredFile}`);

  const verify = await runLabeldesk(dir, ['audit', 'verify', '--db', restoredFile]);
  expect(verify.stdout).toMatch(/the audit trail is sound/);
  expect(verify.code).toBe(0);

  const restored = await serve(restoredFile);
  const annaThere = await signIn(restored.url, 'anna');
  await signIn(restored.url, 'otto');
  const after = await siteState(restored.url, key, annaThere, reviewed!, patched!);
  expect(after).toEqual(before);
  expect(await restored.stop()).toBe(0);
});
