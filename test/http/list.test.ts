import fc from 'fast-check';
import { assertAsyncProperty } from '../support/property';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { BundleReport } from '../../schema/bundle';
import { MODES, REPORT_TYPES, type LabelReport } from '../../schema/report';
import { api, makeReport, series, startTestService, T0, type TestService } from '../support/service-fixture';

let svc: TestService;
/** Every report as acme's key retrieves it: the data the oracle below evaluates filters on. */
let visible: LabelReport[];

const N = 60;
const REFERENCES = ['SHP-2026-0041', 'shp-2026-0042', 'PO-88213', 'PO_88%14', 'Éclair-7', 'éclair-8', 'A,B', 'x*y'];

/** Deterministic, varied reports; most acme's, some shared with acme, some invisible to it. */
function reports(): BundleReport[] {
  let seed = 7;
  const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  const pick = <T,>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)];
  const out: BundleReport[] = [];
  for (let i = 0; i < N; i++) {
    const id = `r${String(i).padStart(3, '0')}`;
    const owner = i % 10 === 9 ? 'nordic' : i % 13 === 12 ? 'other' : 'acme';
    const temps = Array.from({ length: 3 + Math.floor(rand() * 30) }, () => Math.round((rand() * 16 - 2) * 10) / 10);
    const humid = rand() < 0.3;
    out.push(
      makeReport(id, {
        // A few share one instant, so ordering by created needs the id tie-break.
        created: new Date(Date.UTC(2026, 5, 1 + Math.floor(i / 3), 8, 0, 0)).toISOString(),
        companyId: owner,
        mode: pick(MODES),
        type: humid ? 'humiditySense' : pick(REPORT_TYPES),
        status: rand() < 0.6 ? 'active' : 'completed',
        labelReference: rand() < 0.2 ? '' : pick(REFERENCES) + (i % 4 === 0 ? '' : `-${i}`),
        numberOfTaps: Math.floor(rand() * 4),
        dataIsIncomplete: rand() < 0.2,
        subCompany: rand() < 0.4 ? { id: pick(['sub-a', 'sub-b']) } : null,
        senseConfig: {
          limits: {
            minTemperature: pick([0, 2]),
            maxTemperature: pick([8, 10]),
            ...(humid ? { maxHumidity: pick([60, 70]) } : {}),
          },
          interval: pick([300, 600]),
          configTime: T0 - 600,
          startDelay: 600,
          runningTime: 86_400,
        },
        reportedSenseData: {
          datapoints: series(T0, 600, temps, humid ? temps.map(() => Math.round(rand() * 90)) : undefined),
        },
        access:
          owner === 'acme'
            ? rand() < 0.5
              ? [{ companyId: pick(['nordic', 'fresh']), role: pick(['editor', 'viewer'] as const) }]
              : []
            : owner === 'nordic'
              ? [{ companyId: 'acme', role: pick(['editor', 'viewer'] as const) }]
              : [],
        companyState: rand() < 0.3 ? [{ companyId: 'acme', hasFlag: rand() < 0.5, isArchived: rand() < 0.5 }] : [],
        customFields: [
          ...(rand() < 0.6 ? [{ customFieldId: 'po', value: pick(['PO-1', 'PO-2', 'po-3']) }] : []),
          ...(rand() < 0.6 ? [{ customFieldId: 'pallets', value: Math.floor(rand() * 20) }] : []),
          ...(rand() < 0.4 ? [{ customFieldId: 'tags', value: [pick(['frozen', 'pharma']), pick([1, 2])] }] : []),
        ],
      }),
    );
  }
  return out;
}

beforeAll(async () => {
  svc = await startTestService(reports());
  const ids = reports().filter((r) => r.companyId === 'acme' || r.access?.some((a) => a.companyId === 'acme'));
  visible = await Promise.all(ids.map(async (r) => (await api(svc, `/v2/labelReports/${r.id}`)).body as LabelReport));
});
afterAll(() => svc.stop());

const list = (query: string, key: 'acme' | 'fresh' | 'nordic' = 'acme') =>
  api(svc, `/v2/labelReports${query ? '?' + query : ''}`, { key });
const ids = (body: { data: { id: string }[] }) => body.data.map((r) => r.id);

// ---------------------------------------------------------------------------------------------
// An independent evaluation of filters and order over the retrieved JSON.

