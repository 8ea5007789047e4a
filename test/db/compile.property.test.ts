/**
 * Property: for random rows and random filter / customFields / order parameters, the list query
 * (the compiled SQL on the caller's listing rows, as the report store runs it) selects exactly
 * the ids, in exactly the order, that an independent JS evaluation of the decided semantics
 * (docs/api.md#list-parameters) selects among the reports the caller's company can see; and
 * a page of it is that order cut at its offset and size, whether the order is read in one piece
 * or merged value by value.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../db/database';
import { hasTable, insertRow } from './sql-rows';
import { compileListQuery } from '../../db/query/compile';
import { parseListQuery } from '../../query/list-query';
import { registerSqlFunctions } from '../../db/query/sql-functions';
import { ReportStore } from '../../db/report-store';
import { assertProperty } from '../support/property';
import { MODES, ROLES } from '../../schema/report';

// ---------------------------------------------------------------------------------------------
// The model
// ---------------------------------------------------------------------------------------------

const COMPANIES = [
  { id: 'c1', name: 'Acme' },
  { id: 'c2', name: 'acme' },
  { id: 'c3', name: 'Émile' },
  { id: 'c4', name: 'Zed𝄞' },
];
const CALLER = 'c1';

type CustomValue = string | number | (string | number)[];

interface Model {
  id: string;
  created: number; // epoch ms
  owner: string;
  labelReference: string;
  labelName: string;
  subCompanyId: string | null;
  mode: string;
  numberOfTaps: number;
  minHumidity: number | null;
  attainedMin: number | null;
  violationsAll: number;
  hasFlag: boolean | null; // null: no state row for the caller
  otherFlag: boolean; // the state of another company, which must not show
  dataIsIncomplete: boolean;
  access: { companyId: string; role: string }[];
  cf1: CustomValue | null;
}

/** Small alphabets, so that random values collide with stored ones; special characters included. */
const CHARS = ['a', 'b', 'A', 'B', 'é', 'É', '%', '_', '*', '\\', ',', '?', '[', ' ', 'ｚ', '𝄞', "'"];
const PATTERN_CHARS = [...CHARS, '%', '_', '*', '\\'];
const str = (max = 3) => fc.string({ unit: fc.constantFrom(...CHARS), maxLength: max });
/** Near misses: strings that differ in one character, one of them special to LIKE, GLOB or case. */
const NEAR = ['a?b', 'aXb', 'a[b', 'a]b', 'a*b', 'a%b', 'a_b', 'a\\b', 'ab', 'a?bb', 'A?B', 'éa', 'Éa', 'ea', 'Ea', 'a,b'];
const nearStr = fc.oneof(str(), fc.constantFrom(...NEAR));
const pattern = fc.string({ unit: fc.constantFrom(...PATTERN_CHARS), maxLength: 4 });

const BASE_MS = Date.UTC(2026, 0, 1);
const CREATED_POOL = [0, 1, 999, 1000, 3_600_000, 86_400_000, -1].map((d) => BASE_MS + d);
const NUMBERS = [-3, -0.5, 0, 1, 2, 7.75, 10, 20.25];

