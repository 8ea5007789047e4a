/**
 * Whatever a client sends, the answer is a documented status with the JSON error body, never a
 * 500: random query strings, ids and bodies against a real service.
 */
import fc from 'fast-check';
import { assertAsyncProperty } from '../support/property';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { makeReport, startTestService, type TestService } from '../support/service-fixture';

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService([
    makeReport('r1', { customFields: [{ customFieldId: 'po', value: ['a', 1] }] }),
    makeReport('r2', { access: [{ companyId: 'fresh', role: 'viewer' }] }),
  ]);
});
afterAll(() => svc.stop());

const ALLOWED = new Set([200, 204, 400, 401, 403, 404, 413, 415]);

const piece = fc.oneof(
  fc.constantFrom(
    'filter', 'order', 'customFields', 'pageNumber', 'pageSize', 'output', 'key', 'apiKey',
    'status', 'alert.level', 'created', 'labelReference', 'access.role', 'hasFlag', 'po',
    '[', ']', '[eq]', '[ilike]', '[includes]', '[asc]', ',', '\\,', '\\', '%', '_', '*', '=', '&',
    '1', '-1', '1e999', 'NaN', 'true', '2026-01-01T00:00:00Z', '0000-00-00', '\u0000', 'é', '🧊', "'", '"', ';',
  ),
  fc.string({ maxLength: 6 }),
);
const queryString = fc.array(piece, { maxLength: 12 }).map((parts) => parts.join(''));

async function status(path: string, init: RequestInit = {}): Promise<{ status: number; body: string }> {
  const res = await fetch(svc.url + path, {
    ...init,
    headers: { 'x-api-key': svc.keys.acme, ...(init.headers as Record<string, string>) },
  });
  return { status: res.status, body: await res.text() };
}

function expectDocumented(res: { status: number; body: string }) {
  expect(ALLOWED, `${res.status}: ${res.body}`).toContain(res.status);
  if (res.status >= 400) expect(JSON.parse(res.body)).toMatchObject({ statusCode: res.status, code: expect.any(String) });
}

test('random list queries', async () => {
  await assertAsyncProperty(
    fc.asyncProperty(queryString, async (q) => {
      expectDocumented(await status(`/v2/labelReports?${encodeURI(q).replace(/#/g, '%23')}`));
    }),
    { numRuns: 300 },
  );
}, 120_000);

test('random report ids', async () => {
  await assertAsyncProperty(
    fc.asyncProperty(fc.string({ minLength: 1, maxLength: 40 }), async (id) => {
      expectDocumented(await status(`/v2/labelReports/${encodeURIComponent(id)}`));
    }),
    { numRuns: 200 },
  );
}, 120_000);

test('random PATCH bodies', async () => {
  const value = fc.oneof(
    fc.jsonValue({ maxDepth: 3 }),
    fc.record({ minTemperature: fc.jsonValue({ maxDepth: 1 }), maxHumidity: fc.double() }, { requiredKeys: [] }),
    fc.array(fc.record({ customFieldId: fc.string({ maxLength: 8 }), value: fc.jsonValue({ maxDepth: 2 }) }), { maxLength: 3 }),
  );
  const body = fc.dictionary(
    fc.constantFrom('limits', 'labelReference', 'status', 'hasFlag', 'isArchived', 'customFields', 'trim', 'other'),
    value,
    { maxKeys: 4 },
  );
  await assertAsyncProperty(
    fc.asyncProperty(body, fc.constantFrom('r1', 'r2'), async (b, id) => {
      expectDocumented(
        await status(`/v2/labelReports/${id}`, {
          method: 'PATCH',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(b),
        }),
      );
    }),
    { numRuns: 300 },
  );
}, 120_000);