type Value = string | number | boolean | null;
const KEY_TYPES: Record<string, 'string' | 'number' | 'boolean' | 'instant'> = {
  id: 'string',
  created: 'instant',
  status: 'string',
  mode: 'string',
  type: 'string',
  labelReference: 'string',
  numberOfTaps: 'number',
  hasFlag: 'boolean',
  isArchived: 'boolean',
  dataIsIncomplete: 'boolean',
  'subCompany.id': 'string',
  'company.id': 'string',
  'label.sequenceCode': 'string',
  'senseConfig.interval': 'number',
  'senseConfig.limits.maxHumidity': 'number',
  'alert.level': 'number',
  'alert.timestamp': 'number',
  'calculatedSenseData.numberOfViolations.all': 'number',
  'calculatedSenseData.numberOfDatapointsRead': 'number',
  'calculatedSenseData.analysedValues.temperature.average': 'number',
  'calculatedSenseData.attainedValues.maxTemperature': 'number',
};

function valueAt(report: LabelReport, key: string): Value | Value[] {
  if (key === 'access.companyId') return report.access.map((a) => a.companyId);
  if (key === 'access.role') return report.access.map((a) => a.role);
  let v: unknown = report;
  for (const part of key.split('.')) v = v === null || v === undefined ? undefined : (v as Record<string, unknown>)[part];
  return (v ?? null) as Value;
}

function likeToRegex(pattern: string, flags: string): RegExp {
  const literal = (ch: string) => ch.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  let src = '';
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i];
    if (ch === '\\' && i + 1 < pattern.length && '%_*\\'.includes(pattern[i + 1])) src += literal(pattern[++i]);
    else if (ch === '%' || ch === '*') src += '[\\s\\S]*';
    else if (ch === '_') src += '[\\s\\S]';
    else src += literal(ch);
  }
  return new RegExp(`^${src}$`, flags);
}

function holds(v: Value, op: string, raw: string, type: string): boolean {
  if (op === 'neq') return v === null || !holds(v, 'eq', raw, type);
  if (v === null) return false;
  if (op === 'like') return likeToRegex(raw, 'u').test(String(v));
  if (op === 'ilike') return likeToRegex(raw, 'iu').test(String(v));
  if (op === 'includes') return String(v).includes(raw);
  const c =
    type === 'number' ? Number(raw) : type === 'boolean' ? raw === 'true' : type === 'instant' ? Date.parse(raw) : raw;
  const a = type === 'instant' ? Date.parse(String(v)) : v;
  switch (op) {
    case 'eq': return a === c;
    case 'gt': return a > c;
    case 'gte': return a >= c;
    case 'lt': return a < c;
    case 'lte': return a <= c;
  }
  throw new Error(op);
}

function oracle(conds: { key: string; op: string; value: string }[], order: { key: string; dir: 'asc' | 'desc' }): string[] {
  const matches = visible.filter((r) =>
    conds.every(({ key, op, value }) => {
      const v = valueAt(r, key);
      if (Array.isArray(v)) {
        if (op === 'neq') return !v.includes(value);
        if (op === 'includes') return v.includes(value);
        return v.some((e) => holds(e, op, value, 'string'));
      }
      return holds(v, op, value, KEY_TYPES[key]);
    }),
  );
  const sign = order.dir === 'asc' ? 1 : -1;
  return matches
    .sort((x, y) => {
      const a = valueAt(x, order.key) as Value;
      const b = valueAt(y, order.key) as Value;
      if (a !== b) {
        if (a === null) return -sign; // nulls first ascending, last descending
        if (b === null) return sign;
        if (a < b) return -sign;
        if (a > b) return sign;
      }
      return x.id < y.id ? -1 : x.id > y.id ? 1 : 0;
    })
    .map((r) => r.id);
}

const escapeValue = (v: string) => v.replace(/,/g, '\\,');

