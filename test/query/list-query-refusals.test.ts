/**
 * The wording of every refusal of the list parameters: the message is what the user reads in
 * the 400 answer, so each is held whole, not by a fragment.
 */
import { describe, expect, it } from 'vitest';
import { toApiError } from '../../http/errors';
import { InvalidInputError } from '../../model/errors';
import { parseInstant, parseListQuery, quote, readQueryParameters, type RawQuery } from '../../query/list-query';

function refusal(query: RawQuery, alsoKnown: readonly string[] = []): { code: string; message: string } {
  try {
    parseListQuery(query, alsoKnown);
  } catch (err) {
    expect(err).toBeInstanceOf(InvalidInputError);
    const { code, message, statusCode } = toApiError(err);
    expect(statusCode).toBe(400);
    return { code, message };
  }
  throw new Error(`expected a refusal of ${JSON.stringify(query)}`);
}

const OPERATORS = 'eq, neq, gt, gte, lt, lte, like, ilike, includes';

describe('refusals of the parameters themselves', () => {
  it('names an unknown parameter and the known ones', () => {
    expect(refusal({ bogus: '1' })).toEqual({
      code: 'UNKNOWN_PARAMETER',
      message: "unknown query parameter 'bogus'; known are filter, order, customFields, pageNumber, pageSize, output",
    });
  });

  it('ends the unknown-parameter message with the hint given, and with nothing when none is', () => {
    expect(() => readQueryParameters({ x: '1' }, new Set(['y']))).toThrow(
      expect.objectContaining({ code: 'UNKNOWN_PARAMETER', message: "unknown query parameter 'x'" }),
    );
    expect(readQueryParameters({ y: '1', z: undefined }, new Set(['y']))).toEqual(new Map([['y', '1']]));
  });

  it('counts the times a parameter is given', () => {
    expect(refusal({ filter: ['a', 'b', 'c'] })).toEqual({
      code: 'DUPLICATE_PARAMETER',
      message: "query parameter 'filter' is given 3 times; give it once",
    });
    expect(refusal({ key: ['k', 'k'] }, ['key'])).toEqual({
      code: 'DUPLICATE_PARAMETER',
      message: "query parameter 'key' is given 2 times; give it once",
    });
  });

  it('refuses a parameter that is not text', () => {
    expect(refusal({ pageSize: 5 as unknown as string })).toEqual({
      code: 'INVALID_PARAMETER',
      message: "query parameter 'pageSize' must be a string",
    });
  });

  it('names the page parameter, its value and the range', () => {
    expect(refusal({ pageNumber: '0' })).toEqual({
      code: 'INVALID_PAGE',
      message: "pageNumber '0' is not a whole number from 1 to 9007199254740991",
    });
    expect(refusal({ pageSize: '1.5' })).toEqual({
      code: 'INVALID_PAGE',
      message: "pageSize '1.5' is not a whole number from 1 to 9007199254740991",
    });
  });

  it('names the outputs there are', () => {
    expect(refusal({ output: 'full' })).toEqual({ code: 'INVALID_OUTPUT', message: "output 'full' is not one of normal, minimal" });
  });
});

describe('refusals of order', () => {
  it('shows the form an order takes', () => {
    expect(refusal({ order: 'created' })).toEqual({
      code: 'INVALID_ORDER',
      message: "order 'created' is not of the form key[asc] or key[desc]",
    });
  });

  it('names an unknown key and an array key', () => {
    expect(refusal({ order: 'foo[asc]' })).toEqual({ code: 'INVALID_ORDER', message: "unknown order key 'foo'" });
    expect(refusal({ order: 'access.companyId[desc]' })).toEqual({
      code: 'INVALID_ORDER',
      message: "cannot order by array key 'access.companyId'",
    });
  });
});

describe('refusals of the condition grammar', () => {
  it('gives the length and the limit of a too long filter or customFields, in code points', () => {
    expect(refusal({ filter: `labelReference[eq]${'𝄞'.repeat(4096 - 17)}` })).toEqual({
      code: 'INVALID_FILTER',
      message: 'filter is 4097 characters long; at most 4096 are allowed',
    });
    expect(refusal({ customFields: `a[eq]${'x'.repeat(4092)}` })).toEqual({
      code: 'INVALID_CUSTOM_FIELDS',
      message: 'customFields is 4097 characters long; at most 4096 are allowed',
    });
  });

  it('gives the count and the limit of too many conditions', () => {
    expect(refusal({ filter: Array(51).fill('id[eq]1').join(',') })).toEqual({
      code: 'INVALID_FILTER',
      message: 'filter has 51 conditions; at most 50 are allowed',
    });
    expect(refusal({ customFields: Array(52).fill('a[eq]1').join(',') })).toEqual({
      code: 'INVALID_CUSTOM_FIELDS',
      message: 'customFields has 52 conditions; at most 50 are allowed',
    });
  });

  it('gives the position of an empty condition', () => {
    expect(refusal({ filter: 'id[eq]1,,id[eq]2' })).toEqual({
      code: 'INVALID_FILTER',
      message: "filter 'id[eq]1,,id[eq]2' has an empty condition at position 2; conditions are key[operator]value separated by commas",
    });
    expect(refusal({ customFields: ',a[eq]1' })).toEqual({
      code: 'INVALID_CUSTOM_FIELDS',
      message: "customFields ',a[eq]1' has an empty condition at position 1; conditions are key[operator]value separated by commas",
    });
  });

  it('quotes a malformed condition as given, escaped commas included', () => {
    expect(refusal({ filter: 'id[eq]1,label\\,name' })).toEqual({
      code: 'INVALID_FILTER',
      message: "filter condition 'label\\,name' is not of the form key[operator]value",
    });
    // a closing bracket before the opening one does not close it
    expect(refusal({ filter: 'id][eq' })).toEqual({
      code: 'INVALID_FILTER',
      message: "filter condition 'id][eq' is not of the form key[operator]value",
    });
    expect(refusal({ customFields: 'a]b[' })).toEqual({
      code: 'INVALID_CUSTOM_FIELDS',
      message: "customFields condition 'a]b[' is not of the form key[operator]value",
    });
  });

  it('names an unknown operator, the condition and the operators there are', () => {
    expect(refusal({ filter: 'id[EQ]a\\,b' })).toEqual({
      code: 'INVALID_FILTER',
      message: `unknown filter operator 'EQ' in 'id[EQ]a\\,b'; operators are ${OPERATORS}`,
    });
    expect(refusal({ customFields: 'a[has]1' })).toEqual({
      code: 'INVALID_CUSTOM_FIELDS',
      message: `unknown customFields operator 'has' in 'a[has]1'; operators are ${OPERATORS}`,
    });
  });

  it('names an unknown key before looking at the operator', () => {
    expect(refusal({ filter: 'foo[bar]1' })).toEqual({ code: 'INVALID_FILTER', message: "unknown filter key 'foo'" });
  });

  it('names a bad customFieldId and its condition', () => {
    expect(refusal({ customFields: 'a b[eq]1' })).toEqual({
      code: 'INVALID_CUSTOM_FIELDS',
      message: "customFieldId 'a b' in 'a b[eq]1' may contain only letters, digits, _ . and -",
    });
    expect(refusal({ customFields: 'ok[eq]1,a/b[eq]1' }).message).toBe(
      "customFieldId 'a/b' in 'a/b[eq]1' may contain only letters, digits, _ . and -",
    );
  });
});

