/** Alert level from the alert rules (docs/figures.md#alert-level). */
import type { Alert, AlertRule } from '../schema/sense';

/**
 * Walks the violation flags once. A rule's condition (C × interval ≥ seconds, or R × interval ≥
 * seconds) is monotone in `seconds`, so with the rules of each kind sorted by `seconds` the
 * rules that fire at a datapoint are always the next ones in line: one comparison per violating
 * datapoint, whatever the number of rules, and the walk stops once every rule has fired.
 *
 * `flags` and `timestamps` are the effective timeline's (flag ≠ 0 means it violates `all`).
 */
export function alertFromViolations(
  flags: Uint8Array,
  timestamps: Float64Array,
  interval: number,
  rules: readonly AlertRule[],
  numberOfTaps: number,
): Alert {
  // Not just `=== 0`: a negative or NaN count cannot mean a tap happened either.
  if (!(numberOfTaps > 0)) return { level: -1, timestamp: 0 };

  const bySeconds = (a: AlertRule, b: AlertRule) => a.seconds - b.seconds;
  const cumulative: AlertRule[] = [];
  const singleEvent: AlertRule[] = [];
  for (const rule of rules) (rule.kind === 'cumulative' ? cumulative : singleEvent).push(rule);
  cumulative.sort(bySeconds);
  singleEvent.sort(bySeconds);

  let level = 0;
  let timestamp = 0;
  // The walk goes forward in time, so the first firing of a level is its earliest:
  // a later rule of the same level never moves the timestamp.
  const fire = (rule: AlertRule, at: number) => {
    if (rule.level > level) {
      level = rule.level;
      timestamp = at;
    }
  };

  let c = 0; // violating datapoints so far
  let r = 0; // length of the current run of violating datapoints
  let nextCumulative = 0;
  let nextSingle = 0;
  for (let i = 0; i < flags.length; i++) {
    if (flags[i] === 0) {
      r = 0;
      continue;
    }
    c++;
    r++;
    while (nextCumulative < cumulative.length && c * interval >= cumulative[nextCumulative].seconds) {
      fire(cumulative[nextCumulative++], timestamps[i]);
    }
    while (nextSingle < singleEvent.length && r * interval >= singleEvent[nextSingle].seconds) {
      fire(singleEvent[nextSingle++], timestamps[i]);
    }
    // Stryker disable next-line ConditionalExpression: an early exit; once every rule has fired, the rest of the walk fires none
    if (nextCumulative === cumulative.length && nextSingle === singleEvent.length) break;
  }
  return { level, timestamp };
}
