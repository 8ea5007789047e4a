/**
 * Why the alert is what it is: one sentence, the time spent above and below the limits, and
 * the report's alert rules in words, the one that fired marked with when.
 */
import type { AlertExplanation } from '../../schema/review';
import { alertLevelInfo, formatDuration } from '../lib/format';
import { formatTime } from '../lib/time-zone';
import type { TimeZoneSetting } from '../lib/time-zone';

export function TimeOutside({ alerts }: { alerts: AlertExplanation }) {
  const { timeAbove, timeBelow } = alerts;
  return (
    <div className="time-split" data-testid="time-outside">
      <span>
        <strong>Above the maximum:</strong> {formatDuration(timeAbove.temperature)}
        {timeAbove.humidity !== null && <> (humidity {formatDuration(timeAbove.humidity)})</>}
      </span>
      <span>
        <strong>Below the minimum:</strong> {formatDuration(timeBelow.temperature)}
        {timeBelow.humidity !== null && <> (humidity {formatDuration(timeBelow.humidity)})</>}
      </span>
    </div>
  );
}

export function AlertRules({ alerts, zone }: { alerts: AlertExplanation; zone: TimeZoneSetting }) {
  return (
    <>
      <ul className="rules" data-testid="alert-rules">
        {alerts.rules.map((rule, i) => (
          <li key={i} className={rule.fired ? 'rule--fired' : undefined} data-fired={rule.fired}>
            {rule.description}
            {' — '}
            {rule.fired && rule.firedAt !== null
              ? `fired ${formatTime(rule.firedAt, zone)}: ${alertLevelInfo(rule.level).label}`
              : rule.fired
                ? 'fired'
                : 'did not fire'}
          </li>
        ))}
      </ul>
      {alerts.defaultRules && <p className="muted small">The report has no alert rules of its own, so the default rules apply.</p>}
    </>
  );
}