const modelArb: fc.Arbitrary<Omit<Model, 'id'>> = fc.record({
  created: fc.constantFrom(...CREATED_POOL),
  owner: fc.constantFrom('c1', 'c2', 'c3', 'c4'),
  // Long enough, often, for the trigram index to narrow a search (a literal run of 3 or more).
  labelReference: fc.oneof(str(), str(8)),
  labelName: fc.oneof(str(), fc.constantFrom('éclair', 'ÉCLAIR', 'Eclair', 'straße')),
  subCompanyId: fc.option(fc.constantFrom('s1', 's2', 'S1', 'é'), { nil: null }),
  mode: fc.constantFrom(...MODES),
  numberOfTaps: fc.integer({ min: 0, max: 4 }),
  minHumidity: fc.option(fc.constantFrom(...NUMBERS), { nil: null }),
  attainedMin: fc.option(fc.constantFrom(...NUMBERS), { nil: null }),
  // Mostly the counts an order by this key merges value by value, sometimes one between or beyond.
  violationsAll: fc.oneof(fc.integer({ min: 0, max: 3 }), fc.constantFrom(-1, 2.5, 7)),
  hasFlag: fc.option(fc.boolean(), { nil: null }),
  otherFlag: fc.boolean(),
  dataIsIncomplete: fc.boolean(),
  // Most reports are visible to the caller (an entry of its own); the others must never show.
  access: fc
    .tuple(
      fc.uniqueArray(
        fc.record({ companyId: fc.constantFrom('c1', 'c2', 'c3', 'c4'), role: fc.constantFrom(...ROLES) }),
        { selector: (a) => a.companyId, maxLength: 3 },
      ),
      fc.integer({ min: 0, max: 4 }),
    )
    .map(([list, hide]) =>
      hide === 0 || list.some((a) => a.companyId === CALLER) ? list : [...list, { companyId: CALLER, role: 'viewer' }],
    ),
  cf1: fc.option(
    fc.oneof(
      str(2),
      fc.constantFrom(...NUMBERS),
      fc.constantFrom('10', '2', '-0.5'),
      fc.array(fc.oneof(str(2), fc.constantFrom(...NUMBERS), fc.constantFrom('10', '2')), { minLength: 1, maxLength: 3 }),
    ),
    { nil: null },
  ),
});

const rowsArb: fc.Arbitrary<Model[]> = fc
  .array(modelArb, { minLength: 2, maxLength: 10 })
  .map((list) => list.map((m, i) => ({ ...m, id: `id-${String(i).padStart(2, '0')}` })));

// ---------------------------------------------------------------------------------------------
// Conditions
// ---------------------------------------------------------------------------------------------

type Kind = 'string' | 'enum' | 'number' | 'boolean' | 'instant' | 'array' | 'role';
type Op = 'eq' | 'neq' | 'gt' | 'gte' | 'lt' | 'lte' | 'like' | 'ilike' | 'includes';

interface KeyModel {
  key: string;
  kind: Kind;
  get: (m: Model) => unknown;
}

const KEYS: KeyModel[] = [
  { key: 'labelReference', kind: 'string', get: (m) => m.labelReference },
  { key: 'label.name', kind: 'string', get: (m) => m.labelName },
  { key: 'subCompany.id', kind: 'string', get: (m) => m.subCompanyId },
  { key: 'company.name', kind: 'string', get: (m) => COMPANIES.find((c) => c.id === m.owner)!.name },
  { key: 'mode', kind: 'enum', get: (m) => m.mode },
  { key: 'numberOfTaps', kind: 'number', get: (m) => m.numberOfTaps },
  { key: 'senseConfig.limits.minHumidity', kind: 'number', get: (m) => m.minHumidity },
  { key: 'calculatedSenseData.attainedValues.minTemperature', kind: 'number', get: (m) => m.attainedMin },
  { key: 'calculatedSenseData.numberOfViolations.all', kind: 'number', get: (m) => m.violationsAll },
  { key: 'calculatedSenseData.numberOfViolations.temperature', kind: 'number', get: (m) => m.violationsAll },
  { key: 'hasFlag', kind: 'boolean', get: (m) => m.hasFlag === true },
  { key: 'dataIsIncomplete', kind: 'boolean', get: (m) => m.dataIsIncomplete },
  { key: 'created', kind: 'instant', get: (m) => m.created },
  { key: 'access.companyId', kind: 'array', get: (m) => m.access.map((a) => a.companyId) },
  { key: 'access.role', kind: 'role', get: (m) => m.access.map((a) => a.role) },
];

const ORDERING: Op[] = ['eq', 'neq', 'gt', 'gte', 'lt', 'lte'];
const ALL_OPS: Op[] = [...ORDERING, 'like', 'ilike', 'includes'];

/** A condition with the exact value the reference compares with. */
interface Cond {
  key: KeyModel;
  op: Op;
  text: string; // the value as written in the parameter (before \, escaping)
  value: unknown; // string | number (instant: exact epoch ms, possibly fractional) | boolean
}

function formatInstant(ms: number, frac: number, offsetMinutes: number): string {
  const local = new Date(ms + offsetMinutes * 60_000).toISOString(); // ...sss Z
  const zone =
    offsetMinutes === 0
      ? 'Z'
      : `${offsetMinutes > 0 ? '+' : '-'}${String(Math.floor(Math.abs(offsetMinutes) / 60)).padStart(2, '0')}:${String(Math.abs(offsetMinutes) % 60).padStart(2, '0')}`;
  return `${local.slice(0, -1)}${frac ? '5' : ''}${zone}`;
}

