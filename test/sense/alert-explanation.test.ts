/** The alert rules in words, when each fired, and the sentence that says why the level is what it is. */
import { describe, expect, test } from 'vitest';
import type { AlertRule, Datapoint, SenseConfig, Trim } from '../../schema/sense';
import { computeSense } from '../../sense';
import { explainAlert } from '../../sense/alert-explanation';
import { ALERT_LEVEL_NAMES, describeRule, formatDuration, formatUtc, ruleFirings } from '../../sense/alert-rules';
import { makeConfig, series, timelineOf } from './helpers';

function explain(
  points: Datapoint[],
  options: { rules?: AlertRule[] | null; taps?: number; trim?: Trim | null; config?: SenseConfig } = {},
) {
  return explainAlert({
    timeline: timelineOf(points),
    senseConfig: options.config ?? makeConfig(),
    alertsConfig: options.rules === undefined || options.rules === null ? null : { rules: options.rules },
    numberOfTaps: options.taps ?? 1,
    trim: options.trim ?? null,
  });
}

describe('rules in words', () => {
  test('durations as people say them', () => {
    expect([0, 45, 60, 600, 1800, 3600, 5400, 7200, 86_400, 90_000, 93_784].map(formatDuration)).toEqual([
      '0 s', '45 s', '1 min', '10 min', '30 min', '1 h', '1 h 30 min', '2 h', '1 d', '1 d 1 h', '1 d 2 h',
    ]);
  });

  test('a zero middle unit ends a duration there: the seconds after it are not said', () => {
    // 3605 s is "1 h", not "1 h 5 s": the two units said are always neighbours.
    expect([3605, 3660, 86_430, 86_460].map(formatDuration)).toEqual(['1 h', '1 h 1 min', '1 d', '1 d']);
  });

  test('each kind, with the readings it takes at the report interval', () => {
    expect(describeRule({ level: 1, kind: 'cumulative', seconds: 0 }, 600)).toBe('Moderate alert at the first reading out of limits.');
    expect(describeRule({ level: 2, kind: 'singleEvent', seconds: 600 }, 600)).toBe('Critical alert at the first reading out of limits.');
    expect(describeRule({ level: 1, kind: 'cumulative', seconds: 1800 }, 600)).toBe(
      'Moderate alert once readings have been out of limits for 30 min in total (3 readings at the 10 min interval).',
    );
    expect(describeRule({ level: 2, kind: 'singleEvent', seconds: 2000 }, 600)).toBe(
      'Critical alert once readings stay out of limits for 33 min 20 s without a break (4 readings at the 10 min interval in a row).',
    );
  });

  test('every alert level has the name reports, exports and filters show', () => {
    expect([-1, 0, 1, 2].map((level) => ALERT_LEVEL_NAMES[level])).toEqual(['No taps', 'None', 'Moderate', 'Critical']);
    expect(Object.keys(ALERT_LEVEL_NAMES).map(Number).sort((a, b) => a - b)).toEqual([-1, 0, 1, 2]);
  });

  test('times in UTC, seconds only when there are some', () => {
    expect(formatUtc(1_780_000_000)).toBe('2026-05-28 20:26:40 UTC');
    expect(formatUtc(1_780_000_000 - 40)).toBe('2026-05-28 20:26 UTC');
  });
});

describe('when rules fire', () => {
  // 1400 9 · 2000 9 · 2600 5 · 3200 9 · 3800 9 · 4400 9 · 5000 5
  const points = series([9, 9, 5, 9, 9, 9, 5]);
  const rules: AlertRule[] = [
    { level: 1, kind: 'cumulative', seconds: 1800 },
    { level: 2, kind: 'singleEvent', seconds: 1800 },
    { level: 2, kind: 'singleEvent', seconds: 2400 },
    { level: 1, kind: 'cumulative', seconds: 0 },
  ];

  test('cumulative counts every reading out of limits, single event only a run without a break', () => {
    const timeline = timelineOf(points);
    const flags = new Uint8Array(points.map((p) => (p.temperature > 8 ? 1 : 0)));
    expect(ruleFirings(flags, timeline.timestamps, 600, rules)).toEqual([3200, 4400, null, 1400]);
  });

  test('a rule one reading short when the readings end out of limits has not fired', () => {
    const flags = new Uint8Array([0, 1, 1]);
    const timestamps = Float64Array.from([1400, 2000, 2600]);
    const short: AlertRule[] = [
      { level: 1, kind: 'cumulative', seconds: 1800 },
      { level: 2, kind: 'singleEvent', seconds: 1800 },
      { level: 2, kind: 'singleEvent', seconds: 1200 },
    ];
    expect(ruleFirings(flags, timestamps, 600, short)).toEqual([null, null, 2600]);
  });

  test('agree with the alert level the engine stores', () => {
    for (const set of [rules, [rules[2]], [rules[0], rules[2]], []]) {
      const explained = explain(points, { rules: set });
      const engine = computeSense({ timeline: timelineOf(points), reported: {}, senseConfig: makeConfig(), alertsConfig: { rules: set }, numberOfTaps: 1, trim: null });
      expect(explained.alert).toEqual(engine.alert);
      const fired = explained.rules.filter((r) => r.fired);
      const top = Math.max(0, ...fired.map((r) => r.level));
      expect(top).toBe(engine.alert.level);
    }
  });
});

