import { describe, expect, it } from 'vitest';
import { toApiError } from '../../http/errors';
import type { ApiError } from '../../schema/api-error';
import { InvalidInputError } from '../../model/errors';
import { FIELDS } from '../../query/fields';
import { FILTER_OPERATORS } from '../../contract/filter-operators';
import { parseInstant, parseListQuery, parseStrictNumber, type ListQuery } from '../../query/list-query';

type Query = Record<string, string | string[] | undefined>;

function refusal(query: Query): ApiError {
  try {
    parseListQuery(query);
  } catch (err) {
    expect(err).toBeInstanceOf(InvalidInputError);
    return toApiError(err);
  }
  throw new Error(`expected a refusal of ${JSON.stringify(query)}`);
}

function expectRefused(query: Query, code: string, ...inMessage: string[]): void {
  const err = refusal(query);
  expect(err.statusCode).toBe(400);
  expect(err.code).toBe(code);
  for (const text of inMessage) expect(err.message).toContain(text);
  expect(err.toBody()).toEqual({ statusCode: 400, error: 'Bad Request', code, message: err.message });
}

const filterOf = (filter: string) => parseListQuery({ filter }).filter;

describe('parseListQuery: parameters', () => {
  it('answers the defaults for an empty query', () => {
    const q: ListQuery = parseListQuery({});
    expect(q).toEqual({
      filter: [],
      customFields: [],
      order: { key: 'created', direction: 'asc' },
      pageNumber: 1,
      pageSize: 100,
      output: 'normal',
    });
  });

  it('allows the parameters another layer reads, and ignores undefined values', () => {
    expect(parseListQuery({ key: 'k', apiKey: 'k', filter: undefined }, ['key', 'apiKey']).filter).toEqual([]);
    expectRefused({ key: 'k' }, 'UNKNOWN_PARAMETER', "unknown query parameter 'key'; known are filter, order");
  });

  it('refuses an unknown parameter, naming it', () => {
    expectRefused({ page: '2' }, 'UNKNOWN_PARAMETER', "'page'");
    expectRefused({ Filter: 'id[eq]x' }, 'UNKNOWN_PARAMETER', "'Filter'");
    expectRefused({ __proto__x: '1' }, 'UNKNOWN_PARAMETER', "'__proto__x'");
    expectRefused({ 'filter[id]': 'x' }, 'UNKNOWN_PARAMETER', "'filter[id]'");
  });

  it('refuses a parameter given twice', () => {
    expectRefused({ pageSize: ['1', '2'] }, 'DUPLICATE_PARAMETER', "'pageSize'");
    expectRefused({ filter: ['', ''] }, 'DUPLICATE_PARAMETER', "'filter'");
    expect(() => parseListQuery({ key: ['a', 'a'] }, ['key'])).toThrow("query parameter 'key' is given 2 times");
  });

  it('reads pageNumber and pageSize as decimal integers ≥ 1 with no upper bound on pageSize', () => {
    expect(parseListQuery({ pageNumber: '3', pageSize: '25' })).toMatchObject({ pageNumber: 3, pageSize: 25 });
    expect(parseListQuery({ pageSize: '1000000' }).pageSize).toBe(1_000_000);
    expect(parseListQuery({ pageSize: String(Number.MAX_SAFE_INTEGER) }).pageSize).toBe(Number.MAX_SAFE_INTEGER);
  });

  it.each(['0', '-1', '1.5', 'abc', '1e2', '', ' 1', '1 ', '+1', '01', '0x10', '9007199254740992', '99999999999999999999'])(
    'refuses page value %j',
    (value) => {
      expectRefused({ pageNumber: value }, 'INVALID_PAGE', 'pageNumber', `'${value}'`);
      expectRefused({ pageSize: value }, 'INVALID_PAGE', 'pageSize', `'${value}'`);
    },
  );

  it('reads output normal or minimal, else refuses it', () => {
    expect(parseListQuery({ output: 'minimal' }).output).toBe('minimal');
    expect(parseListQuery({ output: 'normal' }).output).toBe('normal');
    for (const bad of ['', 'full', 'MINIMAL']) expectRefused({ output: bad }, 'INVALID_OUTPUT', `'${bad}'`);
  });
});

