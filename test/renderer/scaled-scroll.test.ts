import fc from 'fast-check';
import { assertProperty } from '../support/property';
import { describe, expect, it } from 'vitest';
import { offsetAt, SAFE_MAX_SCROLL_HEIGHT, scrollScale, scrollTopFor, scrollTopToReveal } from '../../renderer/lib/scaled-scroll';
import type { ScrollScale } from '../../renderer/lib/scaled-scroll';

const ROW = 44;
const RUNS = Number(process.env.SCALED_SCROLL_RUNS ?? 200);

/**
 * Lists from a handful of rows to 50 million, viewports from three rows to a tall screen, caps
 * from tiny (so small lists are scaled too) to the real one. Kept where a gap-free mapping exists:
 * one scroll pixel may stand for at most half a viewport of list.
 */
const feasible = fc
  .record({
    rows: fc.integer({ min: 1, max: 50_000_000 }),
    viewport: fc.integer({ min: 3 * ROW, max: 2000 }),
    cap: fc.oneof(fc.integer({ min: 500, max: 200_000 }), fc.constant(SAFE_MAX_SCROLL_HEIGHT), fc.constant(17_000_000)),
  })
  .filter(({ rows, viewport, cap }) => cap > viewport && (rows * ROW) / Math.max(1, cap - viewport) <= viewport / 2 - 1);

const scaleOf = ({ rows, viewport, cap }: { rows: number; viewport: number; cap: number }) => scrollScale(rows * ROW, viewport, cap);

/** Scroll positions worth looking at: both ends, around page boundaries, and anywhere. */
const positions = (scale: ScrollScale) =>
  fc.oneof(
    fc.constantFrom(...[0, 1, scale.maxScrollTop - 1, scale.maxScrollTop].map((top) => Math.min(scale.maxScrollTop, Math.max(0, top)))),
    fc.integer({ min: 0, max: scale.maxScrollTop }),
    fc.integer({ min: 0, max: Math.max(0, scale.boundaries) }).chain((k) => {
      const edge = Math.ceil((k * scale.maxScrollTop) / (scale.boundaries + 1));
      return fc.integer({ min: Math.max(0, edge - 2), max: Math.min(scale.maxScrollTop, edge + 2) });
    }),
  );

