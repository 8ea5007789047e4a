import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { api, makeReport, series, startTestService, T0, type KeyName, type TestService } from '../support/service-fixture';

let svc: TestService;

// r-shared: owned by acme, nordic edits, fresh views. Readings 4,5,9,10,5,4,1,5 against 2..8:
// three violating readings in two excursions, 1800 s in all.
beforeAll(async () => {
  svc = await startTestService([
    makeReport('r-shared', {
      access: [
        { companyId: 'nordic', role: 'editor' },
        { companyId: 'fresh', role: 'viewer' },
      ],
      customFields: [{ customFieldId: 'po', value: 'PO-1' }],
    }),
    makeReport('r-matrix', {
      access: [
        { companyId: 'nordic', role: 'editor' },
        { companyId: 'fresh', role: 'viewer' },
      ],
    }),
    makeReport('r-quiet', { reportedSenseData: { datapoints: series(T0, 600, [4, 5, 6]) } }),
    makeReport('r-other', { companyId: 'other' }),
  ]);
});
afterAll(() => svc.stop());

const patch = (id: string, body: unknown, key: KeyName = 'acme', headers?: Record<string, string>) =>
  api(svc, `/v2/labelReports/${id}`, { method: 'PATCH', body, key, headers });

describe('who may change what', () => {
  const fields: Record<string, unknown> = {
    limits: { maxTemperature: 9 },
    labelReference: 'SHP-1',
    status: 'completed',
    hasFlag: true,
    isArchived: true,
    customFields: [{ customFieldId: 'po', value: 'PO-2' }],
    trim: { startTime: T0, endTime: T0 + 3000 },
  };
  const allowed: Record<'acme' | 'nordic' | 'fresh', string[]> = {
    acme: Object.keys(fields),
    nordic: Object.keys(fields).filter((f) => f !== 'limits'),
    fresh: ['hasFlag', 'isArchived'],
  };
  for (const key of ['acme', 'nordic', 'fresh'] as const) {
    for (const [field, value] of Object.entries(fields)) {
      const ok = allowed[key].includes(field);
      test(`${key} ${ok ? 'may' : 'may not'} change ${field}`, async () => {
        const before = await api(svc, '/v2/labelReports/r-matrix', { key });
        const res = await patch('r-matrix', { [field]: value }, key);
        if (ok) {
          expect(res.status).toBe(200);
          return;
        }
        expect(res.status).toBe(403);
        expect(res.body.code).toBe('ROLE_FORBIDDEN');
        expect(res.body.message).toBe(
          key === 'fresh' ? 'Viewers can only update hasFlag and isArchived' : 'Only the label report owner can update limits',
        );
        const after = await api(svc, '/v2/labelReports/r-matrix', { key });
        expect(after.body).toEqual(before.body);
      });
    }
  }
});

