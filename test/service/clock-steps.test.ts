/**
 * The wall clock steps (docs/operations.md#the-clock-steps), on a real SQLite file, with both of
 * the service's clocks in the test's hand: time passing moves both, a step moves the wall clock
 * alone. A session's idle time (8 h) and age (12 h) are counted on the monotonic clock, so a step
 * back extends no session and a step forward ends none, nor does a later sign-in of the same
 * person take it for stale; what is stored (the sign-in's time) stays the wall clock's. A
 * report's `updated` never goes backwards.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Service } from '../../host/open-service';
import type { Caller } from '../../service/api-keys';
import { serviceFile } from '../support/service-files';
import { COMPANIES, makeReport } from '../support/service-fixture';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const PASSWORD = 'correct horse battery';

let dir: string;
let service: Service;
let erp: Caller;
let wall = new Date('2026-11-20T10:00:00.000Z').getTime();
let monotonic = 1_000;
/** Time passes: both clocks move. */
const pass = (ms: number) => {
  wall += ms;
  monotonic += ms;
};
/** The wall clock steps (corrected by hand or by NTP): it alone moves. */
const step = (ms: number) => (wall += ms);

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'labeldesk-clock-steps-'));
  service = serviceFile(dir, { now: () => new Date(wall), monotonic: () => monotonic });
  for (const c of COMPANIES) service.companies.upsert(c);
  service.putReport(makeReport('r1'), { kind: 'import' });
  erp = service.apiKeys.authenticate(service.apiKeys.create('acme', ['labelReports:read', 'labelReports:update'], 'ERP').key);
  const tool: Caller = service.apiKeys.authenticate(service.apiKeys.createSessionKey('acme', ['labelReports:read', 'labelReports:update', 'labelReports:create', 'webhooks:manage', 'apiKeys:manage', 'sync:manage']));
  service.users.create(tool, 'acme', { login: 'anna', name: 'Anna Berg', role: 'admin', password: PASSWORD });
  const anna = service.apiKeys.authenticate(service.users.signIn('anna', PASSWORD).token);
  // No lock after inactivity in the way of the idle time's end, and no password change asked.
  service.users.saveSettings(anna, 'acme', { lockAfterMinutes: 8 * 60, changeAtFirstSignIn: false });
  for (const login of ['ben', 'cleo', 'dan']) service.users.create(anna, 'acme', { login, name: login, role: 'viewer', password: PASSWORD });
});
afterAll(() => {
  service.close();
  rmSync(dir, { recursive: true, force: true });
});

/** What authenticating the token answers: 'ok' or the refusal's code and message. */
function answer(token: string): string {
  try {
    // Not as the person acting: an open page's own polling, which keeps no session open.
    service.apiKeys.authenticate(token, false);
    return 'ok';
  } catch (err) {
    return `${(err as { code?: string }).code}: ${(err as Error).message}`;
  }
}

describe('a session when the wall clock steps', () => {
  it('a step back does not extend its 12 hours after the sign-in', () => {
    const { token } = service.users.signIn('ben', PASSWORD);
    for (let h = 0; h < 6; h++) {
      pass(HOUR);
      service.users.touchSession(token);
    }
    step(-5 * HOUR);
    for (let h = 6; h < 11; h++) {
      pass(HOUR);
      service.users.touchSession(token);
    }
    pass(59 * MINUTE);
    expect(answer(token)).toBe('ok');
    pass(2 * MINUTE);
    expect(answer(token)).toBe('SESSION_EXPIRED: the session expired 12 hours after its sign-in: sign in again');
  });

  it('a step back does not extend its 8 hours without activity', () => {
    const { token } = service.users.signIn('cleo', PASSWORD);
    pass(HOUR);
    step(-3 * HOUR);
    pass(7 * HOUR - MINUTE);
    expect(answer(token)).toBe('ok');
    pass(2 * MINUTE);
    expect(answer(token)).toBe('SESSION_EXPIRED: the session expired after 8 hours without activity: sign in again');
  });

  it('a step forward ends no session, nor does the next sign-in take it for stale', () => {
    const first = service.users.signIn('dan', PASSWORD);
    pass(10 * MINUTE);
    step(13 * HOUR);
    expect(answer(first.token)).toBe('ok');
    const second = service.users.signIn('dan', PASSWORD);
    expect(answer(first.token)).toBe('ok');
    expect(answer(second.token)).toBe('ok');
    // What is stored and shown stays the wall clock's: the second sign-in's session runs out 12 h after its own time.
    expect(second.expires).toBe(new Date(wall + 12 * HOUR).toISOString());
    pass(8 * HOUR + MINUTE);
    expect(answer(first.token)).toMatch(/^SESSION_EXPIRED: the session expired after 8 hours without activity/);
  });
});

describe('a report when the wall clock steps back', () => {
  it('its updated never goes backwards: each change moves it forward, by a millisecond while the clock is behind', () => {
    const first = service.reports.update(erp, 'r1', { hasFlag: true }) as { updated: string };
    expect(first.updated).toBe(new Date(wall).toISOString());
    step(-3 * HOUR);
    pass(MINUTE);
    const second = service.reports.update(erp, 'r1', { hasFlag: false }) as { updated: string };
    expect(Date.parse(second.updated)).toBe(Date.parse(first.updated) + 1);
    pass(MINUTE);
    const third = service.reports.update(erp, 'r1', { hasFlag: true }) as { updated: string };
    expect(Date.parse(third.updated)).toBe(Date.parse(first.updated) + 2);
    // Once the wall clock is past it again, `updated` is its time once more.
    pass(3 * HOUR);
    const fourth = service.reports.update(erp, 'r1', { hasFlag: false }) as { updated: string };
    expect(fourth.updated).toBe(new Date(wall).toISOString());
  });
});
