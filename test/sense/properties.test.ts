/**
 * Property-based tests, plus a comparison against a deliberately naive re-statement of
 * docs/figures.md over plain objects.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AlertRule, AlertsConfig, Datapoint, Limits, SenseConfig, Trim } from '../../schema/sense';
import {
  alertSchema,
  calculatedSenseDataSchema,
  DEFAULT_ALERT_RULES,
  minimalSenseDataSchema,
} from '../../schema/sense';
import { computeSense, datapointsFromColumns } from '../../sense';
import type { SenseResult } from '../../sense';
import { assertProperty } from '../support/property';
import { timelineOf } from './helpers';

const RUNS = { numRuns: 200 };

// Half-degree and whole-percent steps make readings land exactly on limits often.
const temperature = fc.integer({ min: -20, max: 40 }).map((x) => x / 2);
const humidity = fc.integer({ min: 0, max: 100 });

/** Unique timestamps, humidity on some datapoints (or none), in any order. */
const datapoints = fc.uniqueArray(
  fc.record(
    { timestamp: fc.integer({ min: 0, max: 200_000 }), temperature, humidity },
    { requiredKeys: ['timestamp', 'temperature'] },
  ),
  { selector: (d) => d.timestamp, maxLength: 160 },
);

const limits: fc.Arbitrary<Limits> = fc
  .record({
    t: fc.tuple(temperature, temperature),
    minHumidity: fc.option(humidity, { nil: undefined }),
    maxHumidity: fc.option(humidity, { nil: undefined }),
  })
  .map(({ t: [a, b], minHumidity, maxHumidity }) => {
    const l: Limits = { minTemperature: Math.min(a, b), maxTemperature: Math.max(a, b) };
    if (minHumidity !== undefined) l.minHumidity = minHumidity;
    if (maxHumidity !== undefined) l.maxHumidity = maxHumidity;
    return l;
  });

const config: fc.Arbitrary<SenseConfig> = fc.record({
  limits,
  interval: fc.integer({ min: 1, max: 1800 }),
  configTime: fc.integer({ min: 0, max: 10_000 }),
  startDelay: fc.integer({ min: 0, max: 3600 }),
  runningTime: fc.constant(0),
});

const rule: fc.Arbitrary<AlertRule> = fc.record({
  level: fc.constantFrom(1, 2),
  kind: fc.constantFrom('cumulative' as const, 'singleEvent' as const),
  seconds: fc.integer({ min: 0, max: 20_000 }),
});
const alertsConfig: fc.Arbitrary<AlertsConfig | null> = fc.option(
  fc.array(rule, { maxLength: 5 }).map((rules) => ({ rules })),
  { nil: null },
);

const trim: fc.Arbitrary<Trim | null> = fc.option(
  fc.tuple(fc.integer({ min: 0, max: 200_000 }), fc.integer({ min: 0, max: 200_000 })).map(([a, b]) => ({
    startTime: Math.min(a, b),
    endTime: Math.max(a, b),
  })),
  { nil: null },
);

interface Case {
  points: Datapoint[];
  config: SenseConfig;
  alertsConfig: AlertsConfig | null;
  trim: Trim | null;
  taps: number;
}
const aCase: fc.Arbitrary<Case> = fc.record({
  points: datapoints,
  config,
  alertsConfig,
  trim,
  taps: fc.integer({ min: 0, max: 3 }),
});

function compute(c: Case, points: readonly Datapoint[] = c.points): SenseResult {
  return computeSense({
    timeline: timelineOf(points),
    reported: {},
    senseConfig: c.config,
    alertsConfig: c.alertsConfig,
    numberOfTaps: c.taps,
    trim: c.trim,
  });
}

