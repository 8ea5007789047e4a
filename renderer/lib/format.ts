/**
 * Turning API values into words for people at a warehouse desk (dates and times, in the zone
 * chosen in the header, are in time-zone.ts): durations like "2 h 15 min", temperatures with units and alert levels by name.
 * Every time field of the API is epoch seconds and every duration is seconds (docs/api.md#units-and-formats).
 */
import type { Mode, ReportType, Role, Status } from '../../schema/report';

/**
 * Seconds as the two largest units that matter: "45 s", "12 min", "2 h 15 min", "3 d 4 h".
 * Rounded down, so an excursion of 59 minutes never reads as "1 h".
 */
export function formatDuration(totalSeconds: number): string {
  if (!Number.isFinite(totalSeconds)) return '—';
  const sign = totalSeconds < 0 ? '−' : '';
  let s = Math.floor(Math.abs(totalSeconds));
  const days = Math.floor(s / 86400);
  s -= days * 86400;
  const hours = Math.floor(s / 3600);
  s -= hours * 3600;
  const minutes = Math.floor(s / 60);
  const seconds = s - minutes * 60;
  let text: string;
  if (days > 0) text = hours > 0 ? `${days} d ${hours} h` : `${days} d`;
  else if (hours > 0) text = minutes > 0 ? `${hours} h ${minutes} min` : `${hours} h`;
  else if (minutes > 0) text = seconds > 0 ? `${minutes} min ${seconds} s` : `${minutes} min`;
  else text = `${seconds} s`;
  return sign + text;
}

export function formatNumber(value: number | null | undefined, digits = 1): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '—';
  return value.toFixed(digits);
}

export function formatTemperature(value: number | null | undefined): string {
  const text = formatNumber(value, 1);
  return text === '—' ? text : `${text} °C`;
}

export function formatHumidity(value: number | null | undefined): string {
  const text = formatNumber(value, 1);
  return text === '—' ? text : `${text} %RH`;
}

export interface AlertLevelInfo {
  /** Word shown with the colour, so the level never depends on colour vision alone. */
  label: string;
  /** What the word means, for a tooltip. */
  meaning: string;
  /** CSS modifier: alert--no-taps, alert--none, alert--moderate, alert--critical. */
  className: string;
}

const ALERT_LEVELS: Record<number, AlertLevelInfo> = {
  0: { label: 'None', meaning: 'No alert rule was broken', className: 'alert--none' },
  1: { label: 'Moderate', meaning: 'A moderate alert rule was broken', className: 'alert--moderate' },
  2: { label: 'Critical', meaning: 'A critical alert rule was broken', className: 'alert--critical' },
};

/**
 * Level −1 is "no alert worked out yet". That is "No taps" only when the label was never tapped
 * (taps unknown counts as never, as the API defines the level); a tapped label without a level
 * is "Not rated".
 */
export function alertLevelInfo(level: number, taps?: number): AlertLevelInfo {
  if (level === -1) {
    return taps !== undefined && taps > 0
      ? { label: 'Not rated', meaning: 'The label was tapped, but no alert level has been worked out', className: 'alert--no-taps' }
      : { label: 'No taps', meaning: 'The label has not been tapped yet', className: 'alert--no-taps' };
  }
  return ALERT_LEVELS[level] ?? { label: `Level ${level}`, meaning: `Alert level ${level}`, className: 'alert--unknown' };
}

const MODE_LABELS: Record<Mode, string> = {
  airFreight: 'Air freight',
  roadTransport: 'Road transport',
  seaFreight: 'Sea freight',
  railFreight: 'Rail freight',
  stationary: 'Stationary',
  unknown: 'Unknown',
};
const TYPE_LABELS: Record<ReportType, string> = {
  tempSense: 'Temperature',
  humiditySense: 'Humidity',
  shockSense: 'Shock',
  freezeSense: 'Freeze',
};
const STATUS_LABELS: Record<Status, string> = { active: 'Active', completed: 'Completed' };
const ROLE_LABELS: Record<Role, string> = { owner: 'Owner', editor: 'Editor', viewer: 'Viewer' };

export const modeLabel = (m: Mode): string => MODE_LABELS[m] ?? m;
export const typeLabel = (t: ReportType): string => TYPE_LABELS[t] ?? t;
export const statusLabel = (s: Status): string => STATUS_LABELS[s] ?? s;
export const roleLabel = (r: Role): string => ROLE_LABELS[r] ?? r;

export function formatCount(n: number): string {
  return n.toLocaleString();
}

/** Custom field values for display: arrays joined, strings as typed. */
export function formatCustomValue(value: string | number | (string | number)[]): string {
  return Array.isArray(value) ? value.join(', ') : String(value);
}