/** Strings stored under a key in the rows (array keys: their elements), to make matches likely. */
function storedStrings(rows: Model[], key: KeyModel): string[] {
  return rows.flatMap((m) => {
    const v = key.get(m);
    return Array.isArray(v) ? v.filter((e): e is string => typeof e === 'string') : typeof v === 'string' ? [v] : [];
  });
}

/**
 * A like pattern derived from a stored string: each character kept (escaped when it is a
 * wildcard), replaced by `_` or `%`, or changed in case; so patterns often match, and GLOB's own
 * special characters (? [ *) in data meet patterns that must treat them literally.
 */
function derivedPattern(source: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return source.chain((s) => {
    const chars = Array.from(s);
    return fc
      .tuple(...chars.map(() => fc.constantFrom('keep', 'keep', 'keep', 'one', 'any', 'upper', 'lower')), fc.boolean())
      .map((choices) => {
        const trailing = choices.pop() as boolean;
        const lit = (ch: string) => ('%_*\\'.includes(ch) ? `\\${ch}` : ch);
        const body = chars
          .map((ch, i) => {
            switch (choices[i]) {
              case 'one':
                return '_';
              case 'any':
                return '%';
              case 'upper':
                return lit(ch.toUpperCase());
              case 'lower':
                return lit(ch.toLowerCase());
              default:
                return lit(ch);
            }
          })
          .join('');
        return trailing ? `${body}%` : body;
      });
  });
}

const condArb = (rows: Model[]): fc.Arbitrary<Cond> =>
  fc.constantFrom(...KEYS).chain((key) => keyCondArb(rows, key));

