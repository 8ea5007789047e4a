/**
 * Alert levels, worked by hand on the reference timeline of figures.test.ts:
 *
 *   index        0     1     2     3     4     5     6     7     8     9
 *   timestamp 1400  2000  2600  3200  3800  4400  5000  5600  6200  6800
 *   °C           5     9    10     5     1     8     2    11     5     5
 *   violates     .     x     x     .     x     .     .     x     .     .
 *   C            0     1     2     2     3     3     3     4     4     4
 *   R            0     1     2     0     1     0     0     1     0     0
 *
 * interval 600, so C × interval reaches 600, 1200, 1800, 2400 at 2000, 2600, 3800, 5600 and the
 * longest run (R = 2, 1200 s) ends at 2600.
 */
import { describe, expect, it } from 'vitest';
import type { AlertRule } from '../../schema/sense';
import { run, series } from './helpers';

const REFERENCE = series([5, 9, 10, 5, 1, 8, 2, 11, 5, 5]);
const alertWith = (rules: AlertRule[]) => run(REFERENCE, { alertsConfig: { rules } }).alert;

describe('alert', () => {
  it('is −1 before the first tap, whatever the violations', () => {
    expect(run(REFERENCE, { numberOfTaps: 0 }).alert).toEqual({ level: -1, timestamp: 0 });
  });

  it('uses the default rules when alertsConfig is null: level 1 at the first violation', () => {
    // cumulative 0 s fires at C = 1 (2000); cumulative 3600 s would need C = 6, there are 4.
    expect(run(REFERENCE).alert).toEqual({ level: 1, timestamp: 2000 });
  });

  it('reaches the default level 2 after an hour of cumulative violation', () => {
    // Seven violating readings at 600 s: C × 600 ≥ 3600 first at C = 6, the 6th violating datapoint.
    const temps = [9, 9, 5, 9, 9, 5, 9, 9, 9];
    // violating indices 0 1 3 4 6 7 8 → the 6th is index 7, timestamp 1400 + 7 × 600 = 5600.
    expect(run(series(temps)).alert).toEqual({ level: 2, timestamp: 5600 });
  });

  it('fires singleEvent on the current run and cumulative on the total', () => {
    // singleEvent 1200: R = 2 at 2600. cumulative 1800: C = 3 at 3800. Both level 2 → earliest, 2600.
    expect(
      alertWith([
        { level: 2, kind: 'singleEvent', seconds: 1200 },
        { level: 2, kind: 'cumulative', seconds: 1800 },
      ]),
    ).toEqual({ level: 2, timestamp: 2600 });
  });

  it('does not fire singleEvent when no single run is long enough, even if the total is', () => {
    // Longest run 1200 s < 1800 s, though C × 600 reaches 2400.
    expect(alertWith([{ level: 1, kind: 'singleEvent', seconds: 1800 }])).toEqual({ level: 0, timestamp: 0 });
    expect(alertWith([{ level: 1, kind: 'cumulative', seconds: 1800 }])).toEqual({ level: 1, timestamp: 3800 });
  });

  it('takes the highest fired level, even when it fired after a lower one', () => {
    // level 1 cumulative 0 at 2000; level 2 cumulative 2400 at C = 4, 5600.
    expect(
      alertWith([
        { level: 2, kind: 'cumulative', seconds: 2400 },
        { level: 1, kind: 'cumulative', seconds: 0 },
      ]),
    ).toEqual({ level: 2, timestamp: 5600 });
  });

  it('takes the earliest firing among the rules of the top level, whatever their order', () => {
    // cumulative 1800 → 3800; singleEvent 1200 → 2600; so 2600 either way round.
    const a: AlertRule = { level: 1, kind: 'cumulative', seconds: 1800 };
    const b: AlertRule = { level: 1, kind: 'singleEvent', seconds: 1200 };
    expect(alertWith([a, b])).toEqual({ level: 1, timestamp: 2600 });
    expect(alertWith([b, a])).toEqual({ level: 1, timestamp: 2600 });
  });

  it('compares C × interval ≥ seconds exactly, seconds needing no multiple of the interval', () => {
    // 1000 s: C × 600 ≥ 1000 first at C = 2 (2600). 1200 s: also C = 2. 1201 s: C = 3 (3800).
    expect(alertWith([{ level: 1, kind: 'cumulative', seconds: 1000 }]).timestamp).toBe(2600);
    expect(alertWith([{ level: 1, kind: 'cumulative', seconds: 1200 }]).timestamp).toBe(2600);
    expect(alertWith([{ level: 1, kind: 'cumulative', seconds: 1201 }]).timestamp).toBe(3800);
    // singleEvent 601 s: R × 600 ≥ 601 needs R = 2, at 2600.
    expect(alertWith([{ level: 2, kind: 'singleEvent', seconds: 601 }])).toEqual({ level: 2, timestamp: 2600 });
  });

  it('fires a 0-second rule only at a violating datapoint', () => {
    const calm = series([5, 5, 5]);
    expect(run(calm).alert).toEqual({ level: 0, timestamp: 0 });
    expect(run(calm, { alertsConfig: { rules: [{ level: 2, kind: 'singleEvent', seconds: 0 }] } }).alert).toEqual({
      level: 0,
      timestamp: 0,
    });
  });

  it('is level 0 with an empty rule list', () => {
    expect(alertWith([])).toEqual({ level: 0, timestamp: 0 });
  });

  it('walks only the trimmed timeline when a trim is set', () => {
    // Trim 3000..6800 keeps violating datapoints at 3800 and 5600 only.
    const trim = { startTime: 3000, endTime: 6800 };
    expect(run(REFERENCE, { trim }).alert).toEqual({ level: 1, timestamp: 3800 });
    expect(
      run(REFERENCE, { trim, alertsConfig: { rules: [{ level: 2, kind: 'singleEvent', seconds: 1200 }] } }).alert,
    ).toEqual({ level: 0, timestamp: 0 });
  });

  it('counts a humidity-only violation like any other', () => {
    const points = [
      { timestamp: 100, temperature: 5, humidity: 50 },
      { timestamp: 200, temperature: 5, humidity: 95 },
    ];
    const config = { limits: { minTemperature: 2, maxTemperature: 8, maxHumidity: 90 }, interval: 100, configTime: 0, startDelay: 0, runningTime: 0 };
    expect(run(points, { config }).alert).toEqual({ level: 1, timestamp: 200 });
  });
});
