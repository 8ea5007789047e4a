/**
 * Excursion spans as the chart draws them: a run of a few minutes in a run of weeks is narrower
 * than a pixel, so every span is widened about its middle to a minimum width on screen, and so
 * stays visible at any zoom.
 */
import type { TimeRange } from './report-view';

export const MIN_SPAN_PIXELS = 3;

export interface PixelSpan {
  left: number;
  right: number;
}

/** Screen spans of the ranges that meet [from, to] pixels, each at least `minWidth` wide. */
export function visibleSpans(
  ranges: readonly TimeRange[],
  toPixel: (value: number) => number,
  from: number,
  to: number,
  minWidth = MIN_SPAN_PIXELS,
): PixelSpan[] {
  const out: PixelSpan[] = [];
  for (const r of ranges) {
    let left = toPixel(r.start);
    let right = toPixel(r.end);
    if (right - left < minWidth) {
      const middle = (left + right) / 2;
      left = middle - minWidth / 2;
      right = middle + minWidth / 2;
    }
    if (right < from || left > to) continue;
    out.push({ left: Math.max(left, from), right: Math.min(right, to) });
  }
  return out;
}
