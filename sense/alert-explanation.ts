/**
 * Why a report's alert is what it is: its excursions and time beyond each limit, its rules in
 * words with the ones that fired, and one sentence tying them together. Computed on the
 * effective timeline (the trimmed one when a trim is set), like the alert itself.
 */
import type { AlertExplanation, ExplainedRule } from '../schema/review';
import { DEFAULT_ALERT_RULES, type AlertsConfig, type SenseConfig, type Trim } from '../schema/sense';
import { alertFromViolations } from './alert';
import { ALERT_LEVEL_NAMES, describeRule, formatDuration, formatUtc, ruleFirings } from './alert-rules';
import { excursionsOf } from './excursions';
import { trimTimeline, type Timeline } from './timeline';
import { thresholdsFromLimits, violationFlag } from './violations';

export interface AlertExplanationInput {
  /** The whole timeline; the trim is applied here. */
  timeline: Timeline;
  senseConfig: SenseConfig;
  /** null → DEFAULT_ALERT_RULES */
  alertsConfig: AlertsConfig | null;
  numberOfTaps: number;
  trim: Trim | null;
}

export function explainAlert(input: AlertExplanationInput): AlertExplanation {
  const { senseConfig, trim, numberOfTaps } = input;
  const { interval, limits } = senseConfig;
  const timeline = trim === null ? input.timeline : trimTimeline(input.timeline, trim);
  const rules = input.alertsConfig === null ? DEFAULT_ALERT_RULES : input.alertsConfig.rules;

  const flags = violationFlags(timeline, senseConfig);
  const alert = alertFromViolations(flags, timeline.timestamps, interval, rules, numberOfTaps);
  const tapped = numberOfTaps > 0;
  // Without a tap no rule is judged (level −1), whatever the datapoints say.
  const firings = tapped ? ruleFirings(flags, timeline.timestamps, interval, rules) : rules.map(() => null);
  const explained: ExplainedRule[] = rules.map((rule, k) => ({
    ...rule,
    index: k,
    description: describeRule(rule, interval),
    fired: firings[k] !== null,
    firedAt: firings[k],
  }));
  const summary = excursionsOf(timeline, limits, interval);
  const range = trim === null ? 'full' : 'trimmed';
  const n = timeline.timestamps.length;

  return {
    range,
    trim,
    alert,
    numberOfTaps,
    datapoints: n,
    interval,
    ...summary,
    defaultRules: input.alertsConfig === null,
    rules: explained,
    explanation: sentence({ alert, tapped, n, range, rules: explained, flags, interval }),
  };
}

function violationFlags(timeline: Timeline, config: SenseConfig): Uint8Array {
  const th = thresholdsFromLimits(config.limits);
  const flags = new Uint8Array(timeline.timestamps.length);
  // Stryker disable next-line EqualityOperator: loop bound; the extra step writes past the end of the typed array, which is ignored
  for (let i = 0; i < flags.length; i++) {
    flags[i] = violationFlag(timeline.temperatures[i], timeline.humidities === null ? Number.NaN : timeline.humidities[i], th);
  }
  return flags;
}

interface SentenceFacts {
  alert: { level: number; timestamp: number };
  tapped: boolean;
  n: number;
  range: 'trimmed' | 'full';
  rules: readonly ExplainedRule[];
  flags: Uint8Array;
  interval: number;
}

function sentence(f: SentenceFacts): string {
  const where = f.range === 'trimmed' ? 'in the trimmed range' : 'in the report';
  if (!f.tapped) {
    return f.n === 0
      ? 'No taps: the label has not been tapped yet, so there are no readings to judge.'
      : `No taps: the report counts no tap, so no alert is calculated, although it holds ${plural(f.n, 'reading')}.`;
  }
  if (f.n === 0) {
    return f.range === 'trimmed'
      ? 'None: the trimmed range holds no readings.'
      : 'None: the label was tapped but there are no readings in the report yet.';
  }
  let outside = 0;
  for (let i = 0; i < f.flags.length; i++) if (f.flags[i] !== 0) outside++;
  if (f.alert.level === 0) {
    if (outside === 0) return `None: all ${plural(f.n, 'reading')} ${where} are within the limits.`;
    const out = `readings were out of limits for ${formatDuration(outside * f.interval)} (${plural(outside, 'reading')}) ${where}`;
    return f.rules.length === 0
      ? `None: ${out}, but the report has no alert rules.`
      : `None: ${out}, but no alert rule's condition was met.`;
  }
  const name = ALERT_LEVEL_NAMES[f.alert.level];
  // The rule that set the level: of that level, the first to fire (its time is the alert's timestamp).
  // There always is one: ruleFirings judges the same flags by the same rules as the alert.
  const setter = f.rules
    .filter((r) => r.fired && r.level === f.alert.level)
    .sort((a, b) => a.firedAt! - b.firedAt!)[0];
  // Stryker disable next-line Regex: the only full stop in a rule's description is its last, as durations are whole seconds
  const rule = setter.description.replace(/\.$/, '');
  return `${name} since ${formatUtc(f.alert.timestamp)} by the rule "${rule}": readings were out of limits for ${formatDuration(outside * f.interval)} ${where}.`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
