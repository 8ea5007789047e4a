/**
 * The report operations called in process, as a worker would: parsed values in, the same rules
 * as over HTTP (key permission, visibility, role) applied by the service itself.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parseListQuery } from '../../query/list-query';
import { toApiError } from '../../http/errors';
import { Refusal } from '../../model/errors';
import type { Caller } from '../../service/api-keys';
import { makeReport, openTestApp, type KeyName, type TestApp } from '../support/service-fixture';

let t: TestApp;
beforeAll(async () => {
  t = await openTestApp([
    makeReport('r1', { access: [{ companyId: 'nordic', role: 'editor' }, { companyId: 'fresh', role: 'viewer' }] }),
    makeReport('r-other', { companyId: 'other' }),
  ]);
});
afterAll(() => t.stop());

const caller = (key: KeyName): Caller => t.service.apiKeys.authenticate(t.keys[key]);

/** The status and code a refusal carries, or 'ok'. */
function outcome(run: () => unknown): string {
  try {
    run();
    return 'ok';
  } catch (err) {
    if (!(err instanceof Refusal)) throw err;
    const { statusCode, code } = toApiError(err);
    return `${statusCode} ${code}`;
  }
}

describe('authorize', () => {
  test('checks the key permission, then the visibility of the report', () => {
    const reports = t.service.reports;
    expect(outcome(() => reports.authorize(caller('acmeRead'), 'read', 'r1'))).toBe('ok');
    expect(outcome(() => reports.authorize(caller('acmeRead'), 'update', 'r-other'))).toBe('403 PERMISSION_DENIED');
    expect(outcome(() => reports.authorize(caller('acme'), 'update', 'r-other'))).toBe('404 REPORT_NOT_FOUND');
    expect(outcome(() => reports.authorize(caller('fresh'), 'update', 'r1'))).toBe('ok');
    expect(outcome(() => reports.authorize(caller('acmeUpdateOnly'), 'read'))).toBe('403 PERMISSION_DENIED');
  });
});

describe('typed operations', () => {
  test('list takes a parsed query', () => {
    const page = t.service.reports.list(caller('nordic'), parseListQuery({ output: 'minimal' }));
    expect(page.totalDocuments).toBe(1);
    expect(page.data[0]).toHaveProperty('minimalSenseData');
  });

  test('update takes a parsed patch and still applies the key, visibility and role rules', () => {
    const reports = t.service.reports;
    expect(reports.update(caller('fresh'), 'r1', { hasFlag: true }).hasFlag).toBe(true);
    expect(outcome(() => reports.update(caller('acmeRead'), 'r1', { hasFlag: true }))).toBe('403 PERMISSION_DENIED');
    expect(outcome(() => reports.update(caller('acme'), 'r-other', {}))).toBe('404 REPORT_NOT_FOUND');
    expect(outcome(() => reports.update(caller('nordic'), 'r1', { limits: { maxTemperature: 9 } }))).toBe('403 ROLE_FORBIDDEN');
    expect(outcome(() => reports.update(caller('fresh'), 'r1', { labelReference: 'x' }))).toBe('403 ROLE_FORBIDDEN');
    expect(outcome(() => reports.update(caller('acme'), 'r1', { limits: { minTemperature: 20 } }))).toBe('400 INVALID_BODY');
  });

  test('retrieve answers the report as the caller sees it', () => {
    t.service.reports.update(caller('fresh'), 'r1', { isArchived: true });
    expect(t.service.reports.retrieve(caller('fresh'), 'r1')).toMatchObject({ id: 'r1', isArchived: true });
    expect(t.service.reports.retrieve(caller('acme'), 'r1').isArchived).toBe(false);
    expect(outcome(() => t.service.reports.retrieve(caller('nordic'), 'r-other'))).toBe('404 REPORT_NOT_FOUND');
  });
});
