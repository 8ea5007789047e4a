/** Alert level as colour AND word, so it reads the same to everyone and on a greyscale printout. */
import { alertLevelInfo } from '../lib/format';

export function AlertBadge({ level, large = false }: { level: number; large?: boolean }) {
  const info = alertLevelInfo(level);
  return (
    <span className={`alert ${info.className}${large ? ' alert--large' : ''}`} data-alert-level={level}>
      <span className="alert__dot" aria-hidden="true" />
      {info.label}
    </span>
  );
}
