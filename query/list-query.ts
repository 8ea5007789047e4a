/**
 * Parsing and validating the query parameters of GET /v2/labelReports (docs/api.md#list-parameters). Everything that does not fit is refused with a 400 whose
 * message names the offending input; nothing is silently turned into an empty result.
 *
 * Decisions where the documents are open:
 * - `\,` inside a value is a literal comma; every other backslash is kept as it is (so like
 *   patterns can use `\%`, `\_`, `\*`, `\\`). Consequence: a value that ends with a backslash
 *   can only be the last condition (`a\,` would read as a literal comma); conditions are ANDed,
 *   so that condition can always be moved last.
 * - `filter` and `customFields` each allow at most 50 conditions and 4096 characters (code points).
 * - Numbers: `[+-]?(digits[.digits?] | .digits)([eE][+-]?digits)?`, finite after parsing.
 *   `1e2`, `+5`, `.5`, `007` are numbers; '', `abc`, `Infinity`, `NaN`, `0x10`, `1_000` are not.
 * - Instants (created, updated): ISO 8601 extended format, either a date `YYYY-MM-DD` (midnight
 *   UTC) or a date-time `YYYY-MM-DDThh:mm[:ss[.fraction]]` WITH a zone (`Z`, `±hh:mm`, `±hhmm`,
 *   `±hh`); a date-time without a zone is refused, since it would depend on the server's zone.
 *   The calendar is checked (no Feb 30, no hour 24, no leap second). Years 0000–9999 after
 *   conversion to UTC. A fraction finer than milliseconds is honoured exactly (see `subMillisecond`).
 * - Enum keys (mode, type, status, access.role): eq, neq and includes (on the array key) take only
 *   a value of the enum; other operators compare as strings and take any value.
 * - Parameters another layer reads from the same query string (the API key's) are allowed
 *   through `alsoKnown`; given twice they are a DUPLICATE_PARAMETER like any other parameter
 *   (authentication has already answered 401 when the two values differ).
 */
import { FILTER_OPERATORS, type FilterOperator } from '../contract/filter-operators';
import { invalidInput as badRequest } from '../model/errors';
import { lookupField, type FieldDef } from './fields';

export type ListOutput = 'normal' | 'minimal';

/** The SQL compiler's name for an operator. */
export type Operator = FilterOperator;

/** A parsed `filter` condition on an allow-listed key. */
export interface Condition {
  readonly key: string;
  readonly op: Operator;
  /** The value as given (after `\,` → `,`). For like/ilike, the pattern. */
  readonly raw: string;
  /**
   * The typed value: a number for number keys, a boolean for boolean keys, the canonical
   * `toISOString()` form for instants, the raw string for string keys and patterns.
   */
  readonly value: string | number | boolean;
  /**
   * Instants only: the given time lies strictly between two whole milliseconds (a finer
   * fraction); `value` then holds the earlier millisecond. Stored times are whole milliseconds.
   */
  readonly subMillisecond?: boolean;
}

/** A parsed `customFields` condition. The type of the comparison is decided per stored value. */
export interface CustomFieldCondition {
  readonly customFieldId: string;
  readonly op: Operator;
  /** The value as given (after `\,` → `,`): compared with string elements, or a pattern. */
  readonly value: string;
  /** The value as a number when it parses as one (strict grammar), else null. */
  readonly number: number | null;
}

export interface ListQuery {
  filter: Condition[];
  customFields: CustomFieldCondition[];
  order: { key: string; direction: 'asc' | 'desc' };
  pageNumber: number;
  pageSize: number;
  output: ListOutput;
}

export const DEFAULT_PAGE_SIZE = 100;
export const MAX_CONDITIONS = 50;
export const MAX_CONDITIONS_LENGTH = 4096;

/** The list's own parameters, in the order the unknown-parameter message names them. */
export const LIST_PARAMETERS = ['filter', 'order', 'customFields', 'pageNumber', 'pageSize', 'output'] as const;
export type ListParameter = (typeof LIST_PARAMETERS)[number];

