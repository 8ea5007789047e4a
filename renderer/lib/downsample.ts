/**
 * Min/max-preserving downsampling for the detail chart. A long run (a sea freight label at a
 * one-minute interval holds ~100 000 readings) would make the canvas crawl; plain averaging or
 * striding would hide the one spike that made the shipment critical. Each bucket therefore keeps
 * its lowest AND its highest reading, in time order, plus the series' first and last point, so
 * every excursion still shows at its true height.
 */

export interface XY {
  x: number;
  y: number;
}

export const DEFAULT_TARGET_POINTS = 2000;

/**
 * At most `target` points (target ≥ 4), a subsequence of `points` (same objects, same order).
 * Points are assumed ordered by x; the buckets are equal runs of points, not of time, which keeps
 * the cost one pass and the output size exact even when readings have gaps.
 */
export function downsampleMinMax<T extends XY>(points: readonly T[], target: number = DEFAULT_TARGET_POINTS): T[] {
  const n = points.length;
  if (target < 4) throw new RangeError('downsampling needs a target of at least 4 points');
  if (n <= target) return points.slice();

  const out: T[] = [points[0]];
  const inner = n - 2; // points between the first and the last
  const buckets = Math.floor((target - 2) / 2);
  for (let b = 0; b < buckets; b++) {
    const start = 1 + Math.floor((b * inner) / buckets);
    const end = 1 + Math.floor(((b + 1) * inner) / buckets);
    if (start >= end) continue;
    let minI = start;
    let maxI = start;
    for (let i = start + 1; i < end; i++) {
      const y = points[i].y;
      if (y < points[minI].y) minI = i;
      if (y > points[maxI].y) maxI = i;
    }
    if (minI === maxI) out.push(points[minI]);
    else if (minI < maxI) out.push(points[minI], points[maxI]);
    else out.push(points[maxI], points[minI]);
  }
  out.push(points[n - 1]);
  return out;
}

/** Index of the first point with x ≥ value (points ordered by x). */
function firstAtOrAfter<T extends XY>(points: readonly T[], value: number): number {
  let lo = 0;
  let hi = points.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (points[mid].x < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The points a zoomed chart draws: those between `from` and `to` plus one neighbour on each side
 * (so the line runs to the edges), downsampled to `target`. Zoomed in, the window holds fewer
 * points than the whole run, so it is drawn in more detail; zoomed out, its peaks are still kept.
 */
export function downsampleWindow<T extends XY>(points: readonly T[], from: number, to: number, target: number = DEFAULT_TARGET_POINTS): T[] {
  const start = Math.max(0, firstAtOrAfter(points, from) - 1);
  const end = Math.min(points.length, firstAtOrAfter(points, to) + 1);
  return downsampleMinMax(points.slice(start, Math.max(start, end)), target);
}
