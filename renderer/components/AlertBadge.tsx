/**
 * Alert level as colour AND word, so it reads the same to everyone and on a greyscale printout.
 * Level −1 means the alert has not been worked out; "No taps" is said only when the label has
 * indeed never been tapped, and "Not rated" otherwise, so the badge never contradicts the readings.
 */
import { alertLevelInfo } from '../lib/format';

export function AlertBadge({ level, taps, large = false }: { level: number; taps?: number; large?: boolean }) {
  const info = alertLevelInfo(level, taps);
  return (
    <span className={`alert ${info.className}${large ? ' alert--large' : ''}`} data-alert-level={level} title={info.meaning}>
      <span className="alert__dot" aria-hidden="true" />
      {info.label}
    </span>
  );
}