/**
 * A LabelDesk extension of GET /v2/labelReports, not part of the interface (docs/sync.md#pull):
 * a number of bytes, within which the answer adds the page's reports whole, as a retrieve
 * answers each. A mirror asks for it instead of a retrieve per report; a remote that does not
 * know it answers the page without them.
 */
export const WHOLE_REPORTS_PARAMETER = 'wholeReports';
const CUSTOM_FIELD_ID = /^[A-Za-z0-9_.-]+$/;
const STRICT_NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
export const PAGE_VALUE = /^[1-9][0-9]*$/;
const OPERATOR_SET: ReadonlySet<string> = new Set(FILTER_OPERATORS);
const ORDERING_OPS: ReadonlySet<Operator> = new Set(['eq', 'neq', 'gt', 'gte', 'lt', 'lte']);

/** Quotes user input for a message, shortened when very long. */
export function quote(text: string): string {
  const chars = [...text];
  return `'${chars.length > 120 ? `${chars.slice(0, 120).join('')}…` : text}'`;
}

/** A query string as Fastify parses it: each value a string, or string[] when repeated. */
export type RawQuery = Record<string, string | string[] | undefined>;

/**
 * Each parameter of `known` given at most once, as text. An unknown parameter, one given twice
 * or one that is not text is a 400 naming it; `hint` ends the unknown-parameter message.
 */
export function readQueryParameters(query: RawQuery, known: ReadonlySet<string>, hint = ''): Map<string, string> {
  const given = new Map<string, string>();
  for (const name of Object.keys(query)) {
    const value = query[name];
    if (value === undefined) continue;
    if (!known.has(name)) throw badRequest('UNKNOWN_PARAMETER', `unknown query parameter ${quote(name)}${hint}`);
    if (Array.isArray(value)) {
      throw badRequest('DUPLICATE_PARAMETER', `query parameter ${quote(name)} is given ${value.length} times; give it once`);
    }
    if (typeof value !== 'string') {
      throw badRequest('INVALID_PARAMETER', `query parameter ${quote(name)} must be a string`);
    }
    given.set(name, value);
  }
  return given;
}

/** alsoKnown: parameters another layer reads from the same query string, allowed here. */
export function parseListQuery(query: RawQuery, alsoKnown: readonly string[] = []): ListQuery {
  const given = readQueryParameters(
    query,
    new Set([...LIST_PARAMETERS, ...alsoKnown]),
    `; known are ${LIST_PARAMETERS.join(', ')}`,
  );

  const pageNumber = parsePage('pageNumber', given.get('pageNumber'), 1);
  const pageSize = parsePage('pageSize', given.get('pageSize'), DEFAULT_PAGE_SIZE);
  const output = parseOutput(given.get('output'));
  const order = parseOrder(given.get('order'));
  const filter = parseFilter(given.get('filter'));
  const customFields = parseCustomFields(given.get('customFields'));
  return { filter, customFields, order, pageNumber, pageSize, output };
}

export function parsePage(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = PAGE_VALUE.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n)) {
    throw badRequest('INVALID_PAGE', `${name} ${quote(value)} is not a whole number from 1 to ${Number.MAX_SAFE_INTEGER}`);
  }
  return n;
}

function parseOutput(value: string | undefined): ListOutput {
  if (value === undefined) return 'normal';
  if (value === 'normal' || value === 'minimal') return value;
  throw badRequest('INVALID_OUTPUT', `output ${quote(value)} is not one of normal, minimal`);
}

function parseOrder(value: string | undefined): ListQuery['order'] {
  if (value === undefined) return { key: 'created', direction: 'asc' };
  const m = /^([^[\]]*)\[([^\]]*)\]$/.exec(value);
  if (!m) throw badRequest('INVALID_ORDER', `order ${quote(value)} is not of the form key[asc] or key[desc]`);
  const [, key, dir] = m;
  const field = lookupField(key);
  if (!field) throw badRequest('INVALID_ORDER', `unknown order key ${quote(key)}`);
  if (field.array) throw badRequest('INVALID_ORDER', `cannot order by array key ${quote(key)}`);
  return { key, direction: dir === 'asc' ? 'asc' : 'desc' };
}