describe('scaled scrolling', () => {
  it('is the identity while the list fits under the cap', () => {
    const scale = scrollScale(1000 * ROW, 800, SAFE_MAX_SCROLL_HEIGHT);
    expect(scale.boundaries).toBe(0);
    expect(scale.physicalHeight).toBe(1000 * ROW);
    for (const top of [0, 1, 4321, scale.maxScrollTop]) expect(offsetAt(scale, top)).toBe(top);
    expect(scrollTopFor(scale, 4321, 'atOrBefore')).toBe(4321);
  });

  it('scales a million rows into the cap', () => {
    const scale = scrollScale(1_000_000 * ROW, 1000, SAFE_MAX_SCROLL_HEIGHT);
    expect(scale.physicalHeight).toBe(SAFE_MAX_SCROLL_HEIGHT);
    expect(offsetAt(scale, 0)).toBe(0);
    expect(offsetAt(scale, scale.maxScrollTop)).toBe(1_000_000 * ROW - 1000);
    // Pages are long: a wheel or arrow scrolls many rows one by one before the next jump.
    expect(scale.maxScrollTop / (scale.boundaries + 1)).toBeGreaterThan(10 * ROW);
  });

  it('grows with the scroll position, shows the first row at the top and the last at the end', () => {
    assertProperty(
      fc.property(
        feasible.chain((p) => {
          const scale = scaleOf(p);
          return fc.tuple(fc.constant(scale), positions(scale), positions(scale));
        }),
        ([scale, a, b]) => {
          expect(scale.physicalHeight).toBeLessThanOrEqual(Math.max(scale.contentHeight, 1));
          expect(offsetAt(scale, 0)).toBe(0);
          expect(offsetAt(scale, scale.maxScrollTop)).toBe(scale.maxOffset);
          if (a < b) expect(offsetAt(scale, a)).toBeLessThan(offsetAt(scale, b));
          if (a === b) expect(offsetAt(scale, a)).toBe(offsetAt(scale, b));
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('skips no row: one scroll pixel never moves the list by more than half the viewport', () => {
    assertProperty(
      fc.property(
        feasible.chain((p) => {
          const scale = scaleOf(p);
          return fc.tuple(fc.constant(scale), positions(scale));
        }),
        ([scale, top]) => {
          fc.pre(top < scale.maxScrollTop);
          const step = offsetAt(scale, top + 1) - offsetAt(scale, top);
          expect(step).toBeGreaterThanOrEqual(1);
          // What was at the bottom of the viewport is still on screen one pixel later.
          expect(step).toBeLessThanOrEqual(Math.floor(scale.viewportHeight / 2) + 1);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('moves row by row on small scrolls, except across a page boundary', () => {
    assertProperty(
      fc.property(
        feasible.chain((p) => {
          const scale = scaleOf(p);
          return fc.tuple(fc.constant(scale), positions(scale), fc.integer({ min: 1, max: 3 * ROW }));
        }),
        ([scale, top, delta]) => {
          fc.pre(top + delta <= scale.maxScrollTop);
          const moved = offsetAt(scale, top + delta) - offsetAt(scale, top);
          const page = (at: number) => Math.min(scale.boundaries, Math.floor((at * (scale.boundaries + 1)) / scale.maxScrollTop));
          const crosses = scale.boundaries > 0 && page(top) !== page(top + delta);
          if (!crosses) expect(moved).toBe(delta);
          else expect(moved).toBeGreaterThan(delta);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('finds the scroll position for any offset, from either side', () => {
    assertProperty(
      fc.property(
        feasible.chain((p) => {
          const scale = scaleOf(p);
          return fc.tuple(fc.constant(scale), fc.integer({ min: 0, max: scale.maxOffset }));
        }),
        ([scale, offset]) => {
          const before = scrollTopFor(scale, offset, 'atOrBefore');
          expect(offsetAt(scale, before)).toBeLessThanOrEqual(offset);
          if (before < scale.maxScrollTop) expect(offsetAt(scale, before + 1)).toBeGreaterThan(offset);
          // Inside a jump the offset is still within half a viewport of the top edge.
          expect(offset - offsetAt(scale, before)).toBeLessThanOrEqual(Math.floor(scale.viewportHeight / 2));
          const after = scrollTopFor(scale, offset, 'atOrAfter');
          expect(offsetAt(scale, after)).toBeGreaterThanOrEqual(offset);
          if (after > 0) expect(offsetAt(scale, after - 1)).toBeLessThan(offset);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('brings any row fully on screen, wherever the list is scrolled to', () => {
    assertProperty(
      fc.property(
        feasible.chain((p) => {
          const scale = scaleOf(p);
          const rows = scale.contentHeight / ROW;
          return fc.tuple(fc.constant(scale), positions(scale), fc.integer({ min: 0, max: rows - 1 }));
        }),
        ([scale, from, row]) => {
          const top = row * ROW;
          const to = scrollTopToReveal(scale, from, top, top + ROW) ?? from;
          const shown = offsetAt(scale, to);
          expect(top).toBeGreaterThanOrEqual(shown);
          expect(top + ROW).toBeLessThanOrEqual(shown + scale.viewportHeight);
          // A jump (from below, or from more than a screen above) puts the row at the top, as near as the pages
          // allow, unless the list ends first.
          const was = offsetAt(scale, from);
          const far = top < was || top + ROW > was + 2 * scale.viewportHeight;
          if (far && to < scale.maxScrollTop) expect(top - shown).toBeLessThanOrEqual(Math.floor(scale.viewportHeight / 2));
        },
      ),
      { numRuns: RUNS },
    );
  });
});
