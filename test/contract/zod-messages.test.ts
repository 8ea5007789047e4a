import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { describeZodError, formatPath } from '../../contract/zod-messages';

const failure = (schema: z.ZodType, value: unknown) => {
  const result = schema.safeParse(value);
  if (result.success) throw new Error('expected a failure');
  return result.error;
};

describe('describeZodError', () => {
  it('names the JSON path of each problem, array indices in brackets', () => {
    const schema = z.object({ limits: z.object({ maxTemperature: z.number() }), customFields: z.array(z.object({ customFieldId: z.string() })) });
    expect(describeZodError(failure(schema, { limits: { maxTemperature: 'hot' }, customFields: [{ customFieldId: 'a' }, { customFieldId: 7 }] }))).toBe(
      '$.limits.maxTemperature: Invalid input: expected number, received string; ' +
        '$.customFields[1].customFieldId: Invalid input: expected string, received number',
    );
  });

  it('names a single value after what it is, and its own refinements keep their message', () => {
    expect(describeZodError(failure(z.string().min(2, 'at least 2 characters'), 'x'), 'Field id')).toBe('Field id: at least 2 characters');
  });

  it('lists the first problems and counts the rest', () => {
    const error = failure(z.array(z.number()), ['a', 'b', 'c', 'd']);
    expect(describeZodError(error, '$', 2)).toBe(
      '$[0]: Invalid input: expected number, received string; $[1]: Invalid input: expected number, received string; and 2 more',
    );
  });
});

describe('formatPath', () => {
  it('starts from the given root', () => {
    expect(formatPath(['labelReports', 3, 'senseConfig', 'interval'])).toBe('$.labelReports[3].senseConfig.interval');
    expect(formatPath([2, 'id'], '$.labelReports')).toBe('$.labelReports[2].id');
    expect(formatPath([])).toBe('$');
  });
});