describe('filters and order against an independent evaluation', () => {
  const opsFor = (type: string) =>
    type === 'boolean' ? ['eq', 'neq'] : type === 'string' ? ['eq', 'neq', 'gt', 'lte', 'like', 'ilike', 'includes'] : ['eq', 'neq', 'gt', 'gte', 'lt', 'lte'];

  const condition = fc.oneof(
    fc.constantFrom(...Object.keys(KEY_TYPES)).chain((key) => {
      const type = KEY_TYPES[key];
      const seen = [...new Set(visible.map((r) => valueAt(r, key)).filter((v) => v !== null).map(String))];
      const values =
        type === 'boolean'
          ? fc.constantFrom('true', 'false')
          : ['status', 'mode', 'type'].includes(key)
            ? fc.constantFrom(...seen) // enum keys refuse values outside the enum
            : type === 'string'
            ? fc.oneof(
                fc.constantFrom(...seen),
                fc.constantFrom('%', 'shp%', 'SHP-2026-004_', '%88\\%%', 'éclair%', '*-4*', 'PO', '-1', 'x\\*y%'),
              )
            : type === 'instant'
              ? fc.constantFrom(...seen, '2026-06-05T08:00:00Z', '2026-06-10T10:00:00.000+02:00')
              : fc.oneof(fc.constantFrom(...seen), fc.integer({ min: -5, max: 40 }).map(String));
      return fc.record({ key: fc.constant(key), op: fc.constantFrom(...opsFor(type)), value: values });
    }),
    fc.record({
      key: fc.constant('access.companyId'),
      op: fc.constantFrom('eq', 'neq', 'includes'),
      value: fc.constantFrom('acme', 'nordic', 'fresh', 'other'),
    }),
    fc.record({
      key: fc.constant('access.role'),
      op: fc.constantFrom('eq', 'neq', 'includes'),
      value: fc.constantFrom('owner', 'editor', 'viewer'),
    }),
  );
  const order = fc.record({ key: fc.constantFrom(...Object.keys(KEY_TYPES)), dir: fc.constantFrom('asc' as const, 'desc' as const) });

  test('random filters, orders and pages give what the oracle gives', async () => {
    await assertAsyncProperty(
      fc.asyncProperty(fc.array(condition, { maxLength: 3 }), order, fc.integer({ min: 1, max: 7 }), async (conds, ord, pageSize) => {
        const filter = conds.map((c) => `${c.key}[${c.op}]${escapeValue(c.value)}`).join(',');
        const expected = oracle(conds, ord);
        const q = (extra: string) =>
          `filter=${encodeURIComponent(filter)}&order=${encodeURIComponent(`${ord.key}[${ord.dir}]`)}&output=minimal${extra}`;
        const all = await list(q('&pageSize=1000'));
        expect(all.status, JSON.stringify(all.body)).toBe(200);
        expect(ids(all.body)).toEqual(expected);
        expect(all.body.totalDocuments).toBe(expected.length);
        const page2 = await list(q(`&pageSize=${pageSize}&pageNumber=2`));
        expect(ids(page2.body)).toEqual(expected.slice(pageSize, 2 * pageSize));
        expect(page2.body.totalDocuments).toBe(expected.length);
      }),
      { numRuns: 150 },
    );
  }, 180_000);
});

describe('paging', () => {
  test('defaults: created ascending (ties by id), page 1 of 100', async () => {
    const res = await list('');
    expect(res.status).toBe(200);
    expect(ids(res.body)).toEqual(oracle([], { key: 'created', dir: 'asc' }));
    expect(res.body.totalDocuments).toBe(visible.length);
  });

  test('a page past the end is empty but still counts', async () => {
    const res = await list('pageNumber=99&pageSize=10');
    expect(res.body).toEqual({ data: [], totalDocuments: visible.length });
  });

  test('huge page numbers and sizes are answered, not failed', async () => {
    const max = String(Number.MAX_SAFE_INTEGER);
    expect((await list(`pageSize=${max}&output=minimal`)).body.data).toHaveLength(visible.length);
    expect((await list(`pageSize=${max}&pageNumber=${max}`)).body).toEqual({ data: [], totalDocuments: visible.length });
    expect((await list(`pageSize=1&pageNumber=${max}`)).body).toEqual({ data: [], totalDocuments: visible.length });
  });

  test('totalDocuments is right when the last page is partly filled', async () => {
    const res = await list(`pageSize=7&pageNumber=${Math.ceil(visible.length / 7)}`);
    expect(res.body.data).toHaveLength(visible.length % 7 || 7);
    expect(res.body.totalDocuments).toBe(visible.length);
  });

  test('pages tile the whole list without gaps or repeats', async () => {
    const seen: string[] = [];
    for (let page = 1; page <= Math.ceil(visible.length / 7); page++) {
      seen.push(...ids((await list(`pageSize=7&pageNumber=${page}&output=minimal`)).body));
    }
    expect(seen).toEqual(oracle([], { key: 'created', dir: 'asc' }));
  });

  test.each(['0', '-1', '1.5', 'abc', '1e2', '', ' 1', '99999999999999999999'])('pageNumber=%s → 400', async (v) => {
    for (const name of ['pageNumber', 'pageSize']) {
      const res = await list(`${name}=${encodeURIComponent(v)}`);
      expect(res.status).toBe(400);
      expect(res.body.message).toContain(name);
    }
  });
});

describe('output shapes', () => {
  test('minimal elements carry exactly the reduced keys', async () => {
    const res = await list('output=minimal&pageSize=1');
    expect(Object.keys(res.body.data[0])).toEqual([
      'id', 'created', 'updated', 'company', 'subCompany', 'label', 'mode', 'type', 'status', 'labelReference',
      'senseConfig', 'hasFlag', 'isArchived', 'numberOfTaps', 'minimalSenseData', 'alert',
    ]);
    expect(Object.keys(res.body.data[0].label)).toEqual(['uid', 'sequenceCode']);
  });

  test('normal elements are the full report with the label reduced', async () => {
    const res = await list('pageSize=3&order=id[asc]');
    for (const element of res.body.data) {
      const full = visible.find((r) => r.id === element.id)!;
      expect(element).toEqual({ ...full, label: { uid: full.label.uid, sequenceCode: full.label.sequenceCode } });
    }
  });

  test('an unknown output → 400', async () => {
    expect((await list('output=full')).status).toBe(400);
  });
});

