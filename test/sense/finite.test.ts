/**
 * Every calculated number is finite for every input the schemas accept, however extreme: the
 * boundaries of the physical ranges, the largest intervals and epoch values, huge rule times.
 * JSON writes a non-finite number as null, which no client expects of a figure.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { datapointSchema, HUMIDITY_RANGE, limitsSchema, senseConfigSchema, TEMPERATURE_RANGE } from '../../schema/sense';
import type { Datapoint } from '../../schema/sense';
import { assertProperty } from '../support/property';
import { run } from './helpers';

const edge = <T>(values: readonly T[], any: fc.Arbitrary<T>) => fc.oneof(fc.constantFrom(...values), any);
const celsius = edge([TEMPERATURE_RANGE.min, TEMPERATURE_RANGE.max, 0], fc.double({ min: TEMPERATURE_RANGE.min, max: TEMPERATURE_RANGE.max, noNaN: true }));
const percent = edge([HUMIDITY_RANGE.min, HUMIDITY_RANGE.max], fc.double({ min: HUMIDITY_RANGE.min, max: HUMIDITY_RANGE.max, noNaN: true }));
const seconds = edge([1, Number.MAX_SAFE_INTEGER], fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }));
const epoch = edge([0, -Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER], fc.maxSafeInteger());

/** Every number inside a value, with its path. */
function numbers(value: unknown, path = '$'): [string, number][] {
  if (typeof value === 'number') return [[path, value]];
  if (Array.isArray(value)) return value.flatMap((v, i) => numbers(v, `${path}[${i}]`));
  if (value !== null && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => numbers(v, `${path}.${k}`));
  return [];
}

describe('calculated figures', () => {
  it('are finite numbers (or null where a figure is undefined) for every accepted input', () => {
    assertProperty(
      fc.property(
        fc.uniqueArray(fc.record({ timestamp: epoch, temperature: celsius, humidity: percent }, { requiredKeys: ['timestamp', 'temperature'] }), {
          selector: (d) => d.timestamp,
          maxLength: 30,
        }),
        fc.tuple(celsius, celsius),
        seconds,
        epoch,
        fc.integer({ min: 0, max: 3 }),
        fc.double({ min: 0, max: Number.MAX_VALUE, noNaN: true }),
        (points, [a, b], interval, configTime, taps, ruleSeconds) => {
          const limits = limitsSchema.parse({ minTemperature: Math.min(a, b), maxTemperature: Math.max(a, b), minHumidity: 0, maxHumidity: 100 });
          const config = senseConfigSchema.parse({ limits, interval, configTime, startDelay: 0, runningTime: interval });
          for (const p of points) datapointSchema.parse(p as Datapoint);
          const result = run(points, {
            config,
            numberOfTaps: taps,
            alertsConfig: { rules: [{ level: 2, kind: 'singleEvent', seconds: ruleSeconds }] },
          });
          for (const [path, n] of numbers(result)) expect(Number.isFinite(n), `${path} = ${n}`).toBe(true);
        },
      ),
      { numRuns: 300, seeds: [11] },
    );
  });
});