describe('refusals of a value that does not fit its key', () => {
  it('names the operator and the kind of key it does not apply to', () => {
    expect(refusal({ filter: 'numberOfTaps[like]1' }).message).toBe("operator 'like' does not apply to number key 'numberOfTaps'");
    expect(refusal({ filter: 'hasFlag[gte]true' }).message).toBe("operator 'gte' does not apply to boolean key 'hasFlag'");
    expect(refusal({ filter: 'updated[includes]2026' }).message).toBe("operator 'includes' does not apply to instant key 'updated'");
    expect(refusal({ filter: 'hasFlag[gt]true' }).code).toBe('INVALID_FILTER');
  });

  it('names the values of an enum', () => {
    expect(refusal({ filter: 'mode[eq]plane' })).toEqual({
      code: 'INVALID_FILTER',
      message: "filter value 'plane' for 'mode' is not one of airFreight, roadTransport, seaFreight, railFreight, stationary, unknown",
    });
    expect(refusal({ filter: 'access.role[neq]admin' }).message).toBe("filter value 'admin' for 'access.role' is not one of owner, editor, viewer");
  });

  it('says a number or a boolean is not one', () => {
    expect(refusal({ filter: 'numberOfTaps[eq]x' })).toEqual({
      code: 'INVALID_FILTER',
      message: "filter value 'x' for 'numberOfTaps' is not a number",
    });
    expect(refusal({ filter: 'hasFlag[eq]x' })).toEqual({
      code: 'INVALID_FILTER',
      message: "filter value 'x' for 'hasFlag' is not true or false",
    });
  });

  it.each([
    ['x', 'expected YYYY-MM-DD or YYYY-MM-DDThh:mm[:ss[.sss]] with Z or ±hh:mm'],
    ['2026-11-20T10:00:00', 'a date-time needs a time zone (Z or ±hh:mm)'],
    ['2026-11-20T10:00', 'a date-time needs a time zone (Z or ±hh:mm)'],
    ['2026-11-20T10:00:00.5', 'a date-time needs a time zone (Z or ±hh:mm)'],
    ['2026-13-01', 'month 13 does not exist'],
    ['2026-00-01', 'month 00 does not exist'],
    ['2026-02-30', 'day 30 does not exist in 2026-02'],
    ['2026-04-00', 'day 00 does not exist in 2026-04'],
    ['2026-11-20T24:00Z', 'time 24:00:00 does not exist'],
    ['2026-11-20T10:60Z', 'time 10:60:00 does not exist'],
    ['2026-11-20T10:00:60Z', 'time 10:00:60 does not exist'],
    ['2026-11-20T10:00+24:00', 'time zone offset +24:00 does not exist'],
    ['2026-11-20T10:00-0060', 'time zone offset -0060 does not exist'],
    ['0000-01-01T00:00+01:00', 'the instant lies outside the years 0000 to 9999'],
    ['9999-12-31T23:00-05:00', 'the instant lies outside the years 0000 to 9999'],
  ])('says what is wrong with the instant %j', (value, why) => {
    expect(parseInstant(value)).toBe(why);
    expect(refusal({ filter: `created[gt]${value}` })).toEqual({
      code: 'INVALID_FILTER',
      message: `filter value '${value}' for 'created' is not an ISO 8601 date-time: ${why}`,
    });
  });
});

describe('quoting input in a message', () => {
  it('quotes short input whole', () => {
    expect(quote('')).toBe("''");
    expect(quote('x'.repeat(120))).toBe(`'${'x'.repeat(120)}'`);
  });

  it('cuts input past 120 characters, counted in code points, and marks the cut', () => {
    expect(quote('x'.repeat(121))).toBe(`'${'x'.repeat(120)}…'`);
    expect(quote('𝄞'.repeat(120))).toBe(`'${'𝄞'.repeat(120)}'`);
    expect(quote(`${'𝄞'.repeat(120)}ab`)).toBe(`'${'𝄞'.repeat(120)}…'`);
  });
});
