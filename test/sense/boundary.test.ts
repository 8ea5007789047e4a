/**
 * The engine trusts its input to be finite; the zod schemas in schema/sense.ts are where
 * NaN, ±Infinity and wrong types are turned away, with the path of the offending value.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { datapointSchema, reportedSenseDataSchema } from '../../schema/sense';

function rejection(schema: z.ZodType, value: unknown): { paths: (string | number)[][]; message: string } {
  const result = schema.safeParse(value);
  expect(result.success).toBe(false);
  const error = (result as { error: z.ZodError }).error;
  return { paths: error.issues.map((i) => i.path as (string | number)[]), message: z.prettifyError(error) };
}

describe('datapointSchema', () => {
  it.each([
    ['NaN temperature', { timestamp: 1, temperature: Number.NaN }, 'temperature'],
    ['Infinity temperature', { timestamp: 1, temperature: Number.POSITIVE_INFINITY }, 'temperature'],
    ['-Infinity temperature', { timestamp: 1, temperature: Number.NEGATIVE_INFINITY }, 'temperature'],
    ['string temperature', { timestamp: 1, temperature: '5' }, 'temperature'],
    ['NaN humidity', { timestamp: 1, temperature: 5, humidity: Number.NaN }, 'humidity'],
    ['fractional timestamp', { timestamp: 1.5, temperature: 5 }, 'timestamp'],
    ['Infinity timestamp', { timestamp: Number.POSITIVE_INFINITY, temperature: 5 }, 'timestamp'],
  ])('rejects a %s and names the field', (_, value, field) => {
    const { paths, message } = rejection(datapointSchema, value);
    expect(paths).toContainEqual([field]);
    expect(message).toContain(`at ${field}`);
  });

  it('accepts a finite datapoint with or without humidity', () => {
    expect(datapointSchema.safeParse({ timestamp: 1, temperature: -5.5 }).success).toBe(true);
    expect(datapointSchema.safeParse({ timestamp: 1, temperature: 5, humidity: 40 }).success).toBe(true);
  });
});

describe('reportedSenseDataSchema', () => {
  it.each([
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['a string', 'warm'],
  ])('rejects %s as the temperature of the second datapoint, at datapoints[1].temperature', (_, temperature) => {
    const { paths, message } = rejection(reportedSenseDataSchema, {
      datapoints: [
        { timestamp: 1, temperature: 5 },
        { timestamp: 2, temperature },
      ],
    });
    expect(paths).toEqual([['datapoints', 1, 'temperature']]);
    expect(message).toContain('datapoints[1].temperature');
  });

  it('rejects a NaN currentTime at its path', () => {
    const { paths } = rejection(reportedSenseDataSchema, { datapoints: [], currentTime: Number.NaN });
    expect(paths).toEqual([['currentTime']]);
  });
});
