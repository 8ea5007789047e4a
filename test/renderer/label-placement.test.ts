import fc from 'fast-check';
import { assertProperty } from '../support/property';
import { describe, expect, it } from 'vitest';
import { overlaps, placeLabels } from '../../renderer/lib/label-placement';
import { visibleSpans } from '../../renderer/lib/excursion-marks';

const bounds = { left: 50, top: 10, right: 850, bottom: 330 };

describe('chart label placement', () => {
  it('moves "Trim end" off "Min 40.0 %RH" when the trim ends at the right edge near the humidity limit', () => {
    const minHumidity = { id: 'minHumidity', x: 850 - 104 - 4, y: 14, width: 104, height: 18 };
    const trimEnd = { id: 'trimEnd', x: 845 - 70 - 3, y: 14, width: 70, height: 18 };
    const [a, b] = placeLabels([minHumidity, trimEnd], bounds);
    expect(a).toMatchObject({ x: minHumidity.x, y: minHumidity.y });
    expect(overlaps(a, b)).toBe(false);
    // It slid along its line, not across the chart.
    expect(b.x).toBe(trimEnd.x);
  });

  it('keeps a label at its place when nothing is in the way', () => {
    const placed = placeLabels([{ id: 'max', x: 54, y: 100, width: 90, height: 18 }], bounds);
    expect(placed[0]).toMatchObject({ x: 54, y: 100 });
  });

  it('keeps labels inside the chart area', () => {
    const [p] = placeLabels([{ id: 'max', x: 54, y: -20, width: 90, height: 18 }], bounds);
    expect(p.y).toBe(bounds.top);
  });

  it('never lets two labels overlap while there is room (property)', () => {
    const label = fc.record({
      x: fc.integer({ min: 50, max: 750 }),
      y: fc.integer({ min: 10, max: 300 }),
      width: fc.integer({ min: 40, max: 120 }),
    });
    assertProperty(
      fc.property(fc.array(label, { minLength: 1, maxLength: 6 }), (labels) => {
        const placed = placeLabels(
          labels.map((l, i) => ({ id: String(i), ...l, height: 18 })),
          bounds,
        );
        for (const p of placed) {
          expect(p.y).toBeGreaterThanOrEqual(bounds.top);
          expect(p.y + p.height).toBeLessThanOrEqual(bounds.bottom);
        }
        for (let i = 0; i < placed.length; i++) for (let j = i + 1; j < placed.length; j++) expect(overlaps(placed[i], placed[j])).toBe(false);
      }),
    );
  });
});

describe('excursion spans on screen', () => {
  it('widens a span narrower than a pixel so that it stays visible', () => {
    // 19 days over 800 px: a 10-minute excursion is a third of a pixel.
    const day = 86400;
    const toPixel = (t: number) => 50 + (t / (19 * day)) * 800;
    const spans = visibleSpans([{ start: 5 * day, end: 5 * day + 600 }], toPixel, 50, 850);
    expect(spans).toHaveLength(1);
    expect(spans[0].right - spans[0].left).toBeCloseTo(3, 6);
  });

  it('leaves out spans outside the view and cuts those at its edges', () => {
    const toPixel = (t: number) => t;
    expect(visibleSpans([{ start: 0, end: 10 }, { start: 90, end: 200 }, { start: 300, end: 400 }], toPixel, 50, 150)).toEqual([{ left: 90, right: 150 }]);
  });
});