describe('parseListQuery: order', () => {
  it.each([
    ['created[asc]', 'created', 'asc'],
    ['created[desc]', 'created', 'desc'],
    ['created[ASC]', 'created', 'desc'],
    ['created[]', 'created', 'desc'],
    ['numberOfTaps[xyz]', 'numberOfTaps', 'desc'],
    ['senseConfig.limits.minHumidity[asc]', 'senseConfig.limits.minHumidity', 'asc'],
    ['calculatedSenseData.analysedValues.temperature.meanKineticTemperature[desc]', 'calculatedSenseData.analysedValues.temperature.meanKineticTemperature', 'desc'],
  ])('%s sorts by %s %s', (order, key, direction) => {
    expect(parseListQuery({ order }).order).toEqual({ key, direction });
  });

  it('accepts every non-array allow-listed key', () => {
    for (const [key, def] of FIELDS) {
      if (def.array) expectRefused({ order: `${key}[asc]` }, 'INVALID_ORDER', `'${key}'`);
      else expect(parseListQuery({ order: `${key}[asc]` }).order.key).toBe(key);
    }
  });

  it.each(['created', '', 'created[asc', 'createdasc]', 'created[asc]x', '[asc]created', 'created[a]b]'])(
    'refuses the malformed order %j',
    (order) => expectRefused({ order }, 'INVALID_ORDER', `'${order}'`),
  );

  it('refuses an unknown order key, naming it', () => {
    expectRefused({ order: 'foo[asc]' }, 'INVALID_ORDER', "'foo'");
    expectRefused({ order: '[asc]' }, 'INVALID_ORDER', "''");
    expectRefused({ order: 'calculatedSenseData.datapoints[asc]' }, 'INVALID_ORDER', "'calculatedSenseData.datapoints'");
    expectRefused({ order: '__proto__[asc]' }, 'INVALID_ORDER', "'__proto__'");
    expectRefused({ order: 'constructor[asc]' }, 'INVALID_ORDER', "'constructor'");
    expectRefused({ order: 'access.role[desc]' }, 'INVALID_ORDER', "'access.role'");
  });
});

