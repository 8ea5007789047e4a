/**
 * The alert rules in words, and when each one fired (docs/figures.md#alert-level): the same walk
 * as alertFromViolations, keeping every rule's firing instead of the level alone.
 */
import type { AlertRule } from '../schema/sense';

export const ALERT_LEVEL_NAMES: Readonly<Record<number, string>> = { [-1]: 'No taps', 0: 'None', 1: 'Moderate', 2: 'Critical' };

/**
 * For each rule, in the order given, the timestamp of the violating datapoint at which it fires,
 * or null. `flags` are the effective timeline's violation flags (≠ 0: violates `all`).
 */
export function ruleFirings(
  flags: Uint8Array,
  timestamps: Float64Array,
  interval: number,
  rules: readonly AlertRule[],
): (number | null)[] {
  const firedAt: (number | null)[] = rules.map(() => null);
  let open = rules.length;
  let c = 0;
  let r = 0;
  // Stryker disable next-line ConditionalExpression,EqualityOperator: `open > 0` is an early exit; once every rule has fired, later readings skip every rule
  for (let i = 0; i < flags.length && open > 0; i++) {
    if (flags[i] === 0) {
      r = 0;
      continue;
    }
    c++;
    r++;
    // Stryker disable next-line EqualityOperator: loop bound; firedAt[rules.length] is undefined, which is not null, so the extra step is skipped
    for (let k = 0; k < rules.length; k++) {
      if (firedAt[k] !== null) continue;
      const count = rules[k].kind === 'cumulative' ? c : r;
      if (count * interval >= rules[k].seconds) {
        firedAt[k] = timestamps[i];
        // Stryker disable next-line UpdateOperator: counting up only turns the early exit off
        open--;
      }
    }
  }
  return firedAt;
}

/** "45 s", "30 min", "2 h", "1 h 30 min", "2 d 4 h": the two largest units, as people say it. */
export function formatDuration(seconds: number): string {
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  const units: [number, string][] = [
    [86_400, 'd'],
    [3600, 'h'],
    [60, 'min'],
    [1, 's'],
  ];
  const parts: string[] = [];
  let rest = s;
  for (const [size, name] of units) {
    if (parts.length === 2) break;
    const n = Math.floor(rest / size);
    if (n > 0) parts.push(`${n} ${name}`);
    else if (parts.length > 0) break;
    rest -= n * size;
  }
  return parts.join(' ');
}

/** Readings a rule needs at this interval: `seconds` is met by n readings when n × interval ≥ seconds. */
function readingsNeeded(seconds: number, interval: number): number {
  return Math.max(1, Math.ceil(seconds / interval));
}

/**
 * One sentence a reviewer reads, e.g. "Moderate alert once readings have been out of limits for
 * 30 min in total (3 readings at the 10 min interval)."
 */
export function describeRule(rule: AlertRule, interval: number): string {
  const level = `${ALERT_LEVEL_NAMES[rule.level]} alert`;
  const n = readingsNeeded(rule.seconds, interval);
  // A rule of 0 s, or of at most one interval, is met by the first reading out of limits, whatever its kind.
  if (n === 1) return `${level} at the first reading out of limits.`;
  const readings = `${n} readings at the ${formatDuration(interval)} interval`;
  return rule.kind === 'cumulative'
    ? `${level} once readings have been out of limits for ${formatDuration(rule.seconds)} in total (${readings}).`
    : `${level} once readings stay out of limits for ${formatDuration(rule.seconds)} without a break (${readings} in a row).`;
}

/** `2026-10-01 12:00 UTC`, or with seconds when they are not 0. */
export function formatUtc(epochSeconds: number): string {
  const iso = new Date(epochSeconds * 1000).toISOString();
  const seconds = iso.slice(17, 19);
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)}${seconds === '00' ? '' : ':' + seconds} UTC`;
}