function keyCondArb(rows: Model[], key: KeyModel): fc.Arbitrary<Cond> {
  const stored = storedStrings(rows, key);
  const fromStored = (fallback: fc.Arbitrary<string>) => (stored.length ? fc.oneof(fc.constantFrom(...stored), fallback) : fallback);
  const make = (ops: Op[], value: fc.Arbitrary<{ text: string; value: unknown }>) =>
    fc.tuple(fc.constantFrom(...ops), value).map(([op, v]) => ({ key, op, ...v }));
  const asText = (a: fc.Arbitrary<string>) => a.map((s) => ({ text: s, value: s }));
  switch (key.kind) {
    case 'string':
      return fc.oneof(
        make(['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'includes'], asText(fromStored(fc.oneof(str(), fc.constantFrom('éclair', 'Acme', 'acme', 's1', 'É', 'a'))))),
        make(
          ['like', 'ilike'],
          asText(
            fc.oneof(
              pattern,
              fc.constantFrom('%', '_', 'É%', 'é%', '%a%', 'ÉCLAIR', 'STRASSE', 'STRAßE', '%e', '\\\\%', '%\\%', '%\\_%', '%?%', '%[%'),
              { arbitrary: derivedPattern(fromStored(str())), weight: 3 },
            ),
          ),
        ),
      );
    case 'enum':
      return fc.oneof(
        make(['eq', 'neq'], asText(fc.constantFrom(...MODES))),
        make(['gt', 'gte', 'lt', 'lte', 'includes', 'like', 'ilike'], asText(fc.oneof(str(2), fc.constantFrom('r', 'sea', 'S%', '%FREIGHT', '%t')))),
      );
    case 'role':
      return fc.oneof(
        make(['eq', 'neq', 'includes'], asText(fc.constantFrom(...ROLES))),
        make(['gt', 'gte', 'lt', 'lte', 'like', 'ilike'], asText(fc.constantFrom('o%', '%er', 'v', 'editor', 'EDITOR', '_wner'))),
      );
    case 'array':
      return make(ALL_OPS, asText(fc.constantFrom('c1', 'c2', 'c3', 'c4', 'c', 'C%', 'c_', '%3')));
    case 'number':
      return make(
        ORDERING,
        fc.oneof(
          fc.constantFrom(...NUMBERS, 3, 4).map((n) => ({ text: String(n), value: n })),
          fc.constantFrom(['1e0', 1], ['2.0', 2], ['-.5', -0.5], ['+10', 10], ['7.750', 7.75]).map(([t, n]) => ({ text: t as string, value: n })),
        ),
      );
    case 'boolean':
      return make(['eq', 'neq'], fc.boolean().map((b) => ({ text: String(b), value: b })));
    case 'instant':
      return make(
        ORDERING,
        fc
          .tuple(fc.constantFrom(...CREATED_POOL, BASE_MS + 500), fc.boolean(), fc.constantFrom(0, 60, -300, 330))
          .map(([ms, frac, offset]) => ({ text: formatInstant(ms, frac ? 1 : 0, offset), value: ms + (frac ? 0.5 : 0) })),
      );
  }
}

interface CustomCond {
  field: 'cf1' | 'cf2';
  op: Op;
  text: string;
}

const customArb = (rows: Model[]): fc.Arbitrary<CustomCond> => {
  const stored = rows.flatMap((m) => (m.cf1 === null ? [] : Array.isArray(m.cf1) ? m.cf1 : [m.cf1])).map(String);
  const texts = fc.oneof(str(2), fc.constantFrom(...NUMBERS.map(String), '10', '2', '2.0', '1e1', '%', '1%', '_', 'a%', 'É%'));
  return fc.record({
    field: fc.constantFrom('cf1', 'cf1', 'cf1', 'cf2'),
    op: fc.constantFrom(...ALL_OPS),
    text: stored.length ? fc.oneof(texts, fc.constantFrom(...stored), derivedPattern(fc.constantFrom(...stored))) : texts,
  });
};

const ID_KEY: KeyModel = { key: 'id', kind: 'string', get: (m) => m.id };
const OWNER_ID_KEY: KeyModel = { key: 'company.id', kind: 'string', get: (m) => m.owner };
const orderArb = fc.record({
  key: fc.constantFrom(...KEYS.filter((k) => k.kind !== 'array' && k.kind !== 'role'), ID_KEY, OWNER_ID_KEY),
  dir: fc.constantFrom('asc', 'desc', 'ASC', ''),
});

// ---------------------------------------------------------------------------------------------
// The reference evaluation, written independently of query/
// ---------------------------------------------------------------------------------------------

function codePointCompare(a: string, b: string): number {
  const x = Array.from(a, (ch) => ch.codePointAt(0)!);
  const y = Array.from(b, (ch) => ch.codePointAt(0)!);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
  return x.length - y.length;
}

function compare(a: unknown, b: unknown): number {
  if (typeof a === 'string' && typeof b === 'string') return codePointCompare(a, b);
  return (a as number) - (b as number);
}

function holds(op: Op, actual: unknown, expected: unknown): boolean {
  if (actual === null || actual === undefined) return op === 'neq';
  const c = compare(actual, expected);
  switch (op) {
    case 'eq':
      return c === 0;
    case 'neq':
      return c !== 0;
    case 'gt':
      return c > 0;
    case 'gte':
      return c >= 0;
    case 'lt':
      return c < 0;
    case 'lte':
      return c <= 0;
    case 'includes':
      return (actual as string).includes(expected as string);
    case 'like':
      return likeRegExp(expected as string).test(actual as string);
    case 'ilike': {
      const ascii = /^[\x00-\x7f]*$/.test(expected as string);
      const fold = (s: string) => (ascii ? s.replace(/[A-Z]/g, (ch) => ch.toLowerCase()) : s.toLowerCase());
      return likeRegExp(fold(expected as string)).test(fold(actual as string));
    }
  }
}

function likeRegExp(p: string): RegExp {
  let source = '';
  const chars = Array.from(p);
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i];
    if (ch === '\\' && ['%', '_', '*', '\\'].includes(chars[i + 1])) {
      source += escapeRegExp(chars[i + 1]);
      i++;
    } else if (ch === '%' || ch === '*') source += '.*';
    else if (ch === '_') source += '.';
    else source += escapeRegExp(ch);
  }
  return new RegExp(`^${source}$`, 'su');
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

function conditionHolds(cond: Cond, m: Model): boolean {
  const actual = cond.key.get(m);
  if (cond.key.kind === 'array' || cond.key.kind === 'role') {
    const elements = actual as string[];
    if (cond.op === 'neq') return !elements.includes(cond.value as string);
    if (cond.op === 'includes') return elements.includes(cond.value as string);
    return elements.some((e) => holds(cond.op, e, cond.value));
  }
  if (cond.key.kind === 'boolean') return cond.op === 'eq' ? actual === cond.value : actual !== cond.value;
  return holds(cond.op, actual, cond.value);
}

const NUMBER_TEXT = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

function customHolds(cond: CustomCond, m: Model): boolean {
  const stored = cond.field === 'cf1' ? m.cf1 : null;
  const elements = stored === null ? [] : Array.isArray(stored) ? stored : [stored];
  const asNumber = NUMBER_TEXT.test(cond.text) ? Number(cond.text) : null;
  const elementHolds = (op: Op, e: string | number): boolean => {
    if (typeof e === 'number') {
      if (asNumber === null) return false;
      if (op === 'includes') return e === asNumber;
      if (op === 'like' || op === 'ilike') return false;
      return holds(op, e, asNumber);
    }
    return holds(op, e, cond.text);
  };
  if (cond.op === 'neq') return !elements.some((e) => elementHolds('eq', e));
  return elements.some((e) => elementHolds(cond.op, e));
}

function expectedIds(rows: Model[], conds: Cond[], customs: CustomCond[], order: { key: KeyModel; dir: string }): string[] {
  const asc = order.dir === 'asc';
  const sortValue = (m: Model) => {
    const v = order.key.get(m);
    return typeof v === 'boolean' ? (v ? 1 : 0) : v;
  };
  return rows
    .filter((m) => m.access.some((a) => a.companyId === CALLER))
    .filter((m) => conds.every((c) => conditionHolds(c, m)) && customs.every((c) => customHolds(c, m)))
    .sort((a, b) => {
      const va = sortValue(a);
      const vb = sortValue(b);
      let c = 0;
      if (va === null && vb !== null) c = -1;
      else if (va !== null && vb === null) c = 1;
      else if (va !== null && vb !== null) c = compare(va, vb);
      if (!asc) c = -c;
      return c !== 0 ? c : codePointCompare(a.id, b.id);
    })
    .map((m) => m.id);
}

// ---------------------------------------------------------------------------------------------
// The database
// ---------------------------------------------------------------------------------------------

let dir: string;
let db: Db;
let store: ReportStore;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'labeldesk-query-prop-'));
  db = openDatabase(path.join(dir, 'prop.sqlite'));
  registerSqlFunctions(db);
  store = new ReportStore(db);
  for (const c of COMPANIES) insertRow(db, 'companies', { id: c.id, name: c.name, short_code: c.id.toUpperCase() });
});