describe('limits', () => {
  test('a limits change recalculates the alert at once, and back', async () => {
    const before = await api(svc, '/v2/labelReports/r-shared');
    // Widening to 0..12 leaves no violation: every rule stays silent, level 0.
    const wide = await patch('r-shared', { limits: { minTemperature: 0, maxTemperature: 12 } });
    expect(wide.status).toBe(200);
    expect(wide.body.alert).toEqual({ level: 0, timestamp: 0 });
    expect(wide.body.senseConfig.limits).toEqual({ minTemperature: 0, maxTemperature: 12 });
    expect(wide.body.calculatedSenseData.numberOfViolations).toEqual({ temperature: 0, humidity: 0, all: 0 });
    const listed = await api(svc, '/v2/labelReports?filter=id[eq]r-shared&output=minimal');
    expect(listed.body.data[0].alert.level).toBe(0);
    expect(listed.body.data[0].minimalSenseData.flattenedDatapoints).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    // Narrowing to 4.5..4.9: all eight readings violate; the default critical rule (3600 s
    // cumulative) fires at the sixth violating reading (6 × 600 s), the one at T0 + 3000.
    const narrow = await patch('r-shared', { limits: { minTemperature: 4.5, maxTemperature: 4.9 } });
    expect(narrow.body.alert).toEqual({ level: 2, timestamp: T0 + 3000 });
    await patch('r-shared', { limits: before.body.senseConfig.limits });
  });

  test('limits merge into the existing ones', async () => {
    const res = await patch('r-quiet', { limits: { minHumidity: 20 } });
    expect(res.body.senseConfig.limits).toEqual({ minTemperature: 2, maxTemperature: 8, minHumidity: 20 });
  });

  test('min above max after the merge is refused and changes nothing', async () => {
    const before = await api(svc, '/v2/labelReports/r-quiet');
    const res = await patch('r-quiet', { limits: { minTemperature: 9 }, labelReference: 'changed' });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('minTemperature 9 is above maxTemperature 8');
    expect((await api(svc, '/v2/labelReports/r-quiet')).body).toEqual(before.body);
  });

  test('a non-number limit is refused naming the field', async () => {
    const res = await patch('r-quiet', { limits: { maxTemperature: '9' } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('INVALID_BODY');
    expect(res.body.message).toContain('limits.maxTemperature');
  });
});

describe('per-company flag and archive', () => {
  test('changing them for one company leaves the others alone', async () => {
    await patch('r-shared', { hasFlag: false, isArchived: false }, 'acme');
    await patch('r-shared', { hasFlag: false, isArchived: false }, 'nordic');
    const res = await patch('r-shared', { hasFlag: true, isArchived: true }, 'fresh');
    expect(res.body).toMatchObject({ hasFlag: true, isArchived: true });
    for (const key of ['acme', 'nordic'] as const) {
      const view = await api(svc, '/v2/labelReports/r-shared', { key });
      expect(view.body).toMatchObject({ hasFlag: false, isArchived: false });
      const flagged = await api(svc, '/v2/labelReports?filter=hasFlag[eq]true,id[eq]r-shared', { key });
      expect(flagged.body.totalDocuments).toBe(0);
    }
    const flagged = await api(svc, '/v2/labelReports?filter=hasFlag[eq]true,id[eq]r-shared', { key: 'fresh' });
    expect(flagged.body.totalDocuments).toBe(1);
    await patch('r-shared', { hasFlag: false, isArchived: false }, 'fresh');
  });
});

describe('updated and no-op changes', () => {
  test('{} changes nothing and answers 200', async () => {
    const before = await api(svc, '/v2/labelReports/r-quiet');
    const res = await patch('r-quiet', {});
    expect(res.status).toBe(200);
    expect(res.body).toEqual(before.body);
  });

  test('setting a value to what it is keeps updated; a real change moves it forward', async () => {
    const before = await api(svc, '/v2/labelReports/r-quiet');
    const same = await patch('r-quiet', { status: before.body.status, labelReference: before.body.labelReference });
    expect(same.body.updated).toBe(before.body.updated);
    const changed = await patch('r-quiet', { labelReference: 'SHP-2026-000001' });
    expect(changed.body.labelReference).toBe('SHP-2026-000001');
    expect(Date.parse(changed.body.updated)).toBeGreaterThan(Date.parse(before.body.updated));
    const again = await patch('r-quiet', { labelReference: 'SHP-2026-000002' });
    expect(Date.parse(again.body.updated)).toBeGreaterThan(Date.parse(changed.body.updated));
  });

  test('status moves between active and completed', async () => {
    expect((await patch('r-quiet', { status: 'completed' })).body.status).toBe('completed');
    expect((await patch('r-quiet', { status: 'active' })).body.status).toBe('active');
    const bad = await patch('r-quiet', { status: 'archived' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('status');
  });
});

describe('custom fields and trim', () => {
  test('entries set or clear one field each', async () => {
    const set = await patch('r-quiet', {
      customFields: [
        { customFieldId: 'po', value: 'PO-9' },
        { customFieldId: 'pallets', value: 12 },
        { customFieldId: 'tags', value: ['frozen', 3] },
      ],
    });
    expect(set.body.customFields).toEqual([
      { customFieldId: 'po', value: 'PO-9' },
      { customFieldId: 'pallets', value: 12 },
      { customFieldId: 'tags', value: ['frozen', 3] },
    ]);
    const cleared = await patch('r-quiet', { customFields: [{ customFieldId: 'pallets', value: null }] });
    expect(cleared.body.customFields).toEqual([
      { customFieldId: 'po', value: 'PO-9' },
      { customFieldId: 'tags', value: ['frozen', 3] },
    ]);
    const bad = await patch('r-quiet', { customFields: [{ customFieldId: 'bad id', value: 1 }] });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('customFieldId');
  });

  test('a trim recalculates the trimmed data and the alert from the trimmed timeline', async () => {
    // Keep only the first two readings (4 and 5): nothing violates inside the trim.
    const res = await patch('r-shared', { trim: { startTime: T0, endTime: T0 + 600 } });
    expect(res.status).toBe(200);
    expect(res.body.trimmedSenseData.numberOfDatapointsRead).toBe(2);
    expect(res.body.trimmedSenseData.datapoints).toEqual(series(T0, 600, [4, 5]));
    expect(res.body.calculatedSenseData.numberOfDatapointsRead).toBe(8);
    expect(res.body.alert).toEqual({ level: 0, timestamp: 0 });
    const cleared = await patch('r-shared', { trim: null });
    expect(cleared.body.trimmedSenseData).toBeNull();
    expect(cleared.body.alert.level).toBe(1);
    const backwards = await patch('r-shared', { trim: { startTime: T0 + 600, endTime: T0 } });
    expect(backwards.status).toBe(400);
    expect(backwards.body.message).toContain('trim');
  });
});

describe('refusals that lose nothing', () => {
  test('an unknown field refuses the whole patch', async () => {
    const before = await api(svc, '/v2/labelReports/r-quiet');
    const res = await patch('r-quiet', { labelReference: 'x', colour: 'blue' });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('colour');
    expect((await api(svc, '/v2/labelReports/r-quiet')).body).toEqual(before.body);
  });

  test('an editor sending limits with allowed fields changes none of them', async () => {
    const before = await api(svc, '/v2/labelReports/r-shared', { key: 'nordic' });
    const res = await patch('r-shared', { labelReference: 'nope', hasFlag: true, limits: { maxTemperature: 20 } }, 'nordic');
    expect(res.status).toBe(403);
    expect((await api(svc, '/v2/labelReports/r-shared', { key: 'nordic' })).body).toEqual(before.body);
  });

  test.each([
    ['an array', '[]'],
    ['a string', '"x"'],
    ['malformed JSON', '{"labelReference": '],
    ['null', 'null'],
    ['empty', ''],
  ])('a body that is %s answers 400', async (_what, body) => {
    const res = await fetch(`${svc.url}/v2/labelReports/r-quiet`, {
      method: 'PATCH',
      headers: { 'x-api-key': svc.keys.acme, 'content-type': 'application/json' },
      body,
    }).then(async (r) => ({ status: r.status, body: await r.json() }));
    expect(res.status).toBe(400);
    expect(res.body.statusCode).toBe(400);
    expect(typeof res.body.message).toBe('string');
  });

  test('a body over 1 MiB answers 413', async () => {
    const res = await patch('r-quiet', { labelReference: 'x'.repeat(1024 * 1024 + 10) });
    expect(res.status).toBe(413);
    expect(res.body.code).toBe('BODY_TOO_LARGE');
  });

  test.each(['text/plain', 'application/x-www-form-urlencoded'])('content-type %s answers 415', async (type) => {
    const res = await patch('r-quiet', '{"hasFlag":true}', 'acme', { 'content-type': type });
    expect(res.status).toBe(415);
    expect(res.body.code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  test('no content-type at all answers 415', async () => {
    const res = await fetch(`${svc.url}/v2/labelReports/r-quiet`, {
      method: 'PATCH',
      headers: { 'x-api-key': svc.keys.acme },
      body: new Blob(['{"hasFlag":true}']),
    });
    expect(res.status).toBe(415);
  });

  test('application/json with a charset is accepted', async () => {
    const res = await patch('r-quiet', { hasFlag: false }, 'acme', { 'content-type': 'application/json; charset=utf-8' });
    expect(res.status).toBe(200);
  });
});

describe('order of checks', () => {
  test('no key → 401 before anything else', async () => {
    const res = await api(svc, '/v2/labelReports/unknown', { method: 'PATCH', body: { bad: 1 }, key: null });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('API_KEY_MISSING');
  });
  test('a read-only key → 403 before 404', async () => {
    const res = await patch('unknown', { bad: 1 }, 'acmeRead');
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('PERMISSION_DENIED');
  });
  test('unknown or invisible report → 404 before body validation', async () => {
    for (const id of ['unknown', 'r-other']) {
      const res = await patch(id, { bad: 1 });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('REPORT_NOT_FOUND');
    }
  });
  test('body validation → 400 before role', async () => {
    const res = await patch('r-shared', { limits: { maxTemperature: 'warm' } }, 'fresh');
    expect(res.status).toBe(400);
  });
  test('an update-only key may patch', async () => {
    const res = await patch('r-quiet', { hasFlag: false }, 'acmeUpdateOnly');
    expect(res.status).toBe(200);
  });
});