describe('parseListQuery: filter grammar', () => {
  it('reads an empty filter as no filter', () => {
    expect(filterOf('')).toEqual([]);
  });

  it('reads comma separated conditions in order', () => {
    expect(filterOf('status[eq]active,numberOfTaps[gte]2,labelReference[like]PO%')).toEqual([
      { key: 'status', op: 'eq', raw: 'active', value: 'active' },
      { key: 'numberOfTaps', op: 'gte', raw: '2', value: 2 },
      { key: 'labelReference', op: 'like', raw: 'PO%', value: 'PO%' },
    ]);
  });

  it('reads \\, as a literal comma and keeps every other backslash', () => {
    expect(filterOf('labelReference[eq]a\\,b,label.name[eq]c')).toEqual([
      { key: 'labelReference', op: 'eq', raw: 'a,b', value: 'a,b' },
      { key: 'label.name', op: 'eq', raw: 'c', value: 'c' },
    ]);
    expect(filterOf('labelReference[like]50\\%\\_x\\\\y\\a')[0].value).toBe('50\\%\\_x\\\\y\\a');
    // a backslash before an escaped comma stays a backslash
    expect(filterOf('labelReference[eq]a\\\\,b')[0].value).toBe('a\\,b');
    // a value ending in a backslash can be the last condition
    expect(filterOf('label.name[eq]x,labelReference[eq]a\\')[1].value).toBe('a\\');
  });

  it('keeps brackets, spaces, empty values and other text in a value as they are', () => {
    expect(filterOf('labelReference[eq]a[b]c d')[0].value).toBe('a[b]c d');
    expect(filterOf('labelReference[eq]')[0].value).toBe('');
    expect(filterOf('labelReference[eq] ')[0].value).toBe(' ');
    expect(filterOf('labelReference[includes]ÉCLAIR 𝄞')[0].value).toBe('ÉCLAIR 𝄞');
  });

  it.each(['status[eq]active,', ',status[eq]active', 'status[eq]active,,numberOfTaps[eq]1', ','])(
    'refuses the empty condition in %j',
    (filter) => expectRefused({ filter }, 'INVALID_FILTER', 'empty condition'),
  );

  it.each(['status', 'status=active', 'status[eq', 'statuseq]active', 'status(eq)active'])(
    'refuses the malformed condition %j',
    (filter) => expectRefused({ filter }, 'INVALID_FILTER', `'${filter}'`, 'key[operator]value'),
  );

  it('allows 50 conditions and 4096 characters, not more', () => {
    const cond = 'numberOfTaps[gte]1';
    expect(filterOf(Array(50).fill(cond).join(','))).toHaveLength(50);
    expectRefused({ filter: Array(51).fill(cond).join(',') }, 'INVALID_FILTER', '51 conditions', '50');
    const long = `labelReference[eq]${'x'.repeat(4096 - 'labelReference[eq]'.length)}`;
    expect(filterOf(long)[0].raw).toHaveLength(4096 - 18);
    expectRefused({ filter: `${long}x` }, 'INVALID_FILTER', '4097 characters', '4096');
  });

  it('refuses an unknown key, naming it', () => {
    expectRefused({ filter: 'foo[eq]1' }, 'INVALID_FILTER', "unknown filter key 'foo'");
    expectRefused({ filter: 'Status[eq]active' }, 'INVALID_FILTER', "'Status'");
    expectRefused({ filter: 'calculatedSenseData[eq]1' }, 'INVALID_FILTER', "'calculatedSenseData'");
    expectRefused({ filter: 'calculatedSenseData.datapoints[eq]1' }, 'INVALID_FILTER', "'calculatedSenseData.datapoints'");
    expectRefused({ filter: 'label.estimatedBatteryDaysLeft[eq]1' }, 'INVALID_FILTER', "'label.estimatedBatteryDaysLeft'");
    expectRefused({ filter: 'customFields[eq]1' }, 'INVALID_FILTER', "'customFields'");
    expectRefused({ filter: '__proto__[eq]1' }, 'INVALID_FILTER', "'__proto__'");
    expectRefused({ filter: 'toString[eq]1' }, 'INVALID_FILTER', "'toString'");
    expectRefused({ filter: '[eq]1' }, 'INVALID_FILTER', "unknown filter key ''");
  });

  it('refuses an unknown or upper-case operator, naming it', () => {
    expectRefused({ filter: 'numberOfTaps[EQ]1' }, 'INVALID_FILTER', "'EQ'");
    expectRefused({ filter: 'numberOfTaps[ne]1' }, 'INVALID_FILTER', "'ne'");
    expectRefused({ filter: 'numberOfTaps[]1' }, 'INVALID_FILTER', "''");
    expectRefused({ filter: 'labelReference[contains]x' }, 'INVALID_FILTER', "'contains'");
  });

  it('refuses an operator that does not fit the key type', () => {
    expectRefused(
      { filter: 'numberOfTaps[like]1' },
      'INVALID_FILTER',
      "operator 'like' does not apply to number key 'numberOfTaps'",
    );
    for (const op of ['gt', 'gte', 'lt', 'lte', 'like', 'ilike', 'includes']) {
      expectRefused({ filter: `hasFlag[${op}]true` }, 'INVALID_FILTER', `'${op}'`, "boolean key 'hasFlag'");
    }
    for (const op of ['like', 'ilike', 'includes']) {
      expectRefused({ filter: `created[${op}]2026` }, 'INVALID_FILTER', `'${op}'`, "instant key 'created'");
      expectRefused({ filter: `alert.level[${op}]1` }, 'INVALID_FILTER', `'${op}'`, "'alert.level'");
    }
  });

  it.each(['', 'abc', 'Infinity', '-Infinity', 'NaN', '0x10', '1_000', '1e400', '1,5', ' 1', '1 ', '--1', '1e', 'e1', '.', '1.2.3'])(
    'refuses the number %j',
    (value) => {
      const filter = `numberOfTaps[eq]${value.replace(/,/g, '\\,')}`;
      expectRefused({ filter }, 'INVALID_FILTER', `'${value}'`, "'numberOfTaps'", 'not a number');
    },
  );

  it('reads numbers in the strict decimal grammar', () => {
    for (const [text, n] of [
      ['3', 3],
      ['-2.5', -2.5],
      ['+4', 4],
      ['.5', 0.5],
      ['5.', 5],
      ['007', 7],
      ['1e2', 100],
      ['-1.5E-1', -0.15],
    ] as const) {
      expect(filterOf(`senseConfig.limits.minTemperature[gt]${text}`)[0].value).toBe(n);
      expect(parseStrictNumber(text)).toBe(n);
    }
  });

  it('takes true/false for booleans and eq/neq only', () => {
    expect(filterOf('hasFlag[eq]true,isArchived[neq]false,dataIsIncomplete[eq]false')).toEqual([
      { key: 'hasFlag', op: 'eq', raw: 'true', value: true },
      { key: 'isArchived', op: 'neq', raw: 'false', value: false },
      { key: 'dataIsIncomplete', op: 'eq', raw: 'false', value: false },
    ]);
    for (const bad of ['TRUE', '1', '0', '', 'yes']) {
      expectRefused({ filter: `hasFlag[eq]${bad}` }, 'INVALID_FILTER', `'${bad}'`, "'hasFlag'", 'true or false');
    }
  });

  it('normalises instants to the canonical UTC form', () => {
    const cases: [string, string][] = [
      ['2026-11-20T10:00:00.000Z', '2026-11-20T10:00:00.000Z'],
      ['2026-11-20T10:00:00Z', '2026-11-20T10:00:00.000Z'],
      ['2026-11-20T10:00Z', '2026-11-20T10:00:00.000Z'],
      ['2026-11-20T11:00:00+01:00', '2026-11-20T10:00:00.000Z'],
      ['2026-11-20T05:30:00.5-0430', '2026-11-20T10:00:00.500Z'],
      ['2026-11-20T12:00:00+02', '2026-11-20T10:00:00.000Z'],
      ['2026-11-20', '2026-11-20T00:00:00.000Z'],
      ['2024-02-29T00:00:00Z', '2024-02-29T00:00:00.000Z'],
      ['2026-01-01T00:30:00+01:00', '2025-12-31T23:30:00.000Z'],
      ['2026-11-20t10:00:00z', '2026-11-20T10:00:00.000Z'],
      ['2026-11-20T10:00:00.123000Z', '2026-11-20T10:00:00.123Z'],
    ];
    for (const [given, iso] of cases) {
      const [cond] = filterOf(`created[gte]${given}`);
      expect(cond.value).toBe(iso);
      expect(cond.subMillisecond).toBeUndefined();
    }
    const [fine] = filterOf('updated[lt]2026-11-20T10:00:00.1234Z');
    expect(fine).toEqual({ key: 'updated', op: 'lt', raw: '2026-11-20T10:00:00.1234Z', value: '2026-11-20T10:00:00.123Z', subMillisecond: true });
  });

  it.each([
    'abc',
    '',
    '2026',
    '2026-11',
    '20261120T100000Z',
    '2026-11-20T10:00:00',
    '2026-11-20 10:00:00Z',
    '2026-02-30T00:00:00Z',
    '2025-02-29',
    '2026-13-01',
    '2026-00-10',
    '2026-11-20T24:00:00Z',
    '2026-11-20T10:60:00Z',
    '2026-11-20T10:00:60Z',
    '2026-11-20T10:00:00+24:00',
    '9999-12-31T23:00:00-05:00',
    '+002026-11-20T10:00:00Z',
    '1763632800000',
  ])('refuses the instant %j', (value) => {
    expectRefused({ filter: `created[eq]${value}` }, 'INVALID_FILTER', `'${value}'`, "'created'");
    expect(typeof parseInstant(value)).toBe('string');
  });

  it('keeps an enum value for eq/neq only when it belongs to the enum', () => {
    expect(filterOf('mode[eq]airFreight,type[neq]tempSense,status[eq]completed,access.role[includes]viewer')).toHaveLength(4);
    expectRefused({ filter: 'mode[eq]plane' }, 'INVALID_FILTER', "'plane'", "'mode'", 'airFreight');
    expectRefused({ filter: 'status[neq]Active' }, 'INVALID_FILTER', "'Active'", "'status'");
    expectRefused({ filter: 'type[eq]' }, 'INVALID_FILTER', "''", "'type'");
    expectRefused({ filter: 'access.role[eq]admin' }, 'INVALID_FILTER', "'admin'", "'access.role'");
    expectRefused({ filter: 'access.role[includes]own' }, 'INVALID_FILTER', "'own'", "'access.role'");
    // other operators compare as strings
    expect(filterOf('mode[like]%Freight,status[gt]a,type[includes]Sense,access.role[like]own%')).toHaveLength(4);
  });

  it('accepts each operator on each type where it fits', () => {
    const ops = FILTER_OPERATORS;
    for (const op of ops) expect(filterOf(`labelReference[${op}]x`)[0].op).toBe(op);
    for (const op of ops) expect(filterOf(`access.companyId[${op}]c1`)[0].op).toBe(op);
    for (const op of ['eq', 'neq', 'gt', 'gte', 'lt', 'lte']) {
      expect(filterOf(`calculatedSenseData.numberOfViolations.all[${op}]1`)[0].value).toBe(1);
      expect(filterOf(`updated[${op}]2026-01-01T00:00:00Z`)[0].value).toBe('2026-01-01T00:00:00.000Z');
    }
  });

  it('allow-lists every key of docs/api.md#list-parameters', () => {
    const keys = [
      'id', 'created', 'updated', 'mode', 'type', 'status', 'labelReference', 'hasFlag', 'isArchived',
      'numberOfTaps', 'dataIsIncomplete', 'company.id', 'company.name', 'company.shortCode', 'subCompany.id',
      'label.uid', 'label.sequenceCode', 'label.type', 'label.name',
      'label.firmwareVersionInfo.firmwareVersion', 'label.firmwareVersionInfo.firmwareApiVersion',
      'senseConfig.interval', 'senseConfig.configTime', 'senseConfig.startDelay', 'senseConfig.runningTime',
      'senseConfig.limits.minTemperature', 'senseConfig.limits.maxTemperature',
      'senseConfig.limits.minHumidity', 'senseConfig.limits.maxHumidity', 'alert.level', 'alert.timestamp',
      'calculatedSenseData.numberOfDatapointsRead', 'calculatedSenseData.numberOfDatapointsAvailable',
      'calculatedSenseData.numberOfMeasurementsOccurred', 'calculatedSenseData.startTime',
      'calculatedSenseData.currentTime', 'calculatedSenseData.elapsedTime',
      'calculatedSenseData.numberOfViolations.temperature', 'calculatedSenseData.numberOfViolations.humidity',
      'calculatedSenseData.numberOfViolations.all', 'calculatedSenseData.durationOfViolations.temperature',
      'calculatedSenseData.durationOfViolations.humidity', 'calculatedSenseData.durationOfViolations.all',
      'calculatedSenseData.attainedValues.minTemperature', 'calculatedSenseData.attainedValues.maxTemperature',
      'calculatedSenseData.analysedValues.temperature.average',
      'calculatedSenseData.analysedValues.temperature.degreeHour',
      'calculatedSenseData.analysedValues.temperature.meanKineticTemperature',
      'access.companyId', 'access.role',
    ];
    expect([...FIELDS.keys()].sort()).toEqual([...keys].sort());
  });
});