afterAll(() => {
  db?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});


function load(rows: Model[]): void {
  db.transaction(() => {
    const tables = ['custom_field_values', 'access', 'company_report_state', 'report_datapoints', 'label_reports'];
    for (const table of tables) if (hasTable(db, table)) db.exec(`DELETE FROM ${table}`);
    for (const m of rows) {
      const created = new Date(m.created).toISOString();
      const calculated = {
        numberOfDatapointsRead: 3,
        attainedValues: { minTemperature: m.attainedMin, maxTemperature: m.attainedMin === null ? null : m.attainedMin + 1 },
        numberOfViolations: { temperature: m.violationsAll, humidity: 0, all: m.violationsAll },
      };
      const minimal = {
        flattenedDatapoints: [0, 1, 0],
        numberOfDatapointsAvailable: 3,
        numberOfDatapointsRead: 3,
        numberOfMeasurementsOccurred: 3,
        numberOfViolations: calculated.numberOfViolations,
      };
      insertRow(db, 'label_reports', {
        id: m.id, created, updated: created, owner_company_id: m.owner,
        sub_company: m.subCompanyId === null ? null : JSON.stringify({ id: m.subCompanyId }),
        label_uid: `UID-${m.id}`, label_sequence_code: 'SEQ', label_type: 'TL', label_name: m.labelName,
        firmware_version: '1.0', firmware_api_version: '1', mode: m.mode, type: 'tempSense', status: 'active',
        label_reference: m.labelReference, interval: 60, config_time: 1767225600, start_delay: 0, running_time: 0,
        min_temperature: 2, max_temperature: 8, min_humidity: m.minHumidity, number_of_taps: m.numberOfTaps,
        data_is_incomplete: m.dataIsIncomplete ? 1 : 0, datapoints: Buffer.alloc(0),
        calculated: JSON.stringify(calculated), minimal: JSON.stringify(minimal), alert_level: 0, alert_timestamp: 0,
      });
      if (hasTable(db, 'report_datapoints')) insertRow(db, 'report_datapoints', { label_report_id: m.id, datapoints: Buffer.alloc(0) });
      m.access.forEach((a, i) => insertRow(db, 'access', { id: `${m.id}-a${i}`, label_report_id: m.id, company_id: a.companyId, role: a.role }));
      if (m.hasFlag !== null) insertRow(db, 'company_report_state', { company_id: CALLER, label_report_id: m.id, has_flag: m.hasFlag ? 1 : 0, is_archived: 0 });
      insertRow(db, 'company_report_state', { company_id: 'c2', label_report_id: m.id, has_flag: m.otherFlag ? 1 : 0, is_archived: 0 });
      if (m.cf1 !== null) insertRow(db, 'custom_field_values', { label_report_id: m.id, custom_field_id: 'cf1', value: JSON.stringify(m.cf1) });
    }
  })();
}

