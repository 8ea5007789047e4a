/** A proposed change in words, as the list of changes awaiting a signature shows it. */
import type { LocalReportPatch } from '../../schema/report';
import { formatHumidity, formatTemperature } from './format';
import { formatTime, type TimeZoneSetting } from './time-zone';

const LIMIT_WORDS = {
  minTemperature: ['min temperature', formatTemperature],
  maxTemperature: ['max temperature', formatTemperature],
  minHumidity: ['min humidity', formatHumidity],
  maxHumidity: ['max humidity', formatHumidity],
} as const;

/** "max temperature 15 °C; trim 12 Jun 10:00 to 12 Jun 18:00", each part the patch sets. */
export function patchWords(patch: LocalReportPatch, zone: TimeZoneSetting): string {
  const parts: string[] = [];
  for (const [key, [words, format]] of Object.entries(LIMIT_WORDS) as [keyof typeof LIMIT_WORDS, (typeof LIMIT_WORDS)[keyof typeof LIMIT_WORDS]][]) {
    const value = patch.limits?.[key];
    if (value !== undefined) parts.push(`${words} ${format(value)}`);
  }
  if (patch.alertsConfig !== undefined) {
    const rules = patch.alertsConfig?.rules;
    parts.push(rules ? `alert rules: ${rules.length} rule${rules.length === 1 ? '' : 's'} of its own` : 'the default alert rules');
  }
  if (patch.trim !== undefined) parts.push(patch.trim ? `trim ${formatTime(patch.trim.startTime, zone)} to ${formatTime(patch.trim.endTime, zone)}` : 'no trim');
  if (patch.status !== undefined) parts.push(`status ${patch.status}`);
  return parts.join('; ') || 'no change';
}
