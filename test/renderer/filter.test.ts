import { describe, expect, it } from 'vitest';
import {
  buildCustomFieldsFilter,
  canonicalFieldId,
  customFieldProblem,
  patternHint,
  buildFilter,
  containsPattern,
  escapeFilterValue,
  escapeLikePattern,
  formatCondition,
} from '../../renderer/lib/filter';

/** The service's reading of a filter string (query/: `\,` is a comma, other backslashes stay). */
function splitLikeService(text: string): string[] {
  const parts: string[] = [];
  let current = '';
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\\' && text[i + 1] === ',') {
      current += ',';
      i++;
    } else if (text[i] === ',') {
      parts.push(current);
      current = '';
    } else current += text[i];
  }
  parts.push(current);
  return parts;
}

/** How a like pattern matches, per docs/api.md#list-parameters (`%`/`*` any run, `_` one char, backslash escapes). */
function likeToRegExp(pattern: string, flags = ''): RegExp {
  let re = '';
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i];
    if (ch === '\\' && i + 1 < pattern.length) re += pattern[++i].replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    else if (ch === '%' || ch === '*') re += '.*';
    else if (ch === '_') re += '.';
    else re += ch.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`, flags);
}

describe('filter strings', () => {
  it('escapes commas in values and nothing else', () => {
    expect(escapeFilterValue('a,b\\c')).toBe('a\\,b\\c');
    expect(formatCondition({ key: 'labelReference', op: 'eq', value: 'PO 1,2' })).toBe('labelReference[eq]PO 1\\,2');
  });

  it('formats numbers and booleans, refuses non-finite numbers and odd keys', () => {
    expect(formatCondition({ key: 'alert.level', op: 'gte', value: -1 })).toBe('alert.level[gte]-1');
    expect(formatCondition({ key: 'hasFlag', op: 'eq', value: true })).toBe('hasFlag[eq]true');
    expect(() => formatCondition({ key: 'alert.level', op: 'eq', value: Number.NaN })).toThrow();
    expect(() => formatCondition({ key: 'a[eq]b', op: 'eq', value: 'x' })).toThrow();
  });

  it('joins conditions with commas and gives undefined for none', () => {
    expect(buildFilter([])).toBeUndefined();
    expect(
      buildFilter([
        { key: 'status', op: 'eq', value: 'active' },
        { key: 'labelReference', op: 'ilike', value: '%a,b%' },
      ]),
    ).toBe('status[eq]active,labelReference[ilike]%a\\,b%');
  });

  it('makes like wildcards in user text literal', () => {
    expect(escapeLikePattern('50%_off*\\')).toBe('50\\%\\_off\\*\\\\');
    expect(containsPattern('x')).toBe('%x%');
  });

  it.each(['plain', '50% off', 'a_b', 'star*', 'back\\slash', 'comma, here', 'end\\', '\\,', '%,_*\\'])(
    'a search for %j survives both escapes and matches exactly the texts containing it',
    (text) => {
      const filter = buildFilter([
        { key: 'status', op: 'eq', value: 'active' },
        { key: 'labelReference', op: 'ilike', value: containsPattern(text) },
      ])!;
      const parts = splitLikeService(filter);
      expect(parts).toHaveLength(2);
      const pattern = parts[1].slice('labelReference[ilike]'.length);
      const re = likeToRegExp(pattern, 'i');
      expect(re.test(`before ${text} after`)).toBe(true);
      expect(re.test(text)).toBe(true);
      // A text differing in one wildcard-looking character must not match.
      expect(re.test(text.replace(/[%_*\\,]/g, 'Z'))).toBe(text.replace(/[%_*\\,]/g, 'Z').includes(text));
    },
  );

  it('builds custom field conditions, skipping half-typed rows', () => {
    expect(
      buildCustomFieldsFilter([
        { fieldId: 'carrier', op: 'eq', value: 'DHL, Express' },
        { fieldId: '', op: 'eq', value: 'x' },
        { fieldId: 'pallets', op: 'gte', value: '' },
        { fieldId: ' pallets ', op: 'gt', value: '3' },
      ]),
    ).toBe('carrier[eq]DHL\\, Express,pallets[gt]3');
    expect(buildCustomFieldsFilter([])).toBeUndefined();
    expect(() => buildCustomFieldsFilter([{ fieldId: 'bad id', op: 'eq', value: '1' }])).toThrow(/letters, digits/);
  });

  it('moves a custom value that ends with a backslash last, where the service reads it right', () => {
    const text = buildCustomFieldsFilter([
      { fieldId: 'path', op: 'eq', value: 'C:\\' },
      { fieldId: 'n', op: 'eq', value: '1' },
    ])!;
    expect(text).toBe('n[eq]1,path[eq]C:\\');
    expect(splitLikeService(text)).toEqual(['n[eq]1', 'path[eq]C:\\']);
    expect(() =>
      buildCustomFieldsFilter([
        { fieldId: 'a', op: 'eq', value: 'x\\' },
        { fieldId: 'b', op: 'eq', value: 'y\\' },
      ]),
    ).toThrow(/backslash/);
  });
});

describe('custom field conditions as people type them', () => {
  it('matches a field id in any case to the stored one', () => {
    expect(canonicalFieldId('Carrier', ['batch', 'carrier'])).toBe('carrier');
    expect(canonicalFieldId(' carrier ', ['carrier'])).toBe('carrier');
    expect(canonicalFieldId('Unknown', ['carrier'])).toBe('Unknown');
  });

  it('refuses text where a number is needed, and only there', () => {
    expect(customFieldProblem({ fieldId: 'pallets', op: 'gte', value: 'ten' }, 'number')).toMatch(/“ten” is not a number/);
    expect(customFieldProblem({ fieldId: 'pallets', op: 'eq', value: 'ten' }, 'number')).toMatch(/not a number/);
    expect(customFieldProblem({ fieldId: 'pallets', op: 'gte', value: 'ten' }, undefined)).toMatch(/not a number/);
    expect(customFieldProblem({ fieldId: 'pallets', op: 'gte', value: '-2.5' }, 'number')).toBeNull();
    expect(customFieldProblem({ fieldId: 'pallets', op: 'gte', value: '1e3' }, 'number')).toBeNull();
    expect(customFieldProblem({ fieldId: 'carrier', op: 'gte', value: 'M' }, 'text')).toBeNull();
    expect(customFieldProblem({ fieldId: 'carrier', op: 'eq', value: 'ten' }, 'mixed')).toBeNull();
    expect(customFieldProblem({ fieldId: 'pallets', op: 'like', value: '1%' }, 'number')).toBeNull();
    expect(customFieldProblem({ fieldId: 'pallets', op: 'gte', value: '' }, 'number')).toBeNull();
  });

  it('explains a field name the API would refuse, without naming its parameter', () => {
    const problem = customFieldProblem({ fieldId: 'my field', op: 'eq', value: 'x' }, undefined);
    expect(problem).toMatch(/letters, digits/);
    expect(problem).not.toMatch(/customFieldId/);
  });

  it('explains the wildcards of the pattern operators', () => {
    expect(patternHint('like')).toMatch(/% for any text/);
    expect(patternHint('ilike')).toMatch(/any case/);
    expect(patternHint('eq')).toBeNull();
    expect(patternHint('like', 'number')).toMatch(/holds numbers/);
  });
});
