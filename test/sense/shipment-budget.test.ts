/**
 * The shipment's combined time beyond a threshold (sense/shipment-budget.ts) against plain sums:
 * one label's is its readings beyond × interval, as durationOfViolations counts; labels one after
 * another add up; labels at the same time count each second once, which a plain count of the
 * seconds covered says; and the budget in words rounds a part of a minute up.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { budgetWords } from '../../model/shipment';
import { combinedSecondsBeyond, type BudgetLabel, type BudgetThreshold } from '../../sense/shipment-budget';
import { assertProperty } from '../support/property';
import { series, timelineOf } from './helpers';

const ABOVE_8: BudgetThreshold = { quantity: 'temperature', direction: 'above', threshold: 8 };

interface Drawn {
  start: number;
  interval: number;
  temperatures: number[];
}

const drawn = fc.record({
  start: fc.integer({ min: 0, max: 5000 }),
  interval: fc.constantFrom(60, 300, 600),
  temperatures: fc.array(fc.constantFrom(4, 7.9, 8, 8.1, 12), { maxLength: 40 }),
});

const labelOf = (d: Drawn): BudgetLabel => ({ timeline: timelineOf(series(d.temperatures, d.start, d.interval)), interval: d.interval });
/** The plain sum: readings beyond the threshold times the interval. */
const plainSum = (d: Drawn) => d.temperatures.filter((t) => t > 8).length * d.interval;

/** Each second covered by a reading beyond, counted once. */
function secondsCovered(labels: readonly Drawn[]): number {
  const covered = new Set<number>();
  for (const d of labels) {
    d.temperatures.forEach((t, i) => {
      if (t <= 8) return;
      for (let s = d.start + i * d.interval; s < d.start + (i + 1) * d.interval; s++) covered.add(s);
    });
  }
  return covered.size;
}

describe('the combined time beyond a threshold', () => {
  it('of one label is its plain sum', () => {
    assertProperty(fc.property(drawn, (d) => combinedSecondsBeyond([labelOf(d)], ABOVE_8) === plainSum(d)));
  });

  it('of labels one after another (legs) is the sum of theirs', () => {
    assertProperty(
      fc.property(fc.array(drawn, { minLength: 1, maxLength: 5 }), (drawns) => {
        // Each label starts after the one before has ended.
        let from = 0;
        const legs = drawns.map((d) => {
          const placed = { ...d, start: from + d.start };
          from = placed.start + (d.temperatures.length + 1) * d.interval;
          return placed;
        });
        const sum = legs.reduce((total, d) => total + plainSum(d), 0);
        return combinedSecondsBeyond(legs.map(labelOf), ABOVE_8) === sum;
      }),
    );
  });

  it('of labels at the same time counts each second once: at most the sum, at least the largest', () => {
    assertProperty(
      fc.property(fc.array(drawn, { minLength: 1, maxLength: 4 }), (drawns) => {
        const combined = combinedSecondsBeyond(drawns.map(labelOf), ABOVE_8);
        const sums = drawns.map(plainSum);
        return combined === secondsCovered(drawns) && combined <= sums.reduce((a, b) => a + b, 0) && combined >= Math.max(...sums);
      }),
    );
  });

  it('below a threshold, on humidity, and within a trim', () => {
    const cold = { timeline: timelineOf(series([1, 3, 1, 1])), interval: 600 };
    expect(combinedSecondsBeyond([cold], { quantity: 'temperature', direction: 'below', threshold: 2 })).toBe(1800);
    expect(combinedSecondsBeyond([cold], { quantity: 'humidity', direction: 'above', threshold: 50 })).toBe(0);
    const trimmed = { ...cold, from: 1400 + 600, to: 1400 + 1800 };
    expect(combinedSecondsBeyond([trimmed], { quantity: 'temperature', direction: 'below', threshold: 2 })).toBe(1200);
  });

  it('in words, a part of a minute rounded up, the excess named', () => {
    expect(budgetWords(41 * 60, 120, 'above', 8, '°C')).toBe('41 of 120 minutes above 8 °C used');
    expect(budgetWords(40 * 60 + 1, 120, 'above', 8, '°C')).toBe('41 of 120 minutes above 8 °C used');
    expect(budgetWords(0, 30, 'below', 2, '°C')).toBe('0 of 30 minutes below 2 °C used');
    expect(budgetWords(150 * 60, 120, 'above', 8, '°C')).toBe('150 of 120 minutes above 8 °C used (30 over)');
  });
});