describe('query errors name the problem', () => {
  test.each([
    ['filter=foo[eq]1', 'foo'],
    ['filter=numberOfTaps[eq]abc', 'abc'],
    ['filter=numberOfTaps[like]1', 'like'],
    ['filter=hasFlag[gt]true', 'gt'],
    ['filter=hasFlag[eq]yes', 'yes'],
    ['filter=status[EQ]active', 'EQ'],
    ['filter=status[eq]active,', ''],
    ['filter=created[gt]yesterday', 'yesterday'],
    ['order=created', 'created'],
    ['order=foo[asc]', 'foo'],
    ['order=access.role[asc]', 'access.role'],
    ['customFields=bad id[eq]1', 'bad id'],
    ['colour=blue', 'colour'],
    ['status=active&status=completed', 'status'],
    ['pageSize=10&pageSize=20', 'pageSize'],
  ])('%s → 400', async (query, named) => {
    const res = await list(query.replace(/ /g, '%20'));
    expect(res.status).toBe(400);
    expect(res.body.statusCode).toBe(400);
    expect(res.body.message).toContain(named);
  });

  test('at most 50 conditions', async () => {
    const filter = Array.from({ length: 51 }, () => 'numberOfTaps[gte]0').join(',');
    expect((await list(`filter=${filter}`)).status).toBe(400);
    expect((await list(`filter=${Array.from({ length: 50 }, () => 'numberOfTaps[gte]0').join(',')}`)).status).toBe(200);
  });

  test('an empty filter means no filter', async () => {
    expect((await list('filter=')).body.totalDocuments).toBe(visible.length);
  });

  test('any direction but asc sorts descending', async () => {
    const desc = oracle([], { key: 'numberOfTaps', dir: 'desc' });
    for (const dir of ['desc', 'ASC', '', 'down']) {
      expect(ids((await list(`order=numberOfTaps[${dir}]&output=minimal`)).body)).toEqual(desc);
    }
  });
});

describe('customFields pre-filter', () => {
  const expectIds = (pred: (fields: Map<string, unknown>) => boolean) =>
    visible
      .filter((r) => pred(new Map((r.customFields ?? []).map((f) => [f.customFieldId, f.value]))))
      .map((r) => r.id)
      .sort();

  test.each([
    ['po[eq]PO-1', (f: Map<string, unknown>) => f.get('po') === 'PO-1'],
    ['po[ilike]po-%', (f: Map<string, unknown>) => typeof f.get('po') === 'string'],
    ['po[neq]PO-1', (f: Map<string, unknown>) => f.get('po') !== 'PO-1'],
    ['pallets[gte]10', (f: Map<string, unknown>) => typeof f.get('pallets') === 'number' && (f.get('pallets') as number) >= 10],
    ['pallets[lt]5', (f: Map<string, unknown>) => typeof f.get('pallets') === 'number' && (f.get('pallets') as number) < 5],
    ['tags[eq]frozen', (f: Map<string, unknown>) => Array.isArray(f.get('tags')) && (f.get('tags') as unknown[]).includes('frozen')],
    ['tags[eq]2', (f: Map<string, unknown>) => Array.isArray(f.get('tags')) && (f.get('tags') as unknown[]).includes(2)],
    ['po[eq]PO-2,pallets[gt]3', (f: Map<string, unknown>) => f.get('po') === 'PO-2' && (f.get('pallets') as number) > 3],
  ])('%s', async (cond, pred) => {
    const res = await list(`customFields=${encodeURIComponent(cond)}&pageSize=1000&order=id[asc]`);
    expect(res.status).toBe(200);
    expect(ids(res.body)).toEqual(expectIds(pred));
  });

  test('combines with filter', async () => {
    const res = await list('customFields=po[eq]PO-1&filter=status[eq]active&pageSize=1000&order=id[asc]');
    const expected = visible
      .filter((r) => r.status === 'active' && r.customFields?.some((f) => f.customFieldId === 'po' && f.value === 'PO-1'))
      .map((r) => r.id)
      .sort();
    expect(ids(res.body)).toEqual(expected);
  });
});

describe('visibility', () => {
  test('each company lists exactly the reports it has an access entry for', async () => {
    for (const key of ['fresh', 'nordic'] as const) {
      const res = await list('pageSize=1000&output=minimal', key);
      const expected = reports()
        .filter((r) => r.companyId === key || r.access?.some((a) => a.companyId === key))
        .map((r) => r.id)
        .sort();
      expect(ids(res.body).sort()).toEqual(expected);
    }
  });
});