describe('properties', () => {
  it('a trim covering every datapoint gives the full calculation', () => {
    assertProperty(
      fc.property(aCase, fc.integer({ min: 0, max: 1000 }), (c, margin) => {
        const untrimmed = compute({ ...c, trim: null });
        const ts = c.points.map((p) => p.timestamp);
        const whole = { startTime: Math.min(0, ...ts) - margin, endTime: Math.max(0, ...ts) + margin };
        const trimmed = compute({ ...c, trim: whole });
        expect(trimmed.trimmed).toEqual(untrimmed.calculated);
        expect(trimmed.calculated).toEqual(untrimmed.calculated);
        expect(trimmed.minimal).toEqual(untrimmed.minimal);
        expect(trimmed.alert).toEqual(untrimmed.alert);
      }),
      RUNS,
    );
  });

  it('an in-range datapoint after the last one never raises the alert level', () => {
    assertProperty(
      fc.property(aCase, fc.integer({ min: 1, max: 5000 }), fc.double({ min: 0, max: 1, noNaN: true }), (c, gap, at) => {
        const { minTemperature, maxTemperature } = c.config.limits;
        const last = c.points.reduce((m, p) => Math.max(m, p.timestamp), 0);
        // Any temperature within the limits, ends included; no humidity, so none can violate.
        const extra = { timestamp: last + gap, temperature: minTemperature + at * (maxTemperature - minTemperature) };
        const open = { ...c, trim: null };
        const before = compute(open).alert.level;
        const after = compute(open, [...c.points, extra]).alert.level;
        expect(after).toBeLessThanOrEqual(before);
      }),
      RUNS,
    );
  });

  it('widening the limits never increases violation durations nor the alert level', () => {
    const widening = fc.record({
      lower: fc.integer({ min: 0, max: 10 }),
      raise: fc.integer({ min: 0, max: 10 }),
      dropMinHumidity: fc.boolean(),
      dropMaxHumidity: fc.boolean(),
      humidityMargin: fc.integer({ min: 0, max: 20 }),
    });
    assertProperty(
      fc.property(aCase, widening, (c, w) => {
        const l = c.config.limits;
        const wide: Limits = {
          minTemperature: l.minTemperature - w.lower / 2,
          maxTemperature: l.maxTemperature + w.raise / 2,
        };
        if (l.minHumidity !== undefined && !w.dropMinHumidity) wide.minHumidity = l.minHumidity - w.humidityMargin;
        if (l.maxHumidity !== undefined && !w.dropMaxHumidity) wide.maxHumidity = l.maxHumidity + w.humidityMargin;
        const narrow = compute(c);
        const widened = compute({ ...c, config: { ...c.config, limits: wide } });
        for (const figures of [
          [narrow.calculated, widened.calculated],
          [narrow.trimmed, widened.trimmed],
        ] as const) {
          if (figures[0] === null || figures[1] === null) continue;
          for (const kind of ['temperature', 'humidity', 'all'] as const) {
            expect(figures[1].durationOfViolations[kind]).toBeLessThanOrEqual(figures[0].durationOfViolations[kind]);
          }
        }
        expect(widened.alert.level).toBeLessThanOrEqual(narrow.alert.level);
      }),
      RUNS,
    );
  });

  it('the order of the input does not change any result', () => {
    assertProperty(
      fc.property(
        aCase.chain((c) =>
          fc.tuple(fc.constant(c), fc.shuffledSubarray(c.points, { minLength: c.points.length, maxLength: c.points.length })),
        ),
        ([c, shuffled]) => {
          expect(compute(c, shuffled)).toEqual(compute(c));
        },
      ),
      RUNS,
    );
  });

  it('flattenedDatapoints has min(n, 50) flags and a 1 exactly when the effective timeline violates', () => {
    assertProperty(
      fc.property(aCase, (c) => {
        const result = compute(c);
        const effective = result.trimmed ?? result.calculated;
        const flags = result.minimal.flattenedDatapoints;
        expect(flags.length).toBe(Math.min(effective.numberOfDatapointsRead, 50));
        expect(flags.includes(1)).toBe(effective.durationOfViolations.all > 0);
      }),
      RUNS,
    );
  });

  it('produces output the response schemas accept (integers where integers are due, no NaN)', () => {
    assertProperty(
      fc.property(aCase, (c) => {
        const result = compute(c);
        const timeline = timelineOf(c.points);
        calculatedSenseDataSchema.parse({ ...result.calculated, datapoints: datapointsFromColumns(timeline) });
        if (result.trimmed !== null) {
          calculatedSenseDataSchema.parse({ ...result.trimmed, datapoints: datapointsFromColumns(result.trimmedTimeline!) });
        }
        minimalSenseDataSchema.parse(result.minimal);
        alertSchema.parse(result.alert);
      }),
      RUNS,
    );
  });

  it('agrees with a naive re-statement of the definitions', () => {
    assertProperty(
      fc.property(aCase, (c) => {
        const result = compute(c);
        const expected = naive(c);
        const effective = result.trimmed ?? result.calculated;
        expect(effective.numberOfViolations).toEqual(expected.numberOfViolations);
        expect(effective.durationOfViolations).toEqual(expected.durationOfViolations);
        expect(effective.attainedValues).toEqual(expected.attainedValues);
        expect(effective.analysedValues.temperature.degreeHour).toBeCloseTo(expected.degreeHour, 9);
        expect(result.minimal.flattenedDatapoints).toEqual(expected.flattened);
        expect(result.alert).toEqual(expected.alert);
      }),
      { numRuns: 300 },
    );
  });
});