interface RawCondition {
  readonly text: string;
  readonly name: string;
  readonly op: string;
  readonly value: string;
}

/**
 * Splits `cond(,cond)*` into `name[op]value` parts. `\,` is a literal comma in a value; every
 * other backslash is kept. Refuses empty or malformed conditions and the size limits.
 */
function splitConditions(param: 'filter' | 'customFields', text: string, code: string): RawCondition[] {
  const length = [...text].length;
  if (length > MAX_CONDITIONS_LENGTH) {
    throw badRequest(code, `${param} is ${length} characters long; at most ${MAX_CONDITIONS_LENGTH} are allowed`);
  }
  const parts: { raw: string; unescaped: string }[] = [];
  let raw = '';
  let unescaped = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '\\' && text[i + 1] === ',') {
      raw += '\\,';
      unescaped += ',';
      i++;
    } else if (ch === ',') {
      parts.push({ raw, unescaped });
      raw = '';
      unescaped = '';
    } else {
      raw += ch;
      unescaped += ch;
    }
  }
  parts.push({ raw, unescaped });
  if (parts.length > MAX_CONDITIONS) {
    throw badRequest(code, `${param} has ${parts.length} conditions; at most ${MAX_CONDITIONS} are allowed`);
  }
  return parts.map(({ raw: partRaw, unescaped: part }, index) => {
    if (part === '') {
      throw badRequest(
        code,
        `${param} ${quote(text)} has an empty condition at position ${index + 1}; conditions are key[operator]value separated by commas`,
      );
    }
    const open = part.indexOf('[');
    const close = open < 0 ? -1 : part.indexOf(']', open + 1);
    if (open < 0 || close < 0) {
      throw badRequest(code, `${param} condition ${quote(partRaw)} is not of the form key[operator]value`);
    }
    return { text: partRaw, name: part.slice(0, open), op: part.slice(open + 1, close), value: part.slice(close + 1) };
  });
}

function parseOperator(param: 'filter' | 'customFields', c: RawCondition, code: string): Operator {
  if (!OPERATOR_SET.has(c.op)) {
    throw badRequest(
      code,
      `unknown ${param} operator ${quote(c.op)} in ${quote(c.text)}; operators are ${FILTER_OPERATORS.join(', ')}`,
    );
  }
  return c.op as Operator;
}

function parseFilter(value: string | undefined): Condition[] {
  if (value === undefined || value === '') return [];
  return splitConditions('filter', value, 'INVALID_FILTER').map((c) => {
    const field = lookupField(c.name);
    if (!field) throw badRequest('INVALID_FILTER', `unknown filter key ${quote(c.name)}`);
    const op = parseOperator('filter', c, 'INVALID_FILTER');
    return typedCondition(c, field, op);
  });
}

function typedCondition(c: RawCondition, field: FieldDef, op: Operator): Condition {
  const key = c.name;
  const kind = field.array ? `array key` : `${field.type} key`;
  const notFit = () => badRequest('INVALID_FILTER', `operator ${quote(op)} does not apply to ${kind} ${quote(key)}`);
  switch (field.type) {
    case 'string': {
      if (field.values && (op === 'eq' || op === 'neq' || (field.array && op === 'includes')) && !field.values.includes(c.value)) {
        throw badRequest(
          'INVALID_FILTER',
          `filter value ${quote(c.value)} for ${quote(key)} is not one of ${field.values.join(', ')}`,
        );
      }
      return { key, op, raw: c.value, value: c.value };
    }
    case 'number': {
      if (!ORDERING_OPS.has(op)) throw notFit();
      const n = parseStrictNumber(c.value);
      if (n === null) throw badRequest('INVALID_FILTER', `filter value ${quote(c.value)} for ${quote(key)} is not a number`);
      return { key, op, raw: c.value, value: n };
    }
    case 'boolean': {
      if (op !== 'eq' && op !== 'neq') throw notFit();
      if (c.value !== 'true' && c.value !== 'false') {
        throw badRequest('INVALID_FILTER', `filter value ${quote(c.value)} for ${quote(key)} is not true or false`);
      }
      return { key, op, raw: c.value, value: c.value === 'true' };
    }
    case 'instant': {
      if (!ORDERING_OPS.has(op)) throw notFit();
      const instant = parseInstant(c.value);
      if (typeof instant === 'string') {
        throw badRequest('INVALID_FILTER', `filter value ${quote(c.value)} for ${quote(key)} is not an ISO 8601 date-time: ${instant}`);
      }
      return instant.subMillisecond
        ? { key, op, raw: c.value, value: instant.iso, subMillisecond: true }
        : { key, op, raw: c.value, value: instant.iso };
    }
  }
}