describe('parseListQuery: customFields', () => {
  it('reads customFieldId[op]value conditions with the value kept raw and its number', () => {
    expect(parseListQuery({ customFields: 'po.number[eq]A-1,temp_max[gt]2.5,tags-1[includes]x\\,y,n[like]1%' }).customFields).toEqual([
      { customFieldId: 'po.number', op: 'eq', value: 'A-1', number: null },
      { customFieldId: 'temp_max', op: 'gt', value: '2.5', number: 2.5 },
      { customFieldId: 'tags-1', op: 'includes', value: 'x,y', number: null },
      { customFieldId: 'n', op: 'like', value: '1%', number: null },
    ]);
    expect(parseListQuery({ customFields: '' }).customFields).toEqual([]);
    expect(parseListQuery({ customFields: 'x[eq]' }).customFields).toEqual([{ customFieldId: 'x', op: 'eq', value: '', number: null }]);
  });

  it('refuses a bad customFieldId, operator or grammar with INVALID_CUSTOM_FIELDS', () => {
    expectRefused({ customFields: 'po number[eq]1' }, 'INVALID_CUSTOM_FIELDS', "'po number'");
    expectRefused({ customFields: "po'--[eq]1" }, 'INVALID_CUSTOM_FIELDS', "'po'--'");
    expectRefused({ customFields: '[eq]1' }, 'INVALID_CUSTOM_FIELDS', "''");
    expectRefused({ customFields: 'émile[eq]1' }, 'INVALID_CUSTOM_FIELDS', "'émile'");
    expectRefused({ customFields: 'po[EQ]1' }, 'INVALID_CUSTOM_FIELDS', "'EQ'");
    expectRefused({ customFields: 'po[eq]1,' }, 'INVALID_CUSTOM_FIELDS', 'empty condition');
    expectRefused({ customFields: 'po' }, 'INVALID_CUSTOM_FIELDS', "'po'", 'key[operator]value');
    expectRefused({ customFields: Array(51).fill('a[eq]1').join(',') }, 'INVALID_CUSTOM_FIELDS', '51 conditions');
    expectRefused({ customFields: `a[eq]${'x'.repeat(4092)}` }, 'INVALID_CUSTOM_FIELDS', '4097 characters');
  });

  it('reports the first problem in the order pages, output, order, filter, customFields', () => {
    expect(refusal({ filter: 'foo[eq]1', pageSize: '0' }).code).toBe('INVALID_PAGE');
    expect(refusal({ filter: 'foo[eq]1', customFields: 'a b[eq]1' }).code).toBe('INVALID_FILTER');
    expect(refusal({ bogus: '1', pageSize: ['1', '2'] }).code).toBe('UNKNOWN_PARAMETER');
  });

  it('shortens very long offending input in messages', () => {
    const err = refusal({ filter: `${'k'.repeat(500)}[eq]1` });
    expect(err.message.length).toBeLessThan(200);
    expect(err.message).toContain('kkkk…');
  });
});

