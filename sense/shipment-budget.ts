/**
 * A shipment's combined time beyond a threshold: the time during which at least one of its
 * labels read beyond it. The product sits in the shipment the whole way; two loggers in one warm
 * truck are one warm truck, so overlapping minutes count once, and labels of legs one after
 * another add up. A reading counts its interval from its timestamp, as `durationOfViolations`
 * does (docs/shipments.md#the-budget).
 */
import type { Timeline } from './timeline';

export type BudgetQuantity = 'temperature' | 'humidity';
export type BudgetDirection = 'above' | 'below';

export interface BudgetThreshold {
  quantity: BudgetQuantity;
  direction: BudgetDirection;
  threshold: number;
}

export interface BudgetLabel {
  timeline: Timeline;
  /** Seconds each reading stands for. */
  interval: number;
  /** Only readings within [from, to] count (a trim); whole timeline when absent. */
  from?: number;
  to?: number;
}

/** Each label's time beyond the threshold as [start, end) runs in seconds, in time order. */
export function runsBeyond(label: BudgetLabel, side: BudgetThreshold): Float64Array {
  const { timeline, interval } = label;
  const values = side.quantity === 'temperature' ? timeline.temperatures : timeline.humidities;
  if (values === null || !(interval > 0)) return new Float64Array(0);
  const from = label.from ?? -Infinity;
  const to = label.to ?? Infinity;
  const out: number[] = [];
  const ts = timeline.timestamps;
  for (let i = 0; i < ts.length; i++) {
    const t = ts[i];
    if (t < from || t > to) continue;
    const v = values[i];
    // NaN (an absent humidity) is beyond nothing.
    const beyond = side.direction === 'above' ? v > side.threshold : v < side.threshold;
    if (!beyond) continue;
    const end = t + interval;
    const n = out.length;
    if (n > 0 && t <= out[n - 1]) out[n - 1] = Math.max(out[n - 1], end);
    else out.push(t, end);
  }
  return Float64Array.from(out);
}

/** Seconds during which at least one label read beyond the threshold. */
export function combinedSecondsBeyond(labels: readonly BudgetLabel[], side: BudgetThreshold): number {
  const runs = labels.map((label) => runsBeyond(label, side));
  const starts: number[] = [];
  const ends: number[] = [];
  for (const r of runs) {
    for (let i = 0; i < r.length; i += 2) {
      starts.push(r[i]);
      ends.push(r[i + 1]);
    }
  }
  const order = starts.map((_, i) => i).sort((a, b) => starts[a] - starts[b]);
  let total = 0;
  let open = -Infinity;
  let close = -Infinity;
  for (const i of order) {
    if (starts[i] > close) {
      if (close > open) total += close - open;
      open = starts[i];
      close = ends[i];
    } else if (ends[i] > close) close = ends[i];
  }
  if (close > open) total += close - open;
  return total;
}
