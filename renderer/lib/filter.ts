/**
 * Building the `filter` and `customFields` strings of GET /v2/labelReports (docs/api.md#list-parameters). Pure string work, kept apart from the UI so every escaping rule is
 * unit-tested: a wrong escape here silently shows staff the wrong reports.
 */
import type { FilterOperator } from '../../contract/filter-operators';
import type { CustomFieldKind } from '../../schema/review';

export interface Condition {
  readonly key: string;
  readonly op: FilterOperator;
  readonly value: string | number | boolean;
}

/** A custom field id as the API accepts it (docs/api.md#list-parameters: `[A-Za-z0-9_.-]+`). */
export const CUSTOM_FIELD_ID = /^[A-Za-z0-9_.-]+$/;
/** Filter keys are dotted identifiers from the API's allow-list. */
const FILTER_KEY = /^[A-Za-z][A-Za-z0-9]*(\.[A-Za-z][A-Za-z0-9]*)*$/;

/**
 * Conditions are separated by commas, so a comma inside a value is written `\,`.
 * Nothing else is escaped at this level: backslashes stay as they are so that like-escapes
 * (`\%`, `\_`, `\*`, `\\`) reach the pattern matcher untouched.
 */
export function escapeFilterValue(value: string): string {
  return value.replace(/,/g, '\\,');
}

/**
 * Makes user text literal inside a like/ilike pattern: `%` and `*` match any run and `_` one
 * character, so each is backslash-escaped, and the backslash itself first.
 */
export function escapeLikePattern(text: string): string {
  return text.replace(/[\\%_*]/g, (ch) => `\\${ch}`);
}

/** `%text%`: "contains", with the user's text taken literally. */
export function containsPattern(text: string): string {
  return `%${escapeLikePattern(text)}%`;
}

function formatValue(value: string | number | boolean): string {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`filter value ${value} is not a finite number`);
    return String(value);
  }
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return escapeFilterValue(value);
}

export function formatCondition(c: Condition): string {
  if (!FILTER_KEY.test(c.key)) throw new Error(`'${c.key}' is not a filter key`);
  return `${c.key}[${c.op}]${formatValue(c.value)}`;
}

/** The `filter` parameter; undefined when there is nothing to filter on (never an empty condition). */
export function buildFilter(conditions: readonly Condition[]): string | undefined {
  if (conditions.length === 0) return undefined;
  return conditions.map(formatCondition).join(',');
}

export interface CustomFieldCondition {
  readonly fieldId: string;
  readonly op: FilterOperator;
  readonly value: string;
}

/**
 * The `customFields` parameter. Incomplete rows (no id or no value yet) are skipped so a half-typed row
 * in the filter bar never turns into a 400; an id the API would refuse throws instead.
 */
export function buildCustomFieldsFilter(conditions: readonly CustomFieldCondition[]): string | undefined {
  const parts: string[] = [];
  let endsWithBackslash: string | null = null;
  for (const c of conditions) {
    const id = c.fieldId.trim();
    if (id === '' || c.value === '') continue;
    if (!CUSTOM_FIELD_ID.test(id)) {
      throw new Error(`custom field id '${id}' may contain only letters, digits, _ . and -`);
    }
    const part = `${id}[${c.op}]${escapeFilterValue(c.value)}`;
    // The service reads `\,` as a literal comma, so a value ending in a backslash must be the
    // last condition (conditions are ANDed, so moving it changes nothing else).
    if (c.value.endsWith('\\')) {
      if (endsWithBackslash !== null) throw new Error('only one custom field filter value may end with a backslash');
      endsWithBackslash = part;
    } else {
      parts.push(part);
    }
  }
  if (endsWithBackslash !== null) parts.push(endsWithBackslash);
  return parts.length > 0 ? parts.join(',') : undefined;
}


const RANGE_OPERATORS: ReadonlySet<FilterOperator> = new Set(['gt', 'gte', 'lt', 'lte']);
const NUMBER = /^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/;

/** True when the condition only makes sense with a number: a range on a field that is not plain text, or any comparison on a number field. */
export function needsNumber(op: FilterOperator, kind: CustomFieldKind | undefined): boolean {
  if (RANGE_OPERATORS.has(op)) return kind !== 'text';
  return kind === 'number' && (op === 'eq' || op === 'neq');
}

/** Why a custom field condition cannot be sent, in words, or null when it can (or is still incomplete). */
export function customFieldProblem(c: CustomFieldCondition, kind: CustomFieldKind | undefined): string | null {
  const id = c.fieldId.trim();
  if (id !== '' && !CUSTOM_FIELD_ID.test(id)) return 'A field name has only letters, digits and the signs _ . and -.';
  if (c.value !== '' && needsNumber(c.op, kind) && !NUMBER.test(c.value.trim())) {
    return `“${c.value}” is not a number, and ${id || 'this field'} ${kind === 'number' ? 'holds numbers' : 'is compared as a number here'}. Type digits, e.g. 10 or 2.5.`;
  }
  return null;
}

/** The stored id a person meant: ids are matched without regard to case ("Carrier" finds "carrier"). */
export function canonicalFieldId(typed: string, known: readonly string[]): string {
  const id = typed.trim();
  if (known.includes(id)) return id;
  return known.find((k) => k.toLowerCase() === id.toLowerCase()) ?? id;
}

/** A hint for the pattern operators, whose wildcards nobody guesses, and which compare text only. */
export function patternHint(op: FilterOperator, kind?: CustomFieldKind): string | null {
  if (op !== 'like' && op !== 'ilike') return null;
  if (kind === 'number') return 'This field holds numbers, which “like” does not compare: use =, ≥ or ≤ instead.';
  return `Use % for any text and _ for one character: DS% finds values starting with DS${op === 'ilike' ? ', in any case' : ''}.`;
}