const escapeValue = (text: string) => text.replace(/,/g, '\\,');

describe('compileListQuery: SQL agrees with an independent evaluation', () => {
  it('for random rows, filters, customFields and orders', () => {
    assertProperty(
      fc.property(
        rowsArb.chain((rows) =>
          fc.tuple(fc.constant(rows), fc.array(condArb(rows), { maxLength: 3 }), fc.array(customArb(rows), { maxLength: 2 })),
        ),
        orderArb,
        fc.record({ limit: fc.integer({ min: 1, max: 4 }), offset: fc.integer({ min: 0, max: 6 }) }),
        ([rows, rawConds, rawCustoms], order, page) => {
          // A value ending in a backslash would swallow the comma after it: only the last may.
          const fix = <T extends { text: string }>(list: T[]) =>
            list.map((c, i) => (i < list.length - 1 && c.text.endsWith('\\') ? { ...c, text: `${c.text}a`, value: `${c.text}a` } : c));
          const conds = fix(rawConds.map((c) => ({ ...c }))) as Cond[];
          const customs = fix(rawCustoms.map((c) => ({ ...c }))) as CustomCond[];
          const query: Record<string, string> = { order: `${order.key.key}[${order.dir}]` };
          if (conds.length) query.filter = conds.map((c) => `${c.key.key}[${c.op}]${escapeValue(c.text)}`).join(',');
          if (customs.length) query.customFields = customs.map((c) => `${c.field}[${c.op}]${escapeValue(c.text)}`).join(',');
          const compiled = compileListQuery(parseListQuery(query));
          const expected = expectedIds(rows, conds, customs, order);
          db.exec('SAVEPOINT rows');
          try {
            load(rows);
            expect(store.pageIds(CALLER, compiled, 1000, 0), JSON.stringify(query)).toEqual(expected);
            // A page: the same order, cut where the offset and the size say.
            expect(store.pageIds(CALLER, compiled, page.limit, page.offset), JSON.stringify({ query, page })).toEqual(
              expected.slice(page.offset, page.offset + page.limit),
            );
            // As the store compiles it, knowing the owners' keys: an order by the owner company
            // merges one prefix per owner.
            if (order.key.key.startsWith('company.')) {
              expect(store.pageIds(CALLER, store.compile(parseListQuery(query)), page.limit, page.offset), JSON.stringify({ query, page, store: true })).toEqual(
                expected.slice(page.offset, page.offset + page.limit),
              );
            }
          } finally {
            // The rows go as they came, undone rather than deleted through every trigger again.
            db.exec('ROLLBACK TO rows; RELEASE rows');
          }
        },
      ),
      { numRuns: 1000 },
    );
    // A thousand databases, each written through the listing triggers into every listing index:
    // seconds alone, minutes beside two other suites on two cores.
  }, 300_000);
});
