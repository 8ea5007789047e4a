/**
 * Where the chart's text labels go so that none covers another: limit labels ride on their
 * horizontal line, trim labels hang from their vertical one, and when two would meet the later
 * one slides along its line (up or down, nearest free place first) instead of being drawn over.
 */

export interface LabelRequest {
  id: string;
  /** Preferred top-left corner and size, in pixels. */
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface Bounds {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

export interface PlacedLabel {
  id: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

const GAP = 2;

export function overlaps(a: PlacedLabel, b: PlacedLabel, gap = 0): boolean {
  return a.x < b.x + b.width + gap && b.x < a.x + a.width + gap && a.y < b.y + b.height + gap && b.y < a.y + a.height + gap;
}

function clamp(value: number, low: number, high: number): number {
  return high < low ? low : Math.min(Math.max(value, low), high);
}

/**
 * Places labels in the order given (earlier ones keep their preferred place first). Each is kept
 * inside `bounds`, then moved vertically by the smallest amount that frees it from those already
 * placed. Only when the bounds hold no free place at all does a label stay where it overlaps least.
 */
export function placeLabels(requests: readonly LabelRequest[], bounds: Bounds): PlacedLabel[] {
  const placed: PlacedLabel[] = [];
  for (const r of requests) {
    const x = clamp(r.x, bounds.left, bounds.right - r.width);
    const preferredY = clamp(r.y, bounds.top, bounds.bottom - r.height);
    const candidates = [preferredY, bounds.top, bounds.bottom - r.height];
    // Every place where this label's top or bottom touches an existing label's edge, nearest first.
    for (const p of placed) candidates.push(p.y - r.height - GAP, p.y + p.height + GAP);
    const inBounds = candidates
      .filter((y) => y >= bounds.top - 1e-9 && y + r.height <= bounds.bottom + 1e-9)
      .sort((a, b) => Math.abs(a - preferredY) - Math.abs(b - preferredY));
    const box = (y: number): PlacedLabel => ({ id: r.id, x, y, width: r.width, height: r.height });
    const free = inBounds.find((y) => placed.every((p) => !overlaps(box(y), p)));
    if (free !== undefined) {
      placed.push(box(free));
      continue;
    }
    const covered = (y: number) => placed.reduce((sum, p) => sum + overlapArea(box(y), p), 0);
    const least = [preferredY, ...inBounds].reduce((best, y) => (covered(y) < covered(best) ? y : best), preferredY);
    placed.push(box(least));
  }
  return placed;
}

function overlapArea(a: PlacedLabel, b: PlacedLabel): number {
  const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return w > 0 && h > 0 ? w * h : 0;
}
