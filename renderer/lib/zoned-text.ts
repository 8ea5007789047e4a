/**
 * The service writes the alert's time into its explanation in UTC ("Critical since 2026-10-12
 * 21:03:29 UTC by the rule …"), as a sentence any client can show. The screen shows every time in
 * the one zone chosen in its header, so that time is put in the chosen zone here, in the format
 * every other time on the screen has.
 */
import { formatUtc } from '../../sense/alert-rules';
import { formatTime, type TimeZoneSetting } from './time-zone';

export function explanationInZone(explanation: string, alertTimestamp: number, zone: TimeZoneSetting): string {
  if (alertTimestamp <= 0) return explanation;
  const utc = formatUtc(alertTimestamp);
  return explanation.includes(utc) ? explanation.replace(utc, formatTime(alertTimestamp, zone, true)) : explanation;
}