/** docs/figures.md read aloud, over objects, with no attempt at speed. */
function naive(c: Case) {
  const byTime = new Map<number, Datapoint>();
  for (const p of c.points) if (!byTime.has(p.timestamp)) byTime.set(p.timestamp, p);
  let points = [...byTime.values()].sort((a, b) => a.timestamp - b.timestamp);
  if (c.trim) points = points.filter((p) => p.timestamp >= c.trim!.startTime && p.timestamp <= c.trim!.endTime);
  const l = c.config.limits;
  const vt = (p: Datapoint) => p.temperature < l.minTemperature || p.temperature > l.maxTemperature;
  const vh = (p: Datapoint) =>
    p.humidity !== undefined &&
    ((l.minHumidity !== undefined && p.humidity < l.minHumidity) || (l.maxHumidity !== undefined && p.humidity > l.maxHumidity));
  const va = (p: Datapoint) => vt(p) || vh(p);
  const runs = (v: (p: Datapoint) => boolean) => points.filter((p, i) => v(p) && (i === 0 || !v(points[i - 1]))).length;
  const count = (v: (p: Datapoint) => boolean) => points.filter(v).length * c.config.interval;

  const attainedValues: Record<string, number | null> = {
    minTemperature: points.length ? Math.min(...points.map((p) => p.temperature)) : null,
    maxTemperature: points.length ? Math.max(...points.map((p) => p.temperature)) : null,
  };
  const hums = points.flatMap((p) => (p.humidity === undefined ? [] : [p.humidity]));
  if (hums.length) {
    attainedValues.minHumidity = Math.min(...hums);
    attainedValues.maxHumidity = Math.max(...hums);
  }

  const n = points.length;
  const flattened =
    n <= 50
      ? points.map((p) => (va(p) ? 1 : 0))
      : Array.from({ length: 50 }, (_, i) =>
          points.slice(Math.floor((i * n) / 50), Math.floor(((i + 1) * n) / 50)).some(va) ? 1 : 0,
        );

  let alert = { level: -1, timestamp: 0 };
  if (c.taps !== 0) {
    const rules = c.alertsConfig?.rules ?? DEFAULT_ALERT_RULES;
    const fired = rules.flatMap((rule) => {
      let cum = 0;
      let run = 0;
      for (const p of points) {
        if (!va(p)) {
          run = 0;
          continue;
        }
        cum++;
        run++;
        const k = rule.kind === 'cumulative' ? cum : run;
        if (k * c.config.interval >= rule.seconds) return [{ level: rule.level, timestamp: p.timestamp }];
      }
      return [];
    });
    const level = Math.max(0, ...fired.map((f) => f.level));
    const timestamp = level === 0 ? 0 : Math.min(...fired.filter((f) => f.level === level).map((f) => f.timestamp));
    alert = { level, timestamp };
  }

  return {
    numberOfViolations: { temperature: runs(vt), humidity: runs(vh), all: runs(va) },
    durationOfViolations: { temperature: count(vt), humidity: count(vh), all: count(va) },
    attainedValues,
    degreeHour:
      (points.reduce(
        (s, p) => s + Math.max(0, p.temperature - l.maxTemperature) + Math.max(0, l.minTemperature - p.temperature),
        0,
      ) *
        c.config.interval) /
      3600,
    flattened,
    alert,
  };
}