describe('parseListQuery: edges of the grammar', () => {
  it('knows the century years: 29 February only every 400 years', () => {
    expect(filterOf('created[gte]2000-02-29')[0].value).toBe('2000-02-29T00:00:00.000Z');
    expect(filterOf('created[gte]1600-02-29T12:00Z')[0].value).toBe('1600-02-29T12:00:00.000Z');
    for (const year of ['1900', '2100', '1800']) {
      expectRefused({ filter: `created[gte]${year}-02-29` }, 'INVALID_FILTER', `day 29 does not exist in ${year}-02`);
      expect(filterOf(`created[gte]${year}-02-28`)[0].value).toBe(`${year}-02-28T00:00:00.000Z`);
    }
    expect(filterOf('created[gte]2028-02-29')[0].value).toBe('2028-02-29T00:00:00.000Z');
  });

  it('takes every day of the months of 30 and 31 days, and no more', () => {
    const lengths = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
    lengths.forEach((days, i) => {
      const month = String(i + 1).padStart(2, '0');
      expect(parseInstant(`2026-${month}-${days}`)).toEqual({ iso: `2026-${month}-${days}T00:00:00.000Z`, subMillisecond: false });
      expect(parseInstant(`2026-${month}-${days + 1}`)).toBe(`day ${days + 1} does not exist in 2026-${month}`);
    });
  });

  it('reads a date, or a date-time with its zone, the same whatever the server zone', () => {
    const saved = process.env.TZ;
    // Under forked workers this sets the zone; under threads (the mutation run) the config has set it.
    process.env.TZ = 'America/New_York';
    try {
      expect(new Date(2026, 10, 20).getTimezoneOffset(), 'the test needs a zone other than UTC').not.toBe(0);
      expect(parseInstant('2026-11-20')).toEqual({ iso: '2026-11-20T00:00:00.000Z', subMillisecond: false });
      expect(parseInstant('2026-07-01T12:30:00.25Z')).toEqual({ iso: '2026-07-01T12:30:00.250Z', subMillisecond: false });
      expect(parseInstant('2026-07-01T12:30+02:00')).toEqual({ iso: '2026-07-01T10:30:00.000Z', subMillisecond: false });
      expect(filterOf('updated[lt]2026-01-01')[0].value).toBe('2026-01-01T00:00:00.000Z');
    } finally {
      if (saved === undefined) delete process.env.TZ;
      else process.env.TZ = saved;
    }
  });

  it('takes offsets up to ±23:59 in each of their forms', () => {
    expect(parseInstant('2026-11-20T23:00+23:00')).toEqual({ iso: '2026-11-20T00:00:00.000Z', subMillisecond: false });
    expect(parseInstant('2026-11-20T00:00-23:59')).toEqual({ iso: '2026-11-20T23:59:00.000Z', subMillisecond: false });
    expect(parseInstant('2026-11-20T00:00:00-2359')).toEqual({ iso: '2026-11-20T23:59:00.000Z', subMillisecond: false });
    expect(parseInstant('2026-11-20T12:00+05')).toEqual({ iso: '2026-11-20T07:00:00.000Z', subMillisecond: false });
    expect(parseInstant('2026-11-20T12:00+0530')).toEqual({ iso: '2026-11-20T06:30:00.000Z', subMillisecond: false });
    expect(parseInstant('2026-11-20T23:59:59Z')).toEqual({ iso: '2026-11-20T23:59:59.000Z', subMillisecond: false });
  });

  it('reads a fraction with a comma, cut to milliseconds, and says whether anything finer was cut', () => {
    expect(parseInstant('2026-11-20T10:00:00,5Z')).toEqual({ iso: '2026-11-20T10:00:00.500Z', subMillisecond: false });
    expect(parseInstant('2026-11-20T10:00:00.12Z')).toEqual({ iso: '2026-11-20T10:00:00.120Z', subMillisecond: false });
    expect(parseInstant('2026-11-20T10:00:00.9999Z')).toEqual({ iso: '2026-11-20T10:00:00.999Z', subMillisecond: true });
    expect(parseInstant('2026-11-20T10:00:00.1230001Z')).toEqual({ iso: '2026-11-20T10:00:00.123Z', subMillisecond: true });
    expect(parseInstant('2026-11-20T10:00:00.123000Z')).toEqual({ iso: '2026-11-20T10:00:00.123Z', subMillisecond: false });
  });

  it('takes the years 0000 and 9999', () => {
    expect(parseInstant('0000-01-01')).toEqual({ iso: '0000-01-01T00:00:00.000Z', subMillisecond: false });
    expect(parseInstant('9999-12-31T23:59:59.999Z')).toEqual({ iso: '9999-12-31T23:59:59.999Z', subMillisecond: false });
  });

  it.each([
    ['.55', 0.55],
    ['1e10', 1e10],
    ['12.345', 12.345],
    ['1E+10', 1e10],
    ['-0.5e-3', -0.0005],
    ['10', 10],
  ])('reads the number %s whole', (text, n) => {
    expect(parseStrictNumber(text)).toBe(n);
    expect(filterOf(`numberOfTaps[lt]${text}`)[0].value).toBe(n);
    expect(parseListQuery({ customFields: `n[eq]${text}` }).customFields[0].number).toBe(n);
  });

  it.each(['1e10x', 'x1', '1.5.', '1e+', '+', '-.e1'])('refuses %j, a number with something around it', (text) => {
    expect(parseStrictNumber(text)).toBeNull();
    expect(parseListQuery({ customFields: `n[eq]${text}` }).customFields[0].number).toBeNull();
  });

  it.each(['x]created[asc]', 'x[y]created[asc]', 'a[b][asc]', 'created[asc][desc]'])('refuses the order %j, a key with junk around it', (order) => {
    expectRefused({ order }, 'INVALID_ORDER', `order '${order}' is not of the form key[asc] or key[desc]`);
  });
});