function parseCustomFields(value: string | undefined): CustomFieldCondition[] {
  if (value === undefined || value === '') return [];
  return splitConditions('customFields', value, 'INVALID_CUSTOM_FIELDS').map((c) => {
    if (!CUSTOM_FIELD_ID.test(c.name)) {
      throw badRequest(
        'INVALID_CUSTOM_FIELDS',
        `customFieldId ${quote(c.name)} in ${quote(c.text)} may contain only letters, digits, _ . and -`,
      );
    }
    const op = parseOperator('customFields', c, 'INVALID_CUSTOM_FIELDS');
    return { customFieldId: c.name, op, value: c.value, number: parseStrictNumber(c.value) };
  });
}

/** A finite number written in the strict decimal grammar, else null. */
export function parseStrictNumber(text: string): number | null {
  if (!STRICT_NUMBER.test(text)) return null;
  const n = Number(text);
  return Number.isFinite(n) ? n : null;
}

const INSTANT =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?([Zz]|[+-]\d{2}(?::?\d{2})?)?)?$/;

/**
 * Reads an ISO 8601 date or zoned date-time. Answers the instant in canonical
 * `toISOString()` form (whole milliseconds, truncated) and whether a finer fraction was cut,
 * or a string saying what is wrong.
 */
export function parseInstant(text: string): { iso: string; subMillisecond: boolean } | string {
  const m = INSTANT.exec(text);
  if (!m) {
    return 'expected YYYY-MM-DD or YYYY-MM-DDThh:mm[:ss[.sss]] with Z or ±hh:mm';
  }
  const [, y, mo, d, h, mi, s, frac, zone] = m;
  if (h !== undefined && zone === undefined) return 'a date-time needs a time zone (Z or ±hh:mm)';
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  if (month < 1 || month > 12) return `month ${mo} does not exist`;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
  if (day < 1 || day > days) return `day ${d} does not exist in ${y}-${mo}`;
  const hour = h ?? '00';
  const minute = mi ?? '00';
  const second = s ?? '00';
  if (Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59) return `time ${hour}:${minute}:${second} does not exist`;
  let offset = 'Z';
  if (zone !== undefined && zone !== 'Z' && zone !== 'z') {
    const oh = zone.slice(1, 3);
    const om = zone.length > 3 ? zone.slice(-2) : '00';
    if (Number(oh) > 23 || Number(om) > 59) return `time zone offset ${zone} does not exist`;
    offset = `${zone[0]}${oh}:${om}`;
  }
  const digits = frac ?? '';
  const ms = digits.slice(0, 3).padEnd(3, '0');
  const subMillisecond = /[1-9]/.test(digits.slice(3));
  const date = new Date(`${y}-${mo}-${d}T${hour}:${minute}:${second}.${ms}${offset}`);
  if (Number.isNaN(date.getTime())) return 'not a valid date-time';
  const iso = date.toISOString();
  if (!/^\d{4}-/.test(iso)) return 'the instant lies outside the years 0000 to 9999';
  return { iso, subMillisecond };
}