describe('the explanation', () => {
  test('a level set by a rule names the rule, the time and how long readings were out', () => {
    const explained = explain(series([5, 9, 9, 5]));
    expect(explained.alert).toEqual({ level: 1, timestamp: 2000 });
    expect(explained.defaultRules).toBe(true);
    expect(explained.rules.map((r) => [r.fired, r.firedAt])).toEqual([[true, 2000], [false, null]]);
    expect(explained.explanation).toBe(
      'Moderate since 1970-01-01 00:33:20 UTC by the rule "Moderate alert at the first reading out of limits": readings were out of limits for 20 min in the report.',
    );
  });

  test('names the rule that set the level: the highest level fired, and of that level the earliest to fire', () => {
    // 1400 5 · 2000 9 · 2600 9 · 3200 9: moderate at 2000, the single event at 2600, the cumulative one at 3200.
    const points = series([5, 9, 9, 9]);
    const cumulative: AlertRule = { level: 2, kind: 'cumulative', seconds: 1800 };
    const single: AlertRule = { level: 2, kind: 'singleEvent', seconds: 1200 };
    const moderate: AlertRule = { level: 1, kind: 'cumulative', seconds: 0 };
    const explained = explain(points, { rules: [moderate, cumulative, single] });
    expect(explained.rules.map((r) => r.firedAt)).toEqual([2000, 3200, 2600]);
    expect(explained.alert).toEqual({ level: 2, timestamp: 2600 });
    expect(explained.explanation).toBe(
      'Critical since 1970-01-01 00:43:20 UTC by the rule "Critical alert once readings stay out of limits for 20 min without a break (2 readings at the 10 min interval in a row)": readings were out of limits for 30 min in the report.',
    );
    // The rule listed first is not the one named when another of its level fired earlier.
    expect(explain(points, { rules: [cumulative, moderate, single] }).explanation).toBe(explained.explanation);
  });

  test('a reading out of limits by its humidity alone is explained like one out by temperature', () => {
    const config = makeConfig({ limits: { minTemperature: 2, maxTemperature: 8, maxHumidity: 70 } });
    const points = [
      { timestamp: 1400, temperature: 5, humidity: 50 },
      { timestamp: 2000, temperature: 5, humidity: 80 },
      { timestamp: 2600, temperature: 5, humidity: 60 },
    ];
    const explained = explain(points, { config });
    expect(explained.alert).toEqual({ level: 1, timestamp: 2000 });
    expect(explained.rules.map((r) => r.firedAt)).toEqual([2000, null]);
    expect(explained.timeAbove).toEqual({ temperature: 0, humidity: 600 });
    expect(explained.explanation).toBe(
      'Moderate since 1970-01-01 00:33:20 UTC by the rule "Moderate alert at the first reading out of limits": readings were out of limits for 10 min in the report.',
    );
  });

  test('"None" with excursions says that no rule was met, so delays are not mistaken for no data', () => {
    const explained = explain(series([5, 9.3, 9.3, 5]), { rules: [{ level: 1, kind: 'singleEvent', seconds: 1800 }] });
    expect(explained.alert.level).toBe(0);
    expect(explained.excursions).toHaveLength(1);
    expect(explained.rules).toEqual([
      {
        level: 1,
        kind: 'singleEvent',
        seconds: 1800,
        index: 0,
        description: 'Moderate alert once readings stay out of limits for 30 min without a break (3 readings at the 10 min interval in a row).',
        fired: false,
        firedAt: null,
      },
    ]);
    expect(explained.defaultRules).toBe(false);
    expect(explained.explanation).toBe("None: readings were out of limits for 20 min (2 readings) in the report, but no alert rule's condition was met.");
    expect(explain(series([5, 9.3]), { rules: [] }).explanation).toBe(
      'None: readings were out of limits for 10 min (1 reading) in the report, but the report has no alert rules.',
    );
    expect(explain(series([5, 6])).explanation).toBe('None: all 2 readings in the report are within the limits.');
  });

  test('"No taps" only for a label never tapped; readings without a tap are said to be there', () => {
    const never = explain([], { taps: 0 });
    expect(never.alert).toEqual({ level: -1, timestamp: 0 });
    expect(never.explanation).toBe('No taps: the label has not been tapped yet, so there are no readings to judge.');
    const odd = explain(series([9, 9]), { taps: 0 });
    expect(odd.alert.level).toBe(-1);
    expect(odd.rules.every((r) => !r.fired)).toBe(true);
    // The excursions are shown all the same: they are in the data.
    expect(odd.excursions).toHaveLength(1);
    expect(odd.explanation).toBe('No taps: the report counts no tap, so no alert is calculated, although it holds 2 readings.');
    expect(explain([], { taps: 2 }).explanation).toBe('None: the label was tapped but there are no readings in the report yet.');
    expect(explain(series([5, 9]), { taps: 2, trim: { startTime: 0, endTime: 100 } }).explanation).toBe('None: the trimmed range holds no readings.');
  });

  test('with a trim, everything is on the trimmed range and says so', () => {
    // The excursion at 2000 is outside the trim; the one at 4400 inside.
    const points = series([5, 9, 5, 5, 5, 1, 5]);
    const trim = { startTime: 2600, endTime: 5000 };
    const explained = explain(points, { trim });
    expect(explained.range).toBe('trimmed');
    expect(explained.trim).toEqual(trim);
    expect(explained.datapoints).toBe(5);
    expect(explained.excursions.map((e) => e.start)).toEqual([4400]);
    expect(explained.timeAbove.temperature).toBe(0);
    expect(explained.timeBelow.temperature).toBe(600);
    expect(explained.alert).toEqual({ level: 1, timestamp: 4400 });
    expect(explained.explanation).toMatch(/in the trimmed range\.$/);
    expect(explain(points).range).toBe('full');
  });
});
